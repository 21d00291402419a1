/* The libaio engine (io_setup/io_submit/io_getevents, fio's libaio), which also hosts
 * posixaio's and vsync's submit and reap. */
#include "disk/io.h"
#include "clock.h"
#include <limits.h>
#include <liburing.h>
#include <sys/syscall.h>
#include <unistd.h>

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
		if (a->px && paio_pooled(a->px)) {
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

int run_libaio(struct worker *w, struct meter *m, struct iogen *g, char *bufs)
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
