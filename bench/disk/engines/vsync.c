/* fio's vsync: --iodepth_batch I/Os at a time, done in the submit: each run of adjacent
 * ones (one file, one direction) one lseek and one readv or writev; the aio family's
 * requests and reap (libaio.c) carry them. */
#include "aio.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* fio's vsync: what is submitted is done now; each run of adjacent I/Os in it (one file, one
 * direction, each starting where the one before ended) one lseek and one readv or writev.
 * A short transfer is shared out in order, an error is each I/O's of the run. */
static long vsync_submit(struct aio_state *a, long n, struct iocb **cbs, int counting)
{
	(void)counting;
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

/* all done already, in the submit: all of them, whatever the maximum (fio's) */
static long vsync_getevents(struct aio_state *a, long min, long max, const struct timespec *t)
{
	long n = a->nvev;
	(void)min, (void)max, (void)t;
	memcpy(a->ev, a->vev, (size_t)n * sizeof *a->ev);
	a->nvev = 0;
	return n;
}

static const struct aio_queue vsync_queue = { vsync_submit, vsync_getevents, "vsync" };

static int vsync_init(struct io_ctx *x)
{
	struct aio_state *a;
	int r = aio_family_init(x, &vsync_queue, &a);
	if (!r)
		a->vs = 1;
	return r;
}

const struct ioengine_ops ioengine_vsync = {
	.name = "vsync",
	.flags = IOE_QUEUED | IOE_SEEKS,
	.init = vsync_init,
	.prep = aio_family_prep,
	.submit = aio_family_submit,
	.reap = aio_family_reap,
	.cleanup = aio_family_cleanup,
};
