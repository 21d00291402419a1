/* The I/O loop's insides, shared by io.c, worker.c, readback.c and engines/: an I/O
 * slot, a worker's measuring state (struct meter) and the helpers the engines call.
 * Internal to bench/disk/. */
#ifndef ASSAY_DISK_IO_H
#define ASSAY_DISK_IO_H

#include "job.h"

#include <linux/aio_abi.h>
#include <stdint.h>
#include <sys/resource.h>

#define REWRITE_READ (1ull << 63)   /* user_data flag: the read half of a rewrite */
#define SYNC_SLOT    0xffffffffull
struct slot {
	uint64_t t_prep, t_issue;
	uint64_t off, len;
	char *buf;        /* its data (a read job's --verify checks it) */
	int ddir;
	int file;         /* which of the job's files (fio's a:b) */
	int counted;      /* issued while measuring */
	int sync;         /* done in the call (psync, a queued engine's trim): no submission
			   * latency, as fio records none (slat_ns N 0, no slat log line) */
	int busy;
	int rd_failed;    /* rewrite: the read half failed and the job went on */
	int prio;         /* --cmdprio_*: its priority's index in job.cmdprio_val (0: the job's) */
};
struct meter {                /* the measuring state of a worker */
	int counting;
	uint64_t ramp_end;        /* ns */
	uint64_t deadline;        /* ns, 0 = none */
	uint64_t interval;        /* sample interval, ns */
	uint64_t next_sample;
	uint64_t cur_ios[DDIR_N], cur_bytes[DDIR_N];
	uint64_t warm_left;
	/* --rate/--rate_iops: the next I/O, drawn but held back until its time */
	int held, h_ddir, h_file;
	uint64_t h_off, h_len;
	int io_file;              /* the file of the I/O next_io gave */
	/* fio's a:b: each file's generator (its own offsets), the file in use, the I/Os left
	 * before the next (roundrobin, random), the files done */
	struct iogen *gens;
	int cur, turn_left;       /* cur -1: none yet */
	uint64_t turn_end;        /* sequential: the file's pass ends at these issued bytes */
	unsigned files_done;
	uint64_t gen_issued;
	struct prng file_rng;
	uint64_t t_begin;             /* when the job began (after --startdelay): --write_iolog's times */
	uint64_t replay_t0;           /* --read_iolog: when the log's first entry went (0: not yet) */
	uint64_t rate_next[DDIR_N];   /* when the next I/O of each direction may go, ns */
	struct prng rate_rng;
	struct prng prio_rng;         /* --cmdprio_percentage: which I/Os */
	uint64_t ss_next, ss_ios, ss_bytes;   /* --steadystate: this second's end and I/Os */
	unsigned ss_sec;
	int think_done;               /* --thinktime: I/Os completed since the last pause */
	uint64_t think_until;         /* the pause under way ends then (0: none) */
	uint64_t think_last;          /* --thinktime_iotime: when the last pause began (first: the start) */
	int sfr_writes;               /* --sync_file_range: writes since the last */
	struct flow *flow;            /* --flow: the flow_id group this thread is in, and its I/Os */
	uint64_t flow_ios;
	/* --latency_target: the depth allowed now (without it: iodepth), the deepest that met
	 * the target and the shallowest that failed (iodepth + 1: none yet), the window under
	 * way (from lat_ts: its I/Os and those over the target), settling */
	int qd, qd_low, qd_high;
	int draining;                 /* --iodepth_low: the queue was full, it drains now */
	uint64_t lat_ts, lat_ios, lat_failed;
	int lat_end_run, lat_done;
	/* --rate_min/--rate_iops_min: the cycle's end and the counts at its start */
	uint64_t mr_next, mr_ios[DDIR_N], mr_bytes[DDIR_N];
	/* --serialize_overlap: a queued engine's I/O slots (busy: in flight) */
	const struct slot *ov_slots;
	int ov_n;
};
#define SYNC_RANGE 2

/* io.c */
void scramble(struct worker *w, void *buf, uint64_t off, uint64_t len, struct prng *r);
int slot_take(struct slot *slots, int *free_slots, int *nfree, int counting, uint64_t t_prep,
		     int ddir, int file, uint64_t off, uint64_t len);
void start_line(struct worker *w);
void set_err(struct worker *w, int err, const char *what, uint64_t off);
/* " (vdc is gone: removed from /sys/block)" when a disk of w's was unplugged, else "";
 * looked for up to wait_s */
void disk_gone_note(const struct worker *w, char *out, size_t n, double wait_s);
int io_error(struct worker *w, const struct slot *s, int type, int err, const char *what);
void log_issue(struct worker *w, const struct meter *m, int f, int op, uint64_t off, uint64_t len);
void timed_sync(struct worker *w, struct meter *m, int full);
int gen_next(const struct job *j, struct meter *m, struct iogen *g, int *file, int *ddir, uint64_t *off,
		    uint64_t *len);
void flow_join(const struct job *j, struct meter *m);
void flow_leave(const struct job *j, struct meter *m);
int next_io(struct worker *w, struct meter *m, struct iogen *g, uint64_t now, int inflight,
		   int *ddir, uint64_t *off, uint64_t *len, uint64_t *until);
void sleep_until(uint64_t t);
int group_stopped(const struct worker *w);
void start_job(struct worker *w, struct meter *m);
int cap_wait(uint64_t until, uint64_t *to);
void begin_counting(struct worker *w, struct meter *m, uint64_t now);
void snap_answer(struct worker *w, const struct meter *m, uint64_t now);
int loop_tick(struct worker *w, struct meter *m, uint64_t now);
void sample_tick(struct worker *w, struct meter *m, uint64_t now);
int may_queue(const struct job *j, struct meter *m, int inflight);
void mark_calls(const struct meter *m, uint64_t map[7], int nr);
void mark_depth(struct worker *w, const struct meter *m, int depth, int nr);
void issued_now(struct worker *w, const struct meter *m, struct slot *slots, const int *batch,
		       int *issued, int queued, int inflight, uint64_t *t_prep);
void count_io(const struct job *j, struct ddir_stats *st, const struct slot *s, long res, uint64_t t_done);
void pick_prio(const struct job *j, struct meter *m, struct slot *s);
unsigned slot_ioprio(const struct job *j, const struct slot *s);
void account(struct worker *w, struct meter *m, struct slot *s, long res, uint64_t t_done);
long trim_range(struct worker *w, int f, uint64_t off, uint64_t len);
int sync_trim(struct worker *w, struct meter *m, uint64_t t_prep, int inflight, int f, uint64_t off,
		     uint64_t len);

/* psync.c */
int psync_vec(const struct job *j);
int hipri_draw(struct worker *w, struct meter *m);
ssize_t full_io(int fd, int write_, void *buf, size_t len, uint64_t off, int64_t *pos, int vec, int rwf);

/* readback.c */
void check_read(struct worker *w, const struct slot *s, long res);
void rb_ring_drop(struct worker *w);
void readback(struct worker *w, struct meter *m, char *bufs, unsigned nbuf, int queued);
void pass_check(struct worker *w, struct meter *m, int queued);
void backlog_check(struct worker *w, struct meter *m, int queued);
void backlog_add(struct worker *w, int f, uint64_t off, uint64_t len);

/* worker.c */
/* d += a - b */
void ru_add(struct rusage *d, const struct rusage *a, const struct rusage *b);

#endif
