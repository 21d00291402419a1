/* What libaio, posixaio, vsync and io_submit_mode=offload share: requests as the kernel's
 * AIO iocbs, submitted in batches and reaped as io_events (aio.c); each backend's init
 * says which queue takes them (libaio.c: the kernel's context, posixaio.c: helper threads,
 * vsync.c: system calls in the submit).  The family calls its members only through that
 * queue. */
#ifndef ASSAY_DISK_AIO_H
#define ASSAY_DISK_AIO_H

#include "disk/ioengine.h"

#include <linux/aio_abi.h>

struct aio_state;

/* A backend's queue: where a batch of requests goes and its completions come from (the
 * kernel's context, posixaio's helper threads, vsync's system calls in the submit) */
struct aio_queue {
	/* take n requests; how many it took, or -1 with errno */
	long (*submit)(struct aio_state *a, long n, struct iocb **cbs, int counting);
	/* at least min completions into a->ev (waiting up to t), at most max; or -1 with errno */
	long (*getevents)(struct aio_state *a, long min, long max, const struct timespec *t);
	const char *submit_what;   /* the call a failed submit is named by */
};

struct aio_state {
	const struct aio_queue *q;
	aio_context_t ctx;         /* libaio: the kernel's context */
	struct paio *px;           /* posixaio, offload: its queue */
	int pooled;                /* offload: each completion says when a helper began and ended it */
	int vs;                    /* vsync: the batch done in the submit, its completions in vev */
	struct iocb *cbs;          /* one per slot */
	struct iocb **queue;       /* prepared, not yet submitted */
	int nqueue;
	struct io_event *ev;
	struct io_event *vev;
	int nvev;
	int ring;                  /* --userspace_reap, and the ring is the one it reads */
	uint64_t ring_reaps;       /* completions read from it */
};

/* the family's state for x (its arrays) on queue q; 0, or 1 with the worker's error set */
int aio_family_init(struct io_ctx *x, const struct aio_queue *q, struct aio_state **out);
int aio_family_prep(struct io_ctx *x, int slot);
int aio_family_submit(struct io_ctx *x, int queued, int may_wait, int *reaped);
int aio_family_reap(struct io_ctx *x, int wait_nr);
void aio_family_cleanup(struct io_ctx *x);

#endif
