/* fio's I/O logs (write_bw_log, write_iops_log, write_lat_log): one line per I/O, or
 * per log_avg_msec window and direction, in fio's text format
 *     time (ms), value, direction, block size (bytes)[, offset (bytes)], priority
 * A thread keeps its log in memory while it runs (chunks, up to a byte cap; past it
 * the log stops and says so) and it is written when the job ends. */
#ifndef ASSAY_IOLOG_H
#define ASSAY_IOLOG_H

#include <stdint.h>
#include <stdio.h>

/* the options: which logs */
enum { IOLOG_BW, IOLOG_IOPS, IOLOG_LAT, IOLOG_HIST, IOLOG_NOPT };
/* the files: write_lat_log makes three */
enum { LOGF_BW, LOGF_IOPS, LOGF_SLAT, LOGF_CLAT, LOGF_LAT, LOGF_HIST, LOGF_N };
extern const char *const iolog_file_kind[LOGF_N];   /* "bw", "iops", "slat", "clat", "lat", "clat_hist" */
extern const char *const iolog_opt_name[IOLOG_NOPT]; /* "write_bw_log", ... */
extern const int iolog_file_opt[LOGF_N];            /* the option each file comes from */

#define CMDPRIO_MAX 8   /* priorities of a direction's I/Os beside the job's (--cmdprio_bssplit) */

/* A job's log settings (fio's names). */
struct iolog_cfg {
	const char *prefix[IOLOG_NOPT];  /* file name prefix; "": the job's name; NULL: no log */
	unsigned avg_ms;                 /* log_avg_msec: 0 = every I/O */
	int max_value;                   /* log_max_value: a window's maximum, not its mean */
	int offset;                      /* log_offset: the I/O's offset column */
	int per_job;                     /* per_job_logs: a file per thread (.N in the name) */
	unsigned hist_ms;                /* log_hist_msec: write_hist_log's window */
	unsigned hist_coarse;            /* log_hist_coarseness: 2^this buckets summed per column */
	uint64_t bs;                     /* the block size column of the histogram log */
	int unix_epoch;                  /* log_unix_epoch: the time column from the Unix epoch */
	unsigned prio;                   /* the threads' I/O priority (class << 13 | level; 0: none) */
	unsigned cmdprio[2][CMDPRIO_MAX + 1]; /* --cmdprio_*: the priorities of reads, writes (IOLOG_F_PRIO's index) */
	int log_prio;                    /* log_prio: the last column is it (0x%04x), else 1 for realtime */
};
static inline int iolog_wanted(const struct iolog_cfg *c)
{
	return c->prefix[IOLOG_BW] || c->prefix[IOLOG_IOPS] || c->prefix[IOLOG_LAT] || c->prefix[IOLOG_HIST];
}

#define IOLOG_NDIR 3            /* directions: read, write, trim (fio's 0, 1, 2) */

struct iolog_win {              /* one direction over one window */
	uint64_t ios, bytes;        /* the rates' (the workload's I/Os) */
	uint64_t nlat, nslat;       /* the latencies' (verify's reads too), slat's */
	uint64_t sum[3], max[3];    /* slat, clat, lat (ns) */
};

struct hist;

struct iolog {
	const struct iolog_cfg *cfg;
	int on;
	int hist;                   /* fio's histogram log: each window's completion latency buckets */
	const struct hist *clat[IOLOG_NDIR]; /* hist: the thread's running histograms, and their last state */
	uint64_t *prev;
	unsigned nbins;             /* columns per row */
	unsigned dirs;              /* bit d: the job does direction d (a window row each) */
	size_t isz;                 /* bytes per entry */
	char **chunk;
	uint64_t n, nchunk, chunk_cap, max_n;
	int truncated;              /* the byte cap was reached: entries after it are missing */
	uint64_t start_ns;          /* time 0 of the log (measuring began) */
	uint64_t win_ns, win_end;   /* windows: length and the current one's end */
	uint64_t epoch_ms;          /* added to the times (log_unix_epoch: measuring's start) */
	struct iolog_win acc[IOLOG_NDIR];
};

/* set up a thread's log for a job doing dirs (bit 0 reads, 1 writes, 2 trims), holding at most
 * cap_bytes of entries */
void iolog_init(struct iolog *l, const struct iolog_cfg *cfg, unsigned dirs, uint64_t cap_bytes);
/* the same for fio's histogram log (write_hist_log): windows of the clat histograms */
void iolog_init_hist(struct iolog *l, const struct iolog_cfg *cfg, unsigned dirs, uint64_t cap_bytes,
		     const struct hist *const clat[IOLOG_NDIR]);
/* histogram log: a completion at t, before it is added to the histograms */
void iolog_hist_tick(struct iolog *l, uint64_t t);
/* measuring begins (again) at t: earlier entries are dropped */
void iolog_start(struct iolog *l, uint64_t t);
/* iolog_io's flags: the I/O counts in the windows' rates (verify's reads do not, in fio's:
 * they are in the latencies, and a line of their own per I/O); it has a submission
 * latency (a synchronous one has none: no slat line, slat still in lat) */
enum { IOLOG_F_RATE = 1, IOLOG_F_SLAT = 2 };
/* and the I/O's priority: cmdprio[ddir][i], 0 the threads' own (prio) */
#define IOLOG_F_PRIO(i) ((unsigned)(i) << 8)
/* one measured I/O completed at t_done */
void iolog_io(struct iolog *l, int ddir, uint64_t off, uint64_t len, uint64_t slat, uint64_t clat,
	      uint64_t t_done, unsigned flags);
/* measuring ended at t: the windows up to t are closed (the last, partial one too) */
void iolog_end(struct iolog *l, uint64_t t);
/* write the entries of the file kind (LOGF_*) to f; -1 on a write error */
int iolog_print(const struct iolog *l, int kind, FILE *f);
void iolog_free(struct iolog *l);

/* the file of kind for thread (global, 1-based) of job_name, in repeat rep (1-based) of
 * nrep: PREFIX_KIND[.THREAD][.rREP].log (fio's names; the repeat part only with nrep > 1) */
int iolog_path(const struct iolog_cfg *c, const char *job_name, int kind, int thread, int rep,
	       int nrep, char *buf, size_t n);

#endif
