/* The one submit/reap loop every backend runs under (after fio's td_io_queue and
 * io_u_queued_complete): each round readies I/Os while the queue has room, submits them
 * in --iodepth_batch_submit batches, syncs and checks what is due, then reaps the round's
 * completions.  fio's definitions: slat = readied -> submitted, clat = submitted ->
 * reaped, lat = readied -> reaped (one timestamp per submit and per reap batch). */
#include "ioengine.h"
#include "clock.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

void io_issued(struct io_ctx *x, int queued)
{
	issued_now(x->w, x->m, x->slots, x->batch, &x->issued, queued, x->inflight, &x->t_prep);
}

void io_done(struct io_ctx *x, int slot)
{
	x->slots[slot].busy = x->slots[slot].rd_failed = 0;
	x->free_slots[x->nfree++] = slot;
	x->inflight--;
}

int io_drain(struct io_ctx *x)
{
	while (x->inflight && !x->w->err)
		if (x->ops->reap(x, 1) < 0)
			return -1;
	return 0;
}

/* the loop's sync: what is in flight done, then the system call on each file */
static void do_sync(struct io_ctx *x, int kind)
{
	if (x->ops->sync) {
		x->ops->sync(x, kind);
		return;
	}
	if (io_drain(x) == 0)
		timed_sync(x->w, x->m, kind);
}

/* after an I/O readied: is something due that ends the round (a sync every N writes, a
 * sync_file_range, a verify backlog, a --loops pass)? */
static int round_due(struct io_ctx *x, int ddir, uint64_t len, uint64_t *writes_since_sync)
{
	const struct job *j = x->j;
	struct worker *w = x->w;
	int due = 0;
	if (ddir == DDIR_WRITE && j->o.fdatasync && ++*writes_since_sync >= (uint64_t)j->o.fdatasync)
		due = 1;
	else if (ddir == DDIR_WRITE && j->sfr_n && ++x->m->sfr_writes >= j->sfr_n)
		due = 1;
	else if (ddir == DDIR_WRITE && j->o.verify_backlog && ++w->bl_writes >= (uint64_t)j->o.verify_backlog)
		due = 1;
	else if (w->passes_left && (w->pass_bytes += len) >= w->pass_len)
		due = 1;
	return due;
}

/* what is due after a round's submit: syncs, then a verify backlog's or a pass's check */
static void round_end(struct io_ctx *x, uint64_t *writes_since_sync)
{
	const struct job *j = x->j;
	struct worker *w = x->w;
	int queued = (x->ops->flags & IOE_DEPTH) != 0;
	if (j->o.fdatasync && *writes_since_sync >= (uint64_t)j->o.fdatasync) {
		do_sync(x, j->fsync_full);
		*writes_since_sync = 0;
	}
	if (j->sfr_n && x->m->sfr_writes >= j->sfr_n) {
		do_sync(x, SYNC_RANGE);
		x->m->sfr_writes = 0;
	}
	if ((j->o.verify_backlog && w->bl_writes >= (uint64_t)j->o.verify_backlog) || (w->passes_left && w->pass_bytes >= w->pass_len)) {
		io_drain(x);
		if (w->passes_left && w->pass_bytes >= w->pass_len)
			pass_check(w, x->m, queued);
		else
			backlog_check(w, x->m, queued);
	}
}

static int ctx_alloc(struct io_ctx *x)
{
	int n = x->nslots;
	x->slots = calloc((size_t)n, sizeof *x->slots);
	x->free_slots = calloc((size_t)n, sizeof *x->free_slots);
	x->batch = calloc((size_t)n, sizeof *x->batch);
	if (!x->slots || !x->free_slots || !x->batch)
		return -1;
	for (int i = 0; i < n; i++)
		x->free_slots[x->nfree++] = n - 1 - i;
	return 0;
}

/* one round: I/Os readied while there is room and something to do, then submitted;
 * *more as next_io left it (0: done, -1: a rate cap holds the next until *until) */
static int fill_round(struct io_ctx *x, struct iogen *g, int *stop, int *more, uint64_t *until,
		      uint64_t *writes_since_sync)
{
	const struct job *j = x->j;
	struct worker *w = x->w;
	struct meter *m = x->m;
	int queued = 0, ddir;
	uint64_t off, len;
	while (!*stop && may_queue(j, m, x->inflight) && x->nfree && x->inflight < m->qd &&
	       (*more = next_io(w, m, g, x->t_prep, x->inflight, &ddir, &off, &len, until)) > 0) {
		int slot, reaped;
		log_issue(w, m, m->io_file, ddir, off, len);
		if (ddir == DDIR_TRIM && (x->ops->flags & IOE_QUEUED)) {
			/* fio's: a queued engine's trim done at once, in this thread */
			*stop = sync_trim(w, m, x->t_prep, x->inflight, m->io_file, off, len);
			x->t_prep = now_ns();
			continue;
		}
		slot = slot_take(x->slots, x->free_slots, &x->nfree, m->counting, x->t_prep, ddir, m->io_file, off, len);
		pick_prio(j, m, &x->slots[slot]);
		x->slots[slot].buf = x->bufs + (size_t)slot * j->bs_max;
		if (x->ops->prep(x, slot) < 0)
			break;
		x->inflight++;
		x->batch[queued++] = slot;
		if ((queued - x->issued >= j->o.batch_submit || !(x->ops->flags & IOE_QUEUED)) &&
		    x->ops->submit(x, queued, 0, &reaped) < 0)
			break;
		if (round_due(x, ddir, len, writes_since_sync) || !(x->ops->flags & IOE_QUEUED))
			break;
	}
	return queued;
}

int io_loop(struct worker *w, struct meter *m, struct iogen *g, char *bufs, const struct ioengine_ops *ops)
{
	const struct job *j = w->job;
	struct io_ctx x = { .w = w, .m = m, .j = j, .ops = ops, .bufs = bufs };
	uint64_t writes_since_sync = 0;
	int r;
	x.nslots = ops->flags & IOE_QUEUED ? j->o.iodepth : 1;
	if (ctx_alloc(&x)) {
		set_err(w, ENOMEM, "I/O slots", UINT64_MAX);
		start_line(w);
		r = 0;
		goto out;
	}
	r = ops->init(&x);
	if (r) {
		if (r > 0) {          /* failed, the worker's error says why */
			start_line(w);
			w->end_ns = now_ns();
			r = 0;
		}
		goto out;
	}
	if (ops->flags & IOE_QUEUED) {
		m->ov_slots = x.slots;
		m->ov_n = x.nslots;
	}
	prng_seed(&x.scr, j->randseed ^ 0x5eedull ^ (uint64_t)w->idx);
	start_job(w, m);
	x.last_done = now_ns();
	for (;;) {
		int queued, more = 1, reaped = -1, stop;
		uint64_t until = 0;
		x.t_prep = now_ns();
		x.issued = 0;
		stop = loop_tick(w, m, x.t_prep);
		queued = fill_round(&x, g, &stop, &more, &until, &writes_since_sync);
		if (w->err)
			break;
		if (queued > x.issued && ops->submit(&x, queued, more >= 0, &reaped) < 0)
			break;
		round_end(&x, &writes_since_sync);
		if (!x.inflight) {
			/* nothing in flight: a rate cap's wait, or done unless a sync drained a
			 * batch just queued */
			if (!stop && more < 0) {
				sleep_until(until);
				x.last_done = now_ns();
				continue;
			}
			if (stop || !queued)
				break;
			continue;
		}
		x.until = more < 0 ? until : 0;
		r = ops->complete ? ops->complete(&x, reaped) : ops->reap(&x, j->o.batch_cmin);
		x.until = 0;
		if (r < 0)
			break;
	}
	if (w->err) {
		/* let what is in flight finish, bounded, then stop */
		while (x.inflight && ops->reap(&x, 1) >= 0)
			;
	} else if (j->o.end_fsync && rw_writes(j->rw)) {
		do_sync(&x, j->end_full);
	}
	w->end_ns = now_ns();
	getrusage(RUSAGE_THREAD, &w->ru_end);
	start_line(w);
	ops->cleanup(&x);
	r = 0;
out:
	free(x.slots);
	free(x.free_slots);
	free(x.batch);
	return r;
}
