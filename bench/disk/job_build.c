/* One job of the plan from its options (fio's fixup_options): the options as the table
 * wrote them are copied whole into the job, then fixed up in place (what depends on the
 * device, on other options, on the engine), checked against each other, and what the
 * I/O loop reads is computed.  Each step is a function; add_job runs them in order. */
#include "plan.h"
#include "ioengine.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* the I/O pattern, block sizes, depth, sync and cache behaviour */
static int job_shape(struct plan *p, const struct disk_cfg *c, struct job *j, uint64_t bs_rw[DDIR_N], char *err,
		     size_t n)
{
	if (parse_rw(c, j, err, n))
		return -1;
	if (c->o.description)
		snprintf(j->desc, sizeof j->desc, "%s", c->o.description);
	for (int d = 0; d < DDIR_N; d++)   /* trims: the writes' size */
		bs_rw[d] = c->o.bs[d];
	j->bs = bs_rw[0] < bs_rw[1] ? bs_rw[0] : bs_rw[1];
	if (bs_rw[DDIR_TRIM] < j->bs)
		j->bs = bs_rw[DDIR_TRIM];
	if (j->o.iodepth_low >= j->o.iodepth || !j->o.iodepth_low)
		j->o.iodepth_low = j->o.iodepth;
	if (GIVEN(c, "nrfiles") && c->o.nrfiles != j->nfiles) {
		snprintf(err, n, "--nrfiles=%lld: the job's files are those --filename names (%d here; fio's a:b names "
			 "several)", c->o.nrfiles, j->nfiles);
		return -1;
	}
	if (parse_fst(c->o.fst, j, err, n))
		return -1;
	if (c->o.readonly_flag && c->o.mode != MODE_READONLY) {
		snprintf(err, n, "--readonly and --mode=%s contradict each other", mode_names[c->o.mode]);
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
	if (GIVEN(c, "buffered"))
		j->o.direct = !c->o.buffered;
	j->sync_flags = c->o.sync == 2 ? O_DSYNC : c->o.sync == 1 || c->o.sync == 4 ? O_SYNC : 0;
	if (c->o.fsync_n && c->o.fdatasync) {
		snprintf(err, n, "--fsync and --fdatasync: give one or the other");
		return -1;
	}
	if (c->o.fsync_n) {
		j->o.fdatasync = c->o.fsync_n;
		j->fsync_full = 1;
	}
	/* fio's end_fsync is fsync; a profile's (dd's conv=fdatasync) fdatasync */
	j->end_full = j->o.end_fsync && (!j->o.end_fdatasync || GIVEN(c, "end_fsync"));
	j->randseed = (uint64_t)c->o.randseed;
	if (!c->o.randrepeat && !GIVEN(c, "randseed"))
		j->randseed = p->clock_seed;
	j->o.invalidate = c->o.invalidate && !c->o.pre_read;   /* fio's: pre-read, then kept */
	j->fadvise = c->o.fadvise_hint;
	if (c->o.sync_file_range && parse_sfr(c->o.sync_file_range, j, err, n))
		return -1;
	return 0;
}

/* an option for some engines only, given to another: "--nowait: an io_uring, libaio and
 * pvsync2 option (--ioengine=psync)" */
static int engine_only(const struct job *j, const char *what, char *err, size_t n)
{
	snprintf(err, n, "--%s (--ioengine=%s)", what, JOB_ENGINE(j)->name);
	return -1;
}

/* what the engine can do with the job's options, and its batching */
static int job_engine(const struct disk_cfg *c, struct job *j, const struct blkdev *dev, char *err, size_t n)
{
	const char *e = JOB_ENGINE(j)->name;
	if (j->o.nowait && !JOB_ENGINE_HAS(j, IOE_NOWAIT))
		return engine_only(j, "nowait: an io_uring, libaio and pvsync2 option", err, n);
	/* offload: the system-call engines' helper threads; an engine with a kernel queue
	 * (io_uring, libaio) or none (null) submits inline, the same I/Os (fio's offload
	 * only moves who submits them) */
	j->offload = c->o.submit_mode == 1 && JOB_ENGINE_HAS(j, IOE_OFFLOAD);
	if (j->o.userspace_reap && strcmp(e, "libaio"))
		return engine_only(j, "userspace_reap: a libaio option", err, n);
	if (j->o.sqpoll && strcmp(e, "io_uring"))
		return engine_only(j, "sqthread_poll: an io_uring option", err, n);
	if (j->o.hipri && !JOB_ENGINE_HAS(j, IOE_HIPRI))
		return engine_only(j, "hipri: an io_uring and pvsync2 option", err, n);
	if (j->o.hipri && !j->o.direct) {
		snprintf(err, n, "--hipri: polled I/O needs --direct=1");
		return -1;
	}
	if (j->o.sqpoll_cpu >= sysconf(_SC_NPROCESSORS_CONF)) {
		snprintf(err, n, "--sqthread_poll_cpu=%lld: this machine has %ld CPUs", j->o.sqpoll_cpu,
			 sysconf(_SC_NPROCESSORS_CONF));
		return -1;
	}
	j->sample_ms = (double)c->o.sample_ms;
	/* fio's rules: a submit batch of 0 or beyond iodepth is the iodepth; a completion
	 * maximum below the minimum (0 included) is the minimum -- one at a time unless told;
	 * never waiting (a minimum of 0) and no maximum: all there are */
	if (!j->o.batch_submit || j->o.batch_submit > j->o.iodepth)
		j->o.batch_submit = j->o.iodepth;
	if (j->o.batch_cmin > j->o.iodepth)
		j->o.batch_cmin = j->o.iodepth;
	if (j->o.batch_cmax < j->o.batch_cmin)
		j->o.batch_cmax = j->o.batch_cmin;
	/* assay's defaults for the kernel's queues (fio's are one I/O a call each way): every
	 * I/O ready in one submit, every completion there in one reap, as t/io_uring -- a
	 * system call is the dearest part of an I/O in a VM.  Given either way, fio's rules. */
	if (JOB_ENGINE_HAS(j, IOE_KERNELQ) && !j->offload) {
		j->batch_default = !GIVEN(c, "iodepth_batch_submit") && !GIVEN(c, "iodepth_batch");
		if (j->batch_default)
			j->o.batch_submit = j->o.iodepth;
		if (!GIVEN(c, "iodepth_batch_complete_max"))
			j->o.batch_cmax = 0;
	}
	if (dev->is_null)
		j->o.mode = MODE_DESTROY;   /* /dev/null, /dev/zero: plain writes, nothing to keep */
	if (dev->is_null && JOB_ENGINE_HAS(j, IOE_MAPS)) {
		snprintf(err, n, "--ioengine=mmap: %s is a character device, nothing to map", dev->path);
		return -1;
	}
	return 0;
}

/* where the job's I/Os go: offset, block sizes the device takes, the region, rates */
static int job_region(struct plan *p, const struct disk_cfg *c, struct job *j, const struct blkdev *dev,
		      const uint64_t bs_rw[DDIR_N], char *err, size_t n)
{
	if (parse_offset(c->o.offset_s, JOB_SIZES(c), TG(p, j)->pct_of, c->o.offset_align ? c->o.offset_align : j->bs, &j->offset,
			 err, n))
		return -1;
	j->bs_max = j->bs;
	if ((bs_rw[0] != bs_rw[1] || bs_rw[1] != bs_rw[2]) && pair_bs(c, j, bs_rw, err, n))
		return -1;
	if ((c->o.bssplit || c->o.bsrange) && parse_var_bs(c, j, err, n))
		return -1;
	for (int d = 0; j->o.direct && j->var_bs && d < DDIR_N; d++)
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
	if (j->o.direct && j->bs % dev->lbs) {
		snprintf(err, n, "--bs=%llu: not a multiple of %s's logical block size (%u), which "
			 "O_DIRECT needs", (unsigned long long)j->bs, dev->path, dev->lbs);
		return -1;
	}
	if (j->o.direct && j->offset % dev->lbs) {
		snprintf(err, n, "--offset=%s: not a multiple of %s's logical block size (%u)",
			 c->o.offset_s, dev->path, dev->lbs);
		return -1;
	}
	if (c->o.fill_device && dev->is_file) {
		snprintf(err, n, "--fill_device: %s is a file (fio would grow it until its file system is full): "
			 "give --size, or name the device", dev->path);
		return -1;
	}
	if (j->nftg > 1 ? files_extent(p, c, j, c->o.size_cap, err, n)
			: region(c, dev, j->offset, c->o.size_cap, j->bs, &j->size, err, n))
		return -1;
	j->fsize[0] = j->nftg > 1 ? j->fsize[0] : j->size;
	/* fio's rw=read:300k with bs=1m: its last I/O may run past the region, to the end */
	j->past_end = j->nftg == 1 && dev->size > j->offset + j->size ? dev->size - j->offset - j->size : 0;
	if (GIVEN(c, "rate") && GIVEN(c, "rate_iops")) {
		snprintf(err, n, "--rate and --rate_iops: give one or the other (as fio)");
		return -1;
	}
	j->rate_poisson = c->o.rate_process == 1;
	j->rate_cycle_ns = (uint64_t)c->o.rate_cycle * 1000000u;
	for (int d = 0; d < DDIR_N; d++)
		j->min_rate |= j->o.min_bps[d] || j->o.min_gap_ns[d];
	j->dist_center = -1;
	if ((c->o.random_distribution && parse_dist(c, j, err, n)) || parse_ss(c, j, err, n))
		return -1;
	if (GIVEN(c, "percentage_sequential") && GIVEN(c, "percentage_random")) {
		snprintf(err, n, "--percentage_sequential and --percentage_random: give one or the other");
		return -1;
	}
	return io_extent(p, c, j, err, n);
}

/* how the job relates to the others (wait_for, exitall), its errors and its data */
static int job_flow(struct plan *p, const struct disk_cfg *c, struct job *j, const struct blkdev *dev, char *err,
		    size_t n)
{
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
	if (parse_errors(c, j, err, n) || job_data(p, c, j, err, n))
		return -1;
	if (dev->is_null && (j->verify || j->o.verify_only)) {
		snprintf(err, n, "--verify: %s keeps nothing to read back", dev->path);
		return -1;
	}
	j->thread0 = p->njobs ? p->jobs[p->njobs - 1].thread0 + (int)p->jobs[p->njobs - 1].o.numjobs : 1;
	return 0;
}

/* fio's log files: what was asked, and options that need a log */
static int job_logs(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	static const char *const need_log[] = { "log_avg_msec", "log_max_value", "log_offset", "per_job_logs",
						"log_unix_epoch", NULL };
	memcpy(j->log.prefix, c->o.write_log, sizeof j->log.prefix);
	for (const char *const *o = need_log; !iolog_wanted(&j->log) && *o; o++)
		if (GIVEN(c, *o)) {
			snprintf(err, n, "--%s: no log asked for (--write_bw_log, --write_iops_log or --write_lat_log)", *o);
			return -1;
		}
	if (!!c->o.write_log[IOLOG_HIST] != !!c->o.log_hist_msec ||
	    (GIVEN(c, "log_hist_coarseness") && !c->o.write_log[IOLOG_HIST])) {
		snprintf(err, n, c->o.write_log[IOLOG_HIST] ? "--write_hist_log: give its window, --log_hist_msec" :
			 "--log_hist_%s: no histogram log asked for (--write_hist_log)",
			 GIVEN(c, "log_hist_msec") ? "msec" : "coarseness");
		return -1;
	}
	if (c->o.log_max_value && !c->o.log_avg_msec) {
		snprintf(err, n, "--log_max_value: the maximum of each window, which needs --log_avg_msec");
		return -1;
	}
	j->log.hist_ms = (unsigned)c->o.log_hist_msec;
	j->log.hist_coarse = (unsigned)c->o.log_hist_coarseness;
	j->log.bs = j->bs;
	j->log.avg_ms = (unsigned)c->o.log_avg_msec;
	j->log.max_value = c->o.log_max_value;
	j->log.offset = c->o.log_offset;
	j->log.unix_epoch = c->o.log_unix_epoch;
	j->log.per_job = c->o.per_job_logs;
	return 0;
}

/* where its threads run, when they pause, their priorities, the latency target */
static int job_timing(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	static const char *const need_target[] = { "latency_window", "latency_percentile", "latency_run", NULL };
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
	if (j->o.think_spin_ns > j->o.think_ns)
		j->o.think_spin_ns = j->o.think_ns;    /* fio's: the spin is part of the pause */
	j->think_blocks = (int)c->o.thinktime_blocks;
	j->flow_sleep_us = (uint64_t)c->o.flow_sleep;
	if (GIVEN(c, "thinktime_iotime") && !GIVEN(c, "thinktime")) {
		snprintf(err, n, "--thinktime_iotime=%g: give --thinktime too (the pause)", (double)j->o.think_iotime_ns / 1e9);
		return -1;
	}
	/* fio's: without --thinktime_blocks, time alone says when */
	if (j->o.think_iotime_ns && !GIVEN(c, "thinktime_blocks"))
		j->think_blocks = INT32_MAX;
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
	for (const char *const *o = need_target; !j->o.lat_target_ns && *o; o++)
		if (GIVEN(c, *o)) {
			snprintf(err, n, "--%s: no --latency_target given", *o);
			return -1;
		}
	j->lat_pct = c->o.latency_percentile;
	j->lat_run = c->o.latency_run;
	if (c->o.unified >= 3)
		j->o.unified = c->o.unified == 4;   /* fio's 0/1 spelt none/mixed */
	return 0;
}

/* --blockalign: random offsets on this boundary, the random map off (fio's); one the size
 * of --bs is --bs's own */
static int job_blockalign(struct job *j, const struct blkdev *dev, char *err, size_t n)
{
	if (!j->o.ba || j->o.ba == j->bs) {
		j->o.ba = 0;
		return 0;
	}
	if (j->o.ba % 512 || (j->o.direct && j->o.ba % dev->lbs)) {
		snprintf(err, n, "--blockalign=%llu: not a multiple of the logical block size (%u)", j->o.ba,
			 j->o.direct ? dev->lbs : 512);
		return -1;
	}
	if (j->verify || j->o.pct_seq[0] || j->o.pct_seq[1] || j->o.pct_seq[2] || j->rand_run > 1 ||
	    j->rw == RW_RANDTRIMWRITE) {
		snprintf(err, n, "--blockalign with %s: offsets off the --bs grid", j->verify ? "--verify" :
			 j->rw == RW_RANDTRIMWRITE ? "randtrimwrite" :
			 j->rand_run > 1 ? "an offset modifier" : "--percentage_random");
		return -1;
	}
	j->o.norandommap = 1;
	return 0;
}

/* what cannot go together, and the features that build on the rest: zones, a replay,
 * deduplication, trims with verify, serialized overlaps */
static int job_checks(struct plan *p, const struct disk_cfg *c, struct job *j, const struct blkdev *dev,
		      int from_profile, char *err, size_t n)
{
	const char *why;
	if (j->o.time_based && j->o.runtime <= 0) {
		snprintf(err, n, "--time_based needs a --runtime");
		return -1;
	}
	if (job_blockalign(j, dev, err, n))
		return -1;
	if (JOB_ENGINE_HAS(j, IOE_NODATA) && (j->verify || c->o.read_iolog)) {
		snprintf(err, n, "--ioengine=null moves no data: %s", j->verify ? "nothing to --verify" :
			 "a --read_iolog replay is of real I/O");
		return -1;
	}
	if (j->seq_hole && (j->var_bs || ((j->seq_hole % j->bs || j->seq_back) && (c->o.zonesize || j->zbd || j->verify)))) {
		snprintf(err, n, "--rw=%s: %s", c->o.rw.text, j->var_bs ? "a hole takes one block size (no --bssplit, "
			 "--bsrange, reads,writes --bs)" : "with zones or --verify, the hole is forwards, a multiple of --bs");
		return -1;
	}
	if (parse_zones(c, dev, j, err, n) || job_replay(p, c, from_profile, j, err, n))
		return -1;
	if (c->o.readonly_flag && c->o.read_iolog && rw_modifies(j->rw)) {   /* fio's too */
		snprintf(err, n, "--readonly: job '%s' replays writes or trims (--read_iolog=%s); fio's --readonly "
			 "allows none", j->name, c->o.read_iolog);
		return -1;
	}
	if (c->o.dedupe_mode && j->o.dedupe_pct && rw_writes(j->rw) && dedupe_working_set(c, j, p->njobs, err, n))
		return -1;
	why = !c->o.trim_pct ? NULL : !j->verify || j->verify == VM_NULL ? "needs --verify (what is read back)" :
	      !rw_writes(j->rw) ? "needs a job that writes" : j->o.verify_only ? "with --verify_only" :
	      j->o.verify_backlog ? "with --verify_backlog" : j->zbd ? "with --zonemode=zbd" :
	      dev->is_null ? dev->path :
	      j->o.numjobs > 1 && !j->per_thread && j->offset_inc < job_fsize(j, 1) ?
	      "with threads sharing one region (a block one discards, another checks): give --offset_increment" : NULL;
	if (why) {
		snprintf(err, n, "--trim_percentage=%lld: %s", c->o.trim_pct, why);
		return -1;
	}
	/* fio's: only where two I/Os in flight may overlap and one changes data */
	j->o.serialize_overlap = c->o.serialize_overlap && j->o.iodepth > 1 && (rw_modifies(j->rw) || j->replay);
	if (j->o.serialize_overlap && j->zbd) {
		snprintf(err, n, "--serialize_overlap with --zonemode=zbd: not here (its writes, each at a write pointer, "
			 "never overlap)");
		return -1;
	}
	return 0;
}

int add_job(struct plan *p, const struct disk_cfg *c, const char *name, int from_profile, char *err, size_t n)
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
	/* fio refuses such a job, whatever its target: before any file is laid out for it */
	if (c->o.readonly_flag && rw_modifies(c->o.rw.kind)) {
		snprintf(err, n, "--readonly: job '%s' has rw=%s; fio's --readonly allows no writes or trims "
			 "(--mode=readonly skips them instead)", name, rw_names[c->o.rw.kind]);
		return -1;
	}
	if (plan_target(p, c, j, err, n))
		return -1;
	dev = &TG(p, j)->dev;
	switch (zones_in_bytes(c, dev, &cz, zsize, zoff, err, n)) {
	case -1: return -1;
	case 1: c = &cz; break;
	}
	/* the options as the table wrote them (a profile's words, then the user's) */
	j->o = c->o;
	j->bins = p->c->common.format == FORMAT_JSONPLUS;   /* the run's (a job's words may repeat it) */
	if (FIO_FILES(c) && (plain_files(p, j) || JOB_ENGINE_HAS(j, IOE_NODATA)))
		j->o.mode = MODE_DESTROY;   /* plain writes, as fio: files of no disk image, or no data moved */
	if (job_shape(p, c, j, bs_rw, err, n) || job_engine(c, j, dev, err, n) ||
	    job_region(p, c, j, dev, bs_rw, err, n) || job_flow(p, c, j, dev, err, n) || job_logs(c, j, err, n) ||
	    job_timing(c, j, err, n) || job_checks(p, c, j, dev, from_profile, err, n))
		return -1;
	/* a profile's jobs, and a job alone, run one after another; --name jobs at once
	 * unless stonewalled */
	p->group[p->njobs] = !p->njobs ? 0 : p->group[p->njobs - 1] + (from_profile || c->o.stonewall);
	p->rgroup[p->njobs] = !p->njobs ? 0 : p->rgroup[p->njobs - 1] + (from_profile || c->o.stonewall || c->o.new_group);
	p->njobs++;
	return 0;
}
