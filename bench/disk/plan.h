/* The disk engine's plan: the options as given (struct disk_cfg), the profiles, the
 * targets and jobs of a run (struct plan).  Internal to bench/disk/. */
#ifndef ASSAY_DISK_PLAN_H
#define ASSAY_DISK_PLAN_H

#include "blkdev.h"
#include "job.h"
#include "engine/engine.h"
#include "iolog.h"
#include "opt.h"

#include <stdint.h>

struct disk_cfg {
	struct common_cfg common;
	struct job_opts o;        /* the options the table writes (O(f) below) */
	/* fio's job layout: the words of the command line (and of a job file) in the order
	 * they apply; the first nglobal are global, each job's start at a --name */
	char **tok;
	int ntok, nglobal;
	const char *jobfile;
	char *iec;                /* where the first size with an i read under kb_base 1024 is
				   * noted: the run's common.iec_seen (for the warning) */
};

/* the context a job's sizes kept as text are read in (--size, --offset, --rate...): its
 * kb_base, the run's note of an IEC size */
#define JOB_SIZES(c) (&(struct opt_ctx){ KB_BASE(c), (c)->iec, (c)->iec ? 64 : 0 })

/* A profile's job: option text applied before the user's words, so what the user gives
 * wins (--runtime, --iodepth...) */
struct pjob {
	const char *suffix;     /* after the profile's name: seq.write */
	const char *words;      /* its options, as a user would write them */
	const char *destroy;    /* more of them in --mode=destroy (NULL: none) */
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
#define MAX_JOBS 64

/* The kernel's counters of the disk under a target (/sys/dev/block/M:m/stat: the device
 * itself, or the one holding the file), for fio's "disk_util". */
struct dstat {
	char name[64];
	unsigned long long v[BLKSTAT_MIN];   /* read ios, merges, sectors, ticks; write the same;
					     * in flight, io_ticks, time_in_queue */
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
	int absent;             /* a null engine's file: never made, /dev/null opened for it */
	int made;               /* a file this run laid out (or made empty) */
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
/* fio's semantics for regular files: fio's options or job file (not an assay profile) and
 * no --mode given: a file is laid out, extended and written as fio does, unless it holds a
 * filesystem or partition table (a disk image: those writes need --mode=destroy) */
#define FIO_FILES(c) (!(c)->o.profile && !GIVEN(c, "mode"))
#define KB_BASE(c) ((c)->o.kb_base ? 1000 : 1024)

extern const struct opt disk_opts[];

/* --repeat: one job's headline figures over the repeats */
struct rep_series {
	char name[64];
	double v[DDIR_N][4][100];     /* [ddir][iops, bw_bytes, clat p50, clat p99][repeat] */
	int n;
};


/* profiles.c */
const struct profile *find_profile(const char *n, size_t l);
/* the profiles' names (the engine's parts, engine.h) */
const char *const *disk_parts(void);

/* options.c */
int parse_pcts(struct disk_cfg *c, char *err, size_t n);

/* parse.c */
int parse_offset(const char *v, const struct opt_ctx *sz, uint64_t of, uint64_t align, uint64_t *off, char *err,
		 size_t n);
const char *extend_hint(const struct disk_cfg *c, const struct blkdev *d);
int region(const struct disk_cfg *c, const struct blkdev *d, uint64_t offset, uint64_t cap, uint64_t bs,
		  uint64_t *size, char *err, size_t n);
int parse_rate(const char *opt, const char *v, const struct opt_ctx *sz, int iops, uint64_t out[DDIR_N], char *err,
	       size_t n);
int parse_var_bs(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int parse_dist(const struct disk_cfg *c, struct job *j, char *err, size_t n);
int job_data(const struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n);
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
int job_replay(const struct plan *p, const struct disk_cfg *c, int from_profile, struct job *j,
		      char *err, size_t n);

int opt_rw(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_ioengine(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_rate_bps(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_rate_iops(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_think(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_max_latency(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_think_iotime(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_section(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
int opt_pct_seq(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
/* files.c */
int zones_in_bytes(const struct disk_cfg *c, const struct blkdev *d, struct disk_cfg *cz,
			  char sbuf[32], char obuf[32], char *err, size_t n);
int lay_out_file(const struct disk_cfg *c, const struct disk_cfg *run, const char *fn, int nshare, struct blkdev *dry,
		 uint64_t *was,
			uint64_t *planned, char *err, size_t n);
void unlink_targets(const struct plan *p);
int plain_files(const struct plan *p, const struct job *j);
/* a line of what was done or not (a file laid out, an option not acted on), where fio puts
 * such lines: stdout in normal output (the run's c), nothing in JSON or terse output */
void disk_note(const struct disk_cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void add_devices(struct json *as, const struct plan *p);
int same_target(const char *a, const char *b);
int name_count(const char *fn);
int plan_target(struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n);
int parse_zones(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n);
int parse_fst(const char *v, struct job *j, char *err, size_t n);
int files_extent(const struct plan *p, const struct disk_cfg *c, struct job *j, uint64_t cap, char *err,
			size_t n);
int dedupe_working_set(const struct disk_cfg *c, struct job *j, int index, char *err, size_t n);

/* job_build.c */
int add_job(struct plan *p, const struct disk_cfg *c, const char *name, int from_profile, char *err, size_t n);

/* plan_jobs.c */
int join_dir(struct disk_cfg *c, const char *job, char *err, size_t n);
int is_name(const char *t);
/* the global section's --filename (the words before the first --name), or NULL */
const char *global_filename(const struct disk_cfg *c);
int plan_jobs(struct plan *p, char *err, size_t n);

/* safety.c */
const struct blkdev *zoned_refuses(const struct plan *p, const struct job *j);
int mark_writes(struct plan *p);
int write_allowed(const struct plan *p, const struct job *j, char *err, size_t n);
int set_scheduler(const struct blkdev *d, const char *want, char *err, size_t n);
int claim_device(const struct blkdev *d, char *err, size_t n);
int open_target(const struct plan *p, const struct job *j, int k, int writing, char *err, size_t n);

/* run_jobs.c */
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
/* how many times everything may run: --repeat, or --repeat-max with --repeat=auto */
int repeats_max(const struct job_opts *o);
/* the widest 95% CI of any job's IOPS (percent of its mean) and whose; 0 with fewer
 * than two repeats */
double rep_worst_ci(const struct rep_series *series, const struct job *jobs, int njobs, int *worst_job,
		    int *worst_dir);

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
