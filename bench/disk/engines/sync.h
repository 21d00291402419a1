/* What the engines that do one I/O at a time, in the call, share (psync.c): the submit that
 * does it (a rewrite's read then write, a trim, or the backend's transfer) and accounts it. */
#ifndef ASSAY_DISK_SYNC_H
#define ASSAY_DISK_SYNC_H

#include "disk/ioengine.h"

#include <sys/types.h>

/* move len bytes at off of the job's file f (write_: to it); the bytes moved, or -errno */
typedef ssize_t (*xfer_fn)(struct io_ctx *x, int f, int write_, void *buf, size_t len, uint64_t off, int rwf);

struct sync_ctx {
	xfer_fn xfer;
	int vec;                   /* full_io's: pread/pwrite, preadv/pwritev, preadv2/pwritev2 */
	int64_t fpos[MAX_FILES];   /* sync: the file position in each file (-1: unknown) */
	char *maps[MAX_FILES];     /* mmap: each file's mapping */
};

int sync_ctx_init(struct io_ctx *x, xfer_fn xfer);
void sync_ctx_cleanup(struct io_ctx *x);
int sync_prep(struct io_ctx *x, int slot);
int sync_submit(struct io_ctx *x, int queued, int may_wait, int *reaped);
int sync_reap(struct io_ctx *x, int wait_nr);

#endif
