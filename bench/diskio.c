/* The I/O loops of one worker thread: io_uring (registered files and buffers, batched
 * submit, CQ reaped with one head advance per batch), libaio (the kernel's native AIO,
 * as fio's libaio engine) and psync/sync (pread/pwrite; read/write after lseek), with
 * fio's definitions of slat/clat/lat: slat = prep -> submitted, clat = submitted ->
 * reaped, lat = prep -> reaped (one timestamp per submit and per reap batch, as fio).
 * In rewrite mode a write is a read of the block linked to a write of the same bytes,
 * so the device content never changes, even if the process dies in between. */
#include "clock.h"
#include "disk.h"
#include "prng.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <sched.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <limits.h>
#include <liburing.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REWRITE_READ (1ull << 63)   /* user_data flag: the read half of a rewrite */
#define SYNC_SLOT    0xffffffffull

const char *const ioengine_names[] = { "io_uring", "psync", "libaio", "sync", "pvsync", "pvsync2", "null", "posixaio", "mmap", "vsync" };

void ddir_stats_init(struct ddir_stats *st)
{
	memset(st, 0, sizeof *st);
	hist_init(&st->slat);
	hist_init(&st->clat);
	hist_init(&st->lat);
	for (int k = 0; k <= CMDPRIO_MAX; k++)
		hist_init(&st->prio[k]);
}

void ddir_stats_merge(struct ddir_stats *d, const struct ddir_stats *s)
{
	d->ios += s->ios;
	d->bytes += s->bytes;
	d->short_ios += s->short_ios;
	d->errs += s->errs;
	hist_merge(&d->slat, &s->slat);
	hist_merge(&d->clat, &s->clat);
	hist_merge(&d->lat, &s->lat);
	for (int k = 0; k <= CMDPRIO_MAX; k++)
		hist_merge(&d->prio[k], &s->prio[k]);
}

size_t compress_zero(int compress_pct, size_t chunk)
{
	return compress_pct > 0 ? chunk - chunk * (size_t)(100 - compress_pct) / 100 : 0;
}

void fill_buffer(void *buf, size_t len, uint64_t seed, int compress_pct, size_t chunk)
{
	struct prng r;
	uint64_t *p = buf;
	size_t zero = compress_zero(compress_pct, chunk);
	prng_seed(&r, seed);
	for (size_t i = 0; i < len / 8; i++)
		p[i] = prng_next(&r);
	/* the tail of every chunk is zero: compresses by about compress_pct (a buffer shorter
	 * than a chunk is its first part: random, then zeros from where they start) */
	for (size_t c = 0; zero && c < len; c += chunk)
		if (c + chunk - zero < len)
			memset((char *)buf + c + chunk - zero, 0, (c + chunk < len ? c + chunk : len) - (c + chunk - zero));
}

/* fresh data for each write (8 random bytes in every 512, so no two writes are alike and
 * a deduplicating backend cannot skip them), unless --zero_buffers asked for zeros or a
 * pattern was given (the buffers hold it from the start); with
 * --verify each block then gets its header */
static void scramble(struct worker *w, void *buf, uint64_t off, uint64_t len, struct prng *r)
{
	const struct job *j = w->job;
	/* fio's dedupe_percentage: this share of the writes carry the same data each time, or
	 * with dedupe_mode=working_set one of the thread's working set's blocks -- which are,
	 * as fio's, the first unique ones it writes (with dedupe_global one set for all, its
	 * blocks written as unique ones by the job's threads in turn) */
	int dup = w->dedupe && (int)prng_below(r, 100) < j->dedupe_pct;
	if (dup && !j->dedupe_ws)
		memcpy(buf, w->dedupe, len);
	else if (j->dedupe_ws && (dup || w->ws_next < j->dedupe_ws)) {
		uint64_t i = dup ? prng_below(r, j->dedupe_ws) : w->ws_next;
		if (!dup)
			w->ws_next += w->ws_step;
		fill_buffer(buf, len, w->ws_seed + i, j->zero_buffers ? 100 : j->compress_pct, j->compress_chunk);
	} else   /* (in each compress chunk's random part only) */
		for (size_t c = 0; !j->zero_buffers && !j->pattern_len && c + 8 <= len; c += 512)
			if (!j->compress_pct || (c % j->compress_chunk) + 8 <= j->compress_chunk -
						 compress_zero(j->compress_pct, j->compress_chunk))
				*(uint64_t *)((char *)buf + c) = prng_next(r);
	if (j->npat_off)   /* fio's %o: each block's own offset in its pattern */
		for (uint64_t k = 0; k + j->bs <= len; k += j->bs)
			pattern_offsets(j, (char *)buf + k, off + k);
	if (j->verify)
		verify_stamp(j, buf, off, len);
}

struct slot {
	uint64_t t_prep, t_issue;
	uint64_t off, len;
	char *buf;        /* its data (a read job's --verify checks it) */
	int ddir;
	int file;         /* which of the job's files (fio's a:b) */
	int counted;      /* issued while measuring */
	int sync;         /* done in the call (psync, a queued engine's trim): no submission
			   * latency, as fio records none (slat_ns N 0, no slat log line) */
	int busy;
	int rd_failed;    /* rewrite: the read half failed and the job went on */
	int prio;         /* --cmdprio_*: its priority's index in job.cmdprio_val (0: the job's) */
};

/* a free slot of a queued engine, set up for the I/O at off */
static int slot_take(struct slot *slots, int *free_slots, int *nfree, int counting, uint64_t t_prep,
		     int ddir, int file, uint64_t off, uint64_t len)
{
	int slot = free_slots[--*nfree];
	struct slot *s = &slots[slot];
	s->t_prep = t_prep;
	s->file = file;
	s->off = off;
	s->len = len;
	s->ddir = ddir;
	s->counted = counting;
	s->busy = 1;
	return slot;
}

/* every worker of a job passes the barrier exactly once, whatever path it takes */
static void start_line(struct worker *w)
{
	if (!w->started) {
		w->started = 1;
		pthread_barrier_wait(w->barrier);
	}
}

static void set_err(struct worker *w, int err, const char *what, uint64_t off)
{
	if (w->err)
		return;
	w->err = err;
	if (off != UINT64_MAX)
		snprintf(w->errmsg, sizeof w->errmsg, "%s at offset %llu: %s", what,
			 (unsigned long long)off, strerror(err));
	else
		snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", what, strerror(err));
}

const char *const ddir_name[DDIR_N] = { "read", "write", "trim" };

int coe_nonfatal(const struct job *j, int type, int err)
{
	if (!(j->coe & 1 << type))
		return 0;
	if (!j->nign[type])
		return err == EIO || err == EILSEQ;
	for (int i = 0; i < j->nign[type]; i++)
		if (j->ign[type][i] == err)
			return 1;
	return 0;
}

void errlog_note(struct errlog *l, int err, const char *fmt, ...)
{
	va_list ap;
	if (l->n++)
		return;
	l->first = err;
	va_start(ap, fmt);
	vsnprintf(l->first_msg, sizeof l->first_msg, fmt, ap);
	va_end(ap);
}

static int bad_cmp(const void *a, const void *b)
{
	const struct bad_io *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off ? 1 : x->ddir - y->ddir;
}

void errlog_merge(struct errlog *dst, const struct errlog *src, const char *prefix)
{
	struct bad_io all[2 * MAX_BAD];
	int n = dst->nbad;
	if (src->n && !dst->n) {
		dst->first = src->first;
		snprintf(dst->first_msg, sizeof dst->first_msg, "%s%s", prefix, src->first_msg);
	}
	dst->n += src->n;
	memcpy(all, dst->bad, (size_t)n * sizeof *all);
	for (int i = 0; i < src->nbad && n < 2 * MAX_BAD; i++)
		all[n++] = src->bad[i];
	qsort(all, (size_t)n, sizeof *all, bad_cmp);
	dst->nbad = n < MAX_BAD ? n : MAX_BAD;
	memcpy(dst->bad, all, (size_t)dst->nbad * sizeof *dst->bad);
}

/* the I/O in s failed with err (what: "read", "write", "rewrite read"): 1 when the job goes
 * on (the error counted, the I/O left out of the figures), else 0 (the worker's error) */
static int io_error(struct worker *w, const struct slot *s, int type, int err, const char *what)
{
	const struct job *j = w->job;
	if (!coe_nonfatal(j, type, err)) {
		set_err(w, err, what, s->off);
		return 0;
	}
	errlog_note(&w->errs, err, "%s at offset %llu: %s", what, (unsigned long long)s->off, strerror(err));
	if (w->errs.nbad < MAX_BAD)   /* a rewrite's failed read half is a read */
		w->errs.bad[w->errs.nbad++] = (struct bad_io){ s->off, s->len, err, type == COE_READ ? DDIR_READ : s->ddir };
	if (s->counted)
		w->st[s->ddir].errs++;
	if (j->error_dump)
		fprintf(stderr, "assay: disk: %s: thread %d: %s at offset %llu (%llu bytes): %s (going on: "
			"--continue_on_error)\n", j->name, w->idx + 1, what, (unsigned long long)s->off,
			(unsigned long long)s->len, strerror(err));
	return 1;
}

static int samples_grow(struct samples *s)
{
	uint32_t cap = s->cap ? s->cap * 2 : 64;
	if (cap > MAX_SAMPLES)
		return -1;
	for (int d = 0; d < DDIR_N; d++) {
		uint32_t *a = realloc(s->ios[d], cap * sizeof *a);
		uint64_t *b = realloc(s->bytes[d], cap * sizeof *b);
		if (a)
			s->ios[d] = a;
		if (b)
			s->bytes[d] = b;
		if (!a || !b)
			return -1;
	}
	s->cap = cap;
	return 0;
}

struct meter {                /* the measuring state of a worker */
	int counting;
	uint64_t ramp_end;        /* ns */
	uint64_t deadline;        /* ns, 0 = none */
	uint64_t interval;        /* sample interval, ns */
	uint64_t next_sample;
	uint64_t cur_ios[DDIR_N], cur_bytes[DDIR_N];
	uint64_t warm_left;
	/* --rate/--rate_iops: the next I/O, drawn but held back until its time */
	int held, h_ddir, h_file;
	uint64_t h_off, h_len;
	int io_file;              /* the file of the I/O next_io gave */
	/* fio's a:b: each file's generator (its own offsets), the file in use, the I/Os left
	 * before the next (roundrobin, random), the files done */
	struct iogen *gens;
	int cur, turn_left;       /* cur -1: none yet */
	uint64_t turn_end;        /* sequential: the file's pass ends at these issued bytes */
	unsigned files_done;
	uint64_t gen_issued;
	struct prng file_rng;
	uint64_t t_begin;             /* when the job began (after --startdelay): --write_iolog's times */
	uint64_t replay_t0;           /* --read_iolog: when the log's first entry went (0: not yet) */
	uint64_t rate_next[DDIR_N];   /* when the next I/O of each direction may go, ns */
	struct prng rate_rng;
	struct prng prio_rng;         /* --cmdprio_percentage: which I/Os */
	uint64_t ss_next, ss_ios, ss_bytes;   /* --steadystate: this second's end and I/Os */
	unsigned ss_sec;
	int think_done;               /* --thinktime: I/Os completed since the last pause */
	uint64_t think_until;         /* the pause under way ends then (0: none) */
	uint64_t think_last;          /* --thinktime_iotime: when the last pause began (first: the start) */
	int sfr_writes;               /* --sync_file_range: writes since the last */
	struct flow *flow;            /* --flow: the flow_id group this thread is in, and its I/Os */
	uint64_t flow_ios;
	/* --latency_target: the depth allowed now (without it: iodepth), the deepest that met
	 * the target and the shallowest that failed (iodepth + 1: none yet), the window under
	 * way (from lat_ts: its I/Os and those over the target), settling */
	int qd, qd_low, qd_high;
	int draining;                 /* --iodepth_low: the queue was full, it drains now */
	uint64_t lat_ts, lat_ios, lat_failed;
	int lat_end_run, lat_done;
	/* --rate_min/--rate_iops_min: the cycle's end and the counts at its start */
	uint64_t mr_next, mr_ios[DDIR_N], mr_bytes[DDIR_N];
	/* --serialize_overlap: a queued engine's I/O slots (busy: in flight) */
	const struct slot *ov_slots;
	int ov_n;
};

/* --serialize_overlap (fio's): does the held I/O share a byte with one in flight? */
static int overlaps_in_flight(const struct meter *m)
{
	for (int i = 0; i < m->ov_n; i++) {
		const struct slot *s = &m->ov_slots[i];
		if (s->busy && s->file == m->h_file && s->off < m->h_off + m->h_len && m->h_off < s->off + s->len)
			return 1;
	}
	return 0;
}

/* may an I/O of direction d go now under its rate cap? */
static int rate_ready(const struct job *j, const struct meter *m, int d, uint64_t now)
{
	return (!j->rate_gap_ns[d] && !j->rate_bps[d]) || !m->rate_next[d] || now >= m->rate_next[d];
}

/* The next I/O to issue: 1 (ddir, off set), 0 when the job has no more, -1 when a rate
 * cap holds it back until *until.  As fio's: on schedule from the start (an I/O that is
 * late goes at once, the ones after catch up), and in a mixed job an I/O whose direction
 * must wait goes the other way if that one may go (the mix then follows the caps). */
/* fio's write_iolog: an I/O (or sync: RP_*) on file f issued now */
static void log_issue(struct worker *w, const struct meter *m, int f, int op, uint64_t off, uint64_t len)
{
	if (w->iolog_out)
		iolog_out_io(w->iolog_out, w->f[f].dev->path, (now_ns() - m->t_begin) / 1000, op, off, len);
}

/* fdatasync (full: fsync) of the target, timed and counted as fio's sync figures */
/* full: 1 fsync, 0 fdatasync, SYNC_RANGE fio's sync_file_range over what was written
 * since the last one (not in --write_iolog: fio's logs have no such entry) */
#define SYNC_RANGE 2
static void timed_sync(struct worker *w, struct meter *m, int full)
{
	uint64_t t0 = now_ns();
	int e = 0;
	for (int f = 0; f < w->job->nfiles; f++) {   /* each of the job's files (fio's) */
		if (full == SYNC_RANGE) {
			if (w->job->ioengine != IOE_NULL && !e && w->sfr_hi[f] > w->sfr_lo[f] &&
			    sync_file_range(w->f[f].fd, (off_t)w->sfr_lo[f], (off_t)(w->sfr_hi[f] - w->sfr_lo[f]),
					    w->job->sfr_flags))
				e = errno;
			w->sfr_lo[f] = UINT64_MAX;
			w->sfr_hi[f] = 0;
			continue;
		}
		log_issue(w, m, f, full ? RP_SYNC : RP_DATASYNC, 0, 0);
		if (w->job->ioengine != IOE_NULL && !e && (full ? fsync(w->f[f].fd) : fdatasync(w->f[f].fd)))
			e = errno;
	}
	if (e)
		set_err(w, e, full == SYNC_RANGE ? "sync_file_range" : full ? "fsync" : "fdatasync", UINT64_MAX);
	else if (m->counting) {
		moments_add(&w->sync_lat, now_ns() - t0);
		w->sync_ios++;
	}
}

/* the next I/O of the job's files (fio's file_service_type): 1, or 0 when every file is
 * done.  Roundrobin and random move on after fst_n I/Os; sequential after a pass over the
 * file's region (its end, size-based; time-based, the next pass goes to the next file) */
static int gen_next(const struct job *j, struct meter *m, struct iogen *g, int *file, int *ddir, uint64_t *off,
		    uint64_t *len)
{
	if (j->nfiles == 1 || j->replay) {   /* a log: its entry's file */
		int r = iogen_next(g, ddir, off, len);
		*file = j->replay ? g->r_file : 0;
		return r;
	}
	while (m->files_done != (1u << j->nfiles) - 1) {
		struct iogen *c;
		if (m->cur < 0 || m->files_done >> m->cur & 1 ||
		    (j->fst == FST_SEQ ? m->gens[m->cur].issued_bytes >= m->turn_end : !m->turn_left)) {
			do
				m->cur = j->fst == FST_RAND ? (int)prng_below(&m->file_rng, (uint64_t)j->nfiles)
							    : (m->cur + 1) % j->nfiles;
			while (m->files_done >> m->cur & 1);
			m->turn_left = j->fst_n;
			m->turn_end = m->gens[m->cur].issued_bytes + j->fsize[m->cur];
		}
		c = &m->gens[m->cur];
		if (j->number_ios && m->gen_issued >= j->number_ios)
			break;     /* fio's number_ios: the thread's, over its files */
		if (iogen_next(c, ddir, off, len)) {
			m->turn_left--;
			m->gen_issued++;
			*file = m->cur;
			return 1;
		}
		m->files_done |= 1u << m->cur;
	}
	return 0;
}

/* fio's flow: the threads of jobs with a --flow weight and the same --flow_id keep their
 * I/O counts in proportion to their weights (fio's token count: a thread whose share of the
 * group's I/Os is above its share of the weights waits, --flow_sleep or until an I/O of its
 * own completes; the group's count starts at 1, as fio's).  Threads join when they start
 * and leave when they end, taking their weight and count with them. */
struct flow {
	long long id;
	int users;
	uint64_t ios;
	uint64_t weight;
};
#define MAX_FLOWS 64
static struct flow flows[MAX_FLOWS];
static pthread_mutex_t flows_mu = PTHREAD_MUTEX_INITIALIZER;

static void flow_join(const struct job *j, struct meter *m)
{
	struct flow *f = NULL;
	if (!j->flow)
		return;
	pthread_mutex_lock(&flows_mu);
	for (int i = 0; i < MAX_FLOWS && !f; i++)
		if (flows[i].users && flows[i].id == j->flow_id)
			f = &flows[i];
	for (int i = 0; i < MAX_FLOWS && !f; i++)
		if (!flows[i].users) {
			f = &flows[i];
			*f = (struct flow){ .id = j->flow_id, .ios = 1 };
		}
	if (f) {   /* (more than 64 groups at once: the thread goes unregulated) */
		f->users++;
		__atomic_add_fetch(&f->weight, (uint64_t)j->flow, __ATOMIC_RELAXED);
	}
	m->flow = f;
	m->flow_ios = 0;
	pthread_mutex_unlock(&flows_mu);
}

static void flow_leave(const struct job *j, struct meter *m)
{
	if (!m->flow)
		return;
	pthread_mutex_lock(&flows_mu);
	__atomic_sub_fetch(&m->flow->ios, m->flow_ios, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&m->flow->weight, (uint64_t)j->flow, __ATOMIC_RELAXED);
	m->flow->users--;
	m->flow = NULL;
	pthread_mutex_unlock(&flows_mu);
}

/* over its share: wait (the I/O it then issues is counted by flow_count) */
static int flow_over(const struct job *j, const struct meter *m)
{
	const struct flow *f = m->flow;
	uint64_t all = __atomic_load_n(&f->ios, __ATOMIC_RELAXED), wt = __atomic_load_n(&f->weight, __ATOMIC_RELAXED);
	return (double)m->flow_ios / (double)all > (double)j->flow / (double)wt;
}

static void flow_count(struct meter *m)
{
	__atomic_add_fetch(&m->flow->ios, 1, __ATOMIC_RELAXED);
	m->flow_ios++;
}

static int next_io(struct worker *w, struct meter *m, struct iogen *g, uint64_t now, int inflight,
		   int *ddir, uint64_t *off, uint64_t *len, uint64_t *until)
{
	const struct job *j = w->job;
	int d, mixed = j->rw == RW_RANDRW || j->rw == RW_READWRITE;
	uint64_t gap;
	if (m->flow && flow_over(j, m)) {
		/* fio's: with --flow_sleep, what is in flight completes, then that sleep; without,
		 * the next try (here after an I/O completes, or 10 us) */
		uint64_t t = now_ns();
		*until = t + (j->flow_sleep_us ? j->flow_sleep_us * 1000 : 10000);
		if (m->deadline && m->deadline < *until)
			*until = m->deadline;
		return -1;
	}
	if (j->think_iotime_ns && !m->think_last)
		m->think_last = now;
	if (j->think_ns && (m->think_done >= j->think_blocks || m->think_until ||
			    (j->think_iotime_ns && now - m->think_last >= j->think_iotime_ns + j->think_ns))) {
		/* fio's thinktime: once think_blocks I/Os have completed (or thinktime_iotime
		 * has gone by since the last pause began, fio's measure: the pause in it), let
		 * every one in flight complete too, then pause (spinning think_spin of it,
		 * sleeping the rest) before the next */
		uint64_t t = now_ns();
		if (inflight) {
			*until = m->deadline ? m->deadline : t + 1000000000ull;
			return -1;
		}
		if (!m->think_until) {
			m->think_last = t;
			m->think_until = t + j->think_ns;
			for (uint64_t e = t + j->think_spin_ns; j->think_spin_ns && now_ns() < e;)
				__builtin_ia32_pause();
			t = now_ns();
		}
		if (t < m->think_until) {
			*until = m->deadline && m->deadline < m->think_until ? m->deadline : m->think_until;
			return -1;
		}
		m->think_until = 0;
		m->think_done = 0;
		for (int k = 0; j->rate_ign_think && k < DDIR_N; k++) {
			/* fio's rate_ignore_thinktime: the schedule moves on by the pause, less
			 * one I/O's time (the next goes at once) */
			uint64_t p = t - m->think_last, one = j->rate_bps[k] ? (uint64_t)((double)j->bs * 1e9 /
										   (double)j->rate_bps[k]) : j->rate_gap_ns[k];
			if (m->rate_next[k])
				m->rate_next[k] += p > one ? p - one : 0;
		}
	}
	for (;;) {
		if (!m->held) {
			if (!gen_next(j, m, g, &m->h_file, &m->h_ddir, &m->h_off, &m->h_len))
				return 0;
			m->held = 1;
		}
		if (!j->replay)
			break;
		if (!j->replay_no_stall) {
			/* the log's times (scaled by replay_time_scale) from its first entry */
			uint64_t due;
			if (!m->replay_t0)
				m->replay_t0 = now;
			due = m->replay_t0 + (uint64_t)((double)g->r_t_us * 1000.0 * 100.0 / j->replay_time_pct);
			if (now < due) {
				*until = m->deadline && m->deadline < due ? m->deadline : due;
				return -1;
			}
		}
		if (m->h_ddir < DDIR_N)
			break;
		/* the log's sync or datasync: once the I/Os before it are done */
		if (inflight) {
			*until = now + 1000000;
			return -1;
		}
		timed_sync(w, m, m->h_ddir == DDIR_N);   /* DDIR_N: sync, DDIR_N + 1: datasync */
		m->held = 0;
		now = now_ns();
	}
	if (j->serialize_overlap && inflight && overlaps_in_flight(m)) {
		/* fio's: it waits until what it overlaps has completed */
		*until = m->deadline ? m->deadline : now + 1000000000ull;
		return -1;
	}
	d = m->h_ddir;
	if (!rate_ready(j, m, d, now)) {
		if (mixed && rate_ready(j, m, !d, now)) {
			d = !d;
		} else {
			*until = m->rate_next[d];
			if (mixed && !rate_ready(j, m, !d, 0) && m->rate_next[!d] < *until)
				*until = m->rate_next[!d];
			if (m->deadline && m->deadline < *until)
				*until = m->deadline;
			return -1;
		}
	}
	if (j->zt) {
		/* fio's zonemode=zbd: the I/O moved to where the zones take it */
		uint64_t o = m->h_off, l = m->h_len;
		int e = 0, z;
		char msg[240];
		if ((z = zbd_adjust(j->zt, &w->zbd, j, w->fd, inflight, &d, &o, &l, &e, msg, sizeof msg)) <= 0) {
			if (e)
				set_err(w, e, msg, UINT64_MAX);
			else if (z < 0)   /* its I/Os in flight complete, or another thread's to the zone */
				*until = inflight ? (m->deadline ? m->deadline : now + 1000000000ull) : now + 20000;
			return z;
		}
		if (!rw_is_random(j->rw) && !j->replay)   /* the next sequential I/O after this one (fio's last_pos) */
			g->seq_pos[d] = (zbd_next_seq(j->zt, o + l) - g->base) / j->bs;
		g->issued_bytes -= m->h_len - l;
		m->h_off = o;
		m->h_len = l;
	}
	gap = j->rate_bps[d] ? (uint64_t)((double)m->h_len * 1e9 / (double)j->rate_bps[d]) + 1
			     : j->rate_gap_ns[d];
	if (gap) {
		if (!m->rate_next[d])
			m->rate_next[d] = now;
		if (j->rate_poisson) {
			/* exponential gaps of mean gap: arrivals of a Poisson process */
			double u = ((double)(prng_next(&m->rate_rng) >> 11) + 0.5) / 9007199254740992.0;
			gap = (uint64_t)(-log(u) * (double)gap);
		}
		m->rate_next[d] += gap;
	}
	m->held = 0;
	m->io_file = m->h_file;
	m->think_done += j->think_issue;
	*ddir = d;
	*off = m->h_off;
	*len = m->h_len;
	if (m->flow)
		flow_count(m);
	return 1;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* a thread of the group ended with fio's exitall: every other one ends too */
static int group_stopped(const struct worker *w)
{
	return w->group_stop && __atomic_load_n(w->group_stop, __ATOMIC_RELAXED);
}

/* past the start line: fio's --startdelay, then the ramp begins */
static void start_job(struct worker *w, struct meter *m)
{
	const struct job *j = w->job;
	start_line(w);
	for (int i = 0; i < w->nwaitee && !group_stopped(w);)    /* fio's wait_for */
		if (__atomic_load_n(&w->waitee[i].finished, __ATOMIC_ACQUIRE))
			i++;
		else
			sleep_until(now_ns() + 10000000);
	if (j->startdelay > 0) {
		/* in 10 ms steps, so that an exitall ends the wait */
		uint64_t t = now_ns(), end = t + (uint64_t)(j->startdelay * 1e9);
		for (; t < end && !group_stopped(w); t = now_ns())
			sleep_until(end - t > 10000000 ? t + 10000000 : end);
	}
	m->t_begin = now_ns();
	m->ramp_end = m->t_begin + (uint64_t)(j->ramp_time * 1e9);
}

/* a wait for completions of at most *to ns, shortened to end at until (a rate cap's next
 * issue; 0: none): whether it was */
static int cap_wait(uint64_t until, uint64_t *to)
{
	uint64_t now;
	if (!until || (now = now_ns()) + *to <= until)
		return 0;
	*to = until > now ? until - now : 1;
	return 1;
}


static void begin_counting(struct worker *w, struct meter *m, uint64_t now)
{
	const struct job *j = w->job;
	memset(w->depth_map, 0, sizeof w->depth_map);
	memset(w->submit_map, 0, sizeof w->submit_map);
	memset(w->complete_map, 0, sizeof w->complete_map);
	for (int d = 0; d < DDIR_N; d++)
		ddir_stats_init(&w->st[d]);
	moments_init(&w->sync_lat);
	w->sync_ios = 0;
	w->ver.ios = w->ver.ns = w->pass_ns = 0;   /* checks' reads and time before now: the ramp's */
	w->start_ns = now;
	w->smp.n = 0;            /* --latency_target's final window starts the figures again */
	getrusage(RUSAGE_THREAD, &w->ru_start);
	iolog_start(&w->log, now);
	iolog_start(&w->hlog, now);
	m->ss_next = now + 1000000000ull;
	m->ss_sec = 0;
	m->ss_ios = m->ss_bytes = 0;
	m->counting = 1;
	m->deadline = j->runtime > 0 ? now + (uint64_t)(j->runtime * 1e9) : 0;
	m->next_sample = now + m->interval;
	memset(m->cur_ios, 0, sizeof m->cur_ios);
	memset(m->cur_bytes, 0, sizeof m->cur_bytes);
}

/* ---- fio's latency_target ---- */

static void lat_new_cycle(struct meter *m, uint64_t now)
{
	m->lat_ts = now;
	m->lat_ios = m->lat_failed = 0;
}

/* after a change of depth from qd: the same depth again (fio's "done") means found; the
 * figures start again for one more window at it, then the job ends */
static void lat_settle(struct worker *w, struct meter *m, int qd, uint64_t now)
{
	if (w->job->lat_run || m->qd != qd)
		return;
	if (m->lat_end_run) {
		m->lat_done = 1;
	} else {
		m->lat_end_run = 1;
		if (m->counting)
			begin_counting(w, m, now);
	}
}

/* the window met the target: deeper (doubling until a depth fails, then bisecting) */
static void lat_success(struct worker *w, struct meter *m, uint64_t now)
{
	const int qd = m->qd, max = w->job->iodepth;
	m->qd_low = qd;
	m->qd = m->qd_high > max ? 2 * qd : (qd + m->qd_high) / 2;
	if (m->qd > max)
		m->qd = max;
	lat_settle(w, m, qd, now);
	lat_new_cycle(m, now);
}

/* the window missed it: shallower, between the last depth that met it and this one; at
 * depth 1 and --latency_percentile=100 the target cannot be met (fio's: the job fails) */
static void lat_failure(struct worker *w, struct meter *m, uint64_t now)
{
	const struct job *j = w->job;
	if (m->qd == 1) {
		if (j->lat_pct >= 100)
			set_err(w, ETIMEDOUT, "--latency_target: an I/O took longer than the target at iodepth 1 "
				"(give a higher --latency_target or a lower --latency_percentile)", UINT64_MAX);
		lat_new_cycle(m, now);
		return;
	}
	m->qd_high = m->qd;
	if (m->qd_low >= m->qd)
		m->qd_low = m->qd - 1;
	m->qd = (m->qd + m->qd_low) / 2;
	if (m->qd < 1)
		m->qd = 1;
	lat_new_cycle(m, now);
}

/* a completed I/O's total latency; I/Os issued before the window (at another depth) do
 * not count in it */
static void lat_account(struct worker *w, struct meter *m, const struct slot *s, uint64_t t_done)
{
	const struct job *j = w->job;
	if (s->t_prep < m->lat_ts)
		return;
	m->lat_ios++;
	if (t_done - s->t_prep <= j->lat_target_ns)
		return;
	m->lat_failed++;
	if (j->lat_pct >= 100)
		lat_failure(w, m, t_done);
}

/* the window's end: its share of I/Os within the target decides */
static void lat_check(struct worker *w, struct meter *m, uint64_t now)
{
	const struct job *j = w->job;
	if (now - m->lat_ts < j->lat_window_ns || !m->lat_ios)
		return;
	if (100.0 * (double)(m->lat_ios - m->lat_failed) / (double)m->lat_ios >= j->lat_pct)
		lat_success(w, m, now);
	else
		lat_failure(w, m, now);
}

void worker_snapshot(const struct worker *w, struct worker *dst, uint64_t now)
{
	memcpy(dst, w, sizeof *dst);
	memset(&dst->log, 0, sizeof dst->log);
	memset(&dst->hlog, 0, sizeof dst->hlog);
	dst->vmap = NULL;
	dst->tmap = NULL;
	dst->dedupe = NULL;
	dst->ss = NULL;
	for (int d = 0; d < DDIR_N; d++) {
		dst->smp.ios[d] = w->smp.n ? malloc(w->smp.n * sizeof *dst->smp.ios[d]) : NULL;
		dst->smp.bytes[d] = w->smp.n ? malloc(w->smp.n * sizeof *dst->smp.bytes[d]) : NULL;
		if (w->smp.n && (!dst->smp.ios[d] || !dst->smp.bytes[d])) {
			dst->smp.n = 0;
			continue;
		}
		if (w->smp.n) {
			memcpy(dst->smp.ios[d], w->smp.ios[d], w->smp.n * sizeof *dst->smp.ios[d]);
			memcpy(dst->smp.bytes[d], w->smp.bytes[d], w->smp.n * sizeof *dst->smp.bytes[d]);
		}
	}
	dst->smp.cap = dst->smp.n;
	if (now) {
		dst->end_ns = now;
		getrusage(RUSAGE_THREAD, &dst->ru_end);
	}
}

void worker_snap_free(struct worker *dst)
{
	for (int d = 0; d < DDIR_N; d++) {
		free(dst->smp.ios[d]);
		free(dst->smp.bytes[d]);
	}
}

/* --status-interval: a status report asks for this thread's figures so far */
static void snap_answer(struct worker *w, const struct meter *m, uint64_t now)
{
	unsigned gen = __atomic_load_n(w->snap_req, __ATOMIC_ACQUIRE);
	if (gen == w->snap_seen)
		return;
	worker_snapshot(w, w->snap_dst, m->counting ? now : 0);
	if (!m->counting)
		w->snap_dst->end_ns = w->snap_dst->start_ns = 0;
	__atomic_store_n(&w->snap_seen, gen, __ATOMIC_RELEASE);
}

/* fio's rate_min/rate_iops_min: each --rate_cycle of measuring, a direction slower than its
 * minimum fails the job */
static void min_rate_check(struct worker *w, struct meter *m, uint64_t now)
{
	const struct job *j = w->job;
	double cyc = (double)(now - (m->mr_next - j->rate_cycle_ns)) / 1e9;
	for (int d = 0; m->mr_next && d < DDIR_N && !w->err; d++) {
		uint64_t ios = w->prog_ios[d] - m->mr_ios[d], bytes = w->prog_bytes[d] - m->mr_bytes[d];
		if (!(rw_dirs(j->rw) >> d & 1))
			continue;      /* only the directions the job does */
		if (j->min_bps[d] && (double)bytes / cyc < (double)j->min_bps[d]) {
			w->err = ETIMEDOUT;
			snprintf(w->errmsg, sizeof w->errmsg, "--rate_min: %ss at %.0f B/s over the last %.0f ms, under "
				 "the minimum %llu B/s", ddir_name[d], (double)bytes / cyc, cyc * 1e3,
				 (unsigned long long)j->min_bps[d]);
		} else if (j->min_gap_ns[d] && (double)ios / cyc < 1e9 / (double)j->min_gap_ns[d] - 0.5) {
			w->err = ETIMEDOUT;
			snprintf(w->errmsg, sizeof w->errmsg, "--rate_iops_min: %ss at %.0f IOPS over the last %.0f ms, "
				 "under the minimum %.0f", ddir_name[d], (double)ios / cyc, cyc * 1e3,
				 1e9 / (double)j->min_gap_ns[d]);
		}
	}
	memcpy(m->mr_ios, w->prog_ios, sizeof m->mr_ios);
	memcpy(m->mr_bytes, w->prog_bytes, sizeof m->mr_bytes);
	m->mr_next = now + j->rate_cycle_ns;
}

/* the top of every engine's loop: measuring starts once the ramp and the warm-up are
 * over; returns whether to stop issuing (a failure, or the runtime is up) */
static int loop_tick(struct worker *w, struct meter *m, uint64_t now)
{
	if (!m->counting && now >= m->ramp_end && !m->warm_left)
		begin_counting(w, m, now);
	if (w->snap_req)
		snap_answer(w, m, now);
	if (w->job->min_rate && m->counting && now >= m->mr_next)
		min_rate_check(w, m, now);
	if (w->job->lat_target_ns)
		lat_check(w, m, now);
	return w->err || m->lat_done || (m->deadline && now >= m->deadline) || group_stopped(w) ||
	       ss_stopped(w->ss);
}

static void sample_tick(struct worker *w, struct meter *m, uint64_t now)
{
	for (; w->ss && m->counting && now >= m->ss_next; m->ss_next += 1000000000ull) {
		ss_add(w->ss, m->ss_sec++, m->ss_ios, m->ss_bytes);
		m->ss_ios = m->ss_bytes = 0;
	}
	while (m->counting && now >= m->next_sample) {
		struct samples *s = &w->smp;
		if (s->n < s->cap || !samples_grow(s)) {
			for (int d = 0; d < DDIR_N; d++) {
				s->ios[d][s->n] = (uint32_t)m->cur_ios[d];
				s->bytes[d][s->n] = m->cur_bytes[d];
			}
			s->n++;
		}
		memset(m->cur_ios, 0, sizeof m->cur_ios);
		memset(m->cur_bytes, 0, sizeof m->cur_bytes);
		m->next_sample += m->interval;
	}
}

/* fio's iodepth_low: once the queue is full, nothing more is queued until it has drained
 * to iodepth_low; whether another I/O may be queued now (inflight in flight) */
static int may_queue(const struct job *j, struct meter *m, int inflight)
{
	if (j->iodepth_low >= m->qd)
		return 1;
	if (inflight >= m->qd)
		m->draining = 1;
	else if (inflight <= j->iodepth_low)
		m->draining = 0;
	return !m->draining;
}

/* a submit (or reap) call that sent (took) nr I/Os, into fio's buckets */
static void mark_calls(const struct meter *m, uint64_t map[7], int nr)
{
	if (m->counting && nr >= 0)
		map[nr == 0 ? 0 : nr <= 4 ? 1 : nr <= 8 ? 2 : nr <= 16 ? 3 : nr <= 32 ? 4 : nr <= 64 ? 5 : 6]++;
}

/* fio's "IO depths": nr I/Os submitted with depth in flight after the submit */
static void mark_depth(struct worker *w, const struct meter *m, int depth, int nr)
{
	int idx = depth >= 64 ? 6 : depth >= 32 ? 5 : depth >= 16 ? 4 : depth >= 8 ? 3 :
		  depth >= 4 ? 2 : depth >= 2 ? 1 : 0;
	if (m->counting)
		w->depth_map[idx] += (uint64_t)nr;
}

/* after a queued engine's submit: the slots batch[*issued..queued) were issued now, at
 * depth inflight; the next I/O's preparation starts now (*t_prep) */
static void issued_now(struct worker *w, const struct meter *m, struct slot *slots, const int *batch,
		       int *issued, int queued, int inflight, uint64_t *t_prep)
{
	uint64_t t_issue = now_ns();
	for (int i = *issued; i < queued; i++)
		if (!slots[batch[i]].sync)   /* (vsync's: issued when queued, done in the submit) */
			slots[batch[i]].t_issue = t_issue;
	mark_depth(w, m, inflight, queued - *issued);
	mark_calls(m, w->submit_map, queued - *issued);
	*issued = queued;
	*t_prep = t_issue;
}

static void backlog_add(struct worker *w, int f, uint64_t off, uint64_t len);
static void check_read(struct worker *w, const struct slot *s, long res);
static void backlog_check(struct worker *w, struct meter *m, int queued);
static void pass_check(struct worker *w, struct meter *m, int queued);

/* one I/O done (res bytes) into the figures of its direction: fio's slat, clat, lat */
static void count_io(const struct job *j, struct ddir_stats *st, const struct slot *s, long res, uint64_t t_done)
{
	st->ios++;
	st->bytes += (uint64_t)res;
	if ((uint64_t)res < s->len)
		st->short_ios++;
	if (s->sync)
		;
	else if (j->slat_pcts)
		hist_add(&st->slat, s->t_issue - s->t_prep);
	else
		moments_add(&st->slat.m, s->t_issue - s->t_prep);
	hist_add(&st->clat, t_done - s->t_issue);
	if (j->lat_pcts)
		hist_add(&st->lat, t_done - s->t_prep);
	else
		moments_add(&st->lat.m, t_done - s->t_prep);
	/* fio's per-priority figures: one kind of latency, clat, or lat with --lat_percentiles */
	if (s->ddir < DDIR_TRIM && j->cmdprio_pct[s->ddir])
		hist_add(&st->prio[s->prio], j->lat_pcts ? t_done - s->t_prep : t_done - s->t_issue);
}

/* fio's cmdprio_percentage and cmdprio_bssplit: the priority this I/O goes at (fio's draw:
 * 0-99, once the I/O's size has shares; under their total, the share it falls in) */
static void pick_prio(const struct job *j, struct meter *m, struct slot *s)
{
	const struct cmdprio_ent *e, *end;
	int tot = 0, r;
	s->prio = 0;
	if (s->ddir >= DDIR_TRIM || !j->cmdprio_pct[s->ddir])
		return;
	e = j->cmdprio_ent[s->ddir];
	end = e + j->cmdprio_nent[s->ddir];
	while (e < end && e->bs && e->bs != s->len)
		e++;
	for (const struct cmdprio_ent *q = e; q < end && q->bs == e->bs; q++)
		tot += q->pct;
	if (!tot || (r = (int)prng_below(&m->prio_rng, 100)) >= tot)
		return;
	for (int cum = 0; e < end; e++)
		if (r < (cum += e->pct)) {
			s->prio = e->idx;
			return;
		}
}

static unsigned slot_ioprio(const struct job *j, const struct slot *s)
{
	return s->prio ? j->cmdprio_val[s->ddir][s->prio] : j->ioprio < 0 ? 0 : (unsigned)j->ioprio;
}

/* account one completed I/O */
static void account(struct worker *w, struct meter *m, struct slot *s, long res, uint64_t t_done)
{
	const struct job *j = w->job;
	struct ddir_stats *st = &w->st[s->ddir];
	m->think_done += !j->think_issue;
	if (j->zt)
		zbd_done(j->zt, &w->zbd, s->ddir, s->off, s->len);
	if (res < 0) {
		if (res == -EOPNOTSUPP && j->hipri)
			set_err(w, EOPNOTSUPP, "--hipri: polled I/O on this device (NVMe needs poll queues: "
				"nvme.poll_queues=N)", UINT64_MAX);
		else if (res == -EOPNOTSUPP && s->ddir == DDIR_TRIM)
			set_err(w, EOPNOTSUPP, w->dev->is_file ? "trim: the file system cannot punch holes"
							       : "trim: the device cannot discard", UINT64_MAX);
		else   /* fio's: a trim's error is a write error */
			io_error(w, s, s->ddir == DDIR_READ ? COE_READ : COE_WRITE, (int)-res, ddir_name[s->ddir]);
		return;
	}
	if (res == 0) {
		set_err(w, EIO, s->ddir == DDIR_READ ? "read returned no data (end of device?)"
			       : s->ddir == DDIR_WRITE ? "write wrote nothing" : "trim trimmed nothing", s->off);
		return;
	}
	if (j->lat_target_ns)
		lat_account(w, m, s, t_done);
	if (j->max_lat_ns[s->ddir] && t_done - s->t_prep > j->max_lat_ns[s->ddir] && !w->err) {
		/* fio's max_latency: the job fails with ETIMEDOUT */
		w->err = ETIMEDOUT;
		snprintf(w->errmsg, sizeof w->errmsg, "a %s at offset %llu took %llu us, over --max_latency=%llu us",
			 ddir_name[s->ddir], (unsigned long long)s->off,
			 (unsigned long long)((t_done - s->t_prep) / 1000),
			 (unsigned long long)(j->max_lat_ns[s->ddir] / 1000));
	}
	__atomic_store_n(&w->prog_ios[s->ddir], w->prog_ios[s->ddir] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->prog_bytes[s->ddir], w->prog_bytes[s->ddir] + (uint64_t)res, __ATOMIC_RELAXED);
	if (s->ddir == DDIR_WRITE && j->sfr_n) {   /* fio's: the range sync_file_range covers */
		w->sfr_lo[s->file] = s->off < w->sfr_lo[s->file] ? s->off : w->sfr_lo[s->file];
		w->sfr_hi[s->file] = s->off + (uint64_t)res > w->sfr_hi[s->file] ? s->off + (uint64_t)res : w->sfr_hi[s->file];
	}
	if (s->ddir == DDIR_WRITE && w->vmap)
		verify_mark(w, s->file, s->off, (uint64_t)res);
	if (s->ddir == DDIR_WRITE && w->bl)
		backlog_add(w, s->file, s->off, (uint64_t)res);
	if (s->ddir == DDIR_READ && j->verify && j->do_verify && !rw_writes(j->rw) && !j->verify_only)
		check_read(w, s, res);
	if (m->warm_left) {
		m->warm_left--;
		return;
	}
	if (!s->counted)
		return;
	if (w->hlog.on)
		iolog_hist_tick(&w->hlog, t_done);
	count_io(j, st, s, res, t_done);
	m->cur_ios[s->ddir]++;
	m->cur_bytes[s->ddir] += (uint64_t)res;
	m->ss_ios++;
	m->ss_bytes += (uint64_t)res;
	if (w->log.on)
		iolog_io(&w->log, s->ddir, s->off, s->len, s->t_issue - s->t_prep, t_done - s->t_issue, t_done,
			 IOLOG_F_RATE | (s->sync ? 0 : IOLOG_F_SLAT) | IOLOG_F_PRIO(s->prio));
}

/* fio's trim: the range discarded (BLKDISCARD; a file's blocks freed by punching a hole);
 * len, or -errno */
static long trim_range(struct worker *w, int f, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };
	const struct wfile *wf = &w->f[f];
	long z = w->job->zt ? zbd_trim(w->job->zt, &w->zbd, wf->fd, off, len) : 0;
	int r;
	if (z)   /* --zonemode=zbd: a sequential zone's trim is its reset */
		return z;
	r = wf->dev->is_file ? fallocate(wf->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len)
				 : ioctl(wf->trim_fd, BLKDISCARD, range);
	return r ? -errno : (long)len;
}

/* a trim on a queued engine, as fio does it (io_uring and libaio): at once, in this thread,
 * its time the completion latency; whether the job is to stop */
static int sync_trim(struct worker *w, struct meter *m, uint64_t t_prep, int inflight, int f, uint64_t off,
		     uint64_t len)
{
	struct slot s = { .t_prep = t_prep, .off = off, .len = len, .ddir = DDIR_TRIM, .file = f,
			  .counted = m->counting, .sync = 1 };
	uint64_t t_done;
	long r;
	s.t_issue = now_ns();
	r = trim_range(w, f, off, len);
	t_done = now_ns();
	mark_depth(w, m, inflight + 1, 1);
	account(w, m, &s, r, t_done);
	sample_tick(w, m, t_done);
	return loop_tick(w, m, t_done);
}

/* ---- io_uring ---- */

static const struct { unsigned flag; const char *name; } ring_flags[] = {
	{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
	{ IORING_SETUP_TASKRUN_FLAG, "TASKRUN_FLAG" },
	{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
	{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
};

/* Ask for every flag; on EINVAL drop them one by one, newest first (fio does the same),
 * so the ring works on 6.1 and on newer kernels alike. */
static int ring_setup(struct io_uring *ring, unsigned entries, struct worker *w)
{
	const struct job *j = w->job;
	unsigned flags = 0, must = 0;
	int r, n = (int)(sizeof ring_flags / sizeof ring_flags[0]);
	/* fio's sqthread_poll (a kernel thread takes the submissions: the task-run flags make
	 * no sense with it) and hipri (polled completions) are asked for, never dropped */
	if (j->sqpoll)
		must |= IORING_SETUP_SQPOLL | (j->sqpoll_cpu >= 0 ? IORING_SETUP_SQ_AFF : 0);
	else
		for (int i = 0; i < n; i++)
			flags |= ring_flags[i].flag;
	if (j->hipri)
		must |= IORING_SETUP_IOPOLL;
	if (j->force_uring_errno)
		return -j->force_uring_errno;
	for (int drop = n;; drop--) {
		struct io_uring_params p;
		memset(&p, 0, sizeof p);
		p.flags = flags | must;
		if (j->sqpoll_cpu >= 0)
			p.sq_thread_cpu = (unsigned)j->sqpoll_cpu;
		r = io_uring_queue_init_params(entries, ring, &p);
		if (r != -EINVAL || drop == 0 || !flags)
			break;
		flags &= ~ring_flags[drop - 1].flag;
	}
	if (!r) {
		size_t l = 0;
		w->uring_flags[0] = 0;
		for (int i = 0; i < n; i++)
			if (flags & ring_flags[i].flag)
				l += (size_t)snprintf(w->uring_flags + l, sizeof w->uring_flags - l, "%s%s",
						      l ? "|" : "", ring_flags[i].name);
		if (must)
			snprintf(w->uring_flags + l, sizeof w->uring_flags - l, "%s%s%s", l ? "|" : "",
				 j->sqpoll ? "SQPOLL" : "", j->hipri ? (j->sqpoll ? "|IOPOLL" : "IOPOLL") : "");
	}
	return r;
}

struct uring_ctx {
	struct io_uring ring;
	int spin_flag;      /* TASKRUN_FLAG accepted, iodepth 1, --spin > 0: spin */
	unsigned spins, spin_hits;
	struct slot *slots;
	int *free_slots;
	int nfree;
	int inflight;
	char *bufs;
	int fixed_file;     /* the job's files registered, each at its index */
	int fixed_bufs;
	uint64_t until;     /* a rate cap holds the next I/O until then: wait no longer (ns) */
};

#define SPIN_PROBE 256

/* Spin up to --spin microseconds for the completion before sleeping (iodepth 1 only):
 * waking a sleeping thread can take longer than a fast device (an IPI, a halted vCPU)
 * and would dominate its latency.  A device slower than the spin soon shows it: after
 * SPIN_PROBE tries with fewer than half caught, spinning stops for the job. */
static void spin(struct uring_ctx *u, const struct job *j)
{
	uint64_t until = now_ns() + (uint64_t)(j->spin_us * 1000);
	int hit = 0;
	while (now_ns() < until)
		if ((IO_URING_READ_ONCE(*u->ring.sq.kflags) & IORING_SQ_TASKRUN) ||
		    io_uring_cq_ready(&u->ring)) {
			hit = 1;
			break;
		} else {
			__builtin_ia32_pause();
		}
	u->spins++;
	u->spin_hits += (unsigned)hit;
	if (u->spins == SPIN_PROBE && u->spin_hits < SPIN_PROBE / 2)
		u->spin_flag = 0;
}

static void prep_rw(struct uring_ctx *u, const struct worker *w, struct io_uring_sqe *sqe, int op_write,
		    int slot, uint64_t off)
{
	const struct job *j = w->job;
	int f = u->slots[slot].file, fd = u->fixed_file ? f : w->f[f].fd;
	void *buf = u->bufs + (size_t)slot * j->bs_max;
	if (u->fixed_bufs) {
		if (op_write)
			io_uring_prep_write_fixed(sqe, fd, buf, (unsigned)u->slots[slot].len, off, slot);
		else
			io_uring_prep_read_fixed(sqe, fd, buf, (unsigned)u->slots[slot].len, off, slot);
	} else {
		if (op_write)
			io_uring_prep_write(sqe, fd, buf, (unsigned)u->slots[slot].len, off);
		else
			io_uring_prep_read(sqe, fd, buf, (unsigned)u->slots[slot].len, off);
	}
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	/* the job's priority said in each I/O too, as fio's: an --sqthread_poll thread (or an
	 * io-wq worker) submitting it does not have the job thread's ioprio_set */
	if (j->cmdprio_pct[0] || j->cmdprio_pct[1] || j->ioprio >= 0)
		sqe->ioprio = (uint16_t)slot_ioprio(j, &u->slots[slot]);
	if (j->nowait)   /* fio's: EAGAIN rather than waiting for a resource */
		sqe->rw_flags |= RWF_NOWAIT;
	io_uring_sqe_set_data64(sqe, (uint64_t)slot);
}

/* wait for wait_nr completions, bounded by the job's io_timeout; reaps what is there, at
 * most max (0: all) */
static int uring_reap(struct worker *w, struct meter *m, struct uring_ctx *u, int wait_nr, int max)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	uint64_t t_done;
	int r;
	if (wait_nr && w->job->hipri) {
		/* polled completions: the kernel polls the device on each entry and ignores
		 * a wait's timeout, so poll from here, bounded by --io-timeout (or a rate
		 * cap's next issue) */
		uint64_t t0 = now_ns(), to = (uint64_t)(w->job->io_timeout * 1e9);
		while (io_uring_cq_ready(&u->ring) < (unsigned)wait_nr) {
			uint64_t now = now_ns();
			if (u->until && now >= u->until)
				break;
			if (now - t0 > to) {
				set_err(w, ETIMEDOUT, "no I/O completed for --io-timeout: the device stalled",
					UINT64_MAX);
				return -1;
			}
			r = io_uring_get_events(&u->ring);
			if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY) {
				set_err(w, -r, "io_uring poll", UINT64_MAX);
				return -1;
			}
		}
	} else if (wait_nr) {
		struct __kernel_timespec ts;
		uint64_t to = (uint64_t)(w->job->io_timeout * 1e9);
		int capped = cap_wait(u->until, &to);
		ts.tv_sec = (long long)(to / 1000000000ull);
		ts.tv_nsec = (long long)(to % 1000000000ull);
		r = io_uring_submit_and_wait_timeout(&u->ring, &cqe, (unsigned)wait_nr, &ts, NULL);
		if (r == -ETIME && capped) {
			r = 0;          /* time for the next I/O: go issue it */
		} else if (r == -ETIME) {
			set_err(w, ETIMEDOUT, "no I/O completed for --io-timeout: the device stalled",
				UINT64_MAX);
			return -1;
		}
		if (r < 0 && r != -EINTR && r != -EAGAIN && r != -EBUSY) {
			set_err(w, -r, "io_uring wait", UINT64_MAX);
			return -1;
		}
	}
	t_done = now_ns();
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		uint64_t ud = io_uring_cqe_get_data64(cqe);
		if (max && n >= (unsigned)max)
			break;
		n++;
		if (ud == SYNC_SLOT)
			continue;
		if (ud & REWRITE_READ) {
			/* the read half of a rewrite: only a failure matters (the linked
			 * write is then cancelled and reports -ECANCELED) */
			struct slot *s = &u->slots[ud & ~REWRITE_READ];
			if (cqe->res < 0)
				s->rd_failed = io_error(w, s, COE_READ, -cqe->res, "rewrite read");
			else if ((uint64_t)cqe->res < s->len)
				set_err(w, EIO, "rewrite read came back short", s->off);
			continue;
		}
		{
			struct slot *s = &u->slots[ud];
			if (!(cqe->res == -ECANCELED && (w->err || s->rd_failed)))
				account(w, m, s, cqe->res, t_done);
			s->busy = s->rd_failed = 0;
			u->free_slots[u->nfree++] = (int)ud;
			u->inflight--;
		}
	}
	io_uring_cq_advance(&u->ring, n);
	if (n)
		mark_calls(m, w->complete_map, (int)n);
	sample_tick(w, m, t_done);
	return (int)n;
}

/* n free submission entries, before any is filled: the ring has one for every I/O in
 * flight, but with sqthread_poll the kernel's thread may not have taken the last ones
 * yet; waiting for them submits what is queued, which must never split a rewrite's
 * linked read and write. 0, or -1 with the worker's error set. */
static int sq_reserve(struct worker *w, struct uring_ctx *u, unsigned n)
{
	while (io_uring_sq_space_left(&u->ring) < n) {
		int r;
		io_uring_submit(&u->ring);
		r = io_uring_sqring_wait(&u->ring);
		if (r < 0) {
			set_err(w, -r, "io_uring: no submission entry free", UINT64_MAX);
			return -1;
		}
	}
	return 0;
}

/* fdatasync (full: fsync) through the ring once every write in flight has completed */
static void uring_sync(struct worker *w, struct meter *m, struct uring_ctx *u, int full)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	uint64_t t0;
	while (u->inflight && !w->err)
		if (uring_reap(w, m, u, 1, 0) < 0)
			return;
	if (w->job->nfiles > 1 || full == SYNC_RANGE) {   /* fio's a:b: each file in turn */
		timed_sync(w, m, full);
		return;
	}
	if (sq_reserve(w, u, 1) < 0)
		return;
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return;
	log_issue(w, m, 0, full ? RP_SYNC : RP_DATASYNC, 0, 0);
	io_uring_prep_fsync(sqe, u->fixed_file ? 0 : w->fd, full ? 0 : IORING_FSYNC_DATASYNC);
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, SYNC_SLOT);
	t0 = now_ns();
	if (io_uring_submit_and_wait(&u->ring, 1) < 0 || io_uring_wait_cqe(&u->ring, &cqe)) {
		set_err(w, EIO, full ? "fsync could not be submitted" : "fdatasync could not be submitted", UINT64_MAX);
		return;
	}
	if (cqe->res < 0)
		set_err(w, -cqe->res, full ? "fsync" : "fdatasync", UINT64_MAX);
	else if (m->counting) {
		moments_add(&w->sync_lat, now_ns() - t0);
		w->sync_ios++;
	}
	io_uring_cqe_seen(&u->ring, cqe);
}

/* submit what was prepared since the last submit: the slots batch[*issued..queued); the
 * next I/O's preparation starts now (*t_prep) */
static int uring_submit(struct worker *w, const struct meter *m, struct uring_ctx *u, const int *batch,
			int *issued, int queued, uint64_t *t_prep)
{
	/* with sqthread_poll the kernel's thread takes the queue: enter only to wake it */
	int r = w->job->sqpoll ? io_uring_submit(&u->ring) : io_uring_submit_and_get_events(&u->ring);
	if (r < 0) {
		set_err(w, -r, "io_uring submit", UINT64_MAX);
		return -1;
	}
	issued_now(w, m, u->slots, batch, issued, queued, u->inflight, t_prep);
	return 0;
}

/* whether the I/Os just prepared go in with the wait for completions (assay's batching
 * at depth, with the ring empty so that a wait comes next anyway): not at iodepth 1, where
 * fio's two calls and so fio's slat and clat are kept (one call there saved CPU but no
 * IOPS, docs/compare-fio.md), nor with a rate cap's wait, polling (sqthread_poll, hipri)
 * or --iodepth_batch_complete_min=0 */
static int wait_in_submit(const struct job *j, struct uring_ctx *u, int more)
{
	return j->batch_default && j->iodepth > 1 && j->batch_cmin > 0 && more >= 0 && !j->sqpoll && !j->hipri &&
	       !io_uring_cq_ready(&u->ring);
}

static int run_uring(struct worker *w, struct meter *m, struct iogen *g, char *bufs)
{
	const struct job *j = w->job;
	struct uring_ctx u = { 0 };
	int rewrite = j->mode == MODE_REWRITE;
	unsigned entries = (unsigned)j->iodepth * (rewrite ? 2u : 1u);
	uint64_t writes_since_sync = 0;
	struct prng scr;
	int *batch = NULL;
	uint64_t last_done;
	int r = ring_setup(&u.ring, entries, w);
	if (r < 0)
		return r;
	u.bufs = bufs;
	u.spin_flag = strstr(w->uring_flags, "TASKRUN_FLAG") && j->iodepth == 1 && j->spin_us > 0;
	u.slots = calloc((size_t)j->iodepth, sizeof *u.slots);
	u.free_slots = calloc((size_t)j->iodepth, sizeof *u.free_slots);
	if (!u.slots || !u.free_slots) {
		set_err(w, ENOMEM, "I/O slots", UINT64_MAX);
		goto out;
	}
	for (int i = 0; i < j->iodepth; i++)
		u.free_slots[u.nfree++] = j->iodepth - 1 - i;
	m->ov_slots = u.slots;
	m->ov_n = j->iodepth;
	if (j->registerfiles) {   /* the job's files, each at its index */
		int fds[MAX_FILES];
		for (int f = 0; f < j->nfiles; f++)
			fds[f] = w->f[f].fd;
		u.fixed_file = !io_uring_register_files(&u.ring, fds, (unsigned)j->nfiles);
	}
	if (j->fixedbufs) {
		struct iovec *iov = calloc((size_t)j->iodepth, sizeof *iov);
		for (int i = 0; iov && i < j->iodepth; i++) {
			iov[i].iov_base = bufs + (size_t)i * j->bs_max;
			iov[i].iov_len = j->bs_max;
		}
		if (iov && !io_uring_register_buffers(&u.ring, iov, (unsigned)j->iodepth))
			u.fixed_bufs = 1;
		free(iov);
	}
	prng_seed(&scr, j->randseed ^ 0x5eedull ^ (uint64_t)w->idx);
	start_job(w, m);
	last_done = now_ns();
	batch = calloc((size_t)j->iodepth, sizeof *batch);
	if (!batch) {
		set_err(w, ENOMEM, "I/O slots", UINT64_MAX);
		goto out;
	}
	for (;;) {
		int queued = 0, issued = 0, ddir, more = 1;
		uint64_t off, len, t_prep = now_ns(), until = 0;
		int stop = loop_tick(w, m, t_prep);
		while (!stop && may_queue(j, m, u.inflight) && u.nfree && u.inflight < m->qd && (more = next_io(w, m, g, t_prep, u.inflight, &ddir, &off, &len, &until)) > 0) {
			int slot, pair = ddir == DDIR_WRITE && rewrite;
			struct io_uring_sqe *sqe;
			log_issue(w, m, m->io_file, ddir, off, len);
			if (ddir == DDIR_TRIM) {
				stop = sync_trim(w, m, t_prep, u.inflight, m->io_file, off, len);
				t_prep = now_ns();
				continue;
			}
			if (sq_reserve(w, &u, pair ? 2 : 1) < 0)
				break;
			slot = slot_take(u.slots, u.free_slots, &u.nfree, m->counting, t_prep, ddir, m->io_file, off, len);
			pick_prio(j, m, &u.slots[slot]);
			u.slots[slot].buf = bufs + (size_t)slot * j->bs_max;
			sqe = io_uring_get_sqe(&u.ring);
			if (pair) {
				prep_rw(&u, w, sqe, 0, slot, off);
				sqe->flags |= IOSQE_IO_LINK;
				io_uring_sqe_set_data64(sqe, (uint64_t)slot | REWRITE_READ);
				sqe = io_uring_get_sqe(&u.ring);
				prep_rw(&u, w, sqe, 1, slot, off);
			} else {
				if (ddir == DDIR_WRITE)   /* in its slat, as fio's data and verify header */
					scramble(w, bufs + (size_t)slot * j->bs_max, off, len, &scr);
				prep_rw(&u, w, sqe, ddir == DDIR_WRITE, slot, off);
			}
			u.inflight++;
			batch[queued++] = slot;
			if (queued - issued >= j->batch_submit && uring_submit(w, m, &u, batch, &issued, queued, &t_prep) < 0)
				break;
			if (ddir == DDIR_WRITE && j->fdatasync && ++writes_since_sync >= (uint64_t)j->fdatasync)
				break;
			if (ddir == DDIR_WRITE && j->sfr_n && ++m->sfr_writes >= j->sfr_n)
				break;
			if (ddir == DDIR_WRITE && j->verify_backlog && ++w->bl_writes >= j->verify_backlog)
				break;
			if (w->passes_left && (w->pass_bytes += len) >= w->pass_len)
				break;
		}
		if (w->err)
			break;
		r = -1;   /* nothing reaped yet */
		if (queued > issued && wait_in_submit(j, &u, more)) {
			/* nothing in the ring and a wait to come: the submit waits too, one
			 * io_uring_enter (submit_and_wait) where fio makes two; the I/Os are
			 * issued when that call is made */
			issued_now(w, m, u.slots, batch, &issued, queued, u.inflight, &t_prep);
			r = uring_reap(w, m, &u, j->batch_cmin < u.inflight ? j->batch_cmin : u.inflight, j->batch_cmax);
			if (r < 0)
				break;
		} else if (queued > issued && uring_submit(w, m, &u, batch, &issued, queued, &t_prep) < 0) {
			break;
		}
		if (j->fdatasync && writes_since_sync >= (uint64_t)j->fdatasync) {
			uring_sync(w, m, &u, j->fsync_full);
			writes_since_sync = 0;
		}
		if (j->sfr_n && m->sfr_writes >= j->sfr_n) {
			uring_sync(w, m, &u, SYNC_RANGE);
			m->sfr_writes = 0;
		}
		if ((j->verify_backlog && w->bl_writes >= j->verify_backlog) || (w->passes_left && w->pass_bytes >= w->pass_len)) {
			while (u.inflight && !w->err && uring_reap(w, m, &u, 1, 0) >= 0)
				;
			if (w->passes_left && w->pass_bytes >= w->pass_len)
				pass_check(w, m, 1);
			else
				backlog_check(w, m, 1);
		}
		if (!u.inflight) {
			/* nothing in flight: a rate cap's wait, or done unless a sync drained a
			 * batch just queued */
			if (!stop && more < 0) {
				sleep_until(until);
				last_done = now_ns();
				continue;
			}
			if (stop || !queued)
				break;
			continue;
		}
		u.until = more < 0 ? until : 0;
		/* reap what is there; wait only for what --iodepth_batch_complete_min still
		 * asks -- after spinning --spin microseconds for it at iodepth 1: waking a
		 * sleeping thread can cost more than a fast device takes (an IPI, a halted
		 * vCPU), at the price of CPU time.  (Reaped in the submit already: done.) */
		if (r < 0)
			r = uring_reap(w, m, &u, 0, j->batch_cmax);
		if (r >= 0 && r < j->batch_cmin) {
			int want = j->batch_cmin - r;
			if (r == 0 && u.spin_flag)
				spin(&u, j);
			r = uring_reap(w, m, &u, want < u.inflight ? want : u.inflight, j->batch_cmax);
		} else if (r == 0 && !j->batch_cmin) {
			/* polling: completions wait in the kernel until the ring is entered */
			io_uring_get_events(&u.ring);
			r = uring_reap(w, m, &u, 0, j->batch_cmax);
			if (r == 0 && now_ns() - last_done > (uint64_t)(j->io_timeout * 1e9))
				set_err(w, ETIMEDOUT, "no I/O completed for --io-timeout: the device stalled",
					UINT64_MAX);
		}
		if (r > 0 || u.until)
			last_done = now_ns();    /* waiting for a rate cap is not a stall */
		u.until = 0;
		if (r < 0)
			break;
	}
	if (w->err) {
		/* let what is in flight finish, bounded, then stop */
		while (u.inflight && uring_reap(w, m, &u, 1, 0) >= 0)
			;
	} else if (j->end_fsync && rw_writes(j->rw)) {
		uring_sync(w, m, &u, j->end_full);
	}
	w->end_ns = now_ns();
	getrusage(RUSAGE_THREAD, &w->ru_end);
out:
	start_line(w);
	io_uring_queue_exit(&u.ring);
	free(batch);
	free(u.slots);
	free(u.free_slots);
	return 0;
}

/* ---- posixaio: what fio's posixaio engine measures on Linux, glibc's POSIX AIO: aio_read
 * and aio_write hand each request to a helper thread, one per file descriptor, which does
 * that descriptor's requests one after the other with pread/pwrite (glibc's rule: no second
 * thread for a descriptor being worked on), and aio_suspend waits for one to finish.
 * musl's aio runs a thread per request instead (not the figures fio users see), so glibc's
 * scheme is here, under libaio's loop: paio_submit and paio_getevents stand for io_submit
 * and io_getevents.  The job's usr/sys CPU is its thread's, as fio's (RUSAGE_THREAD); the
 * helpers' is reported apart.
 * The same queue, one for all files and --iodepth helpers on it, is fio's
 * io_submit_mode=offload: the job thread hands out its I/Os, each helper does one at a
 * time (fio's offload workers, each an iodepth-1 copy of the job on a sync engine) and
 * stamps when it began and ended it: clat is the helper's, lat from the job thread's
 * preparation, the wait for a free helper in it; the helpers' CPU the job's (fio's). ---- */

struct paio;
struct paio_fd {
	struct paio *p;
	int fd, head, n;           /* (fd: -1 for a pool's queue) */
	pthread_t tid;
	pthread_cond_t work;
	struct iocb **q;           /* FIFO of iodepth */
};
struct paio {
	pthread_mutex_t mu;
	pthread_cond_t done;
	int cap, stop, counting, nfd, nev, waiting;
	int pool;                  /* offload: this many helpers on fds[0], the only queue */
	int vec;                   /* full_io's: pread/pwrite, preadv/pwritev, preadv2/pwritev2 */
	pthread_t *tids;           /* the pool's helpers */
	struct paio_fd fds[MAX_FILES];
	struct io_event *ev;       /* finished, not yet reaped (FIFO of iodepth); a pool's with
				    * obj: when its I/O began, res2: when it ended (ns) */
	struct rusage aux;         /* the helpers' CPU while counting, once they are gone */
};

static ssize_t full_io(int fd, int write_, void *buf, size_t len, uint64_t off, int64_t *pos, int vec, int rwf);
/* full_io's vec for the job's engine: pread/pwrite 0, preadv/pwritev 1, preadv2/pwritev2 2 */
static int psync_vec(const struct job *j)
{
	return j->ioengine == IOE_PVSYNC ? 1 : j->ioengine == IOE_PVSYNC2 ? 2 : 0;
}
/* fio's pvsync2 hipri: this share of the I/Os polled (fio's draw, 1-100): RWF_HIPRI or 0, counted */
static int hipri_draw(struct worker *w, struct meter *m)
{
	const struct job *j = w->job;
	if (!j->hipri || j->ioengine != IOE_PVSYNC2 || (int)prng_below(&m->prio_rng, 100) >= j->hipri_pct)
		return 0;
	w->hipri_ios += m->counting;
	return RWF_HIPRI;
}

static void ru_add(struct rusage *d, const struct rusage *a, const struct rusage *b)   /* d += a - b */
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

static void *paio_helper(void *arg)
{
	struct paio_fd *h = arg;
	struct paio *p = h->p;
	struct rusage ru, ru0;
	int counted = 0;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct iocb *cb;
		ssize_t r;
		uint64_t t0 = 0, t1 = 0;
		while (!h->n && !p->stop)
			pthread_cond_wait(&h->work, &p->mu);
		if (!h->n)
			break;
		if (p->counting && !counted) {   /* the ramp's CPU is not the job's */
			getrusage(RUSAGE_THREAD, &ru0);
			counted = 1;
		}
		cb = h->q[h->head];
		h->head = (h->head + 1) % p->cap;
		h->n--;
		pthread_mutex_unlock(&p->mu);
		if (p->pool)
			t0 = now_ns();
		r = full_io((int)cb->aio_fildes, cb->aio_lio_opcode == IOCB_CMD_PWRITE, (void *)(uintptr_t)cb->aio_buf,
			    (size_t)cb->aio_nbytes, (uint64_t)cb->aio_offset, NULL, p->vec, (int)cb->aio_rw_flags);
		if (p->pool)
			t1 = now_ns();
		pthread_mutex_lock(&p->mu);
		p->ev[p->nev++] = (struct io_event){ .data = cb->aio_data, .obj = t0, .res = r, .res2 = (int64_t)t1 };
		if (p->waiting) {   /* (signalled unlocked: the waiter need not wait for the lock) */
			pthread_mutex_unlock(&p->mu);
			pthread_cond_signal(&p->done);
			pthread_mutex_lock(&p->mu);
		}
	}
	getrusage(RUSAGE_THREAD, &ru);
	if (counted)
		ru_add(&p->aux, &ru, &ru0);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* pool: 0, posixaio's helper per descriptor; n, offload's n helpers on one queue */
static struct paio *paio_new(int cap, int pool, int vec)
{
	struct paio *p = calloc(1, sizeof *p);
	pthread_condattr_t ca;
	if (!p || !(p->ev = calloc((size_t)cap, sizeof *p->ev)) || (pool && !(p->tids = calloc((size_t)pool, sizeof *p->tids)))) {
		if (p)
			free(p->ev);
		free(p);
		return NULL;
	}
	p->cap = cap;
	p->pool = pool;
	p->vec = vec;
	pthread_mutex_init(&p->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->done, &ca);
	pthread_condattr_destroy(&ca);
	return p;
}

/* queue n requests (their descriptors' helpers started on first use); n, or -1 with errno */
static long paio_submit(struct paio *p, long n, struct iocb **cbs, int counting)
{
	long i;
	int e = 0;
	pthread_mutex_lock(&p->mu);
	p->counting = counting;
	for (i = 0; i < n; i++) {
		struct paio_fd *h = NULL;
		int fd = p->pool ? -1 : (int)cbs[i]->aio_fildes;
		for (int k = 0; k < p->nfd && !h; k++)
			if (p->fds[k].fd == fd)
				h = &p->fds[k];
		if (!h) {
			if (p->nfd == MAX_FILES) {
				e = EMFILE;
				break;
			}
			h = &p->fds[p->nfd];
			*h = (struct paio_fd){ .p = p, .fd = fd };
			if (!(h->q = calloc((size_t)p->cap, sizeof *h->q))) {
				e = ENOMEM;
				break;
			}
			pthread_cond_init(&h->work, NULL);
			if ((e = pthread_create(p->pool ? &p->tids[0] : &h->tid, NULL, paio_helper, h))) {
				pthread_cond_destroy(&h->work);
				free(h->q);
				break;
			}
			for (int t = 1; t < p->pool; t++)   /* (the pool's first is enough to go on) */
				if (pthread_create(&p->tids[t], NULL, paio_helper, h)) {
					p->pool = t;
					break;
				}
			p->nfd++;
		}
		h->q[(h->head + h->n++) % p->cap] = cbs[i];
		pthread_cond_signal(&h->work);
	}
	pthread_mutex_unlock(&p->mu);
	if (!i && n) {
		errno = e;
		return -1;
	}
	return i;
}

/* wait up to *t for min finished requests (0: none), then take up to max */
static long paio_getevents(struct paio *p, long min, long max, struct io_event *ev, const struct timespec *t)
{
	struct timespec dl;
	long n;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += t->tv_sec + (dl.tv_nsec + t->tv_nsec) / 1000000000L;
	dl.tv_nsec = (dl.tv_nsec + t->tv_nsec) % 1000000000L;
	pthread_mutex_lock(&p->mu);
	p->waiting = 1;
	while (p->nev < min && pthread_cond_timedwait(&p->done, &p->mu, &dl) != ETIMEDOUT)
		;
	p->waiting = 0;
	n = p->nev < max ? p->nev : max;
	for (long i = 0; i < n; i++)   /* the oldest first; the rest move up */
		ev[i] = p->ev[i];
	memmove(p->ev, p->ev + n, (size_t)(p->nev - n) * sizeof *p->ev);
	p->nev -= (int)n;
	pthread_mutex_unlock(&p->mu);
	return n;
}

/* the helpers finish what is queued and go; their CPU while counting added to *aux */
static void paio_free(struct paio *p, struct rusage *aux)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	for (int k = 0; k < p->nfd; k++)
		pthread_cond_broadcast(&p->fds[k].work);
	pthread_mutex_unlock(&p->mu);
	for (int t = 0; p->nfd && t < p->pool; t++)
		pthread_join(p->tids[t], NULL);
	for (int k = 0; k < p->nfd; k++) {
		if (!p->pool)
			pthread_join(p->fds[k].tid, NULL);
		pthread_cond_destroy(&p->fds[k].work);
		free(p->fds[k].q);
	}
	ru_add(aux, &p->aux, &(struct rusage){ 0 });
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	free(p->ev);
	free(p->tids);
	free(p);
}

/* ---- libaio: io_setup/io_submit/io_getevents, what fio's libaio engine (the engine of
 * YABS's and most VPS write-ups' fio lines) does: io_submit every --iodepth_batch_submit
 * I/Os, io_getevents for --iodepth_batch_complete_min.  Called through syscall(2):
 * libaio itself is a thin wrapper over these four calls.  A rewrite is its read, then
 * (once the read is back) the write of the same bytes: the content never changes. ---- */

struct aio_state {
	aio_context_t ctx;
	struct iocb *cbs;          /* one per slot */
	struct iocb **queue;       /* prepared, not yet submitted */
	int nqueue;
	struct io_event *ev;
	struct slot *slots;
	int *free_slots;
	int nfree;
	int inflight;              /* slots between prep and final completion */
	int *batch;                /* slots prepared in this round */
	uint64_t last_done;        /* when an I/O last completed (ns) */
	uint64_t until;            /* a rate cap holds the next I/O until then: wait no longer */
	int ring;                  /* --userspace_reap, and the ring is the one it reads */
	uint64_t ring_reaps;       /* completions read from it */
	struct paio *px;           /* posixaio: its queue instead of the kernel's context */
	int vs;                    /* vsync: the batch done in the submit, its completions in vev */
	struct io_event *vev;
	int nvev;
	const struct meter *m;
};

/* fio's vsync: what is submitted is done now; each run of adjacent I/Os in it (one file, one
 * direction, each starting where the one before ended) one lseek and one readv or writev.
 * A short transfer is shared out in order, an error is each I/O's of the run. */
static long vsync_submit(struct aio_state *a, long n, struct iocb **cbs)
{
	struct iovec iov[IOV_MAX];
	for (long i = 0, k; i < n; i = k) {
		const struct iocb *c = cbs[i];
		uint64_t end = (uint64_t)c->aio_offset;
		ssize_t r;
		for (k = i; k < n && k - i < IOV_MAX && cbs[k]->aio_fildes == c->aio_fildes &&
			    cbs[k]->aio_lio_opcode == c->aio_lio_opcode && (uint64_t)cbs[k]->aio_offset == end; k++) {
			iov[k - i] = (struct iovec){ (void *)(uintptr_t)cbs[k]->aio_buf, (size_t)cbs[k]->aio_nbytes };
			end += cbs[k]->aio_nbytes;
		}
		if (lseek((int)c->aio_fildes, (off_t)c->aio_offset, SEEK_SET) < 0)
			r = -errno;
		else {
			do
				r = c->aio_lio_opcode == IOCB_CMD_PWRITE ? writev((int)c->aio_fildes, iov, (int)(k - i))
									 : readv((int)c->aio_fildes, iov, (int)(k - i));
			while (r < 0 && errno == EINTR);
			if (r < 0)
				r = -errno;
		}
		for (long q = i; q < k; q++) {
			ssize_t res = r < 0 ? r : r < (ssize_t)cbs[q]->aio_nbytes ? r : (ssize_t)cbs[q]->aio_nbytes;
			a->vev[a->nvev++] = (struct io_event){ .data = cbs[q]->aio_data, .res = res };
			r -= r < 0 ? 0 : res;
		}
	}
	return n;
}

static void aio_prep(struct aio_state *a, const struct worker *w, int slot, int op_write,
		     uint64_t off, char *buf, uint64_t data)
{
	struct iocb *cb = &a->cbs[slot];
	memset(cb, 0, sizeof *cb);
	cb->aio_fildes = (uint32_t)w->f[a->slots[slot].file].fd;
	cb->aio_lio_opcode = op_write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
	cb->aio_buf = (uint64_t)(uintptr_t)buf;
	cb->aio_nbytes = a->slots[slot].len;
	cb->aio_offset = (int64_t)off;
	cb->aio_data = data;
	if (w->job->cmdprio_pct[0] || w->job->cmdprio_pct[1]) {   /* fio's: every I/O's priority said */
		cb->aio_reqprio = (int16_t)slot_ioprio(w->job, &a->slots[slot]);
		cb->aio_flags |= IOCB_FLAG_IOPRIO;
	}
	if (w->job->nowait)
		cb->aio_rw_flags = RWF_NOWAIT;
	a->queue[a->nqueue++] = cb;
}

/* submit everything queued; 0, or -1 with the worker's error set */
static int aio_submit(struct worker *w, struct aio_state *a)
{
	int done = 0;
	while (done < a->nqueue) {
		long r = a->px ? paio_submit(a->px, (long)(a->nqueue - done), a->queue + done, a->m->counting)
			 : a->vs ? vsync_submit(a, (long)(a->nqueue - done), a->queue + done)
				 : syscall(SYS_io_submit, a->ctx, (long)(a->nqueue - done), a->queue + done);
		if (r > 0) {
			done += (int)r;
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else {
			/* what was not submitted never will be: give its slots back */
			for (int i = done; i < a->nqueue; i++) {
				int slot = (int)(a->queue[i]->aio_data & ~REWRITE_READ);
				a->slots[slot].busy = 0;
				a->free_slots[a->nfree++] = slot;
				a->inflight--;
			}
			set_err(w, r < 0 ? errno : EIO, a->px ? "posixaio: queueing" : "io_submit", a->queue[done]->aio_offset);
			a->nqueue = 0;
			return -1;
		}
	}
	a->nqueue = 0;
	return 0;
}

/* fio's userspace_reap: the completions read from the kernel's ring of the context, mapped
 * in this process (aio_context_t is its address), no system call; at most max */
struct aio_ring_hdr {
	unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};
#define AIO_RING_MAGIC 0xa10a10a1u

static long aio_ring_reap(struct aio_state *a, long max)
{
	struct aio_ring_hdr *r = (struct aio_ring_hdr *)(uintptr_t)a->ctx;
	unsigned head = r->head, tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	long n = 0;
	for (; head != tail && n < max; head = (head + 1) % r->nr)
		a->ev[n++] = r->events[head];
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return n;
}

/* wait for min completions (0: none, poll), bounded by --io-timeout, and account what
 * came, at most --iodepth_batch_complete_max */
static int aio_reap(struct worker *w, struct meter *m, struct aio_state *a, char *bufs, int min)
{
	const struct job *j = w->job;
	uint64_t to = (uint64_t)(j->io_timeout * 1e9), t_done, wait = to;
	struct timespec ts, zero = { 0, 0 };
	long n, max = j->batch_cmax ? j->batch_cmax : j->iodepth;
	int capped = cap_wait(a->until, &wait);
	if (min > a->inflight)
		min = a->inflight;
	ts.tv_sec = (time_t)(wait / 1000000000ull);
	ts.tv_nsec = (long)(wait % 1000000000ull);
	if (!min && a->ring)
		a->ring_reaps += (uint64_t)(n = aio_ring_reap(a, max));
	else if (a->vs) {   /* all done already: all of them, whatever the maximum (fio's) */
		memcpy(a->ev, a->vev, (size_t)(n = a->nvev) * sizeof *a->ev);
		a->nvev = 0;
	} else if (a->px)
		n = paio_getevents(a->px, min, max, a->ev, min ? &ts : &zero);
	else
		do
			n = syscall(SYS_io_getevents, a->ctx, (long)min, max, a->ev, min ? &ts : &zero);
		while (n < 0 && errno == EINTR);
	t_done = now_ns();
	if (n < 0) {
		set_err(w, errno, "io_getevents", UINT64_MAX);
		return -1;
	}
	if (n > 0 || capped)
		a->last_done = t_done;   /* waiting for a rate cap is not a stall */
	else if (min || t_done - a->last_done > to) {
		set_err(w, ETIMEDOUT, "no I/O completed for --io-timeout: the device stalled", UINT64_MAX);
		return -1;
	}
	if (n > 0)
		mark_calls(m, w->complete_map, (int)n);
	for (long i = 0; i < n; i++) {
		uint64_t ud = a->ev[i].data;
		int slot = (int)(ud & ~REWRITE_READ);
		struct slot *s = &a->slots[slot];
		long res = (long)a->ev[i].res;
		uint64_t t_end = t_done;
		if (a->px && a->px->pool) {
			/* offload: issued when a helper took it (a rewrite: its read), done when the
			 * helper was */
			if ((ud & REWRITE_READ) || j->mode != MODE_REWRITE || s->ddir != DDIR_WRITE)
				s->t_issue = a->ev[i].obj;
			t_end = (uint64_t)a->ev[i].res2;
		}
		if (ud & REWRITE_READ) {
			/* the read half of a rewrite: on success, write the same bytes back */
			if (res < 0)
				io_error(w, s, COE_READ, (int)-res, "rewrite read");
			else if ((uint64_t)res < s->len)
				set_err(w, EIO, "rewrite read came back short", s->off);
			else {
				/* the write-back polled as its read was (one draw for both, as inline) */
				uint32_t hipri = a->cbs[slot].aio_rw_flags & (uint32_t)RWF_HIPRI;
				aio_prep(a, w, slot, 1, s->off, bufs + (size_t)slot * j->bs_max, (uint64_t)slot);
				a->cbs[slot].aio_rw_flags |= hipri;
				continue;
			}
		} else {
			account(w, m, s, res, t_end);
		}
		s->busy = 0;
		a->free_slots[a->nfree++] = slot;
		a->inflight--;
	}
	sample_tick(w, m, t_done);
	return a->nqueue ? aio_submit(w, a) : 0;
}

/* submit the slots batch[*issued..queued) prepared since the last submit; the next I/O's
 * preparation starts now (*t_prep) */
static int aio_submit_batch(struct worker *w, const struct meter *m, struct aio_state *a, int *issued,
			    int queued, uint64_t *t_prep)
{
	if (aio_submit(w, a) < 0)
		return -1;
	issued_now(w, m, a->slots, a->batch, issued, queued, a->inflight, t_prep);
	return 0;
}

static void aio_sync(struct worker *w, struct meter *m, struct aio_state *a, char *bufs, int full)
{
	while (a->inflight && !w->err)
		if (aio_reap(w, m, a, bufs, 1) < 0)
			return;
	timed_sync(w, m, full);
}

static int run_libaio(struct worker *w, struct meter *m, struct iogen *g, char *bufs)
{
	const struct job *j = w->job;
	struct aio_state a = { 0 };
	uint64_t writes_since_sync = 0;
	struct prng scr;
	int rewrite = j->mode == MODE_REWRITE;
	a.m = m;
	if (j->force_uring_errno)
		return -j->force_uring_errno;
	if (j->ioengine == IOE_POSIXAIO || j->offload) {
		if (!(a.px = paio_new(j->iodepth, j->offload ? j->iodepth : 0, psync_vec(j))))
			return -ENOMEM;
	} else if (j->ioengine == IOE_VSYNC) {
		a.vs = 1;
	} else if (syscall(SYS_io_setup, (long)j->iodepth, &a.ctx)) {
		if (errno != EAGAIN)
			return -errno;   /* no AIO in this kernel: psync measures instead */
		/* not a missing feature but too many events asked for: say which limit */
		snprintf(w->errmsg, sizeof w->errmsg, "io_setup: --iodepth x --numjobs (%d x %d) is beyond "
			 "what /proc/sys/fs/aio-max-nr leaves free", j->iodepth, j->numjobs);
		w->err = EAGAIN;
		start_line(w);
		w->end_ns = now_ns();
		return 0;
	}
	a.ring = j->userspace_reap && !a.px && ((struct aio_ring_hdr *)(uintptr_t)a.ctx)->magic == AIO_RING_MAGIC;
	a.cbs = calloc((size_t)j->iodepth, sizeof *a.cbs);
	a.queue = calloc((size_t)j->iodepth, sizeof *a.queue);
	a.ev = calloc((size_t)j->iodepth, sizeof *a.ev);
	a.slots = calloc((size_t)j->iodepth, sizeof *a.slots);
	a.free_slots = calloc((size_t)j->iodepth, sizeof *a.free_slots);
	a.batch = calloc((size_t)j->iodepth, sizeof *a.batch);
	if (a.vs)
		a.vev = calloc((size_t)j->iodepth, sizeof *a.vev);
	if (!a.cbs || !a.queue || !a.ev || !a.slots || !a.free_slots || !a.batch || (a.vs && !a.vev)) {
		set_err(w, ENOMEM, "I/O slots", UINT64_MAX);
		start_line(w);
		goto out;
	}
	for (int i = 0; i < j->iodepth; i++)
		a.free_slots[a.nfree++] = j->iodepth - 1 - i;
	m->ov_slots = a.slots;
	m->ov_n = j->iodepth;
	prng_seed(&scr, j->randseed ^ 0x5eedull ^ (uint64_t)w->idx);
	start_job(w, m);
	a.last_done = now_ns();
	for (;;) {
		int queued = 0, issued = 0, ddir, more = 1;
		uint64_t off, len, t_prep = now_ns(), until = 0;
		int stop = loop_tick(w, m, t_prep);
		while (!stop && may_queue(j, m, a.inflight) && a.nfree && a.inflight < m->qd && (more = next_io(w, m, g, t_prep, a.inflight, &ddir, &off, &len, &until)) > 0) {
			int slot;
			char *buf;
			log_issue(w, m, m->io_file, ddir, off, len);
			if (ddir == DDIR_TRIM) {
				stop = sync_trim(w, m, t_prep, a.inflight, m->io_file, off, len);
				t_prep = now_ns();
				continue;
			}
			slot = slot_take(a.slots, a.free_slots, &a.nfree, m->counting, t_prep, ddir, m->io_file, off, len);
			pick_prio(j, m, &a.slots[slot]);
			buf = a.slots[slot].buf = bufs + (size_t)slot * j->bs_max;
			if (ddir == DDIR_WRITE && rewrite) {
				aio_prep(&a, w, slot, 0, off, buf, (uint64_t)slot | REWRITE_READ);
			} else {
				if (ddir == DDIR_WRITE)   /* in its slat, as fio's data and verify header */
					scramble(w, buf, off, len, &scr);
				aio_prep(&a, w, slot, ddir == DDIR_WRITE, off, buf, (uint64_t)slot);
			}
			if (a.vs || j->offload) {   /* fio's sync engines: issued now (no slat), the data
						     * made before; offload: when a helper takes it */
				a.slots[slot].sync = 1;
				a.slots[slot].t_issue = now_ns();
			}
			if (j->offload)
				a.cbs[slot].aio_rw_flags |= (uint32_t)hipri_draw(w, m);
			a.inflight++;
			a.batch[queued++] = slot;
			if (queued - issued >= j->batch_submit && aio_submit_batch(w, m, &a, &issued, queued, &t_prep) < 0)
				break;
			if (ddir == DDIR_WRITE && j->fdatasync && ++writes_since_sync >= (uint64_t)j->fdatasync)
				break;
			if (ddir == DDIR_WRITE && j->sfr_n && ++m->sfr_writes >= j->sfr_n)
				break;
			if (ddir == DDIR_WRITE && j->verify_backlog && ++w->bl_writes >= j->verify_backlog)
				break;
			if (w->passes_left && (w->pass_bytes += len) >= w->pass_len)
				break;
		}
		if (w->err)
			break;
		if (queued > issued && aio_submit_batch(w, m, &a, &issued, queued, &t_prep) < 0)
			break;
		if (j->fdatasync && writes_since_sync >= (uint64_t)j->fdatasync) {
			aio_sync(w, m, &a, bufs, j->fsync_full);
			writes_since_sync = 0;
		}
		if (j->sfr_n && m->sfr_writes >= j->sfr_n) {
			aio_sync(w, m, &a, bufs, SYNC_RANGE);
			m->sfr_writes = 0;
		}
		if ((j->verify_backlog && w->bl_writes >= j->verify_backlog) || (w->passes_left && w->pass_bytes >= w->pass_len)) {
			while (a.inflight && !w->err && aio_reap(w, m, &a, bufs, 1) >= 0)
				;
			if (w->passes_left && w->pass_bytes >= w->pass_len)
				pass_check(w, m, !a.vs);
			else
				backlog_check(w, m, !a.vs);
		}
		if (!a.inflight) {
			if (!stop && more < 0) {      /* a rate cap's wait (not a stall) */
				sleep_until(until);
				a.last_done = now_ns();
				continue;
			}
			if (stop || !queued)
				break;
			continue;
		}
		a.until = more < 0 ? until : 0;
		if (aio_reap(w, m, &a, bufs, j->batch_cmin) < 0)
			break;
		a.until = 0;
	}
	if (w->err) {
		/* let what is in flight finish, bounded, then stop */
		while (a.inflight && aio_reap(w, m, &a, bufs, 1) >= 0)
			;
	} else if (j->end_fsync && rw_writes(j->rw)) {
		aio_sync(w, m, &a, bufs, j->end_full);
	}
	w->ring_reaps = a.ring_reaps;
	w->end_ns = now_ns();
	getrusage(RUSAGE_THREAD, &w->ru_end);
out:
	if (a.px)
		paio_free(a.px, &w->ru_aux);
	else if (!a.vs)
		syscall(SYS_io_destroy, a.ctx);
	free(a.vev);
	free(a.cbs);
	free(a.queue);
	free(a.ev);
	free(a.slots);
	free(a.free_slots);
	free(a.batch);
	return 0;
}

/* ---- psync: one pread/pwrite at a time (iodepth is 1 whatever was asked, as fio);
 * sync: read/write, with an lseek first when the offset is not where the file position
 * already is (fio's sync engine) ---- */

/* pos: the sync engine's file position (-1: unknown), NULL for psync; vec: 1 preadv/pwritev
 * (fio's pvsync), 2 preadv2/pwritev2 with the flags rwf (pvsync2: RWF_HIPRI) */
static ssize_t full_io(int fd, int write_, void *buf, size_t len, uint64_t off, int64_t *pos, int vec, int rwf)
{
	struct iovec iov = { buf, len };
	ssize_t r;
	if (pos && *pos != (int64_t)off && lseek(fd, (off_t)off, SEEK_SET) < 0) {
		*pos = -1;
		return -errno;
	}
	do
		if (pos)
			r = write_ ? write(fd, buf, len) : read(fd, buf, len);
		else if (vec == 2)   /* (the offset's low and high halves: all of it low on 64 bits) */
			r = syscall(write_ ? SYS_pwritev2 : SYS_preadv2, fd, &iov, 1, (unsigned long)off, 0ul, rwf);
		else if (vec == 1)
			r = write_ ? pwritev(fd, &iov, 1, (off_t)off) : preadv(fd, &iov, 1, (off_t)off);
		else
			r = write_ ? pwrite(fd, buf, len, (off_t)off) : pread(fd, buf, len, (off_t)off);
	while (r < 0 && errno == EINTR);
	if (pos)
		*pos = r < 0 ? -1 : (int64_t)(off + (uint64_t)r);
	return r < 0 ? -errno : r;
}

/* fio's mmap engine: each file mapped whole (MAP_SHARED; writable when opened for
 * writing), a read a memcpy from the map, a write one into it; with --direct, msync of the
 * I/O's range after it (fio's "not really direct").  A page the device fails to read is a
 * SIGBUS in the memcpy: caught (this thread's jump), the I/O fails with EIO. */
static __thread sigjmp_buf *mmap_jmp;

static void mmap_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (mmap_jmp)
		siglongjmp(*mmap_jmp, 1);
	signal(sig, SIG_DFL);   /* not ours: the crash it is */
	raise(sig);
}

static void mmap_sigbus_install(void)
{
	struct sigaction sa = { .sa_sigaction = mmap_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static ssize_t mmap_io(char *map, int write_, void *buf, size_t len, uint64_t off, int direct)
{
	sigjmp_buf jb;
	if (sigsetjmp(jb, 0)) {
		mmap_jmp = NULL;
		return -EIO;
	}
	mmap_jmp = &jb;
	if (write_)
		memcpy(map + off, buf, len);
	else
		memcpy(buf, map + off, len);
	mmap_jmp = NULL;
	if (direct) {
		long pg = sysconf(_SC_PAGESIZE);
		uint64_t a = off & ~(uint64_t)(pg - 1);
		if (msync(map + a, (size_t)(off + len - a), MS_SYNC))
			return -errno;
	}
	return (ssize_t)len;
}

/* map each of the job's files; 0, or -1 with the worker's error set */
static int mmap_files(struct worker *w, char **maps)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const struct job *j = w->job;
	pthread_once(&once, mmap_sigbus_install);
	for (int f = 0; f < j->nfiles; f++) {
		int fl = fcntl(w->f[f].fd, F_GETFL);
		int prot = PROT_READ | (fl >= 0 && (fl & O_ACCMODE) == O_RDWR ? PROT_WRITE : 0);
		size_t len = (size_t)w->f[f].dev->size;
		maps[f] = len ? mmap(NULL, len, prot, MAP_SHARED, w->f[f].fd, 0) : MAP_FAILED;
		if (maps[f] == MAP_FAILED) {
			char what[300];
			snprintf(what, sizeof what, "mapping %s (--ioengine=mmap)", w->f[f].dev->path);
			set_err(w, len ? errno : EINVAL, what, UINT64_MAX);
			maps[f] = NULL;
			return -1;
		}
		/* fio's fadvise_hint, as madvise */
		if (j->fadvise)
			posix_madvise(maps[f], len, fadvise_random(j) ? POSIX_MADV_RANDOM : POSIX_MADV_SEQUENTIAL);
	}
	return 0;
}

static void mmap_unmap(const struct worker *w, char **maps)
{
	for (int f = 0; f < w->job->nfiles; f++)
		if (maps[f])
			munmap(maps[f], (size_t)w->f[f].dev->size);
}

static int run_psync(struct worker *w, struct meter *m, struct iogen *g, char *buf)
{
	const struct job *j = w->job;
	uint64_t writes_since_sync = 0;
	struct prng scr;
	int64_t fpos[MAX_FILES];   /* the sync engine's position in each file (-1: unknown) */
	int vec = psync_vec(j), rwf;
	char *maps[MAX_FILES] = { 0 };
	for (int f = 0; f < MAX_FILES; f++)
		fpos[f] = -1;
	prng_seed(&scr, j->randseed ^ 0x5eedull ^ (uint64_t)w->idx);
	if (j->ioengine == IOE_MMAP && !w->engine_fallback && mmap_files(w, maps) < 0) {
		mmap_unmap(w, maps);
		start_line(w);
		w->end_ns = now_ns();
		return 0;
	}
	start_job(w, m);
	for (;;) {
		struct slot s = { .buf = buf, .sync = 1 };
		uint64_t t_done, now = now_ns(), until;
		ssize_t r;
		int64_t *pos;
		int more = loop_tick(w, m, now) ? 0 : next_io(w, m, g, now, 0, &s.ddir, &s.off, &s.len, &until);
		if (!more)
			break;
		if (more < 0) {                  /* a rate cap's wait */
			sleep_until(until);
			continue;
		}
		s.counted = m->counting;
		s.file = m->io_file;
		pos = j->ioengine == IOE_SYNC ? &fpos[s.file] : NULL;
		rwf = hipri_draw(w, m) | (j->nowait ? RWF_NOWAIT : 0);
		log_issue(w, m, s.file, s.ddir, s.off, s.len);
		/* a write's data made (and verify header stamped) after its start, before its
		 * issue: in its lat, not its clat (fio's) */
		s.t_prep = now_ns();
		if (s.ddir == DDIR_WRITE && (j->mode != MODE_REWRITE || j->ioengine == IOE_NULL)) {
			scramble(w, buf, s.off, s.len, &scr);
			s.t_issue = now_ns();
		} else {
			s.t_issue = s.t_prep;
		}
		if (j->ioengine == IOE_NULL) {
			/* fio's null engine: done at once, no data moved (the engine's own cost) */
			r = (ssize_t)s.len;
		} else if (s.ddir == DDIR_WRITE && j->mode == MODE_REWRITE) {
			r = maps[s.file] ? mmap_io(maps[s.file], 0, buf, s.len, s.off, j->direct)
					 : full_io(w->f[s.file].fd, 0, buf, s.len, s.off, pos, vec, rwf);
			if (r == (ssize_t)s.len)
				r = maps[s.file] ? mmap_io(maps[s.file], 1, buf, s.len, s.off, j->direct)
						 : full_io(w->f[s.file].fd, 1, buf, s.len, s.off, pos, vec, rwf);
			else if (r < 0) {
				if (!io_error(w, &s, COE_READ, (int)-r, "rewrite read"))
					break;
				s.rd_failed = 1;
			} else {
				set_err(w, EIO, "rewrite read came back short", s.off);
				break;
			}
		} else if (s.ddir == DDIR_TRIM) {
			r = trim_range(w, s.file, s.off, s.len);
		} else if (maps[s.file]) {
			r = mmap_io(maps[s.file], s.ddir == DDIR_WRITE, buf, s.len, s.off, j->direct);
		} else {
			r = full_io(w->f[s.file].fd, s.ddir == DDIR_WRITE, buf, s.len, s.off, pos, vec, rwf);
		}
		t_done = now_ns();
		mark_depth(w, m, 1, 1);
		mark_calls(m, w->submit_map, 1);
		mark_calls(m, w->complete_map, 1);
		if (s.rd_failed)
			m->think_done += !j->think_issue;
		else
			account(w, m, &s, r, t_done);
		sample_tick(w, m, t_done);
		if (s.ddir == DDIR_WRITE && j->fdatasync && ++writes_since_sync >= (uint64_t)j->fdatasync) {
			writes_since_sync = 0;
			timed_sync(w, m, j->fsync_full);
		}
		if (s.ddir == DDIR_WRITE && j->sfr_n && ++m->sfr_writes >= j->sfr_n) {
			m->sfr_writes = 0;
			timed_sync(w, m, SYNC_RANGE);
		}
		if (s.ddir == DDIR_WRITE && j->verify_backlog && ++w->bl_writes >= j->verify_backlog)
			backlog_check(w, m, 0);
		if (w->passes_left && (w->pass_bytes += s.len) >= w->pass_len)
			pass_check(w, m, 0);
	}
	if (!w->err && j->end_fsync && rw_writes(j->rw))
		timed_sync(w, m, j->end_full);
	w->end_ns = now_ns();
	getrusage(RUSAGE_THREAD, &w->ru_end);
	mmap_unmap(w, maps);
	return 0;
}

/* ---- fio's verify: each thread reads back what it wrote ---- */

/* --status-interval during a read-back: the figures so far.  A --verify_backlog check
 * (backlog) answers as the workload does; at the end, t0 is when the read-back began (0:
 * still waiting for the job's other threads) */
static void rb_snap(struct worker *w, const struct meter *m, uint64_t t0, int backlog)
{
	unsigned gen;
	if (!w->snap_req || (gen = __atomic_load_n(w->snap_req, __ATOMIC_ACQUIRE)) == w->snap_seen)
		return;
	if (backlog) {
		snap_answer(w, m, now_ns());
		return;
	}
	worker_snapshot(w, w->snap_dst, 0);
	if (t0)
		w->snap_dst->ver.ns = w->ver.ns + now_ns() - t0;
	__atomic_store_n(&w->snap_seen, gen, __ATOMIC_RELEASE);
}

/* what a read-back reads: the region's blocks the thread's map marks (every block for
 * --verify_only), or the first n offsets of a list (--verify_backlog's) */
struct rb_src {
	const uint64_t *list;   /* blocks of the map (--verify_backlog's), else the map's marked ones */
	uint64_t n;
	int workload;           /* inside the workload (--verify_backlog, a --loops pass's check) */
	uint64_t nblk;          /* the map's blocks */
	uint64_t i;             /* where the next one is looked for */
};

/* the first block from b on that this thread wrote (--verify_only: every block); nblk
 * when there is none */
static uint64_t rb_next(const struct worker *w, uint64_t b, uint64_t nblk)
{
	while (w->vmap && b < nblk && !(w->vmap[b / 8] >> (b % 8) & 1))
		b += b % 8 == 0 && !w->vmap[b / 8] ? 8 : 1;
	return b < nblk ? b : nblk;
}

/* the offset of the next block to read back: 1, or 0 when there is none */
static int rb_src_next(struct worker *w, struct rb_src *s, int *f, uint64_t *off)
{
	uint64_t b;
	if (s->list) {
		if (s->i >= s->n)
			return 0;
		b = s->list[s->i++];
		verify_unmark(w, b);   /* checked now: not again at the end (unless written again) */
	} else {
		s->i = rb_next(w, s->i, s->nblk);
		if (s->i >= s->nblk)
			return 0;
		b = s->i++;
	}
	for (*f = 0; b >= w->vb[*f + 1]; ++*f)   /* the map's block b: its file and offset */
		;
	*off = file_base(w->job, *f, w->idx) + (b - w->vb[*f]) * w->job->bs;
	return 1;
}

/* fio's trim_percentage: before a read-back, this share of the blocks the thread wrote
 * (each drawn) discarded, runs of them at once, each marked in tmap (the read-back expects
 * zeros there); 0, or -1 when a discard failed (the thread's error) */
static int trim_marked(struct worker *w)
{
	const struct job *j = w->job;
	uint64_t nblk = w->vb[j->nfiles];
	memset(w->tmap, 0, nblk / 8 + 1);
	for (uint64_t b = rb_next(w, 0, nblk); b < nblk; b = rb_next(w, b + 1, nblk))
		if ((int)prng_below(&w->trim_rng, 100) < j->trim_pct)
			w->tmap[b / 8] |= (uint8_t)(1u << (b % 8));
	for (int f = 0; f < j->nfiles; f++)
		for (uint64_t b = w->vb[f], e; b < w->vb[f + 1]; b = e) {
			uint64_t off = file_base(j, f, w->idx) + (b - w->vb[f]) * j->bs;
			long r;
			for (e = b; e < w->vb[f + 1] && (w->tmap[e / 8] >> (e % 8) & 1); e++)
				;
			if (e == b) {
				e++;
				continue;
			}
			if ((r = trim_range(w, f, off, (e - b) * j->bs)) < 0) {
				char msg[200];
				snprintf(msg, sizeof msg, "--trim_percentage: discarding %llu bytes at offset %llu of %s",
					 (unsigned long long)((e - b) * j->bs), (unsigned long long)off, w->f[f].dev->path);
				set_err(w, (int)-r, msg, UINT64_MAX);
				return -1;
			}
			w->ver.trimmed += e - b;
		}
	return 0;
}

/* a block read back at off of file f: was it discarded first (--trim_percentage)? */
static int was_trimmed(const struct worker *w, int f, uint64_t off)
{
	const struct job *j = w->job;
	uint64_t b = w->vb[f] + (off - file_base(j, f, w->idx)) / j->bs;
	return w->tmap && b < w->vb[j->nfiles] && (w->tmap[b / 8] >> (b % 8) & 1);
}

/* the bad block blk at off of file f (why: what is wrong): counted, the first named,
 * dumped (--verify_dump), and with --continue_on_error=verify listed (as "verify") */
static void bad_block(struct worker *w, int f, const char *blk, uint64_t off, const char *why)
{
	const struct job *j = w->job;
	char where[300];
	snprintf(where, sizeof where, "the block at offset %llu%s%s", (unsigned long long)off,
		 j->nfiles > 1 ? " of " : "", j->nfiles > 1 ? w->f[f].dev->path : "");
	if (!w->ver.bad++)
		snprintf(w->ver.first, sizeof w->ver.first, "%s: %s", where, why);
	if (j->verify_dump && w->ver.bad <= 100)   /* the first 100 of each thread */
		verify_dump(j, w->f[f].dev->path, blk, off);
	if (!coe_nonfatal(j, COE_VERIFY, EILSEQ))
		return;
	errlog_note(&w->errs, EILSEQ, "verify: %s: %s", where, why);
	if (w->errs.nbad < MAX_BAD)
		w->errs.bad[w->errs.nbad++] = (struct bad_io){ off, j->bs, EILSEQ, DDIR_N };
	if (j->error_dump)
		fprintf(stderr, "assay: disk: %s: thread %d: verify: %s: %s (going on: --continue_on_error)\n", j->name,
			w->idx + 1, where, why);
}

/* --verify_fatal during the workload (a read job's checks, a --verify_backlog check): a
 * bad block found since there were bad of them ends the thread */
static void fatal_bad(struct worker *w, uint64_t bad)
{
	if (w->job->verify_fatal && w->ver.bad > bad && !w->err) {
		w->err = EILSEQ;
		snprintf(w->errmsg, sizeof w->errmsg, "verify: %s", w->ver.first);
	}
}

/* a block read back into blk (res: the read's result), counted as one of the job's reads
 * (end: a read-back with its own runtime, not a --verify_backlog check's) and checked; 0 to go on, -1 to stop
 * (the thread's error, or --verify_fatal's first bad block) */
static int rb_done(struct worker *w, struct meter *m, const struct slot *s, char *blk, long res, uint64_t t_done,
		   int end)
{
	const struct job *j = w->job;
	char why[200];
	w->ver.ios += (uint64_t)end;
	if (res != (long)s->len)
		return io_error(w, s, COE_READ, res < 0 ? (int)-res : EIO,
				res < 0 ? "verify: reading" : "verify: reading (a short read)") ? 0 : -1;
	/* fio's: in the latencies, the histograms and the I/O logs, not in the per-interval
	 * samples (nor the logs' windowed rates) */
	if (w->hlog.on)
		iolog_hist_tick(&w->hlog, t_done);
	count_io(j, &w->st[DDIR_READ], s, res, t_done);
	if (w->log.on)
		iolog_io(&w->log, DDIR_READ, s->off, s->len, s->t_issue - s->t_prep, t_done - s->t_issue, t_done,
			 (s->sync ? 0 : IOLOG_F_SLAT) | IOLOG_F_PRIO(s->prio));
	__atomic_store_n(&w->prog_ios[DDIR_READ], w->prog_ios[DDIR_READ] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->prog_bytes[DDIR_READ], w->prog_bytes[DDIR_READ] + (uint64_t)res, __ATOMIC_RELAXED);
	__atomic_store_n(&w->ver.prog_bytes, w->ver.prog_bytes + (uint64_t)res, __ATOMIC_RELAXED);
	w->ver.blocks++;
	if (was_trimmed(w, s->file, s->off)) {
		/* fio's trim_verify_zero: a discarded block reads back as zeros */
		size_t z = 0;
		while (z < s->len && !blk[z])
			z++;
		if (!j->trim_zero || z == s->len)
			return 0;
		snprintf(why, sizeof why, "discarded (--trim_percentage), yet byte %zu reads back 0x%02x, not zero", z,
			 (unsigned char)blk[z]);
	} else if (!verify_check(j, blk, s->off, why, sizeof why)) {
		return 0;
	}
	bad_block(w, s->file, blk, s->off, why);
	return j->verify_fatal ? -1 : 0;
}

/* fio's --verify on a job that only reads: each --bs block a read brought is checked as
 * it completes (the data an earlier job wrote); bad blocks are counted (the job fails when
 * it ends, as a read-back's), --verify_fatal stops it at the first */
static void check_read(struct worker *w, const struct slot *s, long res)
{
	const struct job *j = w->job;
	uint64_t bad = w->ver.bad;
	w->ver.ran = 1;
	for (uint64_t k = 0; k + j->bs <= (uint64_t)res; k += j->bs) {
		char why[200];
		w->ver.blocks++;
		if (verify_check(j, s->buf + k, s->off + k, why, sizeof why))
			bad_block(w, s->file, s->buf + k, s->off + k, why);
	}
	fatal_bad(w, bad);
}

/* the read-backs' ring, set up once for the thread (nbuf deep): NULL when io_uring cannot */
static struct io_uring *rb_ring(struct worker *w, unsigned nbuf)
{
	if (!w->vring && !w->vring_failed) {
		struct io_uring *r = malloc(sizeof *r);
		if (r && !io_uring_queue_init(nbuf, r, 0))
			w->vring = r;
		else {
			free(r);
			w->vring_failed = 1;
		}
	}
	return w->vring;
}

static void rb_ring_drop(struct worker *w)
{
	if (w->vring) {
		io_uring_queue_exit(w->vring);   /* waits for what is still in flight */
		free(w->vring);
		w->vring = NULL;
	}
}

/* the read-back of src through io_uring, nbuf reads in flight; -1 when no ring could be
 * set up */
static int rb_uring(struct worker *w, struct meter *m, struct rb_src *src, char *bufs, unsigned nbuf, uint64_t t0)
{
	const struct job *j = w->job;
	struct io_uring *ring;
	struct slot *slots = calloc(nbuf, sizeof *slots);
	int *free_slots = calloc(nbuf, sizeof *free_slots), *batch = calloc(nbuf, sizeof *batch);
	int nfree = (int)nbuf, inflight = 0, halt = 0, r = -1, broken = 0;
	if (!slots || !free_slots || !batch || !(ring = rb_ring(w, nbuf)))
		goto out;
	r = 0;
	for (int i = 0; i < (int)nbuf; i++)
		free_slots[i] = i;
	for (;;) {
		struct io_uring_sqe *sqe;
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		int n = 0, e;
		uint64_t t, off;
		int f;
		halt |= group_stopped(w);
		while (!halt && nfree && rb_src_next(w, src, &f, &off)) {
			int k = free_slots[--nfree];
			if (!(sqe = io_uring_get_sqe(ring))) {   /* never: the ring holds nbuf */
				set_err(w, EAGAIN, "verify: no room in the ring", UINT64_MAX);
				halt = 1;
				break;
			}
			slots[k] = (struct slot){ .t_prep = now_ns(), .off = off, .len = j->bs, .ddir = DDIR_READ,
						  .file = f, .counted = 1 };
			pick_prio(j, m, &slots[k]);   /* fio's: a verify read is a read, cmdprio's too */
			io_uring_prep_read(sqe, w->f[f].fd, bufs + (size_t)k * j->bs, (unsigned)j->bs, off);
			if (j->cmdprio_pct[DDIR_READ])
				sqe->ioprio = (uint16_t)slot_ioprio(j, &slots[k]);
			log_issue(w, m, f, DDIR_READ, off, j->bs);
			io_uring_sqe_set_data64(sqe, (uint64_t)k);
			batch[n++] = k;
		}
		if (n) {
			while ((e = io_uring_submit(ring)) == -EINTR)
				;
			t = now_ns();
			if (e < n) {   /* what did not go is dropped with the ring */
				set_err(w, e < 0 ? -e : EAGAIN, "verify: io_uring_submit", UINT64_MAX);
				halt = broken = 1;
			}
			for (int i = 0; i < n; i++)
				slots[batch[i]].t_issue = t;
			inflight += e > 0 ? e : 0;
			mark_depth(w, m, inflight, e > 0 ? e : 0);   /* fio's IO depths count these too */
			mark_calls(m, w->submit_map, e > 0 ? e : 0);
		}
		if (!inflight)
			break;
		while ((e = io_uring_wait_cqe(ring, &cqe)) == -EINTR)
			;
		if (e) {
			set_err(w, -e, "verify: io_uring_wait_cqe", UINT64_MAX);
			broken = 1;
			break;   /* the ring's exit waits for what is in flight */
		}
		t = now_ns();
		io_uring_for_each_cqe(ring, head, cqe) {
			int k = (int)io_uring_cqe_get_data64(cqe);
			if (!halt && rb_done(w, m, &slots[k], bufs + (size_t)k * j->bs, cqe->res, t, !src->list) < 0)
				halt = 1;
			free_slots[nfree++] = k;
			inflight--;
			seen++;
		}
		io_uring_cq_advance(ring, seen);
		mark_calls(m, w->complete_map, (int)seen);
		sample_tick(w, m, t);
		rb_snap(w, m, t0, src->workload);
	}
	if (broken)
		rb_ring_drop(w);
out:
	free(slots);
	free(free_slots);
	free(batch);
	return r;
}

/* the read-back of src one block at a time */
static void rb_psync(struct worker *w, struct meter *m, struct rb_src *src, char *buf, uint64_t t0)
{
	const struct job *j = w->job;
	uint64_t off;
	int f;
	while (!group_stopped(w) && rb_src_next(w, src, &f, &off)) {
		struct slot s = { .off = off, .len = j->bs, .ddir = DDIR_READ, .file = f, .counted = 1, .sync = 1 };
		long r;
		uint64_t t;
		log_issue(w, m, f, DDIR_READ, off, j->bs);
		s.t_prep = s.t_issue = now_ns();
		r = (long)full_io(w->f[f].fd, 0, buf, j->bs, off, NULL, 0, 0);
		mark_depth(w, m, 1, 1);
		mark_calls(m, w->submit_map, 1);
		mark_calls(m, w->complete_map, 1);
		if (rb_done(w, m, &s, buf, r, t = now_ns(), !src->list) < 0)
			break;
		sample_tick(w, m, t);
		rb_snap(w, m, t0, src->workload);
	}
}

/* read back and check the blocks the thread's map marks (every block for --verify_only),
 * from the device, not the page cache, in offset order, each one read and checked by
 * itself: with the job's queued engine nbuf at a time through io_uring, else one by one.
 * The reads count as the job's (fio's), its time as theirs. */
static void read_map(struct worker *w, struct meter *m, char *bufs, unsigned nbuf, int queued, int workload)
{
	const struct job *j = w->job;
	struct rb_src src = { .nblk = w->vb[j->nfiles], .workload = workload };
	uint64_t t0;
	if (w->tmap && trim_marked(w))
		return;
	for (int f = 0; f < j->nfiles; f++) {
		fdatasync(w->f[f].fd);
		if (w->f[f].dev->is_file || ioctl(w->f[f].fd, BLKFLSBUF, 0))
			posix_fadvise(w->f[f].fd, (off_t)file_base(j, f, w->idx), (off_t)((w->vb[f + 1] - w->vb[f]) * j->bs),
				      POSIX_FADV_DONTNEED);
	}
	t0 = now_ns();
	w->ver.ran = 1;
	if (!queued || rb_uring(w, m, &src, bufs, nbuf, workload ? 0 : t0) < 0)
		rb_psync(w, m, &src, bufs, workload ? 0 : t0);
	w->ver.ns += now_ns() - t0;
	if (workload)
		w->pass_ns += now_ns() - t0;
}

/* fio's verify: once every thread of the job has ended its workload (a block another
 * thread is still writing would read torn), the blocks this thread wrote (--verify_only:
 * every block of its region; --verify_backlog: those not checked yet) */
static void readback(struct worker *w, struct meter *m, char *bufs, unsigned nbuf, int queued)
{
	while (__atomic_load_n(w->writing, __ATOMIC_ACQUIRE) > 0) {
		sample_tick(w, m, now_ns());   /* the samples go on (the wait's intervals: none) */
		rb_snap(w, m, 0, 0);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	if (w->err || group_stopped(w))
		return;
	read_map(w, m, bufs, nbuf, queued, 0);
	getrusage(RUSAGE_THREAD, &w->ru_end);
}

/* fio's --loops with --verify: a size-based job checks what each pass wrote when the
 * pass ends (its I/Os drained), before the next one writes; the last pass's check is the
 * job's end's */
static void pass_check(struct worker *w, struct meter *m, int queued)
{
	const struct job *j = w->job;
	w->pass_bytes -= w->pass_len;
	w->passes_left--;
	if (w->err)
		return;
	read_map(w, m, w->bl_buf, queued ? (unsigned)j->iodepth : 1, queued, 1);
	memset(w->vmap, 0, w->vb[j->nfiles] / 8 + 1);   /* checked: the next pass marks its own */
	if (j->zt) {   /* --zonemode=zbd: the next pass writes its zones afresh */
		char e[240];
		if (zbd_verify_pass(j->zt, &w->zbd, w->fd, e, sizeof e))
			set_err(w, EIO, e, UINT64_MAX);
	}
}

/* fio's verify_backlog: every --verify_backlog writes, with none in flight, the thread
 * reads back and checks the blocks they wrote (--verify_backlog_batch of them), then
 * writes on; its time is the workload's (as fio's).  --verify_fatal: a bad block ends the
 * job. */
static void backlog_check(struct worker *w, struct meter *m, int queued)
{
	const struct job *j = w->job;
	/* a batch larger than the backlog: each block once (as fio 3.33 does, whose manual says
	 * some twice) */
	struct rb_src src = { .list = w->bl, .workload = 1,
			      .n = j->verify_backlog_batch && j->verify_backlog_batch < w->bl_n ? j->verify_backlog_batch
												 : w->bl_n };
	uint64_t t0 = now_ns(), bad = w->ver.bad;
	unsigned nbuf = queued ? (unsigned)j->iodepth : 1;
	w->bl_writes = 0;
	if (!w->bl_n || w->err)
		return;
	w->ver.ran = 1;
	if (!queued || rb_uring(w, m, &src, w->bl_buf, nbuf, 0) < 0)
		rb_psync(w, m, &src, w->bl_buf, 0);
	w->bl_n = 0;
	w->ver.bl_ns += now_ns() - t0;
	fatal_bad(w, bad);
}

/* a write of len bytes at off done: its blocks wait for the next --verify_backlog check */
static void backlog_add(struct worker *w, int f, uint64_t off, uint64_t len)
{
	const struct job *j = w->job;
	uint64_t base = file_base(j, f, w->idx);
	for (uint64_t k = 0; k + j->bs <= len && w->bl_n < w->bl_cap; k += j->bs)
		w->bl[w->bl_n++] = w->vb[f] + (off + k - base) / j->bs;   /* its block in the map */
}

/* this thread's workload has ended (the read-backs wait for every thread's) */
static void workload_done(struct worker *w)
{
	if (w->writing)
		__atomic_sub_fetch(w->writing, 1, __ATOMIC_ACQ_REL);
}

void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	struct meter m = { 0 };
	struct iogen g;
	size_t align = w->dev->lbs > 4096 ? w->dev->lbs : 4096;
	size_t nbuf = job_queued(j) ? (size_t)j->iodepth : 1;
	char *bufs = NULL;
	int r = 0;
	uint64_t log_end;
	struct job *fj = NULL;     /* fio's a:b: each file's job (its region, its own offsets) */

	for (int d = 0; d < DDIR_N; d++)
		ddir_stats_init(&w->st[d]);
	moments_init(&w->sync_lat);
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
	if (j->nice && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), j->nice))
		set_err(w, errno, "--nice: setpriority", UINT64_MAX);
	if (j->ioprio >= 0 && syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, j->ioprio))
		set_err(w, errno, "--prioclass/--prio: ioprio_set", UINT64_MAX);
	/* fio's numa_mem_policy: this thread's, before its buffers are made and touched */
	if (j->mpol_mode >= 0 && syscall(SYS_set_mempolicy, j->mpol_mode, j->mpol_nodes ? &j->mpol_nodes : NULL,
					 j->mpol_nodes ? 65ul : 0ul))
		set_err(w, errno, errno == ENOSYS ? "--numa_mem_policy: this kernel has no NUMA" :
			"--numa_mem_policy: set_mempolicy", UINT64_MAX);
	if (posix_memalign((void **)&bufs, align, nbuf * j->bs_max)) {
		set_err(w, ENOMEM, "I/O buffers", UINT64_MAX);
		goto early;
	}
	for (size_t i = 0; i < nbuf; i++)
		if (j->pattern_len)
			pattern_fill(j, bufs + i * j->bs_max, j->bs_max);
		else
			fill_buffer(bufs + i * j->bs_max, j->bs_max, j->randseed * 31 + (uint64_t)w->idx * 4099 + i,
				    j->zero_buffers ? 100 : j->compress_pct, j->compress_chunk);
	for (int f = 0; f < j->nfiles; f++)   /* each file's blocks in the verify map, one after another */
		w->vb[f + 1] = w->vb[f] + (j->nfiles > 1 ? j->fsize[f] : j->size) / j->bs;
	if (j->zone_size) {   /* strided zones: they go on to the device's end, the map too */
		uint64_t base = file_base(j, 0, w->idx);
		w->vb[1] = j->stride_end > base ? (j->stride_end - base) / j->bs : 0;
	}
	if (j->verify && rw_writes(j->rw) && !j->verify_only && (!(w->vmap = calloc(w->vb[j->nfiles] / 8 + 1, 1)) ||
	    (j->trim_pct && !(w->tmap = calloc(w->vb[j->nfiles] / 8 + 1, 1))))) {
		set_err(w, ENOMEM, "--verify: the map of blocks written", UINT64_MAX);
		free(bufs);
		goto early;
	}
	prng_seed(&w->trim_rng, j->randseed ^ 0x7219ull ^ ((uint64_t)w->idx << 32));
	/* fio's --loops with --verify: each pass checked when it ends (threads on one region:
	 * at the end only, a block another is writing would read torn) */
	if (w->vmap && j->do_verify && j->loops > 1 && !j->time_based && !j->verify_backlog && !rw_trims(j->rw) &&
	    (j->numjobs == 1 || j->per_thread || j->offset_inc >= job_fsize(j, 1)))
		w->passes_left = j->loops - 1;
	if (j->zt) {   /* --zonemode=zbd: the thread's region's zones (the open ones its) */
		char e[240];
		if (zbd_join(j->zt, &w->zbd, j, file_base(j, 0, w->idx), j->size, w->fd, e, sizeof e)) {
			set_err(w, EIO, e, UINT64_MAX);
			free(bufs);
			free(w->vmap);
			w->vmap = NULL;
			goto early;
		}
		/* time based with --verify: the zones' worth written is a pass, checked, its
		 * zones reset for the next (fio's); threads on one region: one pass */
		if (w->vmap && j->do_verify && j->time_based && !j->verify_backlog &&
		    (j->numjobs == 1 || j->per_thread || j->offset_inc >= j->size))
			w->passes_left = INT32_MAX;
	}
	if ((j->verify_backlog || w->passes_left) && w->vmap) {
		/* room for a backlog's blocks and those in flight when it filled */
		w->bl_cap = (j->verify_backlog + (uint64_t)j->iodepth) * (j->bs_max / j->bs);
		if ((j->verify_backlog && !(w->bl = malloc(w->bl_cap * sizeof *w->bl))) ||
		    posix_memalign((void **)&w->bl_buf, align, nbuf * j->bs)) {
			set_err(w, ENOMEM, "--verify_backlog: its list and buffers", UINT64_MAX);
			free(bufs);
			goto early;
		}
	}
	if (j->dedupe_pct && rw_writes(j->rw)) {
		/* the same for every thread of the job: its writes repeat each other's too */
		if (posix_memalign((void **)&w->dedupe, align, j->bs_max)) {
			set_err(w, ENOMEM, "--dedupe_percentage: a buffer", UINT64_MAX);
			free(bufs);
			free(w->vmap);
			w->vmap = NULL;
			goto early;
		}
		fill_buffer(w->dedupe, j->bs_max, j->randseed * 131 + 7, j->zero_buffers ? 100 : j->compress_pct,
			    j->compress_chunk);
		w->ws_seed = j->dedupe_seed + (j->dedupe_global ? 0 : (uint64_t)w->idx << 32);
		w->ws_next = j->dedupe_global ? (uint64_t)w->idx : 0;
		w->ws_step = j->dedupe_global ? (uint64_t)j->numjobs : 1;
	}
	iogen_init(&g, j, w->idx);
	if (j->nfiles > 1 && !j->replay) {
		if (!(fj = malloc((size_t)j->nfiles * sizeof *fj)) ||
		    !(m.gens = malloc((size_t)j->nfiles * sizeof *m.gens))) {
			set_err(w, ENOMEM, "the files' offsets", UINT64_MAX);
			free(bufs);
			goto early;
		}
		for (int f = 0; f < j->nfiles; f++) {
			fj[f] = *j;
			fj[f].size = j->fsize[f];
			fj[f].offset = j->foff[f];
			fj[f].io_size = j->io_size / (uint64_t)j->nfiles / j->bs * j->bs;   /* --io_size: shared out */
			fj[f].number_ios = 0;          /* the thread's: gen_next counts it */
			fj[f].randseed = j->randseed + 0x51ed27f1ull * (uint64_t)(f + 1);
			iogen_init(&m.gens[f], &fj[f], w->idx);
		}
		m.cur = -1;
		prng_seed(&m.file_rng, j->randseed ^ 0xf11e5ull ^ ((uint64_t)w->idx << 32));
	}
	w->pass_len = j->zt && j->time_based ? zbd_room(j->zt, &w->zbd) : g.loop_bytes;
	for (int f = 0; f < MAX_FILES; f++)
		w->sfr_lo[f] = UINT64_MAX;
	flow_join(j, &m);
	prng_seed(&m.rate_rng, j->randseed ^ 0x7a7eull ^ ((uint64_t)w->idx << 32));
	prng_seed(&m.prio_rng, j->randseed ^ 0x9710ull ^ ((uint64_t)w->idx << 32));
	m.interval = (uint64_t)(j->sample_ms * 1e6);
	m.warm_left = (uint64_t)j->warmup_ios;
	m.qd = j->lat_target_ns ? 1 : j->iodepth;   /* fio's latency_target starts at depth 1 */
	m.qd_low = 1;
	m.qd_high = j->iodepth + 1;
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
	if (j->verify_only) {     /* no workload: the read-back alone */
		start_line(w);
		begin_counting(w, &m, now_ns());
		w->end_ns = w->start_ns;
		w->ru_end = w->ru_start;
	} else if (job_queued(j)) {
		r = j->ioengine == IOE_IO_URING ? run_uring(w, &m, &g, bufs) : run_libaio(w, &m, &g, bufs);
		if (r < 0) {
			/* no io_uring (or AIO) here: measure with psync and say so */
			w->engine_fallback = -r;
			m.warm_left = (uint64_t)j->warmup_ios;
			r = run_psync(w, &m, &g, bufs);
		}
	} else {
		r = run_psync(w, &m, &g, bufs);
	}
	flow_leave(j, &m);
	if (j->zt)
		zbd_leave(j->zt, &w->zbd);
	w->lat_depth = m.qd;
	if (!m.counting)      /* ended inside the ramp or warm-up: nothing measured */
		w->start_ns = w->end_ns;
	if (w->ss)
		ss_thread_end(w->ss);
	workload_done(w);
	log_end = w->end_ns;
	if (job_reads_back(j) && (w->vmap || j->verify_only)) {
		readback(w, &m, bufs, (unsigned)nbuf, ioengine_queued(j->ioengine) && j->ioengine != IOE_VSYNC &&
			 !w->engine_fallback);
		log_end = now_ns();
	}
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
	if ((j->exitall || (j->exitall_on_error && w->err)) && w->group_stop)    /* fio's exitall: the whole group stops with us */
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
