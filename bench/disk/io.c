/* What every I/O loop shares: the next I/O (rates, think time, flows, zones), its
 * accounting with fio's slat/clat/lat, samples, errors, latency_target. */
#include "io.h"
#include "ioengine.h"
#include "clock.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <liburing.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


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
void scramble(struct worker *w, void *buf, uint64_t off, uint64_t len, struct prng *r)
{
	const struct job *j = w->job;
	/* fio's dedupe_percentage: this share of the writes carry the same data each time, or
	 * with dedupe_mode=working_set one of the thread's working set's blocks -- which are,
	 * as fio's, the first unique ones it writes (with dedupe_global one set for all, its
	 * blocks written as unique ones by the job's threads in turn) */
	int dup = w->dedupe && (int)prng_below(r, 100) < j->o.dedupe_pct;
	if (dup && !j->dedupe_ws)
		memcpy(buf, w->dedupe, len);
	else if (j->dedupe_ws && (dup || w->ws_next < j->dedupe_ws)) {
		uint64_t i = dup ? prng_below(r, j->dedupe_ws) : w->ws_next;
		if (!dup)
			w->ws_next += w->ws_step;
		fill_buffer(buf, len, w->ws_seed + i, j->o.zero_buffers ? 100 : j->o.compress_pct, j->o.compress_chunk);
	} else   /* (in each compress chunk's random part only) */
		for (size_t c = 0; !j->o.zero_buffers && !j->pattern_len && c + 8 <= len; c += 512)
			if (!j->o.compress_pct || (c % j->o.compress_chunk) + 8 <= j->o.compress_chunk -
						 compress_zero(j->o.compress_pct, j->o.compress_chunk))
				*(uint64_t *)((char *)buf + c) = prng_next(r);
	if (j->npat_off)   /* fio's %o: each block's own offset in its pattern */
		for (uint64_t k = 0; k + j->bs <= len; k += j->bs)
			pattern_offsets(j, (char *)buf + k, off + k);
	if (j->verify)
		verify_stamp(j, buf, off, len);
}

/* a free slot of a queued engine, set up for the I/O at off */
int slot_take(struct slot *slots, int *free_slots, int *nfree, int counting, uint64_t t_prep,
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
void start_line(struct worker *w)
{
	if (!w->started) {
		w->started = 1;
		pthread_barrier_wait(w->barrier);
	}
}

/* " (vdc is gone: removed from /sys/block)" when one of the worker's disks was unplugged,
 * else "": checked for up to wait_s (the kernel removes the entry just after the I/O it
 * failed) */
void disk_gone_note(const struct worker *w, char *out, size_t n, double wait_s)
{
	char p[128];
	out[0] = 0;
	for (double waited = 0;; waited += 0.1) {
		for (int f = 0; f < w->job->nfiles && f < MAX_FILES; f++) {
			const struct blkdev *d = w->f[f].dev ? w->f[f].dev : w->dev;
			if (!d || d->is_file || d->is_null)
				continue;
			snprintf(p, sizeof p, "/sys/block/%s", d->name);
			if (access(p, F_OK) && errno == ENOENT) {
				snprintf(out, n, " (%s is gone: removed from /sys/block)", d->name);
				return;
			}
		}
		if (waited >= wait_s)
			return;
		usleep(100000);
	}
}

void set_err(struct worker *w, int err, const char *what, uint64_t off)
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
int io_error(struct worker *w, const struct slot *s, int type, int err, const char *what)
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
	if (j->o.error_dump)
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
	return (!j->o.rate_gap_ns[d] && !j->o.rate_bps[d]) || !m->rate_next[d] || now >= m->rate_next[d];
}

/* The next I/O to issue: 1 (ddir, off set), 0 when the job has no more, -1 when a rate
 * cap holds it back until *until.  As fio's: on schedule from the start (an I/O that is
 * late goes at once, the ones after catch up), and in a mixed job an I/O whose direction
 * must wait goes the other way if that one may go (the mix then follows the caps). */
/* fio's write_iolog: an I/O (or sync: RP_*) on file f issued now */
void log_issue(struct worker *w, const struct meter *m, int f, int op, uint64_t off, uint64_t len)
{
	if (w->iolog_out)
		iolog_out_io(w->iolog_out, w->f[f].dev->path, (now_ns() - m->t_begin) / 1000, op, off, len);
}

/* fdatasync (full: fsync) of the target, timed and counted as fio's sync figures */
/* full: 1 fsync, 0 fdatasync, SYNC_RANGE fio's sync_file_range over what was written
 * since the last one (not in --write_iolog: fio's logs have no such entry) */

void timed_sync(struct worker *w, struct meter *m, int full)
{
	uint64_t t0 = now_ns();
	int e = 0;
	for (int f = 0; f < w->job->nfiles; f++) {   /* each of the job's files (fio's) */
		if (full == SYNC_RANGE) {
			if (!JOB_ENGINE_HAS(w->job, IOE_NODATA) && !e && w->sfr_hi[f] > w->sfr_lo[f] &&
			    sync_file_range(w->f[f].fd, (off_t)w->sfr_lo[f], (off_t)(w->sfr_hi[f] - w->sfr_lo[f]),
					    w->job->sfr_flags))
				e = errno;
			w->sfr_lo[f] = UINT64_MAX;
			w->sfr_hi[f] = 0;
			continue;
		}
		log_issue(w, m, f, full ? RP_SYNC : RP_DATASYNC, 0, 0);
		if (!JOB_ENGINE_HAS(w->job, IOE_NODATA) && !e && (full ? fsync(w->f[f].fd) : fdatasync(w->f[f].fd)))
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
int gen_next(const struct job *j, struct meter *m, struct iogen *g, int *file, int *ddir, uint64_t *off,
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
		if (j->o.number_ios && m->gen_issued >= (uint64_t)j->o.number_ios)
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

void flow_join(const struct job *j, struct meter *m)
{
	struct flow *f = NULL;
	if (!j->o.flow)
		return;
	pthread_mutex_lock(&flows_mu);
	for (int i = 0; i < MAX_FLOWS && !f; i++)
		if (flows[i].users && flows[i].id == j->o.flow_id)
			f = &flows[i];
	for (int i = 0; i < MAX_FLOWS && !f; i++)
		if (!flows[i].users) {
			f = &flows[i];
			*f = (struct flow){ .id = j->o.flow_id, .ios = 1 };
		}
	if (f) {   /* (more than 64 groups at once: the thread goes unregulated) */
		f->users++;
		__atomic_add_fetch(&f->weight, (uint64_t)j->o.flow, __ATOMIC_RELAXED);
	}
	m->flow = f;
	m->flow_ios = 0;
	pthread_mutex_unlock(&flows_mu);
}

void flow_leave(const struct job *j, struct meter *m)
{
	if (!m->flow)
		return;
	pthread_mutex_lock(&flows_mu);
	__atomic_sub_fetch(&m->flow->ios, m->flow_ios, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&m->flow->weight, (uint64_t)j->o.flow, __ATOMIC_RELAXED);
	m->flow->users--;
	m->flow = NULL;
	pthread_mutex_unlock(&flows_mu);
}

/* over its share: wait (the I/O it then issues is counted by flow_count) */
static int flow_over(const struct job *j, const struct meter *m)
{
	const struct flow *f = m->flow;
	uint64_t all = __atomic_load_n(&f->ios, __ATOMIC_RELAXED), wt = __atomic_load_n(&f->weight, __ATOMIC_RELAXED);
	return (double)m->flow_ios / (double)all > (double)j->o.flow / (double)wt;
}

static void flow_count(struct meter *m)
{
	__atomic_add_fetch(&m->flow->ios, 1, __ATOMIC_RELAXED);
	m->flow_ios++;
}

int next_io(struct worker *w, struct meter *m, struct iogen *g, uint64_t now, int inflight,
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
	if (j->o.think_iotime_ns && !m->think_last)
		m->think_last = now;
	if (j->o.think_ns && (m->think_done >= j->think_blocks || m->think_until ||
			    (j->o.think_iotime_ns && now - m->think_last >= j->o.think_iotime_ns + j->o.think_ns))) {
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
			m->think_until = t + j->o.think_ns;
			for (uint64_t e = t + j->o.think_spin_ns; j->o.think_spin_ns && now_ns() < e;)
				__builtin_ia32_pause();
			t = now_ns();
		}
		if (t < m->think_until) {
			*until = m->deadline && m->deadline < m->think_until ? m->deadline : m->think_until;
			return -1;
		}
		m->think_until = 0;
		m->think_done = 0;
		for (int k = 0; j->o.rate_ign_think && k < DDIR_N; k++) {
			/* fio's rate_ignore_thinktime: the schedule moves on by the pause, less
			 * one I/O's time (the next goes at once) */
			uint64_t p = t - m->think_last, one = j->o.rate_bps[k] ? (uint64_t)((double)j->bs * 1e9 /
										   (double)j->o.rate_bps[k]) : j->o.rate_gap_ns[k];
			if (m->rate_next[k])
				m->rate_next[k] += p > one ? p - one : 0;
		}
	}
	for (;;) {
		if (!m->held) {
			if (!gen_next(j, m, g, &m->h_file, &m->h_ddir, &m->h_off, &m->h_len))
				return 0;
			m->held = 1;
			if (g->passed && j->nfiles == 1) {
				/* fio's, time based: each new pass over a buffered job's region starts
				 * with its cached pages dropped (fio's loop_cache_invalidate) */
				g->passed = 0;
				if (j->o.time_based && j->o.invalidate && !j->o.direct && !w->f[0].dev->is_null)
					posix_fadvise(w->f[0].fd, (off_t)g->base, (off_t)j->size, POSIX_FADV_DONTNEED);
			}
		}
		if (!j->replay)
			break;
		if (!j->o.replay_no_stall) {
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
	if (j->o.serialize_overlap && inflight && overlaps_in_flight(m)) {
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
	if (w->zt) {
		/* fio's zonemode=zbd: the I/O moved to where the zones take it */
		uint64_t o = m->h_off, l = m->h_len;
		int e = 0, z;
		char msg[240];
		if ((z = zbd_adjust(w->zt, &w->zbd, j, w->fd, inflight, &d, &o, &l, &e, msg, sizeof msg)) <= 0) {
			if (e)
				set_err(w, e, msg, UINT64_MAX);
			else if (z < 0)   /* its I/Os in flight complete, or another thread's to the zone */
				*until = inflight ? (m->deadline ? m->deadline : now + 1000000000ull) : now + 20000;
			return z;
		}
		if (!rw_is_random(j->rw) && !j->replay)   /* the next sequential I/O after this one (fio's last_pos) */
			g->seq_pos[d] = (zbd_next_seq(w->zt, o + l) - g->base) / j->bs;
		g->issued_bytes -= m->h_len - l;
		m->h_off = o;
		m->h_len = l;
	}
	gap = j->o.rate_bps[d] ? (uint64_t)((double)m->h_len * 1e9 / (double)j->o.rate_bps[d]) + 1
			     : j->o.rate_gap_ns[d];
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
	m->think_done += j->o.think_issue;
	*ddir = d;
	*off = m->h_off;
	*len = m->h_len;
	if (m->flow)
		flow_count(m);
	return 1;
}

void sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* a thread of the group ended with fio's exitall: every other one ends too */
int group_stopped(const struct worker *w)
{
	return w->group_stop && __atomic_load_n(w->group_stop, __ATOMIC_RELAXED);
}

/* past the start line: fio's --startdelay, then the ramp begins */
void start_job(struct worker *w, struct meter *m)
{
	const struct job *j = w->job;
	start_line(w);
	for (int i = 0; i < w->nwaitee && !group_stopped(w);)    /* fio's wait_for */
		if (__atomic_load_n(&w->waitee[i].finished, __ATOMIC_ACQUIRE))
			i++;
		else
			sleep_until(now_ns() + 10000000);
	if (j->o.startdelay > 0) {
		/* in 10 ms steps, so that an exitall ends the wait */
		uint64_t t = now_ns(), end = t + (uint64_t)(j->o.startdelay * 1e9);
		for (; t < end && !group_stopped(w); t = now_ns())
			sleep_until(end - t > 10000000 ? t + 10000000 : end);
	}
	m->t_begin = now_ns();
	m->ramp_end = m->t_begin + (uint64_t)(j->o.ramp_time * 1e9);
}

/* a wait for completions of at most *to ns, shortened to end at until (a rate cap's next
 * issue; 0: none): whether it was */
int cap_wait(uint64_t until, uint64_t *to)
{
	uint64_t now;
	if (!until || (now = now_ns()) + *to <= until)
		return 0;
	*to = until > now ? until - now : 1;
	return 1;
}

void begin_counting(struct worker *w, struct meter *m, uint64_t now)
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
	m->deadline = j->o.runtime > 0 ? now + (uint64_t)(j->o.runtime * 1e9) : 0;
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
	const int qd = m->qd, max = w->job->o.iodepth;
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
	if (t_done - s->t_prep <= j->o.lat_target_ns)
		return;
	m->lat_failed++;
	if (j->lat_pct >= 100)
		lat_failure(w, m, t_done);
}

/* the window's end: its share of I/Os within the target decides */
static void lat_check(struct worker *w, struct meter *m, uint64_t now)
{
	const struct job *j = w->job;
	if (now - m->lat_ts < j->o.lat_window_ns || !m->lat_ios)
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
void snap_answer(struct worker *w, const struct meter *m, uint64_t now)
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
		if (j->o.min_bps[d] && (double)bytes / cyc < (double)j->o.min_bps[d]) {
			w->err = ETIMEDOUT;
			snprintf(w->errmsg, sizeof w->errmsg, "--rate_min: %ss at %.0f B/s over the last %.0f ms, under "
				 "the minimum %llu B/s", ddir_name[d], (double)bytes / cyc, cyc * 1e3,
				 (unsigned long long)j->o.min_bps[d]);
		} else if (j->o.min_gap_ns[d] && (double)ios / cyc < 1e9 / (double)j->o.min_gap_ns[d] - 0.5) {
			w->err = ETIMEDOUT;
			snprintf(w->errmsg, sizeof w->errmsg, "--rate_iops_min: %ss at %.0f IOPS over the last %.0f ms, "
				 "under the minimum %.0f", ddir_name[d], (double)ios / cyc, cyc * 1e3,
				 1e9 / (double)j->o.min_gap_ns[d]);
		}
	}
	memcpy(m->mr_ios, w->prog_ios, sizeof m->mr_ios);
	memcpy(m->mr_bytes, w->prog_bytes, sizeof m->mr_bytes);
	m->mr_next = now + j->rate_cycle_ns;
}

/* the top of every engine's loop: measuring starts once the ramp and the warm-up are
 * over; returns whether to stop issuing (a failure, or the runtime is up) */
int loop_tick(struct worker *w, struct meter *m, uint64_t now)
{
	if (!m->counting && now >= m->ramp_end && !m->warm_left)
		begin_counting(w, m, now);
	if (w->snap_req)
		snap_answer(w, m, now);
	if (w->job->min_rate && m->counting && now >= m->mr_next)
		min_rate_check(w, m, now);
	if (w->job->o.lat_target_ns)
		lat_check(w, m, now);
	return w->err || m->lat_done || (m->deadline && now >= m->deadline) || group_stopped(w) ||
	       ss_stopped(w->ss);
}

void sample_tick(struct worker *w, struct meter *m, uint64_t now)
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
int may_queue(const struct job *j, struct meter *m, int inflight)
{
	if (j->o.iodepth_low >= m->qd)
		return 1;
	if (inflight >= m->qd)
		m->draining = 1;
	else if (inflight <= j->o.iodepth_low)
		m->draining = 0;
	return !m->draining;
}

/* a submit (or reap) call that sent (took) nr I/Os, into fio's buckets */
void mark_calls(const struct meter *m, uint64_t map[7], int nr)
{
	if (m->counting && nr >= 0)
		map[nr == 0 ? 0 : nr <= 4 ? 1 : nr <= 8 ? 2 : nr <= 16 ? 3 : nr <= 32 ? 4 : nr <= 64 ? 5 : 6]++;
}

/* fio's "IO depths": nr I/Os submitted with depth in flight after the submit */
void mark_depth(struct worker *w, const struct meter *m, int depth, int nr)
{
	int idx = depth >= 64 ? 6 : depth >= 32 ? 5 : depth >= 16 ? 4 : depth >= 8 ? 3 :
		  depth >= 4 ? 2 : depth >= 2 ? 1 : 0;
	if (m->counting)
		w->depth_map[idx] += (uint64_t)nr;
}

/* after a queued engine's submit: the slots batch[*issued..queued) were issued now, at
 * depth inflight; the next I/O's preparation starts now (*t_prep) */
void issued_now(struct worker *w, const struct meter *m, struct slot *slots, const int *batch,
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

/* one I/O done (res bytes) into the figures of its direction: fio's slat, clat, lat */
void count_io(const struct job *j, struct ddir_stats *st, const struct slot *s, long res, uint64_t t_done)
{
	st->ios++;
	st->bytes += (uint64_t)res;
	if ((uint64_t)res < s->len)
		st->short_ios++;
	if (s->sync)
		;
	else if (j->o.slat_pcts)
		hist_add(&st->slat, s->t_issue - s->t_prep);
	else
		moments_add(&st->slat.m, s->t_issue - s->t_prep);
	hist_add(&st->clat, t_done - s->t_issue);
	if (j->o.lat_pcts)
		hist_add(&st->lat, t_done - s->t_prep);
	else
		moments_add(&st->lat.m, t_done - s->t_prep);
	/* fio's per-priority figures: one kind of latency, clat, or lat with --lat_percentiles */
	if (s->ddir < DDIR_TRIM && j->cmdprio_pct[s->ddir])
		hist_add(&st->prio[s->prio], j->o.lat_pcts ? t_done - s->t_prep : t_done - s->t_issue);
}

/* fio's cmdprio_percentage and cmdprio_bssplit: the priority this I/O goes at (fio's draw:
 * 0-99, once the I/O's size has shares; under their total, the share it falls in) */
void pick_prio(const struct job *j, struct meter *m, struct slot *s)
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

unsigned slot_ioprio(const struct job *j, const struct slot *s)
{
	return s->prio ? j->cmdprio_val[s->ddir][s->prio] : j->ioprio < 0 ? 0 : (unsigned)j->ioprio;
}

/* account one completed I/O */
void account(struct worker *w, struct meter *m, struct slot *s, long res, uint64_t t_done)
{
	const struct job *j = w->job;
	struct ddir_stats *st = &w->st[s->ddir];
	m->think_done += !j->o.think_issue;
	if (w->zt)
		zbd_done(w->zt, &w->zbd, s->ddir, s->off, s->len);
	if (res < 0) {
		if (res == -EOPNOTSUPP && j->o.hipri)
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
	if (j->o.lat_target_ns)
		lat_account(w, m, s, t_done);
	if (j->o.max_lat_ns[s->ddir] && t_done - s->t_prep > j->o.max_lat_ns[s->ddir] && !w->err) {
		/* fio's max_latency: the job fails with ETIMEDOUT */
		w->err = ETIMEDOUT;
		snprintf(w->errmsg, sizeof w->errmsg, "a %s at offset %llu took %llu us, over --max_latency=%llu us",
			 ddir_name[s->ddir], (unsigned long long)s->off,
			 (unsigned long long)((t_done - s->t_prep) / 1000),
			 (unsigned long long)(j->o.max_lat_ns[s->ddir] / 1000));
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
	if (s->ddir == DDIR_READ && j->verify && j->o.do_verify && !rw_writes(j->rw) && !j->o.verify_only)
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
long trim_range(struct worker *w, int f, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };
	const struct wfile *wf = &w->f[f];
	long z = w->zt ? zbd_trim(w->zt, &w->zbd, wf->fd, off, len) : 0;
	int r;
	if (z)   /* --zonemode=zbd: a sequential zone's trim is its reset */
		return z;
	r = wf->dev->is_file ? fallocate(wf->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len)
				 : ioctl(wf->trim_fd, BLKDISCARD, range);
	return r ? -errno : (long)len;
}

/* a trim on a queued engine, as fio does it (io_uring and libaio): at once, in this thread,
 * its time the completion latency; whether the job is to stop */
int sync_trim(struct worker *w, struct meter *m, uint64_t t_prep, int inflight, int f, uint64_t off,
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

/* pos: the sync engine's file position (-1: unknown), NULL for psync; vec: 1 preadv/pwritev
 * (fio's pvsync), 2 preadv2/pwritev2 with the flags rwf (pvsync2: RWF_HIPRI) */
ssize_t full_io(int fd, int write_, void *buf, size_t len, uint64_t off, int64_t *pos, int vec, int rwf)
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
