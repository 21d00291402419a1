/* fio's verify: each thread reads back what it wrote (at the end, every
 * --verify_backlog writes, or --verify_only) and checks each block. */
#include "io.h"
#include "clock.h"
#include <liburing.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <unistd.h>

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
		if ((int)prng_below(&w->trim_rng, 100) < j->o.trim_pct)
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
	if (j->o.verify_dump && w->ver.bad <= 100)   /* the first 100 of each thread */
		verify_dump(j, w->f[f].dev->path, blk, off);
	if (!coe_nonfatal(j, COE_VERIFY, EILSEQ))
		return;
	errlog_note(&w->errs, EILSEQ, "verify: %s: %s", where, why);
	if (w->errs.nbad < MAX_BAD)
		w->errs.bad[w->errs.nbad++] = (struct bad_io){ off, j->bs, EILSEQ, DDIR_N };
	if (j->o.error_dump)
		fprintf(stderr, "assay: disk: %s: thread %d: verify: %s: %s (going on: --continue_on_error)\n", j->name,
			w->idx + 1, where, why);
}

/* --verify_fatal during the workload (a read job's checks, a --verify_backlog check): a
 * bad block found since there were bad of them ends the thread */
static void fatal_bad(struct worker *w, uint64_t bad)
{
	if (w->job->o.verify_fatal && w->ver.bad > bad && !w->err) {
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
		if (!j->o.trim_zero || z == s->len)
			return 0;
		snprintf(why, sizeof why, "discarded (--trim_percentage), yet byte %zu reads back 0x%02x, not zero", z,
			 (unsigned char)blk[z]);
	} else if (!verify_check(j, blk, s->off, why, sizeof why)) {
		return 0;
	}
	bad_block(w, s->file, blk, s->off, why);
	return j->o.verify_fatal ? -1 : 0;
}

/* fio's --verify on a job that only reads: each --bs block a read brought is checked as
 * it completes (the data an earlier job wrote); bad blocks are counted (the job fails when
 * it ends, as a read-back's), --verify_fatal stops it at the first */
void check_read(struct worker *w, const struct slot *s, long res)
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

void rb_ring_drop(struct worker *w)
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
void readback(struct worker *w, struct meter *m, char *bufs, unsigned nbuf, int queued)
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
void pass_check(struct worker *w, struct meter *m, int queued)
{
	const struct job *j = w->job;
	w->pass_bytes -= w->pass_len;
	w->passes_left--;
	if (w->err)
		return;
	read_map(w, m, w->bl_buf, queued ? (unsigned)j->o.iodepth : 1, queued, 1);
	memset(w->vmap, 0, w->vb[j->nfiles] / 8 + 1);   /* checked: the next pass marks its own */
	if (w->zt) {   /* --zonemode=zbd: the next pass writes its zones afresh */
		char e[240];
		if (zbd_verify_pass(w->zt, &w->zbd, w->fd, e, sizeof e))
			set_err(w, EIO, e, UINT64_MAX);
	}
}

/* fio's verify_backlog: every --verify_backlog writes, with none in flight, the thread
 * reads back and checks the blocks they wrote (--verify_backlog_batch of them), then
 * writes on; its time is the workload's (as fio's).  --verify_fatal: a bad block ends the
 * job. */
void backlog_check(struct worker *w, struct meter *m, int queued)
{
	const struct job *j = w->job;
	/* a batch larger than the backlog: each block once (as fio 3.33 does, whose manual says
	 * some twice) */
	struct rb_src src = { .list = w->bl, .workload = 1,
			      .n = j->o.verify_backlog_batch && (uint64_t)j->o.verify_backlog_batch < w->bl_n ? (uint64_t)j->o.verify_backlog_batch
												 : w->bl_n };
	uint64_t t0 = now_ns(), bad = w->ver.bad;
	unsigned nbuf = queued ? (unsigned)j->o.iodepth : 1;
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
void backlog_add(struct worker *w, int f, uint64_t off, uint64_t len)
{
	const struct job *j = w->job;
	uint64_t base = file_base(j, f, w->idx);
	for (uint64_t k = 0; k + j->bs <= len && w->bl_n < w->bl_cap; k += j->bs)
		w->bl[w->bl_n++] = w->vb[f] + (off + k - base) / j->bs;   /* its block in the map */
}

/* this thread's workload has ended (the read-backs wait for every thread's) */
