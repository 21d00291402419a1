/* A worker thread: set up (CPU, NUMA, priority, buffers), run its engine's loop, the
 * verify passes after, and its CPU use. */
#include "io.h"
#include "ioengine.h"
#include "clock.h"
#include <liburing.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <unistd.h>

/* d += a - b */
void ru_add(struct rusage *d, const struct rusage *a, const struct rusage *b)
{
	long us = (a->ru_utime.tv_sec - b->ru_utime.tv_sec) * 1000000L + (a->ru_utime.tv_usec - b->ru_utime.tv_usec);
	long ss = (a->ru_stime.tv_sec - b->ru_stime.tv_sec) * 1000000L + (a->ru_stime.tv_usec - b->ru_stime.tv_usec);
	us += d->ru_utime.tv_sec * 1000000L + d->ru_utime.tv_usec;
	ss += d->ru_stime.tv_sec * 1000000L + d->ru_stime.tv_usec;
	d->ru_utime = (struct timeval){ us / 1000000L, us % 1000000L };
	d->ru_stime = (struct timeval){ ss / 1000000L, ss % 1000000L };
	d->ru_nvcsw += a->ru_nvcsw - b->ru_nvcsw;
	d->ru_nivcsw += a->ru_nivcsw - b->ru_nivcsw;
	d->ru_minflt += a->ru_minflt - b->ru_minflt;
	d->ru_majflt += a->ru_majflt - b->ru_majflt;
}

void worker_cpu(const struct worker *w, int aux, struct cpu_use *u)
{
	struct rusage t = { 0 };
	if (aux)
		t = w->ru_aux;
	else
		ru_add(&t, &w->ru_end, &w->ru_start);
	if (!aux && w->job->offload)   /* fio's: the offload workers' CPU is the job's */
		ru_add(&t, &w->ru_aux, &(struct rusage){ 0 });
	u->usr += tv_s(&t.ru_utime);
	u->sys += tv_s(&t.ru_stime);
	u->ctx += t.ru_nvcsw + t.ru_nivcsw;
	u->minf += t.ru_minflt;
	u->majf += t.ru_majflt;
}

static void workload_done(struct worker *w)
{
	if (w->writing)
		__atomic_sub_fetch(w->writing, 1, __ATOMIC_ACQ_REL);
}

/* where and how the thread runs: its CPUs, nice, I/O priority, memory policy (fio's) */
static void thread_place(struct worker *w)
{
	const struct job *j = w->job;
	if (j->ncpus) {
		/* fio's cpus_allowed (the caller restores its own mask when it ran us) */
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int i = 0; i < j->ncpus; i++)
			if (!j->cpus_split || i == w->idx % j->ncpus)
				CPU_SET(j->cpus[i], &set);
		if (sched_setaffinity(0, sizeof set, &set))
			set_err(w, errno, "cpus_allowed: sched_setaffinity", UINT64_MAX);
	}
	/* fio's nice, prioclass/prio: this thread's (Linux's "process" here is a thread) */
	if (j->o.nice && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), (int)j->o.nice))
		set_err(w, errno, "--nice: setpriority", UINT64_MAX);
	if (j->ioprio >= 0 && syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, j->ioprio))
		set_err(w, errno, "--prioclass/--prio: ioprio_set", UINT64_MAX);
	/* fio's numa_mem_policy: this thread's, before its buffers are made and touched */
	if (j->mpol_mode >= 0 && syscall(SYS_set_mempolicy, j->mpol_mode, j->mpol_nodes ? &j->mpol_nodes : NULL,
					 j->mpol_nodes ? 65ul : 0ul))
		set_err(w, errno, errno == ENOSYS ? "--numa_mem_policy: this kernel has no NUMA" :
			"--numa_mem_policy: set_mempolicy", UINT64_MAX);
}

/* the I/O buffers, filled as the job's data says */
static char *thread_buffers(struct worker *w, size_t align, size_t nbuf)
{
	const struct job *j = w->job;
	char *bufs = NULL;
	if (posix_memalign((void **)&bufs, align, nbuf * j->bs_max)) {
		set_err(w, ENOMEM, "I/O buffers", UINT64_MAX);
		return NULL;
	}
	for (size_t i = 0; i < nbuf; i++)
		if (j->pattern_len)
			pattern_fill(j, bufs + i * j->bs_max, j->bs_max);
		else
			fill_buffer(bufs + i * j->bs_max, j->bs_max, j->randseed * 31 + (uint64_t)w->idx * 4099 + i,
				    j->o.zero_buffers ? 100 : (int)j->o.compress_pct, (size_t)j->o.compress_chunk);
	return bufs;
}

/* what --verify keeps: the map of blocks written, its passes and backlog, a zoned
 * target's zones; --dedupe's buffer.  0, or -1 with the error set */
static int thread_verify(struct worker *w, size_t align, size_t nbuf)
{
	const struct job *j = w->job;
	for (int f = 0; f < j->nfiles; f++)   /* each file's blocks in the verify map, one after another */
		w->vb[f + 1] = w->vb[f] + (j->nfiles > 1 ? j->fsize[f] : j->size) / j->bs;
	if (j->zone_size) {   /* strided zones: they go on to the device's end, the map too */
		uint64_t base = file_base(j, 0, w->idx);
		w->vb[1] = j->stride_end > base ? (j->stride_end - base) / j->bs : 0;
	}
	if (j->verify && rw_writes(j->rw) && !j->o.verify_only && (!(w->vmap = calloc(w->vb[j->nfiles] / 8 + 1, 1)) ||
	    (j->o.trim_pct && !(w->tmap = calloc(w->vb[j->nfiles] / 8 + 1, 1))))) {
		set_err(w, ENOMEM, "--verify: the map of blocks written", UINT64_MAX);
		return -1;
	}
	prng_seed(&w->trim_rng, j->randseed ^ 0x7219ull ^ ((uint64_t)w->idx << 32));
	/* fio's --loops with --verify: each pass checked when it ends (threads on one region:
	 * at the end only, a block another is writing would read torn) */
	if (w->vmap && j->o.do_verify && j->o.loops > 1 && !j->o.time_based && !j->o.verify_backlog && !rw_trims(j->rw) &&
	    (j->o.numjobs == 1 || j->per_thread || j->offset_inc >= job_fsize(j, 1)))
		w->passes_left = (int)j->o.loops - 1;
	if (w->zt) {   /* --zonemode=zbd: the thread's region's zones (the open ones its) */
		char e[240];
		if (zbd_join(w->zt, &w->zbd, j, file_base(j, 0, w->idx), j->size, w->fd, e, sizeof e)) {
			set_err(w, EIO, e, UINT64_MAX);
			return -1;
		}
		/* time based with --verify: the zones' worth written is a pass, checked, its
		 * zones reset for the next (fio's); threads on one region: one pass */
		if (w->vmap && j->o.do_verify && j->o.time_based && !j->o.verify_backlog &&
		    (j->o.numjobs == 1 || j->per_thread || j->offset_inc >= j->size))
			w->passes_left = INT32_MAX;
	}
	if ((j->o.verify_backlog || w->passes_left) && w->vmap) {
		/* room for a backlog's blocks and those in flight when it filled */
		w->bl_cap = ((uint64_t)j->o.verify_backlog + (uint64_t)j->o.iodepth) * (j->bs_max / j->bs);
		if ((j->o.verify_backlog && !(w->bl = malloc(w->bl_cap * sizeof *w->bl))) ||
		    posix_memalign((void **)&w->bl_buf, align, nbuf * j->bs)) {
			set_err(w, ENOMEM, "--verify_backlog: its list and buffers", UINT64_MAX);
			return -1;
		}
	}
	if (j->o.dedupe_pct && rw_writes(j->rw)) {
		/* the same for every thread of the job: its writes repeat each other's too */
		if (posix_memalign((void **)&w->dedupe, align, j->bs_max)) {
			set_err(w, ENOMEM, "--dedupe_percentage: a buffer", UINT64_MAX);
			return -1;
		}
		fill_buffer(w->dedupe, j->bs_max, j->randseed * 131 + 7, j->o.zero_buffers ? 100 : (int)j->o.compress_pct,
			    (size_t)j->o.compress_chunk);
		w->ws_seed = j->dedupe_seed + (j->o.dedupe_global ? 0 : (uint64_t)w->idx << 32);
		w->ws_next = j->o.dedupe_global ? (uint64_t)w->idx : 0;
		w->ws_step = j->o.dedupe_global ? (uint64_t)j->o.numjobs : 1;
	}
	return 0;
}

/* fio's a:b: each file its own generator (its region, its own offsets); 0, or -1 */
static int thread_files(struct worker *w, struct meter *m, struct job **fjp)
{
	const struct job *j = w->job;
	struct job *fj;
	if (j->nfiles <= 1 || j->replay)
		return 0;
	if (!(fj = *fjp = malloc((size_t)j->nfiles * sizeof *fj)) ||
	    !(m->gens = malloc((size_t)j->nfiles * sizeof *m->gens))) {
		set_err(w, ENOMEM, "the files' offsets", UINT64_MAX);
		return -1;
	}
	for (int f = 0; f < j->nfiles; f++) {
		fj[f] = *j;
		fj[f].size = j->fsize[f];
		fj[f].offset = j->foff[f];
		fj[f].o.io_size = j->o.io_size / (uint64_t)j->nfiles / j->bs * j->bs;   /* --io_size: shared out */
		fj[f].o.number_ios = 0;          /* the thread's: gen_next counts it */
		fj[f].randseed = j->randseed + 0x51ed27f1ull * (uint64_t)(f + 1);
		iogen_init(&m->gens[f], &fj[f], w->idx);
	}
	m->cur = -1;
	prng_seed(&m->file_rng, j->randseed ^ 0xf11e5ull ^ ((uint64_t)w->idx << 32));
	return 0;
}

/* the measuring state: passes, rates, samples, the latency target's depth, the iolog */
static void meter_init(struct worker *w, struct meter *m, const struct iogen *g)
{
	const struct job *j = w->job;
	w->pass_len = w->zt && j->o.time_based ? zbd_room(w->zt, &w->zbd) : g->loop_bytes;
	for (int f = 0; f < MAX_FILES; f++)
		w->sfr_lo[f] = UINT64_MAX;
	flow_join(j, m);
	prng_seed(&m->rate_rng, j->randseed ^ 0x7a7eull ^ ((uint64_t)w->idx << 32));
	prng_seed(&m->prio_rng, j->randseed ^ 0x9710ull ^ ((uint64_t)w->idx << 32));
	m->interval = (uint64_t)(j->sample_ms * 1e6);
	m->warm_left = (uint64_t)j->o.warmup_ios;
	m->qd = j->o.lat_target_ns ? 1 : (int)j->o.iodepth;   /* fio's latency_target starts at depth 1 */
	m->qd_low = 1;
	m->qd_high = (int)j->o.iodepth + 1;
	if (j->iolog_out[0]) {   /* fio's write_iolog (one thread per such job) */
		if (!(w->iolog_out = fopen(j->iolog_out, "we")))
			set_err(w, errno, "--write_iolog: opening the log", UINT64_MAX);
		else {
			iolog_out_start(w->iolog_out);
			for (int f = 0; f < j->nfiles; f++)
				iolog_out_file(w->iolog_out, w->f[f].dev->path, 0, "add");
			for (int f = 0; f < j->nfiles; f++)
				iolog_out_file(w->iolog_out, w->f[f].dev->path, 0, "open");
		}
	}
}

/* the workload on the job's engine (psync when it cannot run here), then the read-back */
static uint64_t thread_work(struct worker *w, struct meter *m, struct iogen *g, char *bufs, size_t nbuf)
{
	const struct job *j = w->job;
	uint64_t log_end;
	int r;
	if (j->o.verify_only) {     /* no workload: the read-back alone */
		start_line(w);
		begin_counting(w, m, now_ns());
		w->end_ns = w->start_ns;
		w->ru_end = w->ru_start;
	} else {
		r = io_loop(w, m, g, bufs, j->offload ? &ioengine_offload : JOB_ENGINE(j));
		if (r < 0) {
			/* no io_uring (or AIO) here: measure with psync and say so */
			w->engine_fallback = -r;
			m->warm_left = (uint64_t)j->o.warmup_ios;
			io_loop(w, m, g, bufs, &ioengine_psync);
		}
	}
	flow_leave(j, m);
	if (w->zt)
		zbd_leave(w->zt, &w->zbd);
	w->lat_depth = m->qd;
	if (!m->counting)      /* ended inside the ramp or warm-up: nothing measured */
		w->start_ns = w->end_ns;
	if (w->ss)
		ss_thread_end(w->ss);
	workload_done(w);
	log_end = w->end_ns;
	if (job_reads_back(j) && (w->vmap || j->o.verify_only)) {
		readback(w, m, bufs, (unsigned)nbuf, JOB_ENGINE_HAS(j, IOE_DEPTH) && !w->engine_fallback);
		log_end = now_ns();
	}
	return log_end;
}

void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	struct meter m = { 0 };
	struct iogen g;
	size_t align = w->dev->lbs > 4096 ? w->dev->lbs : 4096;
	size_t nbuf = job_queued(j) ? (size_t)j->o.iodepth : 1;
	char *bufs;
	uint64_t log_end;
	struct job *fj = NULL;     /* fio's a:b: each file's job (its region, its own offsets) */

	for (int d = 0; d < DDIR_N; d++)
		ddir_stats_init(&w->st[d]);
	moments_init(&w->sync_lat);
	thread_place(w);
	if (!(bufs = thread_buffers(w, align, nbuf)))
		goto early;
	iogen_init(&g, j, w->idx);
	if (thread_verify(w, align, nbuf) || thread_files(w, &m, &fj)) {
		free(bufs);
		free(w->vmap);
		w->vmap = NULL;
		free(w->dedupe);
		w->dedupe = NULL;
		goto early;
	}
	meter_init(w, &m, &g);
	log_end = thread_work(w, &m, &g, bufs, nbuf);
	/* the logs end with the thread (fio's: the read-back's reads are in them) */
	if (w->iolog_out) {
		for (int f = 0; f < j->nfiles; f++)
			iolog_out_file(w->iolog_out, w->f[f].dev->path, (now_ns() - m.t_begin) / 1000, "close");
		if (fclose(w->iolog_out))
			set_err(w, errno, "--write_iolog: writing the log", UINT64_MAX);
		w->iolog_out = NULL;
	}
	if (m.counting) {
		iolog_end(&w->log, log_end);
		iolog_end(&w->hlog, log_end);
	}
	if ((j->o.exitall || (j->o.exitall_on_error && w->err)) && w->group_stop)    /* fio's exitall: the whole group stops with us */
		__atomic_store_n(w->group_stop, 1, __ATOMIC_RELAXED);
	free(bufs);
	free(w->dedupe);
	free(m.gens);
	free(fj);
	rb_ring_drop(w);
	free(w->bl);
	free(w->bl_buf);
	w->dedupe = NULL;
	w->bl = NULL;
	w->bl_buf = NULL;
	__atomic_store_n(&w->finished, 1, __ATOMIC_RELEASE);   /* its figures are final */
	return NULL;
early:          /* could not start: still at the start line, and no second from us */
	free(m.gens);
	free(fj);
	free(w->bl);
	free(w->bl_buf);
	w->bl = NULL;
	w->bl_buf = NULL;
	start_line(w);
	workload_done(w);
	if (w->ss)
		ss_thread_end(w->ss);
	__atomic_store_n(&w->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}
