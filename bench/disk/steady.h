/* fio's steady state (--steadystate=iops_slope:0.01%, --steadystate_duration=60s): once a
 * second each thread of a job adds its I/Os to the job's per-second totals; when every
 * running thread has added a second, the last D seconds are judged, and when they meet
 * the criterion the job stops.  Per job (the threads summed), after
 * --steadystate_ramp_time. */
#ifndef ASSAY_STEADY_H
#define ASSAY_STEADY_H

#include <pthread.h>
#include <stdint.h>

struct json;

enum { SS_NONE, SS_IOPS, SS_IOPS_SLOPE, SS_BW, SS_BW_SLOPE };

struct ss_cfg {
	int kind;           /* SS_*; SS_NONE: off (no duration) */
	double limit;       /* the criterion's limit: absolute (I/Os or bytes per second) */
	int pct;            /* or a percent of the window's mean */
	unsigned dur, ramp; /* whole seconds */
};

struct ss_state {
	const struct ss_cfg *cfg;
	pthread_mutex_t lock;
	int nthreads, ended;
	uint64_t *ios, *bytes;       /* per second of the job, the threads summed */
	unsigned *added;             /* threads that added each second */
	unsigned cap;
	unsigned next;               /* the first second not yet complete (every thread added it) */
	int stop;                    /* attained: the job's threads stop (read without the lock) */
	/* the last judgement */
	int judged, attained;
	double mean_iops, mean_bw, max_dev, slope, criterion;
	uint64_t win_ios[3600], win_bytes[3600];   /* the window judged (at most an hour) */
	unsigned nwin;
};

int ss_init(struct ss_state *s, const struct ss_cfg *cfg, int nthreads);
void ss_free(struct ss_state *s);
/* a thread's I/Os and bytes of second sec (from its start of measuring) */
void ss_add(struct ss_state *s, unsigned sec, uint64_t ios, uint64_t bytes);
/* a thread is done: no more seconds from it */
void ss_thread_end(struct ss_state *s);
static inline int ss_stopped(const struct ss_state *s)
{
	return s && __atomic_load_n(&s->stop, __ATOMIC_RELAXED);
}
/* fio's "steadystate" object */
void ss_json(const struct ss_state *s, struct json *job);

#endif
