/* The system-call engines: psync, sync, pvsync, pvsync2, one I/O at a time, done in the
 * call (fio's sync.c); also the one-at-a-time submit mmap and null share (sync.h). */
#include "sync.h"
#include "clock.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* full_io's vec for the job's engine: pread/pwrite 0, preadv/pwritev 1, preadv2/pwritev2 2 */
int psync_vec(const struct job *j)
{
	const char *e = JOB_ENGINE(j)->name;
	return !strcmp(e, "pvsync") ? 1 : !strcmp(e, "pvsync2") ? 2 : 0;
}
/* fio's pvsync2 hipri: this share of the I/Os polled (fio's draw, 1-100): RWF_HIPRI or 0, counted */
int hipri_draw(struct worker *w, struct meter *m)
{
	const struct job *j = w->job;
	if (!j->o.hipri || psync_vec(j) != 2 || (int)prng_below(&m->prio_rng, 100) >= j->o.hipri_pct)
		return 0;
	w->hipri_ios += m->counting;
	return RWF_HIPRI;
}

/* ---- psync: one pread/pwrite at a time (iodepth is 1 whatever was asked, as fio);
 * sync: read/write, with an lseek first when the offset is not where the file position
 * already is (fio's sync engine) ---- */

int sync_ctx_init(struct io_ctx *x, xfer_fn xfer)
{
	struct sync_ctx *s = calloc(1, sizeof *s);
	if (!s) {
		set_err(x->w, ENOMEM, "I/O slots", UINT64_MAX);
		return 1;
	}
	s->xfer = xfer;
	s->vec = psync_vec(x->j);
	for (int f = 0; f < MAX_FILES; f++)
		s->fpos[f] = -1;
	x->priv = s;
	return 0;
}

void sync_ctx_cleanup(struct io_ctx *x)
{
	free(x->priv);
}

/* a write's data made (and verify header stamped) after its start, before its issue: in
 * its lat, not its clat (fio's) */
int sync_prep(struct io_ctx *x, int slot)
{
	struct slot *s = &x->slots[slot];
	s->sync = 1;
	s->t_prep = now_ns();
	if (s->ddir == DDIR_WRITE && (x->j->o.mode != MODE_REWRITE || (x->ops->flags & IOE_NODATA))) {
		scramble(x->w, s->buf, s->off, s->len, &x->scr);
		s->t_issue = now_ns();
	} else {
		s->t_issue = s->t_prep;
	}
	return 0;
}

/* the I/O readied, done now: a rewrite's read then its write, a trim, or the transfer */
int sync_submit(struct io_ctx *x, int queued, int may_wait, int *reaped)
{
	struct sync_ctx *c = x->priv;
	struct worker *w = x->w;
	struct meter *m = x->m;
	const struct job *j = x->j;
	int slot = x->batch[queued - 1];
	struct slot *s = &x->slots[slot];
	int rwf = hipri_draw(w, m) | (j->o.nowait ? RWF_NOWAIT : 0);
	uint64_t t_done;
	ssize_t r;
	(void)may_wait;
	*reaped = -1;
	io_issued(x, queued);
	if (x->ops->flags & IOE_NODATA) {
		/* fio's null engine: done at once, no data moved (the engine's own cost) */
		r = (ssize_t)s->len;
	} else if (s->ddir == DDIR_WRITE && j->o.mode == MODE_REWRITE) {
		r = c->xfer(x, s->file, 0, s->buf, s->len, s->off, rwf);
		if (r == (ssize_t)s->len) {
			r = c->xfer(x, s->file, 1, s->buf, s->len, s->off, rwf);
		} else if (r < 0) {
			if (!io_error(w, s, COE_READ, (int)-r, "rewrite read")) {
				io_done(x, slot);
				return -1;
			}
			s->rd_failed = 1;
		} else {
			set_err(w, EIO, "rewrite read came back short", s->off);
			io_done(x, slot);
			return -1;
		}
	} else if (s->ddir == DDIR_TRIM) {
		r = trim_range(w, s->file, s->off, s->len);
	} else {
		r = c->xfer(x, s->file, s->ddir == DDIR_WRITE, s->buf, s->len, s->off, rwf);
	}
	t_done = now_ns();
	mark_calls(m, w->complete_map, 1);
	if (s->rd_failed)
		m->think_done += !j->o.think_issue;
	else
		account(w, m, s, r, t_done);
	io_done(x, slot);
	sample_tick(w, m, t_done);
	return 0;
}

/* nothing is ever in flight after the submit */
int sync_reap(struct io_ctx *x, int wait_nr)
{
	(void)x;
	(void)wait_nr;
	return 0;
}

static ssize_t psync_xfer(struct io_ctx *x, int f, int write_, void *buf, size_t len, uint64_t off, int rwf)
{
	struct sync_ctx *c = x->priv;
	/* sync: read/write at the file position, an lseek first when it is elsewhere */
	int64_t *pos = x->ops->flags & IOE_SEEKS ? &c->fpos[f] : NULL;
	return full_io(x->w->f[f].fd, write_, buf, len, off, pos, c->vec, rwf);
}

static int psync_init(struct io_ctx *x)
{
	return sync_ctx_init(x, psync_xfer);
}

#define SYNC_ENGINE(var, nm, fl)                                          \
	const struct ioengine_ops var = {                                 \
		.name = nm, .flags = (fl) | IOE_OFFLOAD, .init = psync_init, \
		.prep = sync_prep, .submit = sync_submit, .reap = sync_reap, \
		.cleanup = sync_ctx_cleanup,                              \
	}
SYNC_ENGINE(ioengine_psync, "psync", 0);
SYNC_ENGINE(ioengine_pvsync, "pvsync", 0);
SYNC_ENGINE(ioengine_pvsync2, "pvsync2", IOE_HIPRI | IOE_NOWAIT);
/* (read/write after lseek: not for offload, as fio's) */
const struct ioengine_ops ioengine_sync = {
	.name = "sync", .flags = IOE_SEEKS, .init = psync_init,
	.prep = sync_prep, .submit = sync_submit, .reap = sync_reap, .cleanup = sync_ctx_cleanup,
};
