/* The io_uring engine: ring flags as fio asks them, registered files and buffers,
 * batched submit and reap (one head advance per batch), a rewrite as a linked read+write
 * (the content never changes, even if the process dies in between). */
#include "disk/ioengine.h"
#include "clock.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>

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
	if (j->o.sqpoll)
		must |= IORING_SETUP_SQPOLL | (j->o.sqpoll_cpu >= 0 ? IORING_SETUP_SQ_AFF : 0);
	else
		for (int i = 0; i < n; i++)
			flags |= ring_flags[i].flag;
	if (j->o.hipri)
		must |= IORING_SETUP_IOPOLL;
	if (j->o.force_uring_errno)
		return -j->o.force_uring_errno;
	for (int drop = n;; drop--) {
		struct io_uring_params p;
		memset(&p, 0, sizeof p);
		p.flags = flags | must;
		if (j->o.sqpoll_cpu >= 0)
			p.sq_thread_cpu = (unsigned)j->o.sqpoll_cpu;
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
				 j->o.sqpoll ? "SQPOLL" : "", j->o.hipri ? (j->o.sqpoll ? "|IOPOLL" : "IOPOLL") : "");
	}
	return r;
}

struct uring_ctx {
	struct io_uring ring;
	int spin_flag;      /* TASKRUN_FLAG accepted, iodepth 1, --spin > 0: spin */
	unsigned spins, spin_hits;
	int fixed_file;     /* the job's files registered, each at its index */
	int fixed_bufs;
};

#define SPIN_PROBE 256

/* Spin up to --spin microseconds for the completion before sleeping (iodepth 1 only):
 * waking a sleeping thread can take longer than a fast device (an IPI, a halted vCPU)
 * and would dominate its latency.  A device slower than the spin soon shows it: after
 * SPIN_PROBE tries with fewer than half caught, spinning stops for the job. */
static void spin(struct uring_ctx *u, const struct job *j)
{
	uint64_t until = now_ns() + (uint64_t)(j->o.spin_us * 1000);
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

static void prep_rw(struct io_ctx *x, struct io_uring_sqe *sqe, int op_write, int slot, uint64_t off)
{
	struct uring_ctx *u = x->priv;
	const struct job *j = x->j;
	int f = x->slots[slot].file, fd = u->fixed_file ? f : x->w->f[f].fd;
	void *buf = x->bufs + (size_t)slot * j->bs_max;
	if (u->fixed_bufs) {
		if (op_write)
			io_uring_prep_write_fixed(sqe, fd, buf, (unsigned)x->slots[slot].len, off, slot);
		else
			io_uring_prep_read_fixed(sqe, fd, buf, (unsigned)x->slots[slot].len, off, slot);
	} else {
		if (op_write)
			io_uring_prep_write(sqe, fd, buf, (unsigned)x->slots[slot].len, off);
		else
			io_uring_prep_read(sqe, fd, buf, (unsigned)x->slots[slot].len, off);
	}
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	/* the job's priority said in each I/O too, as fio's: an --sqthread_poll thread (or an
	 * io-wq worker) submitting it does not have the job thread's ioprio_set */
	if (j->cmdprio_pct[0] || j->cmdprio_pct[1] || j->ioprio >= 0)
		sqe->ioprio = (uint16_t)slot_ioprio(j, &x->slots[slot]);
	if (j->o.nowait)   /* fio's: EAGAIN rather than waiting for a resource */
		sqe->rw_flags |= RWF_NOWAIT;
	io_uring_sqe_set_data64(sqe, (uint64_t)slot);
}

/* wait for wait_nr completions, bounded by the job's io_timeout; reaps what is there, at
 * most max (0: all) */
static int uring_reap_max(struct io_ctx *x, int wait_nr, int max)
{
	struct uring_ctx *u = x->priv;
	struct worker *w = x->w;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	uint64_t t_done;
	int r;
	if (wait_nr && x->j->o.hipri) {
		/* polled completions: the kernel polls the device on each entry and ignores
		 * a wait's timeout, so poll from here, bounded by --io-timeout (or a rate
		 * cap's next issue) */
		uint64_t t0 = now_ns(), to = (uint64_t)(x->j->o.io_timeout * 1e9);
		while (io_uring_cq_ready(&u->ring) < (unsigned)wait_nr) {
			uint64_t now = now_ns();
			if (x->until && now >= x->until)
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
		uint64_t to = (uint64_t)(x->j->o.io_timeout * 1e9);
		int capped = cap_wait(x->until, &to);
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
		struct slot *s;
		if (max && n >= (unsigned)max)
			break;
		n++;
		if (ud == SYNC_SLOT)
			continue;
		s = &x->slots[ud & ~REWRITE_READ];
		if (ud & REWRITE_READ) {
			/* the read half of a rewrite: only a failure matters (the linked
			 * write is then cancelled and reports -ECANCELED) */
			if (cqe->res < 0)
				s->rd_failed = io_error(w, s, COE_READ, -cqe->res, "rewrite read");
			else if ((uint64_t)cqe->res < s->len)
				set_err(w, EIO, "rewrite read came back short", s->off);
			continue;
		}
		if (!(cqe->res == -ECANCELED && (w->err || s->rd_failed)))
			account(w, x->m, s, cqe->res, t_done);
		io_done(x, (int)ud);
	}
	io_uring_cq_advance(&u->ring, n);
	if (n)
		mark_calls(x->m, w->complete_map, (int)n);
	sample_tick(w, x->m, t_done);
	return (int)n;
}

static int uring_reap(struct io_ctx *x, int wait_nr)
{
	return uring_reap_max(x, wait_nr, 0);
}

/* n free submission entries, before any is filled: the ring has one for every I/O in
 * flight, but with sqthread_poll the kernel's thread may not have taken the last ones
 * yet; waiting for them submits what is queued, which must never split a rewrite's
 * linked read and write. 0, or -1 with the worker's error set. */
static int sq_reserve(struct io_ctx *x, unsigned n)
{
	struct uring_ctx *u = x->priv;
	while (io_uring_sq_space_left(&u->ring) < n) {
		int r;
		io_uring_submit(&u->ring);
		r = io_uring_sqring_wait(&u->ring);
		if (r < 0) {
			set_err(x->w, -r, "io_uring: no submission entry free", UINT64_MAX);
			return -1;
		}
	}
	return 0;
}

/* fdatasync (full: fsync) through the ring once every write in flight has completed */
static void uring_sync(struct io_ctx *x, int full)
{
	struct uring_ctx *u = x->priv;
	struct worker *w = x->w;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	uint64_t t0;
	if (io_drain(x) < 0)
		return;
	if (x->j->nfiles > 1 || full == SYNC_RANGE) {   /* fio's a:b: each file in turn */
		timed_sync(w, x->m, full);
		return;
	}
	if (sq_reserve(x, 1) < 0 || !(sqe = io_uring_get_sqe(&u->ring)))
		return;
	log_issue(w, x->m, 0, full ? RP_SYNC : RP_DATASYNC, 0, 0);
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
	else if (x->m->counting) {
		moments_add(&w->sync_lat, now_ns() - t0);
		w->sync_ios++;
	}
	io_uring_cqe_seen(&u->ring, cqe);
}

static int uring_init(struct io_ctx *x)
{
	const struct job *j = x->j;
	struct worker *w = x->w;
	struct uring_ctx *u = calloc(1, sizeof *u);
	int r;
	if (!u) {
		set_err(w, ENOMEM, "I/O slots", UINT64_MAX);
		return 1;
	}
	x->priv = u;
	r = ring_setup(&u->ring, (unsigned)j->o.iodepth * (j->o.mode == MODE_REWRITE ? 2u : 1u), w);
	if (r < 0) {
		free(u);
		x->priv = NULL;
		return r;
	}
	u->spin_flag = strstr(w->uring_flags, "TASKRUN_FLAG") && j->o.iodepth == 1 && j->o.spin_us > 0;
	if (j->o.registerfiles) {   /* the job's files, each at its index */
		int fds[MAX_FILES];
		for (int f = 0; f < j->nfiles; f++)
			fds[f] = w->f[f].fd;
		u->fixed_file = !io_uring_register_files(&u->ring, fds, (unsigned)j->nfiles);
	}
	if (j->o.fixedbufs) {
		struct iovec *iov = calloc((size_t)j->o.iodepth, sizeof *iov);
		for (int i = 0; iov && i < j->o.iodepth; i++) {
			iov[i].iov_base = x->bufs + (size_t)i * j->bs_max;
			iov[i].iov_len = j->bs_max;
		}
		if (iov && !io_uring_register_buffers(&u->ring, iov, (unsigned)j->o.iodepth))
			u->fixed_bufs = 1;
		free(iov);
	}
	return 0;
}

static int uring_prep(struct io_ctx *x, int slot)
{
	struct uring_ctx *u = x->priv;
	const struct slot *s = &x->slots[slot];
	int pair = s->ddir == DDIR_WRITE && x->j->o.mode == MODE_REWRITE;
	struct io_uring_sqe *sqe;
	if (sq_reserve(x, pair ? 2 : 1) < 0)
		return -1;
	sqe = io_uring_get_sqe(&u->ring);
	if (pair) {
		prep_rw(x, sqe, 0, slot, s->off);
		sqe->flags |= IOSQE_IO_LINK;
		io_uring_sqe_set_data64(sqe, (uint64_t)slot | REWRITE_READ);
		sqe = io_uring_get_sqe(&u->ring);
		prep_rw(x, sqe, 1, slot, s->off);
	} else {
		if (s->ddir == DDIR_WRITE)   /* in its slat, as fio's data and verify header */
			scramble(x->w, s->buf, s->off, s->len, &x->scr);
		prep_rw(x, sqe, s->ddir == DDIR_WRITE, slot, s->off);
	}
	return 0;
}

/* whether the I/Os just prepared go in with the wait for completions (assay's batching
 * at depth, with the ring empty so that a wait comes next anyway): not at iodepth 1, where
 * fio's two calls and so fio's slat and clat are kept (one call there saved CPU but no
 * IOPS, docs/notes/compare-fio.md), nor with a rate cap's wait, polling (sqthread_poll, hipri)
 * or --iodepth_batch_complete_min=0 */
static int wait_in_submit(const struct job *j, struct uring_ctx *u)
{
	return j->batch_default && j->o.iodepth > 1 && j->o.batch_cmin > 0 && !j->o.sqpoll && !j->o.hipri &&
	       !io_uring_cq_ready(&u->ring);
}

static int uring_submit(struct io_ctx *x, int queued, int may_wait, int *reaped)
{
	struct uring_ctx *u = x->priv;
	const struct job *j = x->j;
	int r;
	*reaped = -1;
	if (may_wait && wait_in_submit(j, u)) {
		/* nothing in the ring and a wait to come: the submit waits too, one
		 * io_uring_enter (submit_and_wait) where fio makes two; the I/Os are
		 * issued when that call is made */
		io_issued(x, queued);
		*reaped = uring_reap_max(x, j->o.batch_cmin < x->inflight ? j->o.batch_cmin : x->inflight, j->o.batch_cmax);
		return *reaped < 0 ? -1 : 0;
	}
	/* with sqthread_poll the kernel's thread takes the queue: enter only to wake it */
	r = j->o.sqpoll ? io_uring_submit(&u->ring) : io_uring_submit_and_get_events(&u->ring);
	if (r < 0) {
		set_err(x->w, -r, "io_uring submit", UINT64_MAX);
		return -1;
	}
	io_issued(x, queued);
	return 0;
}

/* reap what is there; wait only for what --iodepth_batch_complete_min still asks --
 * after spinning --spin microseconds for it at iodepth 1: waking a sleeping thread can
 * cost more than a fast device takes (an IPI, a halted vCPU), at the price of CPU time.
 * (Reaped in the submit already: done.) */
static int uring_complete(struct io_ctx *x, int r)
{
	struct uring_ctx *u = x->priv;
	const struct job *j = x->j;
	if (r < 0)
		r = uring_reap_max(x, 0, j->o.batch_cmax);
	if (r >= 0 && r < j->o.batch_cmin) {
		int want = j->o.batch_cmin - r;
		if (r == 0 && u->spin_flag)
			spin(u, j);
		r = uring_reap_max(x, want < x->inflight ? want : x->inflight, j->o.batch_cmax);
	} else if (r == 0 && !j->o.batch_cmin) {
		/* polling: completions wait in the kernel until the ring is entered */
		io_uring_get_events(&u->ring);
		r = uring_reap_max(x, 0, j->o.batch_cmax);
		if (r == 0 && now_ns() - x->last_done > (uint64_t)(j->o.io_timeout * 1e9))
			set_err(x->w, ETIMEDOUT, "no I/O completed for --io-timeout: the device stalled",
				UINT64_MAX);
	}
	if (r > 0 || x->until)
		x->last_done = now_ns();    /* waiting for a rate cap is not a stall */
	return r < 0 ? -1 : 0;
}

static void uring_cleanup(struct io_ctx *x)
{
	struct uring_ctx *u = x->priv;
	io_uring_queue_exit(&u->ring);
	free(u);
}

const struct ioengine_ops ioengine_io_uring = {
	.name = "io_uring",
	.flags = IOE_QUEUED | IOE_KERNELQ | IOE_HIPRI | IOE_NOWAIT | IOE_DEPTH,
	.init = uring_init,
	.prep = uring_prep,
	.submit = uring_submit,
	.reap = uring_reap,
	.complete = uring_complete,
	.sync = uring_sync,
	.cleanup = uring_cleanup,
};
