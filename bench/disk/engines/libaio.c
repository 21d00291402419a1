/* The libaio engine: io_setup/io_submit/io_getevents, what fio's libaio engine (the
 * engine of YABS's and most VPS write-ups' fio lines) does: io_submit every
 * --iodepth_batch_submit I/Os, io_getevents for --iodepth_batch_complete_min.  Called
 * through syscall(2): libaio itself is a thin wrapper over these four calls.  A rewrite is
 * its read, then (once the read is back) the write of the same bytes: the content never
 * changes.  The same requests and reap serve posixaio, vsync and offload (aio.h). */
#include "aio.h"
#include "clock.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int aio_family_init(struct io_ctx *x, struct aio_state **out)
{
	int n = x->nslots;
	struct aio_state *a = calloc(1, sizeof *a);
	if (!a) {
		set_err(x->w, ENOMEM, "I/O slots", UINT64_MAX);
		return 1;
	}
	x->priv = *out = a;
	a->cbs = calloc((size_t)n, sizeof *a->cbs);
	a->queue = calloc((size_t)n, sizeof *a->queue);
	a->ev = calloc((size_t)n, sizeof *a->ev);
	a->vev = calloc((size_t)n, sizeof *a->vev);
	if (!a->cbs || !a->queue || !a->ev || !a->vev) {
		free(a->cbs);
		free(a->queue);
		free(a->ev);
		free(a->vev);
		free(a);
		x->priv = NULL;
		set_err(x->w, ENOMEM, "I/O slots", UINT64_MAX);
		return 1;
	}
	return 0;
}

static void aio_prep_cb(struct io_ctx *x, int slot, int op_write, uint64_t data)
{
	struct aio_state *a = x->priv;
	const struct job *j = x->j;
	const struct slot *s = &x->slots[slot];
	struct iocb *cb = &a->cbs[slot];
	memset(cb, 0, sizeof *cb);
	cb->aio_fildes = (uint32_t)x->w->f[s->file].fd;
	cb->aio_lio_opcode = op_write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
	cb->aio_buf = (uint64_t)(uintptr_t)s->buf;
	cb->aio_nbytes = s->len;
	cb->aio_offset = (int64_t)s->off;
	cb->aio_data = data;
	if (j->cmdprio_pct[0] || j->cmdprio_pct[1]) {   /* fio's: every I/O's priority said */
		cb->aio_reqprio = (int16_t)slot_ioprio(j, s);
		cb->aio_flags |= IOCB_FLAG_IOPRIO;
	}
	if (j->o.nowait)
		cb->aio_rw_flags = RWF_NOWAIT;
	a->queue[a->nqueue++] = cb;
}

int aio_family_prep(struct io_ctx *x, int slot)
{
	struct aio_state *a = x->priv;
	const struct job *j = x->j;
	struct slot *s = &x->slots[slot];
	if (s->ddir == DDIR_WRITE && j->o.mode == MODE_REWRITE) {
		aio_prep_cb(x, slot, 0, (uint64_t)slot | REWRITE_READ);
	} else {
		if (s->ddir == DDIR_WRITE)   /* in its slat, as fio's data and verify header */
			scramble(x->w, s->buf, s->off, s->len, &x->scr);
		aio_prep_cb(x, slot, s->ddir == DDIR_WRITE, (uint64_t)slot);
	}
	if (a->vs || j->offload) {   /* fio's sync engines: issued now (no slat), the data made
				      * before; offload: when a helper takes it */
		s->sync = 1;
		s->t_issue = now_ns();
	}
	if (j->offload)
		a->cbs[slot].aio_rw_flags |= (uint32_t)hipri_draw(x->w, x->m);
	return 0;
}

/* submit everything queued; 0, or -1 with the worker's error set */
static int aio_submit(struct io_ctx *x)
{
	struct aio_state *a = x->priv;
	int done = 0;
	while (done < a->nqueue) {
		long r = a->px ? paio_submit(a->px, (long)(a->nqueue - done), a->queue + done, x->m->counting)
			 : a->vs ? vsync_submit(a, (long)(a->nqueue - done), a->queue + done)
				 : syscall(SYS_io_submit, a->ctx, (long)(a->nqueue - done), a->queue + done);
		if (r > 0) {
			done += (int)r;
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else {
			/* what was not submitted never will be: give its slots back */
			for (int i = done; i < a->nqueue; i++)
				io_done(x, (int)(a->queue[i]->aio_data & ~REWRITE_READ));
			set_err(x->w, r < 0 ? errno : EIO, a->px ? "posixaio: queueing" : "io_submit",
				a->queue[done]->aio_offset);
			a->nqueue = 0;
			return -1;
		}
	}
	a->nqueue = 0;
	return 0;
}

/* submit the slots batch[issued..queued) prepared since the last submit; the next I/O's
 * preparation starts now */
int aio_family_submit(struct io_ctx *x, int queued, int may_wait, int *reaped)
{
	(void)may_wait;
	*reaped = -1;
	if (aio_submit(x) < 0)
		return -1;
	io_issued(x, queued);
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
int aio_family_reap(struct io_ctx *x, int min)
{
	struct aio_state *a = x->priv;
	struct worker *w = x->w;
	const struct job *j = x->j;
	uint64_t to = (uint64_t)(j->o.io_timeout * 1e9), t_done, wait = to;
	struct timespec ts, zero = { 0, 0 };
	long n, max = j->o.batch_cmax ? j->o.batch_cmax : j->o.iodepth;
	int capped = cap_wait(x->until, &wait);
	if (min > x->inflight)
		min = x->inflight;
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
		x->last_done = t_done;   /* waiting for a rate cap is not a stall */
	else if (min || t_done - x->last_done > to) {
		set_err(w, ETIMEDOUT, "no I/O completed for --io-timeout: the device stalled", UINT64_MAX);
		return -1;
	}
	if (n > 0)
		mark_calls(x->m, w->complete_map, (int)n);
	for (long i = 0; i < n; i++) {
		uint64_t ud = a->ev[i].data;
		int slot = (int)(ud & ~REWRITE_READ);
		struct slot *s = &x->slots[slot];
		long res = (long)a->ev[i].res;
		uint64_t t_end = t_done;
		if (a->px && paio_pooled(a->px)) {
			/* offload: issued when a helper took it (a rewrite: its read), done when the
			 * helper was */
			if ((ud & REWRITE_READ) || j->o.mode != MODE_REWRITE || s->ddir != DDIR_WRITE)
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
				aio_prep_cb(x, slot, 1, (uint64_t)slot);
				a->cbs[slot].aio_rw_flags |= hipri;
				continue;
			}
		} else {
			account(w, x->m, s, res, t_end);
		}
		io_done(x, slot);
	}
	sample_tick(w, x->m, t_done);
	return a->nqueue ? aio_submit(x) : (int)n;
}

void aio_family_cleanup(struct io_ctx *x)
{
	struct aio_state *a = x->priv;
	x->w->ring_reaps = a->ring_reaps;
	free(a->vev);
	free(a->cbs);
	free(a->queue);
	free(a->ev);
	free(a);
}

static int libaio_init(struct io_ctx *x)
{
	const struct job *j = x->j;
	struct worker *w = x->w;
	struct aio_state *a;
	int r;
	if (j->o.force_uring_errno)
		return -j->o.force_uring_errno;
	if ((r = aio_family_init(x, &a)))
		return r;
	if (syscall(SYS_io_setup, (long)j->o.iodepth, &a->ctx)) {
		int e = errno;
		aio_family_cleanup(x);
		if (e != EAGAIN)
			return -e;   /* no AIO in this kernel: psync measures instead */
		/* not a missing feature but too many events asked for: say which limit */
		snprintf(w->errmsg, sizeof w->errmsg, "io_setup: --iodepth x --numjobs (%lld x %lld) is beyond "
			 "what /proc/sys/fs/aio-max-nr leaves free", j->o.iodepth, j->o.numjobs);
		w->err = EAGAIN;
		return 1;
	}
	a->ring = j->o.userspace_reap && ((struct aio_ring_hdr *)(uintptr_t)a->ctx)->magic == AIO_RING_MAGIC;
	return 0;
}

static void libaio_cleanup(struct io_ctx *x)
{
	struct aio_state *a = x->priv;
	syscall(SYS_io_destroy, a->ctx);
	aio_family_cleanup(x);
}

const struct ioengine_ops ioengine_libaio = {
	.name = "libaio",
	.flags = IOE_QUEUED | IOE_KERNELQ | IOE_NOWAIT | IOE_DEPTH,
	.init = libaio_init,
	.prep = aio_family_prep,
	.submit = aio_family_submit,
	.reap = aio_family_reap,
	.cleanup = libaio_cleanup,
};
