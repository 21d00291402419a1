/* What libaio, posixaio, vsync and io_submit_mode=offload share: requests as the kernel's
 * AIO iocbs, submitted in batches and reaped as io_events (libaio.c); each backend's init
 * says which queue takes them (the kernel's context, posixaio's helper threads, vsync's
 * system calls in the submit). */
#ifndef ASSAY_DISK_AIO_H
#define ASSAY_DISK_AIO_H

#include "disk/ioengine.h"

#include <linux/aio_abi.h>

struct aio_state {
	aio_context_t ctx;         /* libaio: the kernel's context */
	struct paio *px;           /* posixaio, offload: its queue instead */
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

/* the family's state for x (its arrays); 0, or 1 with the worker's error set */
int aio_family_init(struct io_ctx *x, struct aio_state **out);
int aio_family_prep(struct io_ctx *x, int slot);
int aio_family_submit(struct io_ctx *x, int queued, int may_wait, int *reaped);
int aio_family_reap(struct io_ctx *x, int wait_nr);
void aio_family_cleanup(struct io_ctx *x);

/* posixaio.c: glibc's POSIX AIO scheme (pool 0: a helper per file descriptor) or fio's
 * offload pool (pool helpers on one queue); vec: full_io's */
struct paio *paio_new(int cap, int pool, int vec);
int paio_pooled(const struct paio *p);
long paio_submit(struct paio *p, long n, struct iocb **cbs, int counting);
long paio_getevents(struct paio *p, long min, long max, struct io_event *ev, const struct timespec *t);
void paio_free(struct paio *p, struct rusage *aux);
/* vsync.c: what is submitted done now, its completions kept for the reap */
long vsync_submit(struct aio_state *a, long n, struct iocb **cbs);

#endif
