/* The disk engine's insides: a job as the I/O loop reads it, the worker threads' state,
 * the statistics, and the helpers the parts of bench/disk/ share.  Figures mean what
 * fio's mean (shared/design/anchors.md).  The rest of assay calls only disk.h. */
#ifndef ASSAY_DISK_JOB_H
#define ASSAY_DISK_JOB_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "blkdev.h"
#include "disk.h"
#include "cpustat.h"
#include "digest.h"
#include "hist.h"
#include "iolog.h"
#include "prng.h"
#include "replay.h"
#include "steady.h"

#define PATTERN_MAX 512   /* fio's longest buffer_pattern/verify_pattern */

struct json;

enum rw { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RANDRW, RW_READWRITE, RW_TRIM, RW_RANDTRIM,
	  RW_TRIMWRITE, RW_RANDTRIMWRITE };
extern const char *const rw_names[];   /* by enum rw: fio's names */
/* fio's directions (and the direction column of its logs) */
enum ddir { DDIR_READ, DDIR_WRITE, DDIR_TRIM, DDIR_N };
_Static_assert(DDIR_N == IOLOG_NDIR, "the logs keep a window per direction");
extern const char *const ddir_name[DDIR_N];   /* fio's: "read", "write", "trim" */
/* the --ioengine names, in the registry's order (engines/registry.c); ioengine.h has the
 * backends */

static inline int rw_is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_RANDTRIM || rw == RW_RANDTRIMWRITE;
}
static inline int rw_writes(int rw)
{
	return rw == RW_WRITE || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_READWRITE || rw == RW_TRIMWRITE ||
	       rw == RW_RANDTRIMWRITE;
}
static inline int rw_reads(int rw) { return rw == RW_READ || rw == RW_RANDREAD || rw == RW_RANDRW || rw == RW_READWRITE; }
/* fio's trims: the blocks discarded (BLKDISCARD; a hole punched in a file) */
static inline int rw_trims(int rw) { return rw >= RW_TRIM; }
/* the job changes the device's content */
static inline int rw_modifies(int rw) { return rw_writes(rw) || rw_trims(rw); }
/* the directions the job does: bit d for enum ddir d */
static inline unsigned rw_dirs(int rw)
{
	return (rw_reads(rw) ? 1u : 0) | (rw_writes(rw) ? 2u : 0) | (rw_trims(rw) ? 4u : 0);
}

#define MAX_PCTS 20     /* fio's FIO_IO_U_LIST_MAX_LEN */

/* fio's continue_on_error types: bit numbers of job.coe */
enum { COE_READ, COE_WRITE, COE_VERIFY, COE_N };
#define MAX_IGN 16

#define MAX_BSSPLIT 16
#define MAX_ZONES 16

/* fio's random_distribution */
enum dist { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED };

#define MAX_FILES 16     /* fio's filename=a:b:...: the files one job's threads share */
#define MAX_JOB_FILES 64 /* and with fio's files of each thread (JOB.N.F), all of a job's */
/* fio's file_service_type: which file a job of several does its next I/O on */
enum fst { FST_RR, FST_SEQ, FST_RAND };

/* A job's options, as its rows in the option table write them (fio's thread_options):
 * a job copies them whole and its fixup (job_build.c) adjusts them in place. */
struct job_opts {
	unsigned long long size_cap;   /* a profile's: the region at most this (0: the device) */
	long long warmup_ios;          /* a profile's: first I/Os of each thread not counted */
	int end_fdatasync;             /* a profile's: its end_fsync is dd's fdatasync */
	const char *filename;
	const char *name;
	const char *profile;
	const char *output;
	struct rw_spec {        /* fio's rw: a pattern, with an offset modifier (:N) */
		int kind;       /* enum rw */
		uint64_t hole;  /* write:4k: bytes skipped after each sequential I/O */
		int back;       /* read:-8k: the hole is backwards (fio's backwards-read) */
		int run;        /* randread:8: a new random offset every this many I/Os */
		char text[48];  /* as given */
	} rw;
	int rw_sequencer;
	long long number_ios;
	int zonemode;
	unsigned long long zonesize, zonerange, zoneskip, zonecapacity;
	int read_beyond_wp, ignore_zone_limits;
	long long max_open_zones, job_max_open_zones;
	double zrt, zrf;
	unsigned long long ba;
	unsigned long long bs[3];   /* reads, writes, trims */
	long long iodepth, iodepth_low, numjobs, rwmixread, rwmixwrite;
	const char *size;
	const char *offset_s;       /* --offset as given: a size or a percentage (add_job resolves it) */
	double runtime, ramp_time;
	int time_based;
	int ioengine;
	int submit_mode;        /* fio's io_submit_mode: 0 inline, 1 offload */
	int direct;
	long long fdatasync, fsync_n;
	int end_fsync;
	int sync;
	int fsync_on_close;
	long long randseed;
	long long compress_pct, compress_chunk, dedupe_pct, dedupe_ws_pct;
	int dedupe_mode, dedupe_global, trim_zero;
	long long trim_pct;
	int fixedbufs, registerfiles;
	int sqpoll, hipri, userspace_reap, nowait;
	const char *sync_file_range;
	long long hipri_pct;
	long long sqpoll_cpu;
	int group_reporting;
	long long sample_ms;
	double io_timeout;
	double spin_us;
	long long batch_submit, batch_cmin, batch_cmax;
	int invalidate, randrepeat, norandommap, bs_is_seq_rand, serialize_overlap, think_issue, rate_ign_think;
	int slat_pcts, clat_pcts, lat_pcts;
	const char *percentile_list;
	/* --rate, --rate_min: bytes/s; --rate_iops, --rate_iops_min: the gap between I/Os, ns;
	 * per direction, as read (0: no cap) */
	uint64_t rate_bps[DDIR_N], rate_gap_ns[DDIR_N], min_bps[DDIR_N], min_gap_ns[DDIR_N];
	long long rate_cycle;
	int rate_process;
	const char *bssplit, *bsrange;
	const char *directory;
	const char *filename_format;
	const char *cpus_allowed;
	int cpus_policy;
	uint64_t think_ns, think_spin_ns, think_iotime_ns;   /* --thinktime, _spin, _iotime */
	const char *cmdprio_pct, *cmdprio_class, *cmdprio, *cmdprio_bssplit;
	long long thinktime_blocks;
	long long flow, flow_id, flow_sleep;
	const char *numa_cpu_nodes, *numa_mem_policy;
	uint64_t lat_target_ns, lat_window_ns;   /* --latency_target, --latency_window */
	double latency_percentile;
	int latency_run;
	int fadvise_hint;
	const char *ioscheduler;
	double status_interval;
	int unified;
	long long loops;
	double startdelay;
	int zero_buffers;
	int npcts;                 /* parsed from percentile_list (or fio's default) */
	double pcts[MAX_PCTS];
	int stonewall;          /* this job waits for the ones before it (a new group) */
	int buffered;           /* fio's buffered: the opposite of direct */
	unsigned long long io_size;           /* fio's io_size: bytes per thread (0: the region) */
	unsigned long long offset_increment;  /* thread i starts i times this after --offset */
	int unlink;             /* remove the test file at the end (fio's; regular files only) */
	int allow_mounted_write;
	int exitall;
	int exitall_on_error;
	int exit_what;          /* fio's: 0 group, 1 stonewall, 2 all */
	int allow_file_create;
	int create_on_open;     /* fio's: a new file made empty, not laid out */
	const char *random_distribution;
	int pct_seq[DDIR_N];    /* --percentage_random's 100 - x, or --percentage_sequential */
	const char *steadystate;
	double ss_dur, ss_ramp;
	const char *write_log[IOLOG_NOPT];   /* fio's write_bw_log, write_iops_log, write_lat_log */
	long long log_avg_msec, log_hist_msec, log_hist_coarseness;
	int log_max_value, log_offset, per_job_logs, log_unix_epoch, log_prio;
	int eta;                /* fio's eta: auto (on a terminal), always, never */
	int ignored;            /* fio options accepted for a pasted line, no effect here */
	int pre_read;           /* fio's: the region read into the page cache before the job */
	int parse_only, showcmd;   /* fio's: check everything, run nothing; print the words */
	const char *exec_prerun, *exec_postrun;
	const char *cpumask;
	const char *wait_for;
	int new_group;
	int write_hint;         /* fio's: 0 not set, else RWH_WRITE_LIFE_NONE (1) .. EXTREME (5) */
	int fill_device;        /* fio's fill_device/fill_fs: the region to the device's end */
	unsigned long long offset_align;   /* fio's: a percentage --offset aligned up to this */
	const char *ignored_str;
	char sections[256];     /* fio's --section, given once or more: the names, comma separated */
	const char *debug;      /* fio's --debug: accepted, a note says it does nothing here */
	const char *fst;
	int readonly_flag;      /* fio's --readonly: no writes (assay's default mode) */
	long long nrfiles;
	int per_thread_files;   /* the filename is fio's JOB.N.F names, each thread its own */
	const char *description;
	double ignored_time;
	int verify, do_verify, verify_only, verify_fatal;
	long long verify_backlog, verify_backlog_batch;
	unsigned long long verify_interval, verify_offset;
	int verify_dump;
	const char *aux_path;
	uint64_t max_lat_ns[DDIR_N];   /* --max_latency per direction (0: none) */
	const char *read_iolog, *write_iolog;
	int replay_no_stall, replay_skip;
	long long replay_time_scale, replay_scale;
	unsigned long long replay_align;
	long long nice, prio, prioclass;
	int disk_util;
	unsigned long long ignored_size;
	int kb_base;            /* fio's kb_base: 0 1024, 1 1000 (sizes are read under it: OPT_BASE) */
	long long ignored_ll;
	const char *verify_pattern, *buffer_pattern;
	int continue_on_error;
	const char *ignore_error;
	int error_dump;
	int mode;
	int force;
	long long repeat;            /* 0: auto (until the 95% CIs are within repeat_target) */
	double repeat_target;        /* percent: the CI's half-width over the mean */
	long long repeat_max;
	const char *expect_serial;
	unsigned long long expect_size;
	int list;
	int include_virtual;
	int force_uring_errno;
};

/* One fio job: what numjobs threads each do. */
struct job {
	struct job_opts o;      /* its options, as the table wrote them, fixed up (job_build.c) */
	char name[64];
	char desc[128];         /* fio's description (its JSON "desc") */
	int tg;                 /* its target: the plan's device or file (fio's filename) */
	/* fio's filename=a:b: the job's files (nfiles 1: tg alone), each a region of fsize
	 * bytes from --offset (size: their sum), each with its own offsets, as fio's; the
	 * thread moves to the next one after fst_n I/Os (roundrobin), when one is done
	 * (sequential), or to a random one (random) */
	int nfiles;
	int nftg;               /* the job's targets: nfiles, or nfiles per thread (per_thread) */
	int per_thread;         /* fio's JOB.N.F: thread t has the targets ftg[t * nfiles ...] */
	int ftg[MAX_JOB_FILES];
	uint64_t fsize[MAX_FILES];
	uint64_t foff[MAX_FILES];   /* each file's region's start: --offset, or N% of that file (fio's) */
	int fst, fst_n;
	int rw;
	uint64_t seq_hole;      /* fio's rw=write:4k: bytes skipped after each sequential I/O */
	int seq_back;           /* rw=read:-8k: seq_hole bytes back from each I/O's end */
	uint64_t past_end;      /* the target's bytes after the region (one file: 0 with several) */
	int rand_run;           /* fio's rw=randread:8: a new random offset every this many I/Os (0, 1: each) */
	int rw_identical;       /* fio's rw_sequencer=identical: the same offset in between */
	/* fio's zonemode=strided: zone_size bytes in a zone of zone_range, then on by
	 * zone_range + zone_skip (0: no zones) */
	uint64_t zone_size, zone_range, zone_skip;
	uint64_t stride_end;    /* the device's size: the zones go on to its end */
	/* fio's zonemode=zbd (diskzbd.c): writes at the write pointers of the target's zones
	 * (a zoned device's own, or --zonesize ones kept here for any other), reads below
	 * them */
	int zbd;
	uint64_t zbd_zone, zbd_cap;     /* --zonesize (0: the device's), --zonecapacity (0: the zone's) */
	struct zbd *zt;                 /* the target's zones (shared by the jobs on it; a thread's
					 * own files: the first's, each thread its own in w->zt) */
	char setup_err[200];            /* what fails in each thread's setup, as fio's (the job
					 * fails when it runs, its threads counted; the others run) */
	uint64_t bs;            /* the block size; with --bssplit/--bsrange the smallest: the
				 * unit offsets are aligned to and the region is counted in */
	uint64_t bs_max;        /* the largest I/O (buffers are this big) */
	/* --bssplit per direction: sizes with cumulative percents (nsplit 0: bs, or the
	 * --bsrange below); --bsrange: a random multiple of bs in [lo, hi] */
	int nsplit[DDIR_N];
	uint64_t split_bs[DDIR_N][MAX_BSSPLIT];
	unsigned split_cum[DDIR_N][MAX_BSSPLIT];
	uint64_t range_lo[DDIR_N], range_hi[DDIR_N];
	int var_bs;             /* any of those: every I/O draws its size */
	int bs_pair;            /* fio's bs=reads,writes (a one-size split each way) */
	char bs_desc[160];      /* "bssplit=..." or "bsrange=..." as given */
	uint64_t offset;        /* start of the region */
	uint64_t size;          /* length of the region (bytes, multiple of bs) */
	int fsync_full;         /* the every-N sync is fio's fsync (else fdatasync) */
	int end_full;           /* end_fsync is fsync (fio's; the seq profile's, dd's fdatasync) */
	int sync_flags;         /* fio's sync: O_SYNC or O_DSYNC on the writes' file (0: none) */
	uint64_t randseed;
	uint64_t dedupe_ws;     /* dedupe_mode=working_set: its blocks (0: repeat mode) */
	uint64_t dedupe_seed;   /* the seed of its block i: dedupe_seed + i */
	int offload;              /* fio's io_submit_mode=offload: --iodepth threads do the job's I/Os */
	int sfr_n;                /* fio's sync_file_range: every sfr_n writes, with sfr_flags */
	unsigned sfr_flags;
	/* fio's cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit (io_uring, libaio):
	 * some of each direction's I/Os carry another priority than the job's (ioprio, 0 when
	 * none); each priority's latency apart.  cmdprio_pct: nonzero when the direction draws
	 * (the percent; cmdprio_bssplit: its largest total of a size); cmdprio_ent: the shares,
	 * cmdprio_percentage's one for every size (bs 0), cmdprio_bssplit's by size (ascending,
	 * fio's order); cmdprio_val: [0] the job's priority, then each other one (class << 13 |
	 * level) in the order first named, an entry's idx pointing there */
	int cmdprio_pct[2];
	int cmdprio_nent[2], cmdprio_nval[2];
	struct cmdprio_ent { uint64_t bs; int pct, idx; } cmdprio_ent[2][MAX_BSSPLIT];
	unsigned cmdprio_val[2][CMDPRIO_MAX + 1];
	double sample_ms;       /* iops/bw sample interval */
	int ioprio;             /* fio's prioclass/prio: the threads' I/O priority, as ioprio_set takes it (-1: none) */
	const struct replay *replay;   /* fio's read_iolog: the log replayed instead of a generated pattern */
	int replay_time_pct;    /* fio's replay_time_scale: 200 replays twice as fast */
	char iolog_out[256];    /* fio's write_iolog: the file the issued I/Os go to (empty: none) */
	int batch_default;      /* assay's batching (no --iodepth_batch*): a submit that would be
				 * followed by a wait waits in the same call */
	int fadvise;            /* fio's fadvise_hint: 0 none, 1 by the pattern, 2 sequential, 3 random */
	/* fio's percentile reports: which latencies get them, and at which percents */
	int bins;               /* json+: the histograms' buckets too */
	/* fio's rate/rate_iops, per thread and direction (0: no cap): the gap between two
	 * I/Os' issue times, ns; poisson: exponential gaps of that mean (fio's rate_process) */
	int rate_poisson;
	/* fio's rate_min, rate_iops_min (as the gap between I/Os), rate_cycle: a direction
	 * slower than that over a cycle fails the job */
	uint64_t rate_cycle_ns;
	int min_rate;           /* any of those */
	int exit_all;           /* fio's exit_what=all: once this job ends, no job after it runs */
	char wait_for[64];      /* fio's: the job (before this one) it starts after ("": none) */
	uint64_t offset_inc;    /* fio's offset_increment: thread i's region starts i x this later */
	int think_blocks;                  /* thinktime_blocks: I/Os between pauses */
	int mpol_mode;                     /* numa_mem_policy: the set_mempolicy mode (-1: none) */
	uint64_t mpol_nodes;               /* and its nodes */
	uint64_t flow_sleep_us;            /* flow_sleep: the wait when over its share */
	/* fio's cpus_allowed: the CPUs the job's threads may run on (ncpus 0: any); split:
	 * thread i gets cpus[i % ncpus] alone */
	int ncpus, cpus_split;
	short cpus[256];
	/* fio's random_distribution: how random offsets fall on the region's blocks */
	int dist;               /* enum dist; DIST_RANDOM: uniform (the random map, or not) */
	double dist_arg;        /* zipf's theta, pareto's h, normal's deviation (% of the region) */
	double dist_center;     /* the origin as a fraction of the region; < 0: none given */
	int nzones, zone_abs;   /* zoned (percent of the region) or zoned_abs (bytes) */
	unsigned zone_acc[MAX_ZONES];   /* cumulative percent of the accesses */
	double zone_end[MAX_ZONES];     /* cumulative percent of the region, or bytes */
	char dist_desc[160];    /* as given */
	struct ss_cfg ss;       /* fio's steadystate: the job stops once its IOPS/bandwidth settled */
	char ss_desc[64];       /* as given */
	int verify;             /* fio's verify: enum vmeth or digest, how each written block is checked */
	uint8_t pattern[PATTERN_MAX];   /* fio's verify_pattern, or buffer_pattern: the data written */
	int pattern_len;
	uint16_t pat_off[PATTERN_MAX / 8];   /* fio's %o in verify_pattern: where the block's offset goes */
	int npat_off;
	uint64_t vint;                  /* fio's verify_interval: a header per chunk this big (--bs) */
	uint64_t voff;                  /* fio's verify_offset: where in the chunk the header goes */
	char aux_path[256];             /* fio's aux-path: where those go ("": here) */
	struct iolog_cfg log;   /* fio's write_bw_log, write_iops_log, write_lat_log */
	/* fio's continue_on_error: a mask of 1 << COE_*, the types of error the job goes on
	 * after (counted, the failed I/O left out of the figures); ignore_error: per type the
	 * errnos that are such errors (nign 0: EIO and EILSEQ, fio's) */
	int coe;
	int nign[COE_N];
	int ign[COE_N][MAX_IGN];
	/* fio's latency_target: the deepest queue (up to iodepth) at which latency_pct % of
	 * each latency_window's I/Os complete within the target (total latency), found by
	 * doubling, then bisecting; the job then runs one more window at it and ends
	 * (latency_run: keeps adjusting until its runtime) */
	double lat_pct;
	int lat_run;
	int thread0;            /* the run's number of this job's first thread (fio's, from 1) */
};

/* What to issue next (iogen.c). */
struct iogen {
	const struct job *job;
	struct prng rng;
	uint64_t nblocks;
	/* per direction, as fio's (a readwrite job reads and writes the region each with its
	 * own cursor): the next sequential block, the block after the last I/O's
	 * (--percentage_random, rw=randread:N) */
	int passed;               /* a time-based pass over the region ended (fio drops the cache) */
	uint64_t seq_pos[DDIR_N];
	uint64_t seq_off[DDIR_N]; /* fio's rw=read:512k with bs=1m: the next offset (bytes) */
	int seq_started[DDIR_N];  /* read:-8k: the first I/O was placed */
	uint64_t after_last[DDIR_N];
	uint64_t issued;          /* I/Os issued */
	uint64_t issued_bytes;
	uint64_t limit;           /* bytes to issue when not time based (0: no limit) */
	uint64_t loop_bytes;      /* of them, each of --loops' */
	uint64_t base;            /* this thread's region starts here (--offset_increment) */
	int done;
	/* fio's random map: each pass over the region visits every block once, in the
	 * order of a keyed permutation (a Feistel network over 2 x half bits, cycle-walked
	 * down to nblocks), with fresh keys each pass */
	uint64_t perm_pos, perm_size;
	uint64_t perm_key[4];
	unsigned half;
	/* --random_distribution: the popular blocks spread over the region by a fixed keyed
	 * permutation (shared by the job's threads), rotated by dist_off (fio's center) */
	uint64_t scatter_key[4], dist_off;
	double z_hx1, z_hn, z_s, z_sc;  /* zipf: rejection-inversion constants */
	uint64_t zone_blk[MAX_ZONES];   /* zoned: each zone's end, in blocks */
	/* fio's trimwrite: the block just trimmed, written next */
	int tw_pending;
	uint64_t tw_off, tw_len;
	/* --read_iolog: the next entry, the time the log restarted at (time based, loops)
	 * and the last entry's time, both in the log's microseconds */
	size_t rpos;
	int rloops;
	int r_file;               /* the entry's file (the job's k-th) */
	int run_left;             /* fio's rw=randread:N: I/Os left before a new random offset */
	uint64_t last_blk;
	uint64_t r_base_us, r_t_us;
	/* fio's strided zones: the zone's first block, the bytes done in it, the region's
	 * blocks (nblocks is the zone's) */
	uint64_t stride_blk, zone_bytes, region_blocks;
};
void iogen_init(struct iogen *g, const struct job *j, int idx);
/* the next I/O's direction, offset and length; 0 when the job has nothing more to issue.
 * Replaying a log, a sync (RP_SYNC, RP_DATASYNC) comes as a direction past DDIR_N, and
 * g->r_t_us holds the entry's time */
int iogen_next(struct iogen *g, int *ddir, uint64_t *off, uint64_t *len);

/* an I/O that failed and the job went on after (--continue_on_error) */
struct bad_io {
	uint64_t off, len;
	int err;
	int ddir;               /* enum ddir; DDIR_N: verify's read-back */
};
#define MAX_BAD 64              /* listed per thread and per job */

/* the errors a thread, or a job, went on after (--continue_on_error) */
struct errlog {
	uint64_t n;             /* how many (the ramp's too) */
	int first;              /* the first's errno */
	char first_msg[240];    /* and what, where, why */
	struct bad_io bad[MAX_BAD];  /* a thread's first MAX_BAD, a job's first MAX_BAD by offset */
	int nbad;
};
/* diskio.c: one more error; the first's message from fmt */
void errlog_note(struct errlog *l, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* diskio.c: src's errors added to dst's (the first's message after prefix, when dst had none;
 * the failed I/Os kept by offset) */
void errlog_merge(struct errlog *dst, const struct errlog *src, const char *prefix);

/* Per-direction counters of one thread (and of an aggregate). */
struct ddir_stats {
	uint64_t ios, bytes, short_ios;
	uint64_t errs;          /* failed I/Os the job went on after (--continue_on_error) */
	/* slat and lat fill their buckets only for --slat_percentiles / --lat_percentiles;
	 * clat's always (its distribution and the "within" shares come from them) */
	struct hist slat, clat, lat;
	/* --cmdprio_percentage/--cmdprio_bssplit: clat (lat with --lat_percentiles) of the I/Os
	 * at each priority (job.cmdprio_val's order: [0] the job's) */
	struct hist prio[CMDPRIO_MAX + 1];
};
void ddir_stats_init(struct ddir_stats *st);
struct worker;
/* CPU used: user and system seconds, context switches, minor and major faults */
struct cpu_use { double usr, sys; long ctx, minf, majf; };
/* diskio.c: a thread's CPU while counting (aux: its engine's helper threads', posixaio's),
 * added to *u */
void worker_cpu(const struct worker *w, int aux, struct cpu_use *u);
void ddir_stats_merge(struct ddir_stats *dst, const struct ddir_stats *src);

#define MAX_SAMPLES 100000

struct samples {
	uint32_t *ios[DDIR_N];       /* I/Os completed in each interval */
	uint64_t *bytes[DDIR_N];
	uint32_t n;                  /* complete intervals */
	uint32_t cap;
};

/* --zonemode=zbd (zbd.c): a thread's part.  Its region's zones [min_zone, max_zone),
 * the zones it holds open, the resets it made */
struct zbd_thread {
	int on;
	unsigned min_zone, max_zone;
	unsigned nopen;
	uint64_t resets;
};
struct zbd;
/* a target's zones for job j: made from the device's zone report (fd: the job's
 * descriptor of it) or --zonesize; 0, or -1 with why */
int zbd_make(struct zbd **out, int fd, const struct blkdev *d, const struct job *j, char *err, size_t n);
void zbd_free(struct zbd *z);
uint64_t zbd_size(const struct zbd *z);   /* its zones' size */
struct json;
void zbd_describe(const struct zbd *z, struct json *o);   /* zone_bytes, zones, zones_of, max_open_zones */
/* job j's thread, of region [lo, lo + size), joins; 0, or -1 with why */
int zbd_join(struct zbd *z, struct zbd_thread *t, const struct job *j, uint64_t lo, uint64_t size, int fd,
	     char *err, size_t n);
/* the bytes the thread's region's zones take; with --verify, after a pass is checked,
 * its zones reset for the next (fio's, time based); 0, or -1 with why */
uint64_t zbd_room(const struct zbd *z, const struct zbd_thread *t);
int zbd_verify_pass(struct zbd *z, struct zbd_thread *t, int fd, char *err, size_t n);
/* the thread is done: zones it opened stay open for the others to fill (counted to
 * none), writes it left in flight forgotten */
void zbd_leave(struct zbd *z, struct zbd_thread *t);
/* fio's zbd_adjust_ddir and zbd_adjust_block: the I/O moved to where the zones take it
 * (a write at a write pointer, a zone reset first when it is full; a read below one).
 * 1: go; 0: nothing more to do (no zone with data to read; an error: err set, *errnum);
 * -1: wait (the thread's I/Os in flight complete first, or another thread's to the zone) */
int zbd_adjust(struct zbd *z, struct zbd_thread *t, const struct job *j, int fd, int inflight, int *ddir,
	       uint64_t *off, uint64_t *len, int *errnum, char *err, size_t n);
/* fio's zbd_do_io_u_trim: a trim of a sequential zone is its reset (on a zoned device,
 * BLKRESETZONE); len, -errno, or 0 for a conventional zone (trimmed as any) */
long zbd_trim(struct zbd *z, struct zbd_thread *t, int fd, uint64_t off, uint64_t len);
/* a sequential job's next offset after pos: past a zone's capacity, the next zone's start
 * (fio's setup_zbd_zone_mode) */
uint64_t zbd_next_seq(const struct zbd *z, uint64_t pos);
/* a write or trim issued by zbd_adjust completed (or failed) */
void zbd_done(struct zbd *z, struct zbd_thread *t, int ddir, uint64_t off, uint64_t len);

struct worker {
	const struct job *job;
	const struct blkdev *dev;
	int idx;
	pthread_t tid;
	int fd;
	/* the job's files (fio's a:b; f[0] is dev and fd above); trim_fd: the descriptor
	 * discards go through (the device's claim) */
	struct wfile {
		const struct blkdev *dev;
		int fd, trim_fd;
	} f[MAX_FILES];
	struct ddir_stats st[DDIR_N];
	struct moments sync_lat;
	uint64_t sync_ios;
	struct samples smp;
	uint64_t start_ns;      /* when counting began (after ramp/warm-up) */
	uint64_t end_ns;
	struct rusage ru_start, ru_end;   /* this thread's CPU over that window */
	struct rusage ru_aux;   /* and the engine's helper threads' (posixaio), from when counting began */
	int err;                /* errno of the first failure, 0 if none */
	char errmsg[256];
	int lat_depth;          /* --latency_target: the depth found (the last one allowed) */
	struct errlog errs;     /* errors gone on after (--continue_on_error) */
	uint64_t depth_map[7];  /* I/Os submitted at depth 1, 2-3, 4-7, .., 32-63, 64+ (fio's) */
	/* fio's iodepth_submit and iodepth_complete: submit calls by the I/Os they sent, reap
	 * calls by the completions they took: 0, 1-4, 5-8, 9-16, 17-32, 33-64, more */
	uint64_t submit_map[7], complete_map[7];
	uint64_t ring_reaps;     /* libaio --userspace_reap: completions read from the ring */
	uint64_t hipri_ios;      /* pvsync2 --hipri: I/Os issued polled (RWF_HIPRI), measured ones */
	struct zbd *zt;          /* --zonemode=zbd: the zones of its file (the job's, or with files of
				 * its own, theirs) */
	struct zbd_thread zbd;   /* and this thread's part of them */
	uint64_t sfr_lo[MAX_FILES], sfr_hi[MAX_FILES];   /* --sync_file_range: each file's range written since */
	int engine_fallback;     /* the queued engine (io_uring, libaio) could not be set up:
				 * errno; psync ran instead */
	char uring_flags[128];  /* ring setup flags that were accepted */
	pthread_barrier_t *barrier;  /* all workers of a job start measuring together */
	int *group_stop;             /* set: every thread of the group ends (fio's exitall) */
	const struct worker *waitee; /* fio's wait_for: these threads finish before this one starts */
	int nwaitee;
	int started;                 /* passed the barrier */
	struct iolog log;            /* fio's I/O logs, kept while the job runs */
	struct iolog hlog;           /* fio's histogram log */
	FILE *iolog_out;             /* --write_iolog: the I/Os issued, as fio's log */
	uint8_t *vmap;               /* --verify: a bit per block of the region, set once written */
	uint8_t *tmap;               /* --trim_percentage: a bit per block discarded before this read-back */
	struct prng trim_rng;        /* which blocks */
	uint64_t vb[MAX_FILES + 1];  /* each file's first block in it (vb[nfiles]: all the blocks) */
	char *dedupe;                /* --dedupe_percentage: the data those writes repeat */
	/* dedupe_mode=working_set: the seed of the thread's set (block i: ws_seed + i), its
	 * next block written as a unique one, and the step to the one after */
	uint64_t ws_seed, ws_next, ws_step;
	struct ss_state *ss;         /* --steadystate: the job's per-second totals */
	/* every I/O done so far, the ramp's too: the ETA line reads them (relaxed atomics,
	 * written by this thread only) */
	uint64_t prog_ios[DDIR_N], prog_bytes[DDIR_N];
	/* fio's status-interval: when *snap_req moves past snap_seen, the thread copies its
	 * figures to *snap_dst (worker_snapshot) and sets snap_seen; finished once it ended */
	const unsigned *snap_req;
	struct worker *snap_dst;
	unsigned snap_seen;
	int finished;
	/* fio's verify: each thread reads back the blocks it wrote once every thread of the job
	 * has ended its workload (*writing: how many have not), at the job's iodepth; those
	 * reads are the job's reads (st[DDIR_READ]), as fio counts them */
	int *writing;
	uint64_t *bl;               /* --verify_backlog: the blocks written since the last check */
	uint64_t bl_n, bl_cap, bl_writes;   /* how many, room for, writes issued since */
	char *bl_buf;               /* its reads' buffers (and a --loops pass's check's) */
	void *vring;                /* the read-backs' io_uring, set up at the first */
	int vring_failed;           /* it could not be: they read one block at a time */
	int passes_left;            /* --loops with --verify: the passes still checked as they end */
	uint64_t pass_bytes;        /* issued in this pass */
	uint64_t pass_len;          /* a pass's bytes (--io_size, or the region's I/Os) */
	uint64_t pass_ns;           /* the passes' checks' time (inside the workload's) */
	struct {
		int ran;
		uint64_t ios;          /* reads issued (failed ones too) */
		uint64_t blocks, bad;  /* blocks checked, of them bad */
		uint64_t trimmed;      /* --trim_percentage: blocks discarded before a read-back */
		uint64_t ns;           /* how long the end's (and --loops passes') took */
		uint64_t bl_ns;        /* how long --verify_backlog's checks took (the workload's time) */
		uint64_t prog_bytes;   /* read so far (the ETA line keeps it out of the job's progress) */
		char first[240];       /* the first bad block: where and why */
	} ver;
};
/* fio's runtime of direction d: the workload's when it did I/O that way, verify's read-back
 * added to the reads' (a write job's read runtime is the read-back's); a direction without
 * I/O has none */
static inline uint64_t worker_dir_ns(const struct worker *w, int d)
{
	uint64_t own = w->st[d].ios + w->st[d].errs - (d == DDIR_READ ? w->ver.ios : 0);
	return (own ? w->end_ns - w->start_ns - w->pass_ns : 0) + (d == DDIR_READ ? w->ver.ns : 0);
}
/* the thread's whole runtime, the read-back's included (fio's job_runtime) */
static inline uint64_t worker_runtime(const struct worker *w)
{
	return w->end_ns - w->start_ns - w->pass_ns + w->ver.ns;
}
/* diskio.c: copy w's figures to dst (the samples too, in fresh memory: worker_snap_free);
 * now (the calling thread is w's, still measuring): the figures end at now */
void worker_snapshot(const struct worker *w, struct worker *dst, uint64_t now);
void worker_snap_free(struct worker *dst);

/* diskverify.c: fio's verify.  Every bs-block a verifying job writes starts with a
 * 32-byte header (magic, block size, its offset on the device, the job's randseed, the
 * method and its digest's length) and the digest (--verify's checksum or hash of the
 * block, the digest's bytes zeroed); checking it catches changed data, misdirected and
 * torn writes, and data of another run (another randseed).  meta: the header alone;
 * pattern: no header, the block is --verify_pattern repeated. */
/* and the enum digest kinds (their ids on disk); null (fio's "pretend"): no header, the
 * read-back checks nothing */
enum vmeth { VM_NONE, VM_META = 11, VM_PATTERN = 12, VM_NULL = 64 };
_Static_assert(DG_XXHASH == 10 && DG_SHA3_224 == 13, "verify's method ids on disk");
/* the method's name as --verify takes it */
const char *verify_name(int method);
/* fio's pattern syntax (0xhex, "text", decimal, 'file', one after another) into out:
 * its length, or -1 with why in err, naming opt; with offs (--verify_pattern), fio's %o
 * stands for the block's offset (8 bytes, little-endian): where each goes into offs, how
 * many into *noffs */
int pattern_parse_offs(const char *opt, const char *s, uint8_t out[PATTERN_MAX], uint16_t *offs, int *noffs,
		       char *err, size_t n);
/* fio's %o: the offset of the block at off into each of its places in the pattern's
 * repeats over the block blk */
void pattern_offsets(const struct job *j, void *blk, uint64_t off);
/* fill buf with the job's pattern, from its start at each bs-block */
void pattern_fill(const struct job *j, void *buf, uint64_t len);
/* stamp the blocks of a write of len bytes at off (buf: its data, random already) */
void verify_stamp(const struct job *j, void *buf, uint64_t off, uint64_t len);
/* check the block read from off (its digest bytes are zeroed on the way); 0 if good,
 * else -1 with why */
int verify_check(const struct job *j, void *blk, uint64_t off, char *why, size_t n);
/* the worker's bitmap: a write of len bytes done at off of the job's file f */
void verify_mark(struct worker *w, int f, uint64_t off, uint64_t len);
/* fio's verify_dump: the bad block blk (as read back) at off of the device at path into
 * [AUX/]BASENAME.OFF.received (and, for --verify=pattern, what it should hold into
 * .expected); a line on stderr names each */
void verify_dump(const struct job *j, const char *path, const void *blk, uint64_t off);
/* --verify_interval and --verify_offset fit the job's blocks and headers: 0, or -1 with why */
int verify_layout(const struct job *j, char *err, size_t n);
/* the block b of the bitmap checked (--verify_backlog): not again when the job ends */
void verify_unmark(struct worker *w, uint64_t b);

/* the largest (max) or the smallest of the job's files' regions (one file: its region) */
static inline uint64_t job_fsize(const struct job *j, int max)
{
	uint64_t m = j->nfiles > 1 ? j->fsize[0] : j->size;
	for (int k = 1; k < j->nfiles; k++)
		m = (j->fsize[k] > m) == !!max ? j->fsize[k] : m;
	return m;
}
/* where thread idx's region of the job's file f starts (--offset, --offset_increment) */
static inline uint64_t file_base(const struct job *j, int f, int idx)
{
	return (j->nfiles > 1 ? j->foff[f] : j->offset) + (uint64_t)idx * j->offset_inc;
}
/* the job reads back what it wrote (or, --verify_only, its region) and checks it */
static inline int job_reads_back(const struct job *j) { return j->verify && (j->o.do_verify || j->o.verify_only); }
/* fio's fadvise_hint (with it on): the target read as random (no readahead), else as sequential */
static inline int fadvise_random(const struct job *j)
{
	return j->fadvise == 3 || (j->fadvise == 1 && rw_is_random(j->rw));
}
/* the directions the job reports: those it does, and reads for a read-back */
static inline unsigned job_dirs(const struct job *j)
{
	return rw_dirs(j->rw) | (job_reads_back(j) ? 1u << DDIR_READ : 0);
}

/* diskio.c: fio's continue_on_error and ignore_error: does the job go on after err, an
 * error of type COE_*? */
int coe_nonfatal(const struct job *j, int type, int err);
/* diskio.c: run one worker thread's job; fills w. */
void *worker_run(void *w);
/* diskio.c: fill a buffer with incompressible data, or compress_pct compressible: each
 * chunk bytes random, then zero (fio's buffer_compress_chunk) */
void fill_buffer(void *buf, size_t len, uint64_t seed, int compress_pct, size_t chunk);
/* diskio.c: the zero tail of each chunk (fio's: the random part first), 0 when incompressible */
size_t compress_zero(int compress_pct, size_t chunk);

/* One finished job: its workers and their aggregate. */
struct job_result {
	struct job job;
	uint64_t old_hint[MAX_JOB_FILES];  /* --write_hint: each file's hint before the job (put back) */
	int nworkers;
	struct worker *w;
	struct ddir_stats agg[DDIR_N];
	struct moments sync_lat;
	uint64_t sync_ios;
	uint64_t runtime_ns;       /* longest worker runtime after ramp (the read-back's included) */
	uint64_t threads_ns;       /* the workers' runtimes added up (fio's group job_runtime) */
	uint64_t dir_ns[DDIR_N];   /* each direction's (worker_dir_ns), the longest */
	int writing;               /* threads still in their workload (worker.writing) */
	double usr_s, sys_s;       /* the workers' own CPU (RUSAGE_THREAD), as fio counts it */
	long ctx;
	struct cpuload load;
	int err;
	char errmsg[300];
	const char *skipped;       /* reason, or NULL */
	char skipmsg[240];         /* a reason made for this job (skipped points here) */
	int repeat;
	int group;                 /* fio's groupid */
	int fds[MAX_JOB_FILES];    /* each of the job's files', every thread's */
	uint64_t t0_ns;            /* when the run began (its jobs' times are from it) */
	double group_kib[DDIR_N];  /* the group's bandwidth, KiB/s (fio's per= is a share of it) */
	struct ss_state ss;        /* --steadystate */
	struct errlog errs;        /* --continue_on_error: errors gone on after (verify's too) */
	struct {                   /* --verify's read-back */
		int ran;
		uint64_t blocks, bad;  /* blocks checked, of them bad */
		uint64_t trimmed;      /* of them discarded first (--trim_percentage) */
		double seconds;
		char first[240];       /* the first bad block: where and why */
	} ver;
};

/* disk_report.c */
/* fio's job objects for r: one (group) or one per thread, appended to jobs */
void job_json(const struct job_result *r, int group, struct json *jobs);
void disk_text_job(const struct json *job, FILE *f);
/* fio's "Run status group" lines of a result */
void disk_text_groups(const struct json *res, FILE *f);
/* fio's units: 221MiB / 232MB (si), 56.7k */
const char *scale_bytes(double v, char *b, size_t n, int si);
const char *scale_count(double v, char *b, size_t n);
/* fio's terse lines (version 3) of a disk result */
void disk_terse(const struct json *res, FILE *f);

#endif
