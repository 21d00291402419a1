/* A disk backend behind one small struct (after fio's struct ioengine_ops, kept to a
 * handful of hooks): the loop (loop.c) readies I/Os, has the backend submit them and
 * reap their completions, and keeps every figure's meaning the same for all of them.
 * Each backend is one file in engines/; the registry is engines/registry.c.  Internal
 * to bench/disk/. */
#ifndef ASSAY_DISK_IOENGINE_H
#define ASSAY_DISK_IOENGINE_H

#include "io.h"

/* what a backend is (ops.flags) */
#define IOE_QUEUED  1u    /* up to --iodepth I/Os in flight (else one at a time, done in the call, as
			   * fio's sync engines) */
#define IOE_KERNELQ 2u    /* the kernel's own queue (io_uring, libaio): assay's batching by
			   * default, --nowait, --cmdprio_* */
#define IOE_SEEKS   4u    /* reads and writes at the file position (sync, vsync): an lseek when an
			   * I/O is not where the last ended */
#define IOE_NODATA  8u    /* moves no data (null): nothing to verify or replay */
#define IOE_OFFLOAD 16u   /* --io_submit_mode=offload may hand its I/Os to helper threads */
#define IOE_HIPRI   32u   /* --hipri: polled I/O (io_uring: IOPOLL; pvsync2: RWF_HIPRI) */
#define IOE_NOWAIT  64u   /* --nowait: RWF_NOWAIT on each I/O */
#define IOE_MAPS    128u  /* writes through the page cache (mmap): not for a zoned disk */
#define IOE_DEPTH   256u  /* the device sees --iodepth I/Os at once: verify's read-back queues
			   * them too (on a ring) */
#define IOE_HELPERS 512u  /* threads of its own do the I/O (posixaio): their CPU reported apart */

/* The loop's state for one worker, that the backend works on. */
struct io_ctx {
	struct worker *w;
	struct meter *m;
	const struct job *j;
	const struct ioengine_ops *ops;
	char *bufs;             /* a buffer of --bs (the largest) per slot */
	struct slot *slots;     /* one per I/O that may be in flight */
	int *free_slots, nfree, nslots;
	int inflight;           /* slots between readied and done */
	int *batch;             /* the slots readied this round, in order */
	int issued;             /* how many of them went to the device */
	uint64_t t_prep;        /* when the next I/O's preparation began (ns) */
	uint64_t last_done;     /* when an I/O last completed (ns): a stall is --io_timeout after */
	uint64_t until;         /* a rate cap holds the next I/O until then: wait no longer (ns) */
	struct prng scr;        /* the data of writes */
	void *priv;             /* the backend's own state */
};

struct ioengine_ops {
	const char *name;       /* fio's --ioengine name */
	unsigned flags;         /* IOE_* */
	/* the backend's state: 0; -errno when it cannot run here (psync measures instead,
	 * and the report says why); 1 when it failed with the worker's error set */
	int (*init)(struct io_ctx *x);
	/* slot's I/O (ddir, file, off, len set) readied: its request made, a write's data
	 * with it (a rewrite's write is a read of the block first); 0, or -1 with the error set */
	int (*prep)(struct io_ctx *x, int slot);
	/* the I/Os readied since the last submit (batch[issued..queued)) to the device, their
	 * issue time stamped (io_issued); may_wait: a wait for completions comes next, which
	 * the backend may do in the same call, saying how many it reaped in *reaped (else -1);
	 * an engine without IOE_QUEUED does the I/O here; 0, or -1 with the error set */
	int (*submit)(struct io_ctx *x, int queued, int may_wait, int *reaped);
	/* completions: wait for wait_nr (0: none, bounded by --io_timeout), account at most
	 * --iodepth_batch_complete_max of them; how many, or -1 with the error set */
	int (*reap)(struct io_ctx *x, int wait_nr);
	/* the round's completions after a submit (reaped: what the submit took, or -1); NULL:
	 * reap --iodepth_batch_complete_min of them */
	int (*complete)(struct io_ctx *x, int reaped);
	/* fdatasync, fsync or sync_file_range (SYNC_RANGE) once what is in flight is done;
	 * NULL: the loop's (io_drain, then the system call) */
	void (*sync)(struct io_ctx *x, int kind);
	void (*cleanup)(struct io_ctx *x);
};

/* the registry (engines/registry.c), by --ioengine's index; NULL-terminated */
extern const struct ioengine_ops *const ioengines[];
/* io_submit_mode=offload's helpers (engines/posixaio.c): a psync job's I/Os on a pool */
extern const struct ioengine_ops ioengine_offload;
/* what measures when a job's engine cannot run here (no io_uring, no AIO) */
extern const struct ioengine_ops ioengine_psync;
/* the job's backend */
#define JOB_ENGINE(j) (ioengines[(j)->o.ioengine])
/* has the job's engine flag f? */
#define JOB_ENGINE_HAS(j, f) ((JOB_ENGINE(j)->flags & (f)) != 0)
/* up to --iodepth I/Os in flight (the engine's queue, or offload's helpers) */
#define job_queued(j) (JOB_ENGINE_HAS(j, IOE_QUEUED) || (j)->offload)

/* loop.c: run the job's workload on backend ops; 0, or what ops->init returned when it
 * cannot run here */
int io_loop(struct worker *w, struct meter *m, struct iogen *g, char *bufs, const struct ioengine_ops *ops);
/* the slots batch[issued..queued) went to the device now (their issue time, the depth and
 * call counts); the next I/O's preparation starts now */
void io_issued(struct io_ctx *x, int queued);
/* a slot back to the free list, its I/O done */
void io_done(struct io_ctx *x, int slot);
/* wait for everything in flight (bounded: the backend's stall timeout), unless an error
 * stops it; -1 when a reap failed */
int io_drain(struct io_ctx *x);

#endif
