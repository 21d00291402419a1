/* The aio family's requests and reap (aio.h): what libaio, posixaio, vsync and
 * io_submit_mode=offload share.  Each I/O is the kernel's AIO iocb; the backend's queue
 * (struct aio_queue, set by its init) takes a batch and gives back io_events.  A rewrite is
 * its read, then (once the read is back) the write of the same bytes: the content never
 * changes. */
#include "aio.h"
#include "clock.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>

int aio_family_init(struct io_ctx *x, const struct aio_queue *q, struct aio_state **out)
{
	int n = x->nslots;
	struct aio_state *a = calloc(1, sizeof *a);
	if (!a) {
		set_err(x->w, ENOMEM, "I/O slots", UINT64_MAX);
		return 1;
	}
	x->priv = *out = a;
	a->q = q;
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
		long r = a->q->submit(a, (long)(a->nqueue - done), a->queue + done, x->m->counting);
		if (r > 0) {
			done += (int)r;
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else {
			/* what was not submitted never will be: give its slots back */
			for (int i = done; i < a->nqueue; i++)
				io_done(x, (int)(a->queue[i]->aio_data & ~REWRITE_READ));
			set_err(x->w, r < 0 ? errno : EIO, a->q->submit_what,
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
	n = a->q->getevents(a, min, max, min ? &ts : &zero);
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
		if (a->pooled) {
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

