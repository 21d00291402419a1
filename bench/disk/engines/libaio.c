/* The libaio engine: io_setup/io_submit/io_getevents, what fio's libaio engine (the
 * engine of YABS's and most VPS write-ups' fio lines) does: io_submit every
 * --iodepth_batch_submit I/Os, io_getevents for --iodepth_batch_complete_min.  Called
 * through syscall(2): libaio itself is a thin wrapper over these four calls.  The family's
 * requests and reap (aio.c) carry the I/Os; this file is the kernel's queue. */
#include "aio.h"

#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static long kernel_submit(struct aio_state *a, long n, struct iocb **cbs, int counting)
{
	(void)counting;
	return syscall(SYS_io_submit, a->ctx, n, cbs);
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

static long kernel_getevents(struct aio_state *a, long min, long max, const struct timespec *t)
{
	long n;
	if (!min && a->ring) {
		a->ring_reaps += (uint64_t)(n = aio_ring_reap(a, max));
		return n;
	}
	do
		n = syscall(SYS_io_getevents, a->ctx, min, max, a->ev, t);
	while (n < 0 && errno == EINTR);
	return n;
}

static const struct aio_queue kernel_queue = { kernel_submit, kernel_getevents, "io_submit" };

static int libaio_init(struct io_ctx *x)
{
	const struct job *j = x->j;
	struct worker *w = x->w;
	struct aio_state *a;
	int r;
	if (j->o.force_uring_errno)
		return -j->o.force_uring_errno;
	if ((r = aio_family_init(x, &kernel_queue, &a)))
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
