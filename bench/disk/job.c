/* One job of the plan from its options (fio's fixup_options): defaults, cross-checks
 * and the values the I/O loop reads. */
#include "plan.h"
#include "ioengine.h"
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

int add_job(struct plan *p, const struct disk_cfg *c, const char *name, const struct pjob *pj,
		   char *err, size_t n)
{
	uint64_t bs_rw[DDIR_N];
	const struct blkdev *dev;
	struct job *j;
	struct disk_cfg cz;
	char zsize[32], zoff[32];
	if (p->njobs >= MAX_JOBS) {
		snprintf(err, n, "job '%s': more than %d jobs in one run", name, MAX_JOBS);
		return -1;
	}
	j = &p->jobs[p->njobs];
	memset(j, 0, sizeof *j);
	snprintf(j->name, sizeof j->name, "%s", name);
	if (plan_target(p, c, j, err, n))
		return -1;
	dev = &TG(p, j)->dev;
	switch (zones_in_bytes(c, dev, &cz, zsize, zoff, err, n)) {
	case -1: return -1;
	case 1: c = &cz; break;
	}
	/* the profile's shape, unless the user said otherwise */
	if (pj)
		j->rw = pj->rw;
	else if (parse_rw(c, j, err, n))
		return -1;
	if (c->o.description)
		snprintf(j->desc, sizeof j->desc, "%s", c->o.description);
	for (int d = 0; d < DDIR_N; d++)   /* trims: the writes' size */
		bs_rw[d] = pj && !GIVEN(c, "bs") && !GIVEN(c, "blocksize") ? pj->bs : c->o.bs[d];
	j->bs = bs_rw[0] < bs_rw[1] ? bs_rw[0] : bs_rw[1];
	if (bs_rw[DDIR_TRIM] < j->bs)
		j->bs = bs_rw[DDIR_TRIM];
	j->iodepth = (int)(pj && !GIVEN(c, "iodepth") ? pj->iodepth : c->o.iodepth);
	j->iodepth_low = c->o.iodepth_low && c->o.iodepth_low < j->iodepth ? (int)c->o.iodepth_low : j->iodepth;
	j->numjobs = (int)(pj && !GIVEN(c, "numjobs") ? pj->numjobs : c->o.numjobs);
	j->rwmixread = (int)(pj && pj->rwmixread && !GIVEN(c, "rwmixread") && !GIVEN(c, "rwmixwrite")
			     ? pj->rwmixread : c->o.rwmixread);
	if (GIVEN(c, "nrfiles") && c->o.nrfiles != j->nfiles) {
		snprintf(err, n, "--nrfiles=%lld: the job's files are those --filename names (%d here; fio's a:b names "
			 "several)", c->o.nrfiles, j->nfiles);
		return -1;
	}
	if (parse_fst(c->o.fst, j, err, n))
		return -1;
	if (c->o.readonly_flag && c->o.mode != MODE_READONLY) {
		snprintf(err, n, "--readonly and --mode=%s contradict each other", c->o.mode == MODE_DESTROY ? "destroy" :
			 "rewrite");
		return -1;
	}
	if (c->o.allow_mounted_write) {
		snprintf(err, n, "--allow_mounted_write=1: assay never writes to a mounted device");
		return -1;
	}
	if (GIVEN(c, "buffered") && GIVEN(c, "direct") && c->o.buffered == c->o.direct) {
		snprintf(err, n, "--buffered=%d and --direct=%d contradict each other", c->o.buffered, c->o.direct);
		return -1;
	}
	j->direct = GIVEN(c, "buffered") ? !c->o.buffered : pj && !GIVEN(c, "direct") ? pj->direct : c->o.direct;
	j->end_fsync = pj && !GIVEN(c, "end_fsync") ? pj->end_fsync : c->o.end_fsync;
	j->sync_flags = c->o.sync == 2 ? O_DSYNC : c->o.sync == 1 || c->o.sync == 4 ? O_SYNC : 0;
	j->fsync_on_close = c->o.fsync_on_close;
	j->time_based = pj && !GIVEN(c, "time_based") ? pj->time_based : c->o.time_based;
	j->runtime = c->o.runtime;
	if (pj && pj->time_based && !GIVEN(c, "runtime"))
		j->runtime = PROFILE_RUNTIME;
	j->ramp_time = c->o.ramp_time;
	j->ioengine = c->o.ioengine;
	j->fdatasync = (int)c->o.fdatasync;
	if (c->o.fsync_n && c->o.fdatasync) {
		snprintf(err, n, "--fsync and --fdatasync: give one or the other");
		return -1;
	}
	if (c->o.fsync_n) {
		j->fdatasync = (int)c->o.fsync_n;
		j->fsync_full = 1;
	}
	j->end_full = j->end_fsync && (!pj || GIVEN(c, "end_fsync"));
	j->randseed = (uint64_t)c->o.randseed;
	if (!c->o.randrepeat && !GIVEN(c, "randseed"))
		j->randseed = p->clock_seed;
	j->pre_read = c->o.pre_read;
	j->exec_prerun = c->o.exec_prerun;
	j->write_hint = c->o.write_hint;
	j->exec_postrun = c->o.exec_postrun;
	j->invalidate = c->o.invalidate && !c->o.pre_read;   /* fio's: pre-read, then kept */
	j->fadvise = c->o.fadvise_hint;
	j->norandommap = c->o.norandommap;
	j->bs_is_seq_rand = c->o.bs_is_seq_rand;
	j->compress_pct = (int)c->o.compress_pct;
	j->compress_chunk = (size_t)c->o.compress_chunk;
	j->dedupe_pct = (int)c->o.dedupe_pct;
	j->fixedbufs = c->o.fixedbufs;
	j->sqpoll = c->o.sqpoll;
	j->sqpoll_cpu = (int)c->o.sqpoll_cpu;
	j->hipri = c->o.hipri;
	j->hipri_pct = (int)c->o.hipri_pct;
	j->nowait = c->o.nowait;
	if (c->o.sync_file_range && parse_sfr(c->o.sync_file_range, j, err, n))
		return -1;
	if (j->nowait && !JOB_ENGINE_HAS(j, IOE_NOWAIT)) {
		snprintf(err, n, "--nowait: an io_uring, libaio and pvsync2 option (--ioengine=%s)",
			 JOB_ENGINE(j)->name);
		return -1;
	}
	j->offload = c->o.submit_mode == 1;
	if (j->offload && !JOB_ENGINE_HAS(j, IOE_OFFLOAD)) {
		snprintf(err, n, "--io_submit_mode=offload: for psync, pvsync and pvsync2 (--ioengine=%s)",
			 JOB_ENGINE(j)->name);
		return -1;
	}
	j->userspace_reap = c->o.userspace_reap;
	if (j->userspace_reap && strcmp(JOB_ENGINE(j)->name, "libaio")) {
		snprintf(err, n, "--userspace_reap: a libaio option (--ioengine=%s)", JOB_ENGINE(j)->name);
		return -1;
	}
	if ((j->sqpoll || j->hipri) && strcmp(JOB_ENGINE(j)->name, "io_uring") && !(j->hipri && !j->sqpoll && JOB_ENGINE_HAS(j, IOE_HIPRI))) {
		snprintf(err, n, "--%s (--ioengine=%s)", j->sqpoll ? "sqthread_poll: an io_uring option" :
			 "hipri: an io_uring and pvsync2 option", JOB_ENGINE(j)->name);
		return -1;
	}
	if (j->hipri && !j->direct) {
		snprintf(err, n, "--hipri: polled I/O needs --direct=1");
		return -1;
	}
	if (j->sqpoll_cpu >= 0) {
		long ncpu = sysconf(_SC_NPROCESSORS_CONF);
		if (j->sqpoll_cpu >= ncpu) {
			snprintf(err, n, "--sqthread_poll_cpu=%d: this machine has %ld CPUs", j->sqpoll_cpu, ncpu);
			return -1;
		}
	}
	j->registerfiles = c->o.registerfiles;
	j->warmup_ios = pj ? pj->warmup_ios : 0;
	j->sample_ms = (double)c->o.sample_ms;
	j->io_timeout = c->o.io_timeout;
	j->spin_us = c->o.spin_us;
	/* fio's rules: a submit batch of 0 or beyond iodepth is the iodepth; a completion
	 * maximum below the minimum (0 included) is the minimum -- one at a time unless told;
	 * never waiting (a minimum of 0) and no maximum: all there are */
	j->batch_submit = c->o.batch_submit && c->o.batch_submit <= j->iodepth ? (int)c->o.batch_submit
									  : j->iodepth;
	j->batch_cmin = (int)(c->o.batch_cmin < j->iodepth ? c->o.batch_cmin : j->iodepth);
	j->batch_cmax = (int)(c->o.batch_cmax < j->batch_cmin ? j->batch_cmin : c->o.batch_cmax);
	/* assay's defaults for the kernel's queues (fio's are one I/O a call each way): every
	 * I/O ready in one submit, every completion there in one reap, as t/io_uring -- a
	 * system call is the dearest part of an I/O in a VM.  Given either way, fio's rules. */
	{
		int queues = JOB_ENGINE_HAS(j, IOE_KERNELQ) && !j->offload;
		j->batch_default = queues && !GIVEN(c, "iodepth_batch_submit") && !GIVEN(c, "iodepth_batch");
		if (j->batch_default)
			j->batch_submit = j->iodepth;
		if (queues && !GIVEN(c, "iodepth_batch_complete_max"))
			j->batch_cmax = 0;
	}
	j->mode = dev->is_null ? MODE_DESTROY : c->o.mode;   /* /dev/null, /dev/zero: plain writes, nothing to keep */
	if (dev->is_null && JOB_ENGINE_HAS(j, IOE_MAPS)) {
		snprintf(err, n, "--ioengine=mmap: %s is a character device, nothing to map", dev->path);
		return -1;
	}
	j->force_uring_errno = c->o.force_uring_errno;
	j->slat_pcts = c->o.slat_pcts;
	j->clat_pcts = c->o.clat_pcts;
	j->lat_pcts = c->o.lat_pcts;
	j->npcts = c->o.npcts;
	j->bins = p->c->common.format == 3;   /* the run's (a job's words may repeat it) */
	memcpy(j->pcts, c->o.pcts, sizeof j->pcts);
	if (parse_offset(c->o.offset_s, TG(p, j)->pct_of, c->o.offset_align ? c->o.offset_align : j->bs, &j->offset,
			 err, n))
		return -1;
	j->bs_max = j->bs;
	if ((bs_rw[0] != bs_rw[1] || bs_rw[1] != bs_rw[2]) && pair_bs(c, j, bs_rw, err, n))
		return -1;
	if ((c->o.bssplit || c->o.bsrange) && parse_var_bs(c, j, err, n))
		return -1;
	for (int d = 0; j->direct && j->var_bs && d < DDIR_N; d++)
		for (int i = 0; i < (j->nsplit[d] ? j->nsplit[d] : 2); i++) {
			uint64_t b = j->nsplit[d] ? j->split_bs[d][i] : i ? j->range_hi[d] : j->range_lo[d];
			if (b % dev->lbs) {
				snprintf(err, n, "--%s=%s: %llu is not a multiple of %s's logical block size (%u), "
					 "which O_DIRECT needs",
					 j->bs_pair ? "bs" : c->o.bssplit ? "bssplit" : "bsrange", j->bs_desc,
					 (unsigned long long)b, dev->path, dev->lbs);
				return -1;
			}
		}
	if (j->direct && j->bs % dev->lbs) {
		snprintf(err, n, "--bs=%llu: not a multiple of %s's logical block size (%u), which "
			 "O_DIRECT needs", (unsigned long long)j->bs, dev->path, dev->lbs);
		return -1;
	}
	if (j->direct && j->offset % dev->lbs) {
		snprintf(err, n, "--offset=%s: not a multiple of %s's logical block size (%u)",
			 c->o.offset_s, dev->path, dev->lbs);
		return -1;
	}
	if (c->o.fill_device && dev->is_file) {
		snprintf(err, n, "--fill_device: %s is a file (fio would grow it until its file system is full): "
			 "give --size, or name the device", dev->path);
		return -1;
	}
	if (j->nftg > 1 ? files_extent(p, c, j, pj ? pj->size_cap : 0, err, n)
			: region(c, dev, j->offset, pj ? pj->size_cap : 0, j->bs, &j->size, err, n))
		return -1;
	j->fsize[0] = j->nftg > 1 ? j->fsize[0] : j->size;
	if (c->o.rate && c->o.rate_iops) {
		snprintf(err, n, "--rate and --rate_iops: give one or the other (as fio)");
		return -1;
	}
	if (c->o.rate ? parse_rate("rate", c->o.rate, 0, j->rate_bps, err, n)
		    : c->o.rate_iops && parse_rate("rate_iops", c->o.rate_iops, 1, j->rate_gap_ns, err, n))
		return -1;
	j->rate_poisson = c->o.rate_process == 1;
	if ((c->o.rate_min && parse_rate("rate_min", c->o.rate_min, 0, j->min_bps, err, n)) ||
	    (c->o.rate_iops_min && parse_rate("rate_iops_min", c->o.rate_iops_min, 1, j->min_gap_ns, err, n)))
		return -1;
	j->rate_cycle_ns = (uint64_t)c->o.rate_cycle * 1000000u;
	for (int d = 0; d < DDIR_N; d++)
		j->min_rate |= j->min_bps[d] || j->min_gap_ns[d];
	j->dist_center = -1;
	if ((c->o.random_distribution && parse_dist(c, j, err, n)) || parse_ss(c, j, err, n))
		return -1;
	if (c->o.percentage_sequential && c->o.percentage_random) {
		snprintf(err, n, "--percentage_sequential and --percentage_random: give one or the other");
		return -1;
	}
	if (c->o.percentage_sequential) {
		/* fio's inverse of percentage_random */
		if (parse_pct_random(c->o.percentage_sequential, j->pct_seq)) {
			snprintf(err, n, "--percentage_sequential=%s: a percent from 0 to 100, or reads,writes[,trims]",
				 c->o.percentage_sequential);
			return -1;
		}
		for (int d = 0; d < DDIR_N; d++)
			j->pct_seq[d] = 100 - j->pct_seq[d];
	} else if (parse_pct_random(c->o.percentage_random, j->pct_seq)) {
		snprintf(err, n, "--percentage_random=%s: a percent from 0 to 100, or reads,writes[,trims] (70,100)",
			 c->o.percentage_random);
		return -1;
	}
	j->loops = (int)c->o.loops;
	if (io_extent(p, c, j, err, n))
		return -1;
	j->startdelay = c->o.startdelay;
	j->exitall = c->o.exitall;
	if (c->o.wait_for) {
		int found = 0;
		for (int i = 0; i < p->njobs; i++)
			found |= !strcmp(p->jobs[i].name, c->o.wait_for);
		if (!found || strlen(c->o.wait_for) >= sizeof j->wait_for) {
			snprintf(err, n, "--wait_for=%s: no job of that name before '%s' (fio's waitee must be defined "
				 "first)", c->o.wait_for, j->name);
			return -1;
		}
		snprintf(j->wait_for, sizeof j->wait_for, "%s", c->o.wait_for);
	}
	j->exit_all = c->o.exitall && c->o.exit_what == 2;
	j->exitall_on_error = c->o.exitall_on_error;
	if (parse_errors(c, j, err, n))
		return -1;
	if (pj && !GIVEN(c, "continue_on_error") && !GIVEN(c, "ignore_error"))
		j->coe |= pj->coe;
	if (job_data(p, c, pj, j, err, n))
		return -1;
	if (dev->is_null && (j->verify || j->verify_only)) {
		snprintf(err, n, "--verify: %s keeps nothing to read back", dev->path);
		return -1;
	}
	memcpy(j->log.prefix, c->o.write_log, sizeof j->log.prefix);
	if (!iolog_wanted(&j->log))
		for (const char *const *o = (const char *const[]){ "log_avg_msec", "log_max_value", "log_offset",
								    "per_job_logs", "log_unix_epoch", NULL }; *o; o++)
			if (GIVEN(c, *o)) {
				snprintf(err, n, "--%s: no log asked for (--write_bw_log, --write_iops_log or "
					 "--write_lat_log)", *o);
				return -1;
			}
	if (!!c->o.write_log[IOLOG_HIST] != !!c->o.log_hist_msec ||
	    (GIVEN(c, "log_hist_coarseness") && !c->o.write_log[IOLOG_HIST])) {
		snprintf(err, n, c->o.write_log[IOLOG_HIST] ? "--write_hist_log: give its window, --log_hist_msec" :
			 "--log_hist_%s: no histogram log asked for (--write_hist_log)",
			 GIVEN(c, "log_hist_msec") ? "msec" : "coarseness");
		return -1;
	}
	j->log.hist_ms = (unsigned)c->o.log_hist_msec;
	j->log.hist_coarse = (unsigned)c->o.log_hist_coarseness;
	j->log.bs = j->bs;
	if (c->o.log_max_value && !c->o.log_avg_msec) {
		snprintf(err, n, "--log_max_value: the maximum of each window, which needs --log_avg_msec");
		return -1;
	}
	j->log.avg_ms = (unsigned)c->o.log_avg_msec;
	j->log.max_value = c->o.log_max_value;
	j->log.offset = c->o.log_offset;
	j->log.unix_epoch = c->o.log_unix_epoch;
	j->log.per_job = c->o.per_job_logs;
	j->thread0 = p->njobs ? p->jobs[p->njobs - 1].thread0 + p->jobs[p->njobs - 1].numjobs : 1;
	j->zero_buffers = c->o.zero_buffers;
	if (c->o.cpumask && c->o.cpus_allowed) {
		snprintf(err, n, "--cpumask and --cpus_allowed: give one or the other");
		return -1;
	}
	if (c->o.cpumask && cpumask_list(c->o.cpumask, j, err, n))
		return -1;
	j->mpol_mode = -1;
	if ((c->o.numa_cpu_nodes && parse_numa_cpus(c->o.numa_cpu_nodes, j, err, n)) ||
	    (c->o.numa_mem_policy && parse_mpol(c->o.numa_mem_policy, j, err, n)))
		return -1;
	if (!c->o.numa_cpu_nodes && c->o.cpus_allowed && parse_cpus(c->o.cpus_allowed, j, err, n))
		return -1;
	j->cpus_split = c->o.cpus_policy == 1;
	if ((c->o.thinktime && parse_think("thinktime", c->o.thinktime, &j->think_ns, err, n)) ||
	    (c->o.thinktime_spin && parse_think("thinktime_spin", c->o.thinktime_spin, &j->think_spin_ns, err, n)))
		return -1;
	if (j->think_spin_ns > j->think_ns)
		j->think_spin_ns = j->think_ns;    /* fio's: the spin is part of the pause */
	j->think_blocks = (int)c->o.thinktime_blocks;
	j->think_issue = c->o.think_issue;
	j->rate_ign_think = c->o.rate_ign_think;
	j->flow = (int)c->o.flow;
	j->flow_id = c->o.flow_id;
	j->flow_sleep_us = (uint64_t)c->o.flow_sleep;
	if (c->o.thinktime_iotime) {   /* fio's: seconds when bare */
		double s;
		long long sec;
		if (!c->o.thinktime) {
			snprintf(err, n, "--thinktime_iotime=%s: give --thinktime too (the pause)", c->o.thinktime_iotime);
			return -1;
		}
		if (!parse_int(c->o.thinktime_iotime, &sec) && sec >= 0 && sec <= 3600)
			s = (double)sec;
		else if (parse_time(c->o.thinktime_iotime, &s) || s < 0 || s > 3600) {
			snprintf(err, n, "--thinktime_iotime=%s: not a time (seconds, or with a unit: 500ms, 9s; at most "
				 "1h)", c->o.thinktime_iotime);
			return -1;
		}
		j->think_iotime_ns = (uint64_t)llround(s * 1e9);
		/* fio's: without --thinktime_blocks, time alone says when */
		if (j->think_iotime_ns && !GIVEN(c, "thinktime_blocks"))
			j->think_blocks = INT32_MAX;
	}
	for (int d = 0; c->o.max_latency && d < DDIR_N; d++) {   /* fio's max_latency, per direction */
		const char *from;
		size_t l;
		char part[64];
		if (opt_dir_part(c->o.max_latency, d, &from, &l) || l >= sizeof part) {
			snprintf(err, n, "--max_latency=%s: one time, or reads,writes[,trims]", c->o.max_latency);
			return -1;
		}
		memcpy(part, from, l);
		part[l] = 0;
		if (*part && parse_think("max_latency", part, &j->max_lat_ns[d], err, n))
			return -1;
	}
	j->nice = (int)c->o.nice;
	/* fio's prioclass and prio: a level alone is best effort's; a class alone, level 4
	 * (the kernel's default); realtime needs CAP_SYS_ADMIN, as fio's */
	j->ioprio = c->o.prioclass || c->o.prio >= 0
			    ? (int)((c->o.prioclass ? c->o.prioclass : 2) << 13 | (c->o.prio >= 0 ? c->o.prio : 4))
			    : -1;
	j->log.prio = j->ioprio < 0 ? 0 : (unsigned)j->ioprio;
	j->log.log_prio = c->o.log_prio;
	if (parse_cmdprio(c, j, err, n))
		return -1;
	memcpy(j->log.cmdprio, j->cmdprio_val, sizeof j->log.cmdprio);   /* the logs' last column, I/O by I/O */
	if (c->o.latency_target && parse_think("latency_target", c->o.latency_target, &j->lat_target_ns, err, n))
		return -1;
	if (c->o.latency_window && parse_think("latency_window", c->o.latency_window, &j->lat_window_ns, err, n))
		return -1;
	if (!j->lat_target_ns)
		for (const char *const *o = (const char *const[]){ "latency_window", "latency_percentile", "latency_run",
								    NULL }; *o; o++)
			if (GIVEN(c, *o)) {
				snprintf(err, n, "--%s: no --latency_target given", *o);
				return -1;
			}
	j->lat_pct = c->o.latency_percentile;
	j->lat_run = c->o.latency_run;
	j->unified = c->o.unified == 3 ? 0 : c->o.unified == 4 ? 1 : c->o.unified;   /* 0/1: none/mixed */
	if (j->time_based && j->runtime <= 0) {
		snprintf(err, n, "--time_based needs a --runtime");
		return -1;
	}
	if (c->o.ba && c->o.ba != j->bs) {
		/* fio's blockalign: random offsets on this boundary; the random map is off */
		if (c->o.ba % 512 || (j->direct && c->o.ba % dev->lbs)) {
			snprintf(err, n, "--blockalign=%llu: not a multiple of the logical block size (%u)", c->o.ba,
				 j->direct ? dev->lbs : 512);
			return -1;
		}
		if (j->verify || j->pct_seq[0] || j->pct_seq[1] || j->pct_seq[2] || j->rand_run > 1 ||
		    j->dist != DIST_RANDOM || j->rw == RW_RANDTRIMWRITE) {
			snprintf(err, n, "--blockalign with %s: offsets off the --bs grid", j->verify ? "--verify" :
				 j->rw == RW_RANDTRIMWRITE ? "randtrimwrite" :
				 j->rand_run > 1 ? "an offset modifier" : j->dist != DIST_RANDOM ? "--random_distribution" :
				 "--percentage_random");
			return -1;
		}
		j->ba = c->o.ba;
		j->norandommap = 1;
	}
	if (JOB_ENGINE_HAS(j, IOE_NODATA) && (j->verify || c->o.read_iolog)) {
		snprintf(err, n, "--ioengine=null moves no data: %s", j->verify ? "nothing to --verify" :
			 "a --read_iolog replay is of real I/O");
		return -1;
	}
	if (j->seq_hole && (j->var_bs || j->seq_hole % j->bs)) {
		snprintf(err, n, "--rw=%s: the hole is to be a multiple of --bs (%llu), with one block size", c->o.rw,
			 (unsigned long long)j->bs);
		return -1;
	}
	if (parse_zones(c, dev, j, err, n) || job_replay(p, c, pj, j, err, n))
		return -1;
	if (c->o.dedupe_mode && j->dedupe_pct && rw_writes(j->rw) && dedupe_working_set(c, j, p->njobs, err, n))
		return -1;
	if (c->o.trim_pct) {
		const char *why = !j->verify || j->verify == VM_NULL ? "needs --verify (what is read back)" :
				  !rw_writes(j->rw) ? "needs a job that writes" : j->verify_only ? "with --verify_only" :
				  j->verify_backlog ? "with --verify_backlog" : j->zbd ? "with --zonemode=zbd" :
				  dev->is_null ? dev->path :
				  j->numjobs > 1 && !j->per_thread && j->offset_inc < job_fsize(j, 1) ?
				  "with threads sharing one region (a block one discards, another checks): give "
				  "--offset_increment" : NULL;
		if (why) {
			snprintf(err, n, "--trim_percentage=%lld: %s", c->o.trim_pct, why);
			return -1;
		}
		j->trim_pct = (int)c->o.trim_pct;
		j->trim_zero = c->o.trim_zero;
	}
	/* fio's: only where two I/Os in flight may overlap and one changes data */
	j->serialize_overlap = c->o.serialize_overlap && j->iodepth > 1 && (rw_modifies(j->rw) || j->replay);
	if (j->serialize_overlap && j->zbd) {
		snprintf(err, n, "--serialize_overlap with --zonemode=zbd: not here (its writes, each at a write pointer, "
			 "never overlap)");
		return -1;
	}
	/* a profile's jobs, and a job alone, run one after another; --name jobs at once
	 * unless stonewalled */
	p->group[p->njobs] = !p->njobs ? 0 : p->group[p->njobs - 1] + (pj || c->o.stonewall);
	p->rgroup[p->njobs] = !p->njobs ? 0 : p->rgroup[p->njobs - 1] + (pj || c->o.stonewall || c->o.new_group);
	p->njobs++;
	return 0;
}
