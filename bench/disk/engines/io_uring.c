/* The io_uring engine: ring flags as fio asks them, registered files and buffers,
 * batched submit and reap (one head advance per batch), a rewrite as a linked read+write. */
#include "disk/io.h"
#include "clock.h"
#include <liburing.h>
#include <string.h>

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
 * IOPS, docs/notes/compare-fio.md), nor with a rate cap's wait, polling (sqthread_poll, hipri)
 * or --iodepth_batch_complete_min=0 */
static int wait_in_submit(const struct job *j, struct uring_ctx *u, int more)
{
	return j->batch_default && j->iodepth > 1 && j->batch_cmin > 0 && more >= 0 && !j->sqpoll && !j->hipri &&
	       !io_uring_cq_ready(&u->ring);
}

int run_uring(struct worker *w, struct meter *m, struct iogen *g, char *bufs)
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
