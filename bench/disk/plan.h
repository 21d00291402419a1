/* The disk engine's plan: the options as given (struct disk_cfg), the profiles, the
 * targets and jobs of a run (struct plan).  Internal to bench/disk/. */
#ifndef ASSAY_DISK_PLAN_H
#define ASSAY_DISK_PLAN_H

#include "blkdev.h"
#include "job.h"
#include "engine.h"
#include "iolog.h"
#include "opt.h"

#include <stdint.h>

struct disk_cfg {
	struct common_cfg common;
	const char *filename;
	const char *name;
	const char *profile;
	const char *output;
	const char *rw;         /* fio's rw: a pattern name, with an offset modifier (:N) */
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
	const char *rate, *rate_iops, *rate_min, *rate_iops_min;
	long long rate_cycle;
	int rate_process;
	const char *bssplit, *bsrange;
	const char *directory;
	const char *filename_format;
	const char *cpus_allowed;
	int cpus_policy;
	const char *thinktime, *thinktime_spin, *thinktime_iotime;
	const char *cmdprio_pct, *cmdprio_class, *cmdprio, *cmdprio_bssplit;
	long long thinktime_blocks;
	long long flow, flow_id, flow_sleep;
	const char *numa_cpu_nodes, *numa_mem_policy;
	const char *latency_target, *latency_window;
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
	/* fio's job layout: the words of the command line (and of a job file) in the order
	 * they apply; the first nglobal are global, each job's start at a --name */
	char **tok;
	int ntok, nglobal;
	const char *jobfile;
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
	const char *percentage_random;
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
	const char *cpumask, *percentage_sequential;
	const char *wait_for;
	int new_group;
	int write_hint;         /* fio's: 0 not set, else RWH_WRITE_LIFE_NONE (1) .. EXTREME (5) */
	int fill_device;        /* fio's fill_device/fill_fs: the region to the device's end */
	unsigned long long offset_align;   /* fio's: a percentage --offset aligned up to this */
	const char *ignored_str;
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
	const char *max_latency;
	const char *read_iolog, *write_iolog;
	int replay_no_stall, replay_skip;
	long long replay_time_scale, replay_scale;
	unsigned long long replay_align;
	long long nice, prio, prioclass;
	int disk_util;
	unsigned long long ignored_size;
	int kb_base;            /* fio's kb_base: 0 1024, 1 1000 (sizes are read under it: opt_kb_base) */
	long long ignored_ll;
	const char *verify_pattern, *buffer_pattern;
	int continue_on_error;
	const char *ignore_error;
	int error_dump;
	int mode;
	int force;
	long long repeat;
	const char *expect_serial;
	unsigned long long expect_size;
	int list;
	int include_virtual;
	int force_uring_errno;
};

struct pjob {
	const char *suffix;
	int rw;
	unsigned bs;
	int iodepth, numjobs, rwmixread, direct, end_fsync;
	uint64_t size_cap;      /* 0: the whole device */
	int time_based, warmup_ios;
	int coe;                /* fio's continue_on_error (a mask of 1 << COE_*) */
	int verify;             /* crc32c headers read back (in --mode=destroy) */
};

struct profile {
	const char *name;
	const char *what;
	struct pjob j[3];
	int explicit_only;      /* not in "all": only when named */
};
extern const struct profile profiles[];
extern const size_t nprofiles;
#define NPROFILES nprofiles
#define PROFILE_RUNTIME 10.0
#define MAX_JOBS 64

/* The kernel's counters of the disk under a target (/sys/dev/block/M:m/stat: the device
 * itself, or the one holding the file), for fio's "disk_util". */
struct dstat {
	char name[64];
	unsigned long long v[11];   /* read ios, merges, sectors, ticks; write the same; in
				     * flight, io_ticks, time_in_queue */
	uint64_t t_ns;
	int ok;
};

/* A device or file the jobs do I/O on: the run's --filename, or a job's own (fio's one
 * job per disk, each with its filename) */
#define MAX_TARGETS MAX_JOBS   /* one per job at most */
struct target {
	struct blkdev dev;
	const char *filename;   /* as the user gave it (the file laid out, or unlinked, under it) */
	int excl_fd;            /* the device's exclusive claim, read-write (-1: none) */
	int writes;             /* a job changes it */
	int unlink;             /* a job on it gave --unlink */
	uint64_t pct_of;        /* what --offset=N% is of: its size before this run laid it out
				 * or extended it (fio's), 0 for a file made */
	struct zbd *zbd;        /* --zonemode=zbd: its zones, made by the first such job */
	struct dstat ds0, ds1;
};

struct plan {
	struct disk_cfg *c;
	uint64_t clock_seed;    /* --randrepeat=0: the seed of this run */
	int njobs;
	struct job jobs[MAX_JOBS];
	int group[MAX_JOBS];    /* jobs of one group run at once (up to a --stonewall) */
	int rgroup[MAX_JOBS];   /* fio's groupid: the reporting group (--stonewall or --new_group) */
	int ntg;
	struct target tg[MAX_TARGETS];
	char names[16384];      /* the names of fio's a:b lists, one after another */
	size_t names_used;
};
#define TG(p, j) (&(p)->tg[(j)->tg])

#define GIVEN(c, name) opt_was_given(disk_opts, (c)->common.given, name)
#define KB_BASE(c) ((c)->kb_base ? 1000 : 1024)

extern const struct opt disk_opts[];

/* --repeat: one job's headline figures over the repeats */
struct rep_series {
	char name[64];
	double v[DDIR_N][4][100];     /* [ddir][iops, bw_bytes, clat p50, clat p99][repeat] */
	int n;
};


/* options.c */
const struct profile *find_profile(const char *n, size_t l);
int parse_pcts(struct disk_cfg *c, char *err, size_t n);

/* parse.c */
int parse_offset(const char *v, uint64_t of, uint64_t align, uint64_t *off, char *err, size_t n);
const char *extend_hint(const struct disk_cfg *c, const struct blkdev *d);
int region(const struct disk_cfg *c, const struct blkdev *d, uint64_t offset, uint64_t cap, uint64_t bs,
		  uint64_t *size, char *err, size_t n);
int parse_rate(const char *opt, const char *v, int iops, uint64_t out[DDIR_N], char *err, size_t n);
int parse_var_bs(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int parse_dist(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int job_data(const struct plan *p, const struct disk_cfg *c, const struct pjob *pj, struct job *j, char *err,
		    size_t n);
int parse_errors(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int parse_pct_random(const char *v, int out[DDIR_N]);
int parse_ss(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int parse_cmdprio(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int parse_sfr(const char *v, struct job *j, char *err, size_t n);
int parse_think(const char *opt, const char *v, uint64_t *ns, char *err, size_t n);
int parse_cpus(const char *v, struct job *j, char *err, size_t n);
int parse_numa_cpus(const char *v, struct job *j, char *err, size_t n);
int parse_mpol(const char *v, struct job *j, char *err, size_t n);
int cpumask_list(const char *v, struct job *j, char *err, size_t n);
int io_extent(const struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n);
int pair_bs(const struct disk_cfg *c, struct job *j, const uint64_t bs_rw[DDIR_N], char *err,
		   size_t n);
int parse_rw(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int job_replay(const struct plan *p, const struct disk_cfg *c, const struct pjob *pj, struct job *j,
		      char *err, size_t n);

/* files.c */
int zones_in_bytes(const struct disk_cfg *c, const struct blkdev *d, struct disk_cfg *cz,
			  char sbuf[32], char obuf[32], char *err, size_t n);
int lay_out_file(const struct disk_cfg *c, const char *fn, int nshare, struct blkdev *dry, uint64_t *was,
			uint64_t *planned, char *err, size_t n);
void unlink_targets(const struct plan *p);
void add_devices(struct json *as, const struct plan *p);
int same_target(const char *a, const char *b);
int name_count(const char *fn);
int plan_target(struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n);
int parse_zones(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n);
int parse_fst(const char *v, struct job *j, char *err, size_t n);
int files_extent(const struct plan *p, const struct disk_cfg *c, struct job *j, uint64_t cap, char *err,
			size_t n);
int dedupe_working_set(const struct disk_cfg *c, struct job *j, int index, char *err, size_t n);

/* job.c */
int add_job(struct plan *p, const struct disk_cfg *c, const char *name, const struct pjob *pj,
		   char *err, size_t n);

/* plan.c */
int join_dir(struct disk_cfg *c, const char *job, char *err, size_t n);
int is_name(const char *t);
int make_plan(struct plan *p, char *err, size_t n);

/* safety.c */
const struct blkdev *zoned_refuses(const struct plan *p, const struct job *j);
int mark_writes(struct plan *p);
int write_allowed(const struct plan *p, const struct job *j, char *err, size_t n);
int set_scheduler(const struct blkdev *d, const char *want, char *err, size_t n);
int claim_device(const struct blkdev *d, char *err, size_t n);
int open_target(const struct plan *p, const struct job *j, int k, int writing, char *err, size_t n);

/* run.c */
int create_logs(const struct plan *p, char *err, size_t n);
void write_logs(const struct plan *p, struct job_result *r);
void result_init(struct job_result *r, const struct job *j, int repeat);
int pre_read(const struct plan *p, struct job_result *r, int k);
void fadvise_hint(const struct job *j, int k, int fd);
void job_aggregate(struct job_result *r);
void run_group(struct plan *p, struct job_result *rs, int n);
void group_bandwidth(struct job_result *rs, int n);
int report_groups(struct job_result *rs, int n, int merge);
void result_free(struct job_result *r);
void rep_add(struct rep_series *s, const struct job_result *r);
struct json *rep_json(const struct rep_series *s, const struct job *j);

/* eta.c: fio's ETA line and --status-interval reports, each a thread of run_group */
struct eta {
	const struct job_result *rs;
	int n, stop;
	pthread_t tid;
};

struct status {
	const struct plan *p;
	struct job_result *rs;
	const int *ready;
	int n, stop;
	unsigned gen;          /* the workers' snap_req: a new report asks */
	pthread_t tid;
	struct cpusnap s0;
};

void *eta_main(void *arg);
void *status_main(void *arg);

/* jobfile.c */
char *read_jobfile(const char *path);
int order_words(struct disk_cfg *c, char *text, char *err, size_t n);

/* disk.c */
void fill_global(struct json *g, const struct disk_cfg *c, const struct blkdev *d);
void disk_text(const struct json *r, FILE *f);

#endif
