/* assay disk: fio-grade benchmarks of raw block devices (and files), safe by default.
 * Option names follow fio's so a fio command line (several --name jobs) or job file can be
 * pasted; named profiles give the classic VPS tests.  A run is a list of groups run one
 * after another; the jobs of a group run at once, as fio's (a job with stonewall starts a
 * new group; each profile job is one); each job runs numjobs worker threads (diskio.c). */
#include "clock.h"
#include "disk.h"
#include "engine.h"
#include "fileio.h"
#include "json.h"
#include "msg.h"
#include "report.h"
#include "stats.h"
#include "sysinfo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <linux/fs.h>
#include <limits.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

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

static int parse_pcts(struct disk_cfg *c, char *err, size_t n);

#define O(f) offsetof(struct disk_cfg, f)
/* fio's pattern syntax, as --verify_pattern and --buffer_pattern take it */
#define PATTERN_FORMS "0xHEX, \"text\", a decimal number, 'a file', or several one after another (at most 512 bytes)"
#define VERIFY_CHOICES "0|none|crc32c|crc32c-intel|crc32|crc64|crc16|crc7|md5|sha1|sha256|sha512|xxhash|meta|pattern|" \
	"sha3-224|sha3-256|sha3-384|sha3-512|null"
static const struct opt disk_opts[] = {
	OPTS_COMMON_TERSE(struct disk_cfg),
	{ "filename", 0, OPT_STR, O(filename), NULL, 0, 0, "a block device (vda, /dev/vda) or a file",
	  "what to measure", 0 },
	{ "directory", 0, OPT_STR, O(directory), NULL, 0, 0, "a directory",
	  "where --filename is (fio's; one file for every job and thread)", 0 },
	{ "filename_format", 0, OPT_STR, O(filename_format), NULL, 0, 0, "text with $jobname, $jobnum, $filenum",
	  "the names of the files fio lays out without --filename (fio's; default $jobname.$jobnum.$filenum)", 0 },
	{ "profile", 0, OPT_STR, O(profile), NULL, 0, 0,
	  "a comma list of seq, qd1, qd8, randrw64, randwrite4, randread16x4, latency, scan, scanwrite, all",
	  "named tests (see below) instead of one job from the options", 0 },
	{ "name", 0, OPT_STR, O(name), "job", 0, 0, NULL, "job name (without --profile)", 0 },
	{ "output", 0, OPT_STR, O(output), NULL, 0, 0, "a file name",
	  "write the report (text, JSON or terse) to this file instead of standard output", 0 },
	{ "rw", 0, OPT_STR, O(rw), "read", 0, 0, RW_CHOICES "|rw, then :N for fio's offset modifier",
	  "I/O pattern (rw is readwrite; write:4k leaves a 4k hole after each I/O, randread:8 takes a new "
	  "random offset every 8 I/Os)", 0 },
	{ "readwrite", 0, OPT_ALIAS, 0, NULL, 0, 0, "rw", "same as --rw", OPT_HIDDEN },
	{ "rw_sequencer", 0, OPT_ENUM, O(rw_sequencer), "sequential", 0, 0, "sequential|identical",
	  "with randread:N and the like, between new random offsets: the next block, or the same one (fio's)", 0 },
	{ "blockalign", 0, OPT_SIZE, O(ba), "0", 0, 1ull << 30, NULL,
	  "random offsets are multiples of this instead of --bs (fio's; no random map then)", OPT_FIOUNITS },
	{ "ba", 0, OPT_ALIAS, 0, NULL, 0, 0, "blockalign", "same as --blockalign (fio's)", OPT_HIDDEN },
	{ "section", 0, OPT_STR, O(ignored_str), NULL, 0, 0, "a section name (or several: a,b, or --section again)",
	  "with a job file, run only this section (fio's; [global] always applies)", 0 },
	{ "number_ios", 0, OPT_INT, O(number_ios), "0", 0, 1ll << 50, NULL,
	  "stop a thread after this many I/Os, if nothing stopped it before (fio's; 0: no such limit)", 0 },
	{ "bs", 0, OPT_SIZES, O(bs), "4k", 512, 64 << 20, NULL,
	  "block size (or reads,writes: 4k,64k, offsets then aligned to the smaller)", OPT_FIOUNITS },
	{ "blocksize", 0, OPT_SIZES, O(bs), "4k", 512, 64 << 20, NULL, "same as --bs", OPT_HIDDEN | OPT_FIOUNITS },
	{ "bssplit", 0, OPT_STR, O(bssplit), NULL, 0, 0, "size/percent:...: 4k/50:64k/30:1m/20, or reads,writes",
	  "mixed block sizes, each I/O drawing its own (fio's)", 0 },
	{ "blocksize_range", 0, OPT_STR, O(bsrange), NULL, 0, 0, NULL, "same as --bsrange", OPT_HIDDEN },
	{ "bsrange", 0, OPT_STR, O(bsrange), NULL, 0, 0, "min-max: 4k-64k, or reads,writes",
	  "block sizes drawn at random between min and max, in steps of min (fio's)", 0 },
	{ "iodepth", 0, OPT_INT, O(iodepth), "1", 1, 4096, NULL, "I/Os in flight per job", 0 },
	{ "iodepth_low", 0, OPT_INT, O(iodepth_low), "0", 0, 4096, NULL,
	  "once the queue is full, let it drain to this many before filling it again (fio's; 0 or above "
	  "--iodepth: --iodepth, kept full)", 0 },
	{ "numjobs", 0, OPT_INT, O(numjobs), "1", 1, 256, NULL, "threads running the job", 0 },
	{ "rwmixread", 0, OPT_INT, O(rwmixread), "50", 0, 100, NULL,
	  "percent of reads in randrw/readwrite", 0 },
	{ "rwmixwrite", 0, OPT_INT, O(rwmixwrite), "-1", -1, 100, NULL,
	  "percent of writes (sets rwmixread to 100 minus it)", OPT_HIDDEN },
	{ "filesize", 0, OPT_STR, O(size), NULL, 0, 0, NULL, "same as --size (fio's, with one file)", OPT_HIDDEN },
	{ "size", 0, OPT_STR, O(size), NULL, 0, 0, "a size (4g), a percentage (50%) or a number of zones (4z)",
	  "length of the region measured [the device from --offset]", 0 },
	{ "fileoffset", 0, OPT_ALIAS, 0, NULL, 0, 0, "offset", "same as --offset (fio's)", OPT_HIDDEN },
	{ "offset", 0, OPT_STR, O(offset_s), "0", 0, 0, "a size, a percentage of the target (50%) or a number of zones (4z)",
	  "start of the region", 0 },
	{ "runtime", 0, OPT_TIME, O(runtime), "0", 0, 7 * 86400, NULL,
	  "time limit per job (0: until size is done; profiles: 10s)", 0 },
	{ "time_based", 0, OPT_BOOL, O(time_based), "0", 0, 0, NULL,
	  "run for --runtime, looping over the region", 0 },
	{ "ramp_time", 0, OPT_TIME, O(ramp_time), "0", 0, 3600, NULL,
	  "run this long before measuring", 0 },
	{ "ioengine", 0, OPT_ENUM, O(ioengine), "io_uring", 0, 0, IOENGINE_CHOICES,
	  "I/O engine (psync is also the fallback; pvsync: preadv/pwritev; pvsync2: preadv2/pwritev2 (--hipri: RWF_HIPRI); null moves no data: "
	  "the engine's own cost per I/O; vsync: adjacent I/Os of a batch in one readv/writev)", 0 },
	{ "direct", 0, OPT_BOOL, O(direct), "0", 0, 0, NULL, "O_DIRECT (bypass the page cache)", 0 },
	{ "fdatasync", 0, OPT_INT, O(fdatasync), "0", 0, 1e9, NULL, "fdatasync every N writes", 0 },
	{ "fsync", 0, OPT_INT, O(fsync_n), "0", 0, 1e9, NULL,
	  "fsync every N writes (fio's: data and metadata; on a file slower than fdatasync)", 0 },
	{ "end_fsync", 0, OPT_BOOL, O(end_fsync), "0", 0, 0, NULL,
	  "fsync when the job's writes are done (counted in its time; fio's)", 0 },
	{ "sync", 0, OPT_ENUM, O(sync), "none", 0, 0, "none|sync|dsync|0|1",
	  "synchronous writes (fio's): O_SYNC (sync, 1) or O_DSYNC (dsync): each write done when stable", 0 },
	{ "exec_prerun", 0, OPT_STR, O(exec_prerun), NULL, 0, 0, "a shell command",
	  "run before the job, once per thread (/bin/sh -c; output in JOBNAME.prerun.txt); failing, it "
	  "fails the job (fio's)", 0 },
	{ "exec_postrun", 0, OPT_STR, O(exec_postrun), NULL, 0, 0, "a shell command",
	  "run after the job, once per thread (output in JOBNAME.postrun.txt; a failure is a warning) (fio's)", 0 },
	{ "fsync_on_close", 0, OPT_BOOL, O(fsync_on_close), "0", 0, 0, NULL,
	  "fsync when the job ends, outside its measured time (fio's)", 0 },
	{ "randseed", 0, OPT_INT, O(randseed), "0x89", 0, 9.2e18, NULL, "seed of random offsets and data", 0 },
	{ "dedupe_percentage", 0, OPT_INT, O(dedupe_pct), "0", 0, 100, NULL,
	  "this percent of the writes carry identical data, which a deduplicating backend stores once (fio's)", 0 },
	{ "buffer_compress_percentage", 0, OPT_INT, O(compress_pct), "0", 0, 99, NULL,
	  "make written data compressible by about this much (0: incompressible)", 0 },
	{ "buffer_compress_chunk", 0, OPT_SIZE, O(compress_chunk), "512", 64, 1ull << 30, NULL,
	  "with --buffer_compress_percentage: each chunk this big is random data, then zeros (fio's)",
	  OPT_FIOUNITS },
	{ "fixedbufs", 0, OPT_BOOL, O(fixedbufs), "1", 0, 0, NULL, "io_uring registered buffers", 0 },
	{ "registerfiles", 0, OPT_BOOL, O(registerfiles), "1", 0, 0, NULL, "io_uring registered file", 0 },
	{ "sqthread_poll", 0, OPT_BOOL, O(sqpoll), "0", 0, 0, NULL,
	  "io_uring: a kernel thread polls the submission queue (no system call per submit)", 0 },
	{ "sqthread_poll_cpu", 0, OPT_INT, O(sqpoll_cpu), "-1", -1, 1023, NULL,
	  "io_uring: the CPU of that thread (-1: any)", 0 },
	{ "cmdprio_percentage", 0, OPT_STR, O(cmdprio_pct), NULL, 0, 0, "a percent, or reads,writes (0-100)",
	  "io_uring, libaio: this percent of the I/Os at the priority --cmdprio_class/--cmdprio say, the rest at "
	  "the job's; each priority's latency reported apart (fio's)", 0 },
	{ "cmdprio_class", 0, OPT_STR, O(cmdprio_class), NULL, 0, 0, "1 (realtime), 2 (best effort), 3 (idle); or reads,writes",
	  "the class of those I/Os' priority (default 1, fio's)", 0 },
	{ "cmdprio", 0, OPT_STR, O(cmdprio), NULL, 0, 0, "0 (highest) to 7; or reads,writes",
	  "the level of those I/Os' priority (default 0, fio's)", 0 },
	{ "cmdprio_bssplit", 0, OPT_STR, O(cmdprio_bssplit), NULL, 0, 0, "size/percent[/class/level]:...; or reads,writes",
	  "io_uring, libaio: the shares of the I/Os of each size at another priority (--cmdprio_class/--cmdprio "
	  "where an entry names none), instead of --cmdprio_percentage (fio's)", 0 },
	{ "userspace_reap", 0, OPT_BOOL, O(userspace_reap), "0", 0, 0, NULL,
	  "libaio: with --iodepth_batch_complete_min=0, completions read from the ring in memory, without "
	  "io_getevents (fio's)", 0 },
	{ "hipri", 0, OPT_BOOL, O(hipri), "0", 0, 0, NULL,
	  "io_uring: polled completions (needs a device with poll queues, e.g. NVMe with "
	  "nvme.poll_queues; needs --direct=1); pvsync2: each I/O with RWF_HIPRI (polled where the device can)", 0 },
	{ "sync_file_range", 0, OPT_STR, O(sync_file_range), NULL, 0, 0,
	  "FLAGS:N, FLAGS a comma list of wait_before, write, wait_after",
	  "sync_file_range(2) every N writes over the range written since the last, with those flags (fio's; "
	  "in the sync figures)", 0 },
	{ "nowait", 0, OPT_BOOL, O(nowait), "0", 0, 0, NULL,
	  "io_uring, libaio, pvsync2: each I/O with RWF_NOWAIT, failing with EAGAIN rather than waiting for a "
	  "resource (fio's; with --ignore_error=EAGAIN --continue_on_error=io the job counts them and goes on)", 0 },
	{ "hipri_percentage", 0, OPT_INT, O(hipri_pct), "100", 0, 100, NULL,
	  "pvsync2 with --hipri: this percent of the I/Os polled (fio's)", 0 },
	{ "unified_rw_reporting", 0, OPT_ENUM, O(unified), "none", 0, 0, "none|mixed|both|0|1",
	  "report reads and writes as one (\"mixed\"), or both ways (fio's; 1 = mixed)", 0 },
	{ "group_reporting", 0, OPT_BOOL, O(group_reporting), "1", 0, 0, NULL,
	  "one report per job, not per thread", 0 },
	{ "iops_avg_time", 0, OPT_INT, O(sample_ms), "1000", 10, 60000, NULL,
	  "IOPS/bandwidth sample interval, ms (fio's default is 500)", 0 },
	{ "bw_avg_time", 0, OPT_INT, O(sample_ms), "1000", 10, 60000, NULL, "same as --iops_avg_time",
	  OPT_HIDDEN },
	{ "bwavgtime", 0, OPT_INT, O(sample_ms), "1000", 10, 60000, NULL, "same as --iops_avg_time", OPT_HIDDEN },
	{ "iopsavgtime", 0, OPT_INT, O(sample_ms), "1000", 10, 60000, NULL, "same as --iops_avg_time", OPT_HIDDEN },
	{ "iodepth_batch_submit", 0, OPT_INT, O(batch_submit), "1", 0, 4096, NULL,
	  "submit once this many I/Os are ready (fio's; 1: each at once, 0: a whole iodepth); not given, "
	  "io_uring and libaio submit every I/O ready in one call (the default shown is the other engines')", 0 },
	{ "iodepth_batch", 0, OPT_INT, O(batch_submit), "1", 0, 4096, NULL,
	  "same as --iodepth_batch_submit", OPT_HIDDEN },
	{ "iodepth_batch_complete_min", 0, OPT_INT, O(batch_cmin), "1", 0, 4096, NULL,
	  "wait for at least this many completions (fio's; 0: never wait, poll)", 0 },
	{ "iodepth_batch_complete", 0, OPT_INT, O(batch_cmin), "1", 0, 4096, NULL,
	  "same as --iodepth_batch_complete_min", OPT_HIDDEN },
	{ "iodepth_batch_complete_max", 0, OPT_INT, O(batch_cmax), "0", 0, 4096, NULL,
	  "reap at most this many completions at once (fio's; below the minimum: the minimum); not given, "
	  "io_uring and libaio reap all there are, the other engines the minimum", 0 },
	{ "steadystate", 0, OPT_STR, O(steadystate), "iops_slope:0.01%", 0, 0,
	  "iops:L, iops_slope:L, bw:L or bw_slope:L; L absolute (per second) or a percent of the mean (2%)",
	  "stop the job once its last --steadystate_duration seconds meet this (fio's)", 0 },
	{ "ss", 0, OPT_STR, O(steadystate), "iops_slope:0.01%", 0, 0, NULL, "same as --steadystate", OPT_HIDDEN },
	{ "steadystate_duration", 0, OPT_TIME, O(ss_dur), "0", 0, 3600, NULL,
	  "the window --steadystate judges, whole seconds (0: no steady state, fio's default)", 0 },
	{ "ss_dur", 0, OPT_TIME, O(ss_dur), "0", 0, 3600, NULL, "same as --steadystate_duration", OPT_HIDDEN },
	{ "steadystate_ramp_time", 0, OPT_TIME, O(ss_ramp), "0", 0, 86400, NULL,
	  "seconds of measuring before steady state is judged", 0 },
	{ "ss_ramp", 0, OPT_TIME, O(ss_ramp), "0", 0, 86400, NULL, "same as --steadystate_ramp_time", OPT_HIDDEN },
	{ "percentage_sequential", 0, OPT_STR, O(percentage_sequential), NULL, 0, 0,
	  "a percent, or reads,writes: 30,0", "the share of sequential I/Os: 100 - --percentage_random (fio's)",
	  OPT_HIDDEN },
	{ "percentage_random", 0, OPT_STR, O(percentage_random), NULL, 0, 0, "a percent, or reads,writes: 70,100",
	  "of a random job's I/Os, the share at random offsets; the others continue where the last ended "
	  "(fio's; default 100)", 0 },
	{ "random_distribution", 0, OPT_STR, O(random_distribution), NULL, 0, 0,
	  "random, zipf:THETA[:CENTER], pareto:H[:CENTER], normal:DEV[:CENTER], zoned:A/R:..., "
	  "zoned_abs:A/SIZE:...",
	  "random offsets skewed so that some blocks are hot (fio's; see docs/disk.md)", 0 },
	{ "norandommap", 0, OPT_BOOL, O(norandommap), "0", 0, 0, NULL,
	  "random offsets drawn uniformly (default: every block once per pass, as fio)", 0 },
	{ "bs_is_seq_rand", 0, OPT_BOOL, O(bs_is_seq_rand), "0", 0, 0, NULL,
	  "--bs=A,B (or bssplit, bsrange) sizes sequential I/Os by A, random ones by B, whatever their "
	  "direction (fio's)", 0 },
	{ "fadvise_hint", 0, OPT_ENUM, O(fadvise_hint), "1", 0, 0, "0|1|sequential|random",
	  "tell the kernel the job's pattern (fio's; 1: random jobs read without readahead, sequential "
	  "ones with twice the window; 0: no hint)", 0 },
	{ "ioscheduler", 0, OPT_STR, O(ioscheduler), NULL, 0, 0, "one the device offers: none, mq-deadline, bfq, kyber",
	  "the device's I/O scheduler for the run, the previous one put back after (fio's)", 0 },
	{ "invalidate", 0, OPT_BOOL, O(invalidate), "1", 0, 0, NULL,
	  "drop the device's (file's) page cache before each job, as fio", 0 },
	{ "allrandrepeat", 0, OPT_BOOL, O(randrepeat), "1", 0, 0, NULL, "same as --randrepeat", OPT_HIDDEN },
	{ "randrepeat", 0, OPT_BOOL, O(randrepeat), "1", 0, 0, NULL,
	  "the same random sequence every run (0: seeded from the clock, unless --randseed)", 0 },
	{ "cpus_allowed", 0, OPT_STR, O(cpus_allowed), NULL, 0, 0, "CPU numbers and ranges: 0-3,8",
	  "the CPUs the job's threads run on (fio's)", 0 },
	{ "cpumask", 0, OPT_STR, O(cpumask), NULL, 0, 0, "a bit mask of CPUs: 0x3, 12",
	  "the CPUs the job's threads run on, as a mask (fio's; bit i: CPU i)", 0 },
	{ "cpus_allowed_policy", 0, OPT_ENUM, O(cpus_policy), "shared", 0, 0, "shared|split",
	  "shared: every thread on all of them; split: thread i on the i-th alone", 0 },
	{ "thinktime", 0, OPT_STR, O(thinktime), NULL, 0, 0, "a time; a bare number is microseconds (fio's)",
	  "pause this long after --thinktime_blocks I/Os have completed (an application's work)", 0 },
	{ "thinktime_spin", 0, OPT_STR, O(thinktime_spin), NULL, 0, 0, "a time; a bare number is microseconds",
	  "spend this much of each pause busy on the CPU, sleep the rest", 0 },
	{ "read_iolog", 0, OPT_STR, O(read_iolog), NULL, 0, 0, "a file in fio's iolog format (v2 or v3)",
	  "replay the I/Os of the log (fio's; onto --filename, at the log's times unless --replay_no_stall)", 0 },
	{ "write_iolog", 0, OPT_STR, O(write_iolog), NULL, 0, 0, "a file name",
	  "write the I/Os the job issues as fio's iolog (v3), for --read_iolog here or in fio", 0 },
	{ "replay_no_stall", 0, OPT_BOOL, O(replay_no_stall), "0", 0, 0, NULL,
	  "replay the log as fast as it goes, in its order (fio's)", 0 },
	{ "replay_time_scale", 0, OPT_INT, O(replay_time_scale), "100", 1, 100000, NULL,
	  "replay at this percent of the log's rate: 200 twice as fast (fio's)", 0 },
	{ "replay_skip", 0, OPT_ENUM, O(replay_skip), NULL, 0, 0, "read|write|trim|sync",
	  "leave these out of the replay (fio's; sync: syncs and datasyncs)", OPT_LIST },
	{ "replay_align", 0, OPT_SIZE, O(replay_align), "0", 0, 1ull << 30, NULL,
	  "align the log's offsets down to this power of 2 (fio's)", OPT_FIOUNITS },
	{ "replay_scale", 0, OPT_INT, O(replay_scale), "1", 1, 1ll << 40, NULL,
	  "divide the log's offsets by this (fio's)", 0 },
	{ "replay_redirect", 0, OPT_ALIAS, 0, NULL, 0, 0, "filename",
	  "the device the log is replayed onto: here that is --filename (fio's)", OPT_HIDDEN },
	{ "read_iolog_chunked", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's): the log is read whole",
	  OPT_HIDDEN },
	{ "max_latency", 0, OPT_STR, O(max_latency), NULL, 0, 0,
	  "a time (a bare number is microseconds), or reads,writes[,trims]",
	  "an I/O taking longer than this (submit to completion) fails the job with ETIMEDOUT (fio's)", 0 },
	{ "nice", 0, OPT_INT, O(nice), "0", -20, 19, NULL, "the job threads' nice value (fio's)", 0 },
	{ "prioclass", 0, OPT_INT, O(prioclass), "0", 0, 3, NULL,
	  "the job threads' I/O priority class: 1 realtime, 2 best effort, 3 idle (fio's; 0: the default)", 0 },
	{ "prio", 0, OPT_INT, O(prio), "-1", -1, 7, NULL,
	  "the I/O priority level within the class, 0 highest (fio's; alone: best effort)", 0 },
	{ "latency_target", 0, OPT_STR, O(latency_target), NULL, 0, 0, "a time; a bare number is microseconds",
	  "find the deepest queue (up to --iodepth) whose I/Os complete within this (total latency), "
	  "then measure at it (fio's)", 0 },
	{ "latency_window", 0, OPT_STR, O(latency_window), NULL, 0, 0, "a time; a bare number is microseconds",
	  "with --latency_target: each depth is judged over this long (fio's; 0: after every I/O)", 0 },
	{ "latency_percentile", 0, OPT_FLOAT, O(latency_percentile), "100", 0.000001, 100, NULL,
	  "with --latency_target: the percent of a window's I/Os that must meet it (fio's)", 0 },
	{ "latency_run", 0, OPT_BOOL, O(latency_run), "0", 0, 0, NULL,
	  "with --latency_target: keep adjusting the depth until the runtime ends, not stop once found "
	  "(fio's)", 0 },
	{ "thinktime_blocks", 0, OPT_INT, O(thinktime_blocks), "1", 1, 1000000, NULL,
	  "I/Os issued between pauses (each pause waits for them to complete; caps the queue depth)", 0 },
	{ "numa_cpu_nodes", 0, OPT_STR, O(numa_cpu_nodes), NULL, 0, 0, "NUMA nodes: 0,2-3 or all",
	  "the job's threads on those nodes' CPUs (fio's; instead of --cpus_allowed)", 0 },
	{ "numa_mem_policy", 0, OPT_STR, O(numa_mem_policy), NULL, 0, 0,
	  "default, local, prefer:NODE, bind:NODES, interleave:NODES",
	  "the memory policy of the job's threads, their I/O buffers placed by it (fio's)", 0 },
	{ "flow", 0, OPT_INT, O(flow), "0", 0, 1000, NULL,
	  "weight: jobs with the same --flow_id keep their I/O counts in proportion to their weights (fio's)", 0 },
	{ "flow_id", 0, OPT_INT, O(flow_id), "0", 0, 2147483647, NULL, "the group of --flow (fio's; default 0)", 0 },
	{ "flow_sleep", 0, OPT_INT, O(flow_sleep), "0", 0, 10000000, NULL,
	  "microseconds a --flow thread over its share waits (fio's; 0: until its next try)", 0 },
	{ "thinktime_iotime", 0, OPT_STR, O(thinktime_iotime), NULL, 0, 0, "a time; a bare number is seconds (fio's)",
	  "with --thinktime: a pause once this long has gone by since the last one began (fio's: 9s of I/O, 1s of "
	  "pause with =9 and --thinktime=1s); with --thinktime_blocks, whichever comes first", 0 },
	{ "loops", 0, OPT_INT, O(loops), "1", 1, 1000000, NULL,
	  "a size-based job goes over its region this many times, all measured as one", 0 },
	{ "startdelay", 0, OPT_TIME, O(startdelay), "0", 0, 86400, NULL,
	  "wait this long after the group starts before this job begins", 0 },
	{ "buffered", 0, OPT_BOOL, O(buffered), "1", 0, 0, NULL,
	  "through the page cache (fio's; --buffered=0 is --direct=1)", OPT_HIDDEN },
	{ "io_size", 0, OPT_SIZE, O(io_size), "0", 0, 0, NULL,
	  "bytes each thread transfers, over its region as often as needed (fio's; 0: the region "
	  "once, or --loops times)", OPT_FIOUNITS | OPT_ZONES },
	{ "io_limit", 0, OPT_SIZE, O(io_size), "0", 0, 0, NULL, "same as --io_size", OPT_HIDDEN | OPT_FIOUNITS | OPT_ZONES },
	{ "offset_increment", 0, OPT_SIZE, O(offset_increment), "0", 0, 0, NULL,
	  "thread i's region starts i times this after --offset (fio's: threads on separate regions)", OPT_FIOUNITS | OPT_ZONES },
	{ "unlink", 0, OPT_BOOL, O(unlink), "0", 0, 0, NULL,
	  "remove the test file when the run ends (fio's; regular files only, never a device)", 0 },
	{ "exitall_on_error", 0, OPT_BOOL, O(exitall_on_error), "0", 0, 0, NULL,
	  "when a job fails, every job still running stops and none after it starts (fio's)", OPT_NOARG },
	{ "exitall", 0, OPT_BOOL, O(exitall), "0", 0, 0, NULL,
	  "when a thread of this job ends, every job of its group stops (fio's)", 0 },
	{ "write_bw_log", 0, OPT_STR, O(write_log[IOLOG_BW]), NULL, 0, 0, "a file name prefix (none: the job's name)",
	  "fio's bandwidth log, PREFIX_bw.N.log (N: the thread, from 1; see docs/disk.md)", OPT_OPTARG },
	{ "write_iops_log", 0, OPT_STR, O(write_log[IOLOG_IOPS]), NULL, 0, 0,
	  "a file name prefix (none: the job's name)", "fio's IOPS log, PREFIX_iops.N.log", OPT_OPTARG },
	{ "write_lat_log", 0, OPT_STR, O(write_log[IOLOG_LAT]), NULL, 0, 0,
	  "a file name prefix (none: the job's name)",
	  "fio's latency logs, PREFIX_slat.N.log, PREFIX_clat.N.log and PREFIX_lat.N.log", OPT_OPTARG },
	{ "write_hist_log", 0, OPT_STR, O(write_log[IOLOG_HIST]), NULL, 0, 0,
	  "a file name prefix (none: the job's name)",
	  "fio's completion latency histogram log, PREFIX_clat_hist.N.log, a row per --log_hist_msec", OPT_OPTARG },
	{ "log_hist_msec", 0, OPT_INT, O(log_hist_msec), "0", 0, 86400000, NULL,
	  "the histogram log's window, ms", 0 },
	{ "log_hist_coarseness", 0, OPT_INT, O(log_hist_coarseness), "0", 0, 6, NULL,
	  "the histogram log sums 2^this buckets per column (0: fio's 1856)", 0 },
	{ "log_avg_msec", 0, OPT_INT, O(log_avg_msec), "0", 0, 86400000, NULL,
	  "the logs hold each window of this many ms (mean latency, rates) instead of every I/O", 0 },
	{ "log_max_value", 0, OPT_BOOL, O(log_max_value), "0", 0, 0, NULL,
	  "with --log_avg_msec: each window's highest latency, not its mean", 0 },
	{ "log_offset", 0, OPT_BOOL, O(log_offset), "0", 0, 0, NULL, "the logs hold each I/O's offset too", 0 },
	{ "log_unix_epoch", 0, OPT_BOOL, O(log_unix_epoch), "0", 0, 0, NULL,
	  "the logs' time column in ms from the Unix epoch, not from the job's start (fio's)", 0 },
	{ "per_job_logs", 0, OPT_BOOL, O(per_job_logs), "1", 0, 0, NULL,
	  "a log file per thread (0: one per job, its threads one after another)", 0 },
	{ "allow_mounted_write", 0, OPT_BOOL, O(allow_mounted_write), "0", 0, 0, NULL,
	  "accepted as 0 (fio's); writes never go to a mounted device", OPT_HIDDEN },
	{ "buffer_pattern", 0, OPT_STR, O(buffer_pattern), NULL, 0, 0,
	  PATTERN_FORMS,
	  "write this pattern, repeated from each block's start, instead of fresh random data (fio's)", 0 },
	{ "zero_buffers", 0, OPT_BOOL, O(zero_buffers), "0", 0, 0, NULL,
	  "write zeros (default: fresh random data for every write)", 0 },
	{ "refill_buffers", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL,
	  "accepted (fio's): every write's data is fresh anyway", OPT_HIDDEN },
	{ "scramble_buffers", 0, OPT_BOOL, O(ignored), "1", 0, 0, NULL,
	  "accepted (fio's): every write's data is fresh anyway", OPT_HIDDEN },
	{ "rate", 0, OPT_STR, O(rate), NULL, 0, 0, "bytes/s: 10m, or reads,writes: 10m,2m or ,2m",
	  "cap each thread's bandwidth (fio's)", 0 },
	{ "rate_iops", 0, OPT_STR, O(rate_iops), NULL, 0, 0, "I/Os per second: 1000, or reads,writes",
	  "cap each thread's IOPS (fio's): latency at a given load", 0 },
	{ "rate_min", 0, OPT_STR, O(rate_min), NULL, 0, 0, "bytes/s: 10m, or reads,writes[,trims]",
	  "the job fails if a thread moves less than this over a --rate_cycle (fio's)", 0 },
	{ "rate_iops_min", 0, OPT_STR, O(rate_iops_min), NULL, 0, 0, "I/Os per second, or reads,writes[,trims]",
	  "the job fails if a thread does fewer I/Os per second than this over a --rate_cycle (fio's)", 0 },
	{ "ratemin", 0, OPT_ALIAS, 0, NULL, 0, 0, "rate_min", "same as --rate_min (fio's)", OPT_HIDDEN },
	{ "ratecycle", 0, OPT_ALIAS, 0, NULL, 0, 0, "rate_cycle", "same as --rate_cycle (fio's)", OPT_HIDDEN },
	{ "rate_cycle", 0, OPT_INT, O(rate_cycle), "1000", 10, 3600000, NULL,
	  "with --rate_min/--rate_iops_min: the window judged, ms (fio's)", 0 },
	{ "rate_process", 0, OPT_ENUM, O(rate_process), "linear", 0, 0, "linear|poisson",
	  "capped I/Os evenly spaced, or with exponential gaps (Poisson arrivals)", 0 },
	{ "clat_percentiles", 0, OPT_BOOL, O(clat_pcts), "1", 0, 0, NULL,
	  "report completion latency percentiles", 0 },
	{ "lat_percentiles", 0, OPT_BOOL, O(lat_pcts), "0", 0, 0, NULL,
	  "also report total latency (submit + completion) percentiles", 0 },
	{ "slat_percentiles", 0, OPT_BOOL, O(slat_pcts), "0", 0, 0, NULL,
	  "also report submission latency percentiles", 0 },
	{ "percentile_list", 0, OPT_STR, O(percentile_list), NULL, 0, 0, "percents separated by ':'",
	  "the percentiles reported (fio's default: 1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:"
	  "99.95:99.99)", 0 },
	/* fio options a pasted command line carries that change nothing here: assay always
	 * runs jobs as threads, prints no ETA and times every I/O at little cost (gtod_reduce) */
	{ "thread", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect", OPT_HIDDEN },
	{ "stonewall", 0, OPT_BOOL, O(stonewall), "0", 0, 0, NULL,
	  "this job starts after the ones before it have ended (fio's; default: jobs given with "
	  "--name run at once)", OPT_NOARG },
	{ "wait_for_previous", 0, OPT_BOOL, O(stonewall), "0", 0, 0, NULL, "same as --stonewall",
	  OPT_HIDDEN | OPT_NOARG },
	{ "gtod_reduce", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect", OPT_HIDDEN },
	{ "disable_lat", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect: every I/O is timed",
	  OPT_HIDDEN },
	{ "disable_clat", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect", OPT_HIDDEN },
	{ "disable_slat", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect", OPT_HIDDEN },
	{ "disable_bw_measurement", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect",
	  OPT_HIDDEN },
	{ "disable_bw", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect", OPT_HIDDEN },
	{ "terse-version", 0, OPT_ENUM, O(ignored), "3", 0, 0, "3",
	  "accepted (fio's): the terse format is version 3", OPT_HIDDEN },
	{ "timeout", 0, OPT_ALIAS, 0, NULL, 0, 0, "runtime", "same as --runtime (fio's)", OPT_HIDDEN },
	{ "iomem", 0, OPT_ENUM, O(ignored), "malloc", 0, 0, "malloc|shm|shmhuge|mmap|mmaphuge|mmapshared",
	  "accepted (fio's), no effect: I/O buffers are ordinary memory aligned to the page and block size",
	  OPT_HIDDEN },
	{ "mem", 0, OPT_ALIAS, 0, NULL, 0, 0, "iomem", "same as --iomem (fio's)", OPT_HIDDEN },
	{ "mem_align", 0, OPT_ALIAS, 0, NULL, 0, 0, "iomem_align", "same as --iomem_align (fio's)", OPT_HIDDEN },
	{ "iomem_align", 0, OPT_SIZE, O(ignored_size), "0", 0, 4096, NULL,
	  "accepted up to 4k (fio's): I/O buffers are page-aligned anyway", OPT_HIDDEN | OPT_FIOUNITS },
	{ "hugepage-size", 0, OPT_SIZE, O(ignored_size), "0", 0, 1ull << 30, NULL, "accepted (fio's), no effect",
	  OPT_HIDDEN },
	{ "disk_util", 0, OPT_BOOL, O(disk_util), "1", 0, 0, NULL,
	  "report what the device did (fio's disk_util; 0: not)", 0 },
	{ "stats", 0, OPT_ENUM, O(ignored), "1", 0, 0, "1", "accepted (fio's): figures are always kept",
	  OPT_HIDDEN },
	{ "significant_figures", 0, OPT_INT, O(ignored_ll), "4", 1, 10, NULL, "accepted (fio's), no effect",
	  OPT_HIDDEN },
	{ "unit_base", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0|8", "accepted (fio's): figures are in bytes",
	  OPT_HIDDEN },
	{ "io_submit_mode", 0, OPT_ENUM, O(submit_mode), "inline", 0, 0, "inline|offload",
	  "fio's: inline, each job thread does its I/Os; offload, it hands them to --iodepth threads "
	  "of its own (psync, pvsync, pvsync2)", 0 },
	{ "nonvectored", 0, OPT_ENUM, O(ignored), "-1", 0, 0, "-1|1",
	  "accepted (fio's): io_uring reads and writes are non-vectored", OPT_HIDDEN },
	{ "serialize_overlap", 0, OPT_BOOL, O(serialize_overlap), "0", 0, 0, NULL,
	  "an I/O overlapping one in flight waits until that one completes (fio's: no two writes to a block "
	  "at once, e.g. --verify with --norandommap at --iodepth > 1)", 0 },
	{ "atomic", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "zonemode", 0, OPT_ENUM, O(zonemode), "none", 0, 0, "none|strided|zbd",
	  "fio's: strided: --zonesize bytes in a zone of --zonerange, then --zoneskip skipped (given --zonesize: "
	  "strided); zbd: writes at each zone's write pointer, full zones reset, reads below them (a zoned "
	  "device's zones, or --zonesize ones)", 0 },
	{ "zonesize", 0, OPT_SIZE, O(zonesize), "0", 0, 1ull << 62, NULL,
	  "fio's strided zones: the bytes done in a zone before the next; zbd: the zones' size (a zoned device: "
	  "its own)", OPT_FIOUNITS },
	{ "zonecapacity", 0, OPT_SIZE, O(zonecapacity), "0", 0, 1ull << 62, NULL,
	  "zbd, a device that is not zoned: the bytes a zone takes (default --zonesize)", OPT_FIOUNITS },
	{ "read_beyond_wp", 0, OPT_BOOL, O(read_beyond_wp), "0", 0, 0, NULL,
	  "zbd: reads anywhere in a zone, above its write pointer too", 0 },
	{ "max_open_zones", 0, OPT_INT, O(max_open_zones), "0", 0, 4096, NULL,
	  "zbd: zones written at once, on the device (default: a host-managed device's own limit)", 0 },
	{ "job_max_open_zones", 0, OPT_INT, O(job_max_open_zones), "0", 0, 4096, NULL,
	  "zbd: zones written at once by one thread", 0 },
	{ "ignore_zone_limits", 0, OPT_BOOL, O(ignore_zone_limits), "0", 0, 0, NULL,
	  "zbd: the device's own limit on open zones not applied", 0 },
	{ "zone_reset_threshold", 0, OPT_FLOAT, O(zrt), "0", 0, 1, NULL,
	  "zbd: with this share of the region written, --zone_reset_frequency applies", 0 },
	{ "zone_reset_frequency", 0, OPT_FLOAT, O(zrf), "0", 0, 1, NULL,
	  "zbd: past the threshold, every 1/this-th write resets its zone first", 0 },
	{ "zonerange", 0, OPT_SIZE, O(zonerange), "0", 0, 1ull << 62, NULL,
	  "fio's strided zones: a zone's size (default: --zonesize)", OPT_FIOUNITS },
	{ "zoneskip", 0, OPT_SIZE, O(zoneskip), "0", 0, 1ull << 62, NULL,
	  "fio's strided zones: the bytes skipped after a zone", OPT_FIOUNITS | OPT_ZONES },
	{ "uncached", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "pre_read", 0, OPT_BOOL, O(pre_read), "0", 0, 0, NULL,
	  "read the job's region into the page cache before it starts, --invalidate off (fio's)", 0 },
	{ "fill_device", 0, OPT_BOOL, O(fill_device), "0", 0, 0, NULL,
	  "the region runs to the device's end whatever --size says (fio's; a block device: a file is "
	  "not grown to fill its file system)", 0 },
	{ "parse-only", 0, OPT_BOOL, O(parse_only), "0", 0, 0, NULL,
	  "check the options, job file and each job against its device (no file laid out, nothing "
	  "opened for writing), run nothing (fio's)", OPT_NOARG },
	{ "showcmd", 0, OPT_BOOL, O(showcmd), "0", 0, 0, NULL,
	  "print the job file (and the options given with it) as one assay disk command line, run "
	  "nothing (fio's)", OPT_NOARG },
	{ "fill_fs", 0, OPT_ALIAS, 0, NULL, 0, 0, "fill_device", "same as --fill_device", OPT_HIDDEN },
	{ "offset_align", 0, OPT_SIZE, O(offset_align), "0", 0, 0, NULL,
	  "a percentage --offset is aligned up to this (fio's; 0: to the block size)", OPT_FIOUNITS },
	{ "verify_async", 0, OPT_INT, O(ignored_ll), "0", 0, 1024, NULL,
	  "accepted (fio's), no effect: the read-back runs after the job, not beside it", OPT_HIDDEN },
	{ "verify_state_save", 0, OPT_BOOL, O(ignored), "1", 0, 0, NULL,
	  "accepted (fio's), no effect: --verify_only re-derives the blocks from --randseed", OPT_HIDDEN },
	{ "verifysort", 0, OPT_BOOL, O(ignored), "1", 0, 0, NULL, "accepted (fio's, deprecated there), no effect",
	  OPT_HIDDEN },
	{ "aux-path", 0, OPT_STR, O(aux_path), NULL, 0, 0, NULL,
	  "where --verify_dump's files go (fio's; no state files are written)", OPT_HIDDEN },
	{ "max-jobs", 0, OPT_INT, O(ignored_ll), "0", 0, 1 << 20, NULL, "accepted (fio's), no effect", OPT_HIDDEN },
	{ "write_hint", 0, OPT_ENUM, O(write_hint), "default", 0, 0, "default|none|short|medium|long|extreme",
	  "the writes' expected lifetime, told to the kernel for the job (fcntl F_SET_RW_HINT on the "
	  "target, the old hint put back after; fio's; default: not set)", 0 },
	{ "create_on_open", 0, OPT_BOOL, O(create_on_open), "0", 0, 0, NULL,
	  "1: a file to be laid out is made empty instead (mode 0600), its writes extending it (fio's)", OPT_HIDDEN },
	{ "create_only", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "create_fsync", 0, OPT_ENUM, O(ignored), "1", 0, 0, "1",
	  "accepted as 1 (fio's default: a laid out file is synced)", OPT_HIDDEN },
	{ "file_append", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "unlink_each_loop", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "unique_filename", 0, OPT_ENUM, O(ignored), "1", 0, 0, "1", "accepted as 1 (fio's default)", OPT_HIDDEN },
	{ "lockfile", 0, OPT_ENUM, O(ignored), "none", 0, 0, "none", "accepted as none (fio's default)", OPT_HIDDEN },
	{ "wait_for", 0, OPT_STR, O(wait_for), NULL, 0, 0, "the name of a job before this one",
	  "start once that job has ended (fio's; the group's other jobs still start at once)", 0 },
	{ "exit_what", 0, OPT_ENUM, O(exit_what), "group", 0, 0, "group|stonewall|all",
	  "what --exitall stops (fio's): group and stonewall, the jobs running with it (a group here runs "
	  "up to the next --stonewall); all, the jobs after them too", 0 },
	{ "allow_file_create", 0, OPT_BOOL, O(allow_file_create), "1", 0, 0, NULL,
	  "0: a file that does not exist is an error, never laid out (fio's)", OPT_HIDDEN },
	{ "log_compression", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "log_store_compressed", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)",
	  OPT_HIDDEN },
	{ "log_alternate_epoch", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "log_prio", 0, OPT_BOOL, O(log_prio), "0", 0, 0, NULL,
	  "the logs' last column is the I/O priority (0x%04x: class << 13 | level; fio's; default: 1 for "
	  "realtime, else 0)", 0 },
	{ "verify_dump", 0, OPT_BOOL, O(verify_dump), "0", 0, 0, NULL,
	  "with --verify: each bad block as read back into FILE.OFFSET.received (fio's; pattern: .expected too)", 0 },
	{ "verify_state_load", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "softrandommap", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "thinktime_blocks_type", 0, OPT_ENUM, O(think_issue), "complete", 0, 0, "complete|issue",
	  "fio's: --thinktime_blocks counts the I/Os completed (default) or those issued", 0 },
	{ "rate_ignore_thinktime", 0, OPT_BOOL, O(rate_ign_think), "0", 0, 0, NULL,
	  "fio's: after a --thinktime pause the --rate/--rate_iops schedule goes on from there instead of "
	  "catching up the I/Os the pause missed", 0 },
	{ "dedupe_mode", 0, OPT_ENUM, O(dedupe_mode), "repeat", 0, 0, "repeat|working_set",
	  "fio's: --dedupe_percentage's writes repeat one block (repeat), or each one of a working set of "
	  "--dedupe_working_set_percentage of the region (working_set)", 0 },
	{ "dedupe_working_set_percentage", 0, OPT_INT, O(dedupe_ws_pct), "5", 0, 100, NULL,
	  "fio's: with --dedupe_mode=working_set, the working set's size, a percent of the region", 0 },
	{ "dedupe_global", 0, OPT_BOOL, O(dedupe_global), "0", 0, 0, NULL,
	  "fio's: jobs with it share one working set (their blocks deduplicate across jobs)", 0 },
	{ "block_error_percentiles", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)",
	  OPT_HIDDEN },
	{ "blocksize_unaligned", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "bs_unaligned", 0, OPT_ALIAS, 0, NULL, 0, 0, "blocksize_unaligned", "same", OPT_HIDDEN },
	{ "log_entries", 0, OPT_INT, O(ignored_ll), "1024", 1, 1 << 30, NULL,
	  "accepted (fio's), no effect: logs grow as needed", OPT_HIDDEN },
	{ "gtod_cpu", 0, OPT_INT, O(ignored_ll), "0", 0, 4096, NULL,
	  "accepted (fio's), no effect: each thread reads the clock itself", OPT_HIDDEN },
	{ "verify_async_cpus", 0, OPT_STR, O(ignored_str), NULL, 0, 0, NULL, "accepted (fio's), no effect",
	  OPT_HIDDEN },
	{ "verifysort_nr", 0, OPT_INT, O(ignored_ll), "0", 0, 1 << 30, NULL,
	  "accepted (fio's, deprecated there), no effect", OPT_HIDDEN },
	{ "rwmixcycle", 0, OPT_INT, O(ignored_ll), "0", 0, 1 << 30, NULL,
	  "accepted (fio's, deprecated there), no effect", OPT_HIDDEN },
	{ "write_barrier", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "lockmem", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)", OPT_HIDDEN },
	{ "trim_percentage", 0, OPT_INT, O(trim_pct), "0", 0, 100, NULL,
	  "with --verify: this percent of the blocks written are discarded before the read-back, which "
	  "expects zeros from them (fio's; whether the device's discards read back as zeros)", 0 },
	{ "trim_verify_zero", 0, OPT_BOOL, O(trim_zero), "1", 0, 0, NULL,
	  "--trim_percentage's discarded blocks are to read back as zeros (0: not checked; fio's)", 0 },
	{ "trim_backlog", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0",
	  "accepted as 0: --trim_percentage's discards go before each read-back", OPT_HIDDEN },
	{ "trim_backlog_batch", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0",
	  "accepted as 0: --trim_percentage's discards go before each read-back", OPT_HIDDEN },
	{ "experimental_verify", 0, OPT_ENUM, O(ignored), "0", 0, 0, "0", "accepted as 0 (fio's default)",
	  OPT_HIDDEN },
	{ "kb_base", 0, OPT_ENUM, O(kb_base), "1024", 0, 0, "1024|1000",
	  "fio's: 1024 (its default) reads 4k as 4096 and 4KiB as 4000 (sic, as fio); 1000 reads 4k as 4000 "
	  "and 4KiB as 4096", 0 },
	{ "random_generator", 0, OPT_ENUM, O(ignored), "tausworthe", 0, 0, "tausworthe|lfsr|tausworthe64",
	  "accepted (fio's), no effect: assay's own generator (offsets differ from fio's anyway)", OPT_HIDDEN },
	{ "file_service_type", 0, OPT_STR, O(fst), "roundrobin", 0, 0, "roundrobin[:N]|sequential|random[:N]",
	  "fio's: with several files in a job (--filename=a:b), the next I/O's file: each in turn (N I/Os "
	  "each), one after the other (a pass over each), or one drawn at random (for N I/Os)", 0 },
	{ "nr_files", 0, OPT_ALIAS, 0, NULL, 0, 0, "nrfiles", "same as --nrfiles", OPT_HIDDEN },
	{ "nrfiles", 0, OPT_INT, O(nrfiles), "1", 1, 1000000, NULL,
	  "fio's: the job's number of files, as --filename=a:b names them (1 with one name)", OPT_HIDDEN },
	{ "readonly", 0, OPT_BOOL, O(readonly_flag), "0", 0, 0, NULL,
	  "fio's: no writes (assay's default --mode=readonly; refuses another --mode)", OPT_HIDDEN | OPT_NOARG },
	{ "new_group", 0, OPT_BOOL, O(new_group), "0", 0, 0, NULL,
	  "this job starts a new reporting group (fio's groupid; --group_reporting sums each apart) but runs "
	  "with the others (--stonewall also waits)", OPT_NOARG },
	/* how fio makes a test file (ours is written with random data whatever they say) */
	{ "fallocate", 0, OPT_ENUM, O(ignored), "native", 0, 0, "none|native|posix|keep|truncate|0|1",
	  "accepted (fio's), no effect", OPT_HIDDEN },
	{ "create_serialize", 0, OPT_BOOL, O(ignored), "1", 0, 0, NULL, "accepted (fio's), no effect",
	  OPT_HIDDEN },
	{ "overwrite", 0, OPT_BOOL, O(ignored), "0", 0, 0, NULL, "accepted (fio's), no effect", OPT_HIDDEN },
	{ "clocksource", 0, OPT_ENUM, O(ignored), "clock_gettime", 0, 0, "gettimeofday|clock_gettime|cpu",
	  "accepted (fio's), no effect: the clock is always CLOCK_MONOTONIC", OPT_HIDDEN },
	{ "description", 0, OPT_STR, O(description), NULL, 0, 0, NULL, "a job's description (fio's JSON desc)",
	  OPT_HIDDEN },
	{ "status-interval", 0, OPT_TIME, O(status_interval), "0", 0, 86400, NULL,
	  "print the report so far every this long, in the run's formats (fio's; 0: never)", 0 },
	{ "eta", 0, OPT_ENUM, O(eta), "auto", 0, 0, "auto|always|never",
	  "fio's progress line on stderr each second (auto: when it is a terminal)", 0 },
	{ "threads", 0, OPT_INT, O(ignored_ll), "0", 0, 1 << 20, NULL,
	  "accepted, no effect (fio takes it everywhere: its tiobench profile's option; two of its example "
	  "job files set it)", OPT_HIDDEN },
	{ "eta-interval", 0, OPT_STR, O(ignored_str), NULL, 0, 0, NULL,
	  "accepted (fio's), no effect: the ETA line is redrawn every second", OPT_HIDDEN },
	{ "alloc-size", 0, OPT_SIZE, O(ignored_size), "0", 0, 0, NULL,
	  "accepted (fio's), no effect: no shared memory pool", OPT_HIDDEN },
	{ "eta-newline", 0, OPT_TIME, O(ignored_time), "0", 0, 86400, NULL, "accepted (fio's), no effect",
	  OPT_HIDDEN },
	{ "verify", 0, OPT_ENUM, O(verify), "0", 0, 0, VERIFY_CHOICES,
	  "every block written carries a header with this checksum of it (meta: the header alone; "
	  "pattern: --verify_pattern, no header), read back when the job ends (fio's; needs --mode=destroy)", 0 },
	{ "verify_pattern", 0, OPT_STR, O(verify_pattern), NULL, 0, 0,
	  PATTERN_FORMS,
	  "the data written, repeated from each block's start: with --verify=pattern the whole block is "
	  "checked against it (alone it means --verify=pattern; fio's)", 0 },
	{ "verify_fatal", 0, OPT_BOOL, O(verify_fatal), "0", 0, 0, NULL,
	  "stop the read-back at the first bad block (fio's; default: count them all)", 0 },
	{ "verify_backlog", 0, OPT_INT, O(verify_backlog), "0", 0, 1ll << 30, NULL,
	  "with --verify: after every N writes, read back and check what they wrote, then write on (fio's; "
	  "0: only when the job ends)", 0 },
	{ "verify_backlog_batch", 0, OPT_INT, O(verify_backlog_batch), "0", 0, 1ll << 30, NULL,
	  "with --verify_backlog: how many of those blocks each check reads back (fio's; 0: all of them)", 0 },
	{ "verify_interval", 0, OPT_SIZE, O(verify_interval), "0", 0, 1ull << 30, NULL,
	  "with --verify: a header for every chunk this big instead of every --bs block (it divides --bs; fio's)", 0 },
	{ "verify_offset", 0, OPT_SIZE, O(verify_offset), "0", 0, 1ull << 30, NULL,
	  "with --verify: the header this far into each block (swapped with the data there; fio's)", 0 },
	{ "do_verify", 0, OPT_BOOL, O(do_verify), "1", 0, 0, NULL,
	  "with --verify: read back and check when the job ends (0: only write the headers)", 0 },
	{ "verify_only", 0, OPT_BOOL, O(verify_only), "0", 0, 0, NULL,
	  "no workload: check the region as an earlier --verify run (same --randseed) left it", 0 },
	{ "continue_on_error", 0, OPT_ENUM, O(continue_on_error), "none", 0, 0,
	  "none|read|write|io|verify|all|0|1",
	  "go on after an I/O error (EIO, or a bad block on --verify) of these kinds, counting it "
	  "(fio's; io: read and write, 1: all)", 0 },
	{ "ignore_error", 0, OPT_STR, O(ignore_error), NULL, 0, 0,
	  "READS:WRITES:VERIFY, each a comma list of errno names or numbers: EIO,ENODATA:ENOSPC",
	  "the errors --continue_on_error goes on after, per kind (fio's; default EIO and EILSEQ)", 0 },
	{ "error_dump", 0, OPT_BOOL, O(error_dump), "0", 0, 0, NULL,
	  "print each error the job goes on after (fio's)", 0 },
	{ "io-timeout", 0, OPT_TIME, O(io_timeout), "30", 0.1, 3600, NULL,
	  "no completion for this long: the device stalled, the job fails", 0 },
	{ "spin", 0, OPT_FLOAT, O(spin_us), "0", 0, 10000, NULL,
	  "at iodepth 1, microseconds to spin for a completion before sleeping (0: never)", 0 },
	{ "mode", 0, OPT_ENUM, O(mode), "readonly", 0, 0, MODE_CHOICES,
	  "readonly: writes skipped; rewrite: write back what was just read; destroy: random data", 0 },
	{ "force", 0, OPT_BOOL, O(force), "0", 0, 0, NULL,
	  "destroy even a device holding a partition table or filesystem", 0 },
	{ "expect-serial", 0, OPT_STR, O(expect_serial), NULL, 0, 0, NULL,
	  "refuse to write unless the device has this serial", 0 },
	{ "expect-size", 0, OPT_SIZE, O(expect_size), "0", 0, 0, NULL,
	  "refuse to write unless the device has exactly this size", 0 },
	{ "repeat", 0, OPT_INT, O(repeat), "1", 1, 100, NULL,
	  "run everything N times: mean, stddev and 95% confidence interval", 0 },
	{ "list", 0, OPT_BOOL, O(list), "0", 0, 0, NULL, "list the disks found and exit", OPT_NOARG },
	{ "include-virtual", 0, OPT_BOOL, O(include_virtual), "0", 0, 0, NULL,
	  "--list also loop, ram, zram, dm, md, nbd devices", OPT_NOARG },
	{ "force-io_uring-error", 0, OPT_INT, O(force_uring_errno), "0", 0, 4095, NULL,
	  "test knob: io_uring setup fails with this errno", OPT_HIDDEN },
	OPT_END,
};
#undef O

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

static const struct profile {
	const char *name;
	const char *what;
	struct pjob j[3];
	int explicit_only;      /* not in "all": only when named */
} profiles[] = {
	{ "seq", "1 MiB sequential write, buffered, fdatasync at the end counted (dd bs=1M "
		 "count=1024 conv=fdatasync), then 1 MiB O_DIRECT sequential read (dd iflag=direct)",
	  { { "write", RW_WRITE, 1 << 20, 1, 1, 0, 0, 1, 1ull << 30, 0, 0, 0, 0 },
	    { "read", RW_READ, 1 << 20, 1, 1, 0, 1, 0, 1ull << 30, 0, 0, 0, 0 } }, 0 },
	{ "qd1", "4k random read, iodepth 1, O_DIRECT",
	  { { "", RW_RANDREAD, 4096, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0 } }, 0 },
	{ "qd8", "4k random read, iodepth 8, O_DIRECT",
	  { { "", RW_RANDREAD, 4096, 8, 1, 0, 1, 0, 0, 1, 0, 0, 0 } }, 0 },
	{ "randrw64", "4k random 75% read / 25% write, iodepth 64, O_DIRECT (Linode's support test)",
	  { { "", RW_RANDRW, 4096, 64, 1, 75, 1, 0, 0, 1, 0, 0, 0 } }, 0 },
	{ "randwrite4", "4k random write, iodepth 1, 4 jobs, O_DIRECT",
	  { { "", RW_RANDWRITE, 4096, 1, 4, 0, 1, 0, 0, 1, 0, 0, 0 } }, 0 },
	{ "randread16x4", "4k random read, iodepth 16, 4 jobs, O_DIRECT",
	  { { "", RW_RANDREAD, 4096, 16, 4, 0, 1, 0, 0, 1, 0, 0, 0 } }, 0 },
	{ "latency", "ioping-style requests at QD1, first one not counted: 4k random uncached "
		     "(O_DIRECT), 4k cached (a 1 MiB region read through the page cache), 256k sequential",
	  { { "uncached", RW_RANDREAD, 4096, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0 },
	    { "cached", RW_READ, 4096, 1, 1, 0, 0, 0, 1 << 20, 1, 256, 0, 0 },
	    { "seq", RW_READ, 256 << 10, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0 } }, 0 },
	{ "scan", "a surface scan (badblocks' read test): the whole device read once, 1 MiB O_DIRECT "
		  "reads at iodepth 4, going on after read errors and listing them; as long as the disk "
		  "takes (not in 'all')",
	  { { "", RW_READ, 1 << 20, 4, 1, 0, 1, 0, 0, 0, 0, 1 << COE_READ, 0 } }, 1 },
	{ "scanwrite", "a surface write test (badblocks -w, or -n in rewrite mode): the whole device "
		       "written once with 1 MiB O_DIRECT writes at iodepth 4, each block carrying a CRC-32C "
		       "header read back and checked when the pass ends (destroy mode; rewrite mode writes back "
		       "what it read, unchecked); going on after errors, listing them (not in 'all')",
	  { { "", RW_WRITE, 1 << 20, 4, 1, 0, 1, 0, 0, 0, 0, (1 << COE_N) - 1, 1 } }, 1 },
};
#define NPROFILES (sizeof profiles / sizeof profiles[0])
#define PROFILE_RUNTIME 10.0
#define MAX_JOBS 64

static const struct profile *find_profile(const char *n, size_t l)
{
	for (size_t i = 0; i < NPROFILES; i++)
		if (strlen(profiles[i].name) == l && !strncmp(profiles[i].name, n, l))
			return &profiles[i];
	return NULL;
}

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

/* region size from --size (bytes or N%), the profile's cap and the device */
/* fio's offset: bytes, or a percentage of of (the target's size) aligned up to align (the
 * job's block size); 0, or -1 with why */
static int parse_offset(const char *v, uint64_t of, uint64_t align, uint64_t *off, char *err, size_t n)
{
	size_t l = strlen(v);
	unsigned long long x;
	if (l > 1 && v[l - 1] == '%') {
		char num[32], *end;
		double pct;
		snprintf(num, sizeof num, "%.*s", (int)(l - 1), v);
		pct = strtod(num, &end);
		if (*end || l - 1 >= sizeof num || !(pct >= 0 && pct < 100)) {
			snprintf(err, n, "--offset=%s: a percentage must be in [0,100)%%", v);
			return -1;
		}
		*off = (uint64_t)((double)of * pct / 100.0);
		if (align && *off % align)
			*off += align - *off % align;   /* fio's: up to the block size */
		return 0;
	}
	if (parse_size_fio(v, &x)) {
		snprintf(err, n, "--offset=%s: not a size (bytes with k/m/g/t suffix) or a percentage (50%%)", v);
		return -1;
	}
	*off = x;
	return 0;
}

/* the end of an error about a region past a file's end: what fio would do (lay_out_file) */
static const char *extend_hint(const struct disk_cfg *c, const struct blkdev *d)
{
	return d->is_file && c->mode != MODE_DESTROY ? "; fio extends a file that short, assay with --mode=destroy" : "";
}

static int region(const struct disk_cfg *c, const struct blkdev *d, uint64_t offset, uint64_t cap, uint64_t bs,
		  uint64_t *size, char *err, size_t n)
{
	/* /dev/null, /dev/zero: no end, the region is --size bytes (fio: "you need to specify size=") */
	uint64_t avail, want, dev_end = d->is_null ? 1ull << 62 : d->size;
	if (d->is_null && (!c->size || c->size[strlen(c->size) - 1] == '%' || c->fill_device)) {
		snprintf(err, n, "%s has no size: give --size in bytes (not a percentage, not --fill_device)", d->path);
		return -1;
	}
	if (offset >= dev_end) {
		snprintf(err, n, "--offset=%s is beyond the end of %s (%llu bytes)", c->offset_s, d->path,
			 (unsigned long long)dev_end);
		return -1;
	}
	avail = dev_end - offset;
	if (c->size && !c->fill_device) {
		size_t l = strlen(c->size);
		unsigned long long v;
		if (l > 1 && c->size[l - 1] == '%') {
			char num[32];
			char *end;
			double pct;
			snprintf(num, sizeof num, "%.*s", (int)(l - 1), c->size);
			pct = strtod(num, &end);
			if (*end || pct <= 0 || pct > 100) {
				snprintf(err, n, "--size=%s: a percentage must be in (0,100]%%", c->size);
				return -1;
			}
			/* fio's: a share of the whole device, as far as the end from --offset */
			want = (uint64_t)((double)d->size * pct / 100.0);
			if (want > avail)
				want = avail;
		} else if (parse_size_fio(c->size, &v) || v == 0) {
			snprintf(err, n, "--size=%s: not a size; accepted: bytes with k/m/g/t suffix, or N%%",
				 c->size);
			return -1;
		} else {
			want = v;
			if (want > avail) {
				snprintf(err, n, "--size=%s: beyond the end of %s (%llu bytes from offset %llu)%s",
					 c->size, d->path, (unsigned long long)avail, (unsigned long long)offset,
					 extend_hint(c, d));
				return -1;
			}
		}
	} else {
		want = avail;
		if (cap && cap < want)
			want = cap;
	}
	want -= want % bs;
	if (want < bs) {
		snprintf(err, n, "the region (%llu bytes) is smaller than one block (--bs=%llu)",
			 (unsigned long long)want, (unsigned long long)bs);
		return -1;
	}
	*size = want;
	return 0;
}


/* fio's --rate_iops (out: the gap between two issues, ns) and --rate (out: bytes/s), per
 * direction; 0 where a direction is not capped */
static int parse_rate(const char *opt, const char *v, int iops, uint64_t out[DDIR_N], char *err, size_t n)
{
	for (int d = 0; d < DDIR_N; d++) {
		char part[64];
		unsigned long long x = 0;
		long long i = 0;
		const char *from;
		size_t l;
		out[d] = 0;
		if (opt_dir_part(v, d, &from, &l) || l >= sizeof part) {
			snprintf(err, n, "--%s=%s: give one value, or reads,writes[,trims]", opt, v);
			return -1;
		}
		memcpy(part, from, l);
		part[l] = 0;
		if (!*part)
			continue;
		if (iops ? parse_int(part, &i) || i < 1 || i > 100000000 : parse_size_fio(part, &x) || x < 1) {
			snprintf(err, n, "--%s=%s: '%s' is not %s", opt, v, part,
				 iops ? "a number of I/Os per second (1..100000000)" : "a rate in bytes/s (10m, 500k)");
			return -1;
		}
		out[d] = iops ? (uint64_t)(1e9 / (double)i) : x;
		if (!out[d])
			out[d] = 1;
	}
	return 0;
}

/* one block size of --bssplit/--bsrange */
static int parse_bs1(const char *opt, const char *all, const char *v, size_t l, uint64_t *bs, char *err,
		     size_t n)
{
	char b[32];
	unsigned long long x;
	snprintf(b, sizeof b, "%.*s", (int)(l < sizeof b - 1 ? l : sizeof b - 1), v);
	if (l >= sizeof b || parse_size_fio(b, &x) || x < 512 || x > (64 << 20) || x % 512) {
		snprintf(err, n, "--%s=%s: '%.*s' is not a block size (512 to 64m, a multiple of 512)", opt, all,
			 (int)l, v);
		return -1;
	}
	*bs = x;
	return 0;
}

/* fio's --bssplit=4k/50:64k/30:1m/20 (a blank percent shares what is left evenly) and
 * --bsrange=4k-64k, each "reads,writes" or one for both; fills the job's sizes and sets
 * bs to the smallest, bs_max to the largest */
static int parse_var_bs(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *opt = c->bssplit ? "bssplit" : "bsrange", *v = c->bssplit ? c->bssplit : c->bsrange;
	uint64_t lo = UINT64_MAX, hi = 0;
	if (c->bssplit && c->bsrange) {
		snprintf(err, n, "--bssplit and --bsrange: give one or the other");
		return -1;
	}
	for (int d = 0; d < DDIR_N; d++) {
		const char *p, *e;
		size_t l;
		if (opt_dir_part(v, d, &p, &l)) {
			snprintf(err, n, "--%s=%s: give one for all directions, or reads,writes[,trims]", opt, v);
			return -1;
		}
		e = p + l;
		if (p == e) {       /* ",64k/100": this direction keeps --bs */
			j->nsplit[d] = 1;
			j->split_bs[d][0] = j->bs;
			j->split_cum[d][0] = 100;
			lo = j->bs < lo ? j->bs : lo;
			hi = j->bs > hi ? j->bs : hi;
			continue;
		}
		if (c->bsrange) {
			const char *dash = memchr(p, '-', (size_t)(e - p));
			if (!dash || parse_bs1(opt, v, p, (size_t)(dash - p), &j->range_lo[d], err, n) ||
			    parse_bs1(opt, v, dash + 1, (size_t)(e - dash - 1), &j->range_hi[d], err, n)) {
				if (!dash)
					snprintf(err, n, "--bsrange=%s: give min-max, e.g. 4k-64k", v);
				return -1;
			}
			if (j->range_lo[d] > j->range_hi[d]) {
				snprintf(err, n, "--bsrange=%s: the minimum is above the maximum", v);
				return -1;
			}
			lo = j->range_lo[d] < lo ? j->range_lo[d] : lo;
			hi = j->range_hi[d] > hi ? j->range_hi[d] : hi;
			continue;
		}
		{
			unsigned given = 0, blanks = 0, pct[MAX_BSSPLIT];
			int k = 0;
			for (const char *q = p; q < e; k++) {
				const char *colon = memchr(q, ':', (size_t)(e - q)), *qe = colon ? colon : e;
				const char *slash = memchr(q, '/', (size_t)(qe - q));
				if (k == MAX_BSSPLIT) {
					snprintf(err, n, "--bssplit=%s: more than %d sizes", v, MAX_BSSPLIT);
					return -1;
				}
				if (parse_bs1(opt, v, q, (size_t)((slash ? slash : qe) - q), &j->split_bs[d][k], err, n))
					return -1;
				pct[k] = UINT_MAX;
				if (slash && slash + 1 < qe) {
					char b[8];
					long long x;
					snprintf(b, sizeof b, "%.*s", (int)(qe - slash - 1 < 7 ? qe - slash - 1 : 7), slash + 1);
					if (qe - slash - 1 > 3 || parse_int(b, &x) || x < 0 || x > 100) {
						snprintf(err, n, "--bssplit=%s: '%.*s' is not a percent (0-100)", v,
							 (int)(qe - slash - 1), slash + 1);
						return -1;
					}
					pct[k] = (unsigned)x;
					given += (unsigned)x;
				} else {
					blanks++;
				}
				lo = j->split_bs[d][k] < lo ? j->split_bs[d][k] : lo;
				hi = j->split_bs[d][k] > hi ? j->split_bs[d][k] : hi;
				q = colon ? colon + 1 : e;
			}
			if (given > 100 || (!blanks && given != 100)) {
				snprintf(err, n, "--bssplit=%s: the percents add up to %u, not 100", v, given);
				return -1;
			}
			for (int i = 0, cum = 0, b = 0; i < k; i++) {
				/* the blanks share what is left, the last one the rounding */
				unsigned share = pct[i] != UINT_MAX ? pct[i]
					: ++b == (int)blanks ? 100 - given - (blanks - 1) * ((100 - given) / blanks)
							     : (100 - given) / blanks;
				cum += (int)share;
				j->split_cum[d][i] = (unsigned)cum;
			}
			j->nsplit[d] = k;
		}
	}
	j->bs = lo;
	j->bs_max = hi;
	j->var_bs = 1;
	snprintf(j->bs_desc, sizeof j->bs_desc, "%s", v);
	return 0;
}

/* a number in [lo, hi] (lo itself allowed when lo_ok) */
static int dist_num(const char *v, size_t l, double lo, double hi, int lo_ok, double *out)
{
	char b[64], *end;
	if (!l || l >= sizeof b)
		return -1;
	memcpy(b, v, l);
	b[l] = 0;
	*out = strtod(b, &end);
	return *end || !isfinite(*out) || *out < lo || (*out == lo && !lo_ok) || *out > hi ? -1 : 0;
}

/* fio's random_distribution (one for reads and writes): random, zipf:theta[:center],
 * pareto:h[:center], normal:dev[:center], zoned:acc/range%:..., zoned_abs:acc/size:... */
static int parse_dist(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *v = c->random_distribution, *a;
	static const char *const names[] = { "random", "zipf", "pareto", "normal", "zoned", "zoned_abs" };
	size_t l = strcspn(v, ":");
	int k;
	j->dist = DIST_RANDOM;
	j->dist_center = -1;
	snprintf(j->dist_desc, sizeof j->dist_desc, "%s", v);
	for (k = 0; k < 6 && (strlen(names[k]) != l || strncmp(v, names[k], l)); k++)
		;
	if (k == 6 || strchr(v, ',')) {
		snprintf(err, n, "--random_distribution=%s: %s; accepted: random, zipf:THETA[:CENTER], pareto:H[:CENTER], "
			 "normal:DEV[:CENTER], zoned:ACCESS%%/RANGE%%:..., zoned_abs:ACCESS%%/SIZE:... (one for reads "
			 "and writes)", v, k == 6 ? "unknown distribution" : "one distribution, not a list");
		return -1;
	}
	a = v + l + (v[l] == ':');
	if (k == 0) {
		if (*a)
			goto bad;
		return 0;
	}
	if (!rw_is_random(j->rw)) {
		snprintf(err, n, "--random_distribution=%s: for random I/O (--rw=randread, randwrite or randrw)", v);
		return -1;
	}
	if (k <= 3) {
		size_t l1 = strcspn(a, ":");
		static const double lo[] = { 0, 0, 0, 0 }, hi[] = { 0, 100, 1, 100 };
		j->dist = k;
		if (dist_num(a, l1, lo[k], hi[k], 0, &j->dist_arg) || (k == 2 && j->dist_arg >= 1))
			goto bad;
		if (a[l1] && dist_num(a + l1 + 1, strlen(a + l1 + 1), 0, 1, 1, &j->dist_center))
			goto bad;
		return 0;
	}
	/* zones: ACCESS/RANGE pairs; the accesses add up to 100, the ranges to at most 100%
	 * (zoned: the rest of the region is not read, as fio) or to at most the region
	 * (zoned_abs), and a zone with accesses holds a block.  As fio's, a range left out
	 * ("20/") shares what the others leave, in whole percents, and an access left out is
	 * what the others leave (0: they must make 100) */
	j->dist = DIST_ZONED;
	j->zone_abs = k == 5;
	{
		double pcts[MAX_ZONES], lens[MAX_ZONES], end = 0, prev_blk = 0, nb = (double)(job_fsize(j, 0) / j->bs);
		double pgiven = 0, lgiven = 0;
		int nz = 0, pmiss = 0, lmiss = 0;
		unsigned acc = 0;
		for (const char *z = a; *z; nz++) {
			size_t zl = strcspn(z, ":"), sl = strcspn(z, "/");
			if (nz == MAX_ZONES || sl >= zl)
				goto bad;
			pcts[nz] = lens[nz] = -1;
			if (sl && (dist_num(z, sl, 0, 100, 1, &pcts[nz]) || pcts[nz] != floor(pcts[nz])))
				goto bad;
			if (zl - sl - 1 && j->zone_abs) {
				char b[64];
				unsigned long long sz;
				if (zl - sl - 1 >= sizeof b)
					goto bad;
				memcpy(b, z + sl + 1, zl - sl - 1);
				b[zl - sl - 1] = 0;
				if (parse_size_fio(b, &sz))
					goto bad;
				lens[nz] = (double)sz;
			} else if (zl - sl - 1 && dist_num(z + sl + 1, zl - sl - 1, 0, 100, 1, &lens[nz])) {
				goto bad;
			}
			if ((pcts[nz] < 0 && lens[nz] < 0) || (j->zone_abs && lens[nz] < 0))
				goto bad;    /* "/": nothing said; zoned_abs: a size for each */
			pmiss += pcts[nz] < 0;
			lmiss += lens[nz] < 0;
			pgiven += pcts[nz] < 0 ? 0 : pcts[nz];
			lgiven += lens[nz] < 0 ? 0 : lens[nz];
			z += zl + (z[zl] == ':');
		}
		for (int i = 0; i < nz; i++) {
			if (pcts[i] < 0)
				pcts[i] = pgiven >= 100 ? 0 : floor((100 - pgiven) / pmiss);
			if (lens[i] < 0)
				lens[i] = lgiven >= 100 ? 0 : floor((100 - lgiven) / lmiss);
		}
		for (int i = 0; i < nz; i++) {
			acc += (unsigned)pcts[i];
			end += lens[i];
			j->zone_acc[j->nzones] = acc;
			j->zone_end[j->nzones++] = end;
			if (pcts[i] > 0 && floor(j->zone_abs ? end / (double)j->bs : end / 100 * nb) <= prev_blk) {
				snprintf(err, n, "--random_distribution=%s: zone %d has accesses but no whole block of "
					 "--bs=%llu in it", v, j->nzones, (unsigned long long)j->bs);
				return -1;
			}
			prev_blk = floor(j->zone_abs ? end / (double)j->bs : end / 100 * nb);
		}
		if (!j->nzones || acc != 100 || (!j->zone_abs && end > 100 + 1e-6) ||
		    (j->zone_abs && end > (double)job_fsize(j, 0))) {
			snprintf(err, n, "--random_distribution=%s: the accesses add up to %u%%, the ranges to %g%s; "
				 "they must be 100%% and %s", v, acc, end, j->zone_abs ? " bytes" : "%",
				 j->zone_abs ? "at most the region (--size; each file's, of several)" : "at most 100%");
			return -1;
		}
	}
	return 0;
bad:
	snprintf(err, n, "--random_distribution=%s: %s", v,
		 k == 1 ? "zipf:THETA[:CENTER], THETA above 0 (e.g. 1.2), CENTER from 0 to 1" :
		 k == 2 ? "pareto:H[:CENTER], H between 0 and 1 (e.g. 0.9), CENTER from 0 to 1" :
		 k == 3 ? "normal:DEV[:CENTER], DEV above 0 up to 100 (% of the region), CENTER from 0 to 1" :
		 k == 0 ? "random takes no value" :
		 "zones are ACCESS%/RANGE (whole percents of the accesses, then % of the region or, for "
		 "zoned_abs, a size), at most 16, e.g. zoned:60/10:30/20:10/70");
	return -1;
}

/* errno names --ignore_error knows (numbers work for the others) */
static const struct { const char *name; int err; } errnames[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EINTR", EINTR }, { "EIO", EIO }, { "ENXIO", ENXIO },
	{ "E2BIG", E2BIG }, { "EBADF", EBADF }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EFAULT", EFAULT }, { "EBUSY", EBUSY }, { "EEXIST", EEXIST },
	{ "ENODEV", ENODEV }, { "EINVAL", EINVAL }, { "EFBIG", EFBIG }, { "ENOSPC", ENOSPC },
	{ "ESPIPE", ESPIPE }, { "EROFS", EROFS }, { "ERANGE", ERANGE }, { "ENODATA", ENODATA },
	{ "ETIME", ETIME }, { "ENOLINK", ENOLINK }, { "EPROTO", EPROTO }, { "EBADMSG", EBADMSG },
	{ "EOVERFLOW", EOVERFLOW }, { "EILSEQ", EILSEQ }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "ENOTSUP", ENOTSUP }, { "ETIMEDOUT", ETIMEDOUT }, { "EDQUOT", EDQUOT },
	{ "ECANCELED", ECANCELED }, { "EREMOTEIO", EREMOTEIO }, { "EMEDIUMTYPE", EMEDIUMTYPE },
	{ "ENOMEDIUM", ENOMEDIUM }, { "ECONNRESET", ECONNRESET }, { "ENOTCONN", ENOTCONN },
};

/* What a job writes and how it is checked: fio's verify (a method; a profile's job may
 * carry crc32c, in destroy mode), verify_pattern, buffer_pattern. */
static int job_data(const struct plan *p, const struct disk_cfg *c, const struct pjob *pj, struct job *j, char *err,
		    size_t n)
{
	/* --verify's choices (VERIFY_CHOICES) in order: the method each means */
	static const int meth[] = { VM_NONE, VM_NONE, DG_CRC32C, DG_CRC32C, DG_CRC32, DG_CRC64, DG_CRC16, DG_CRC7,
				    DG_MD5, DG_SHA1, DG_SHA256, DG_SHA512, DG_XXHASH, VM_META, VM_PATTERN,
				    DG_SHA3_224, DG_SHA3_256, DG_SHA3_384, DG_SHA3_512, VM_NULL };
	const char *what, *pat = c->verify_pattern ? c->verify_pattern : c->buffer_pattern;
	j->verify = meth[c->verify];
	if (!GIVEN(c, "verify") && pj && pj->verify && p->c->mode == MODE_DESTROY)
		j->verify = DG_CRC32C;
	if (!GIVEN(c, "verify") && c->verify_pattern)
		j->verify = VM_PATTERN;
	j->do_verify = c->do_verify;
	j->verify_only = c->verify_only;
	j->verify_fatal = c->verify_fatal;
	j->verify_backlog = (uint64_t)c->verify_backlog;
	j->verify_backlog_batch = (uint64_t)c->verify_backlog_batch;
	j->vint = c->verify_interval ? c->verify_interval : j->bs;
	j->verify_dump = c->verify_dump;
	snprintf(j->aux_path, sizeof j->aux_path, "%s", c->aux_path ? c->aux_path : "");
	j->voff = c->verify_offset;
	if (pat && (j->pattern_len = pattern_parse_offs(c->verify_pattern ? "verify_pattern" : "buffer_pattern", pat,
							 j->pattern, c->verify_pattern ? j->pat_off : NULL, &j->npat_off,
							 err, n)) < 0)
		return -1;
	if (j->npat_off && (j->var_bs || j->verify != VM_PATTERN)) {
		snprintf(err, n, "--verify_pattern's %%o: %s", j->var_bs ? "with one block size (each block its offset)"
									  : "with --verify=pattern (the pattern is what is checked)");
		return -1;
	}
	if (j->pattern_len && (c->zero_buffers || c->compress_pct || c->dedupe_pct)) {
		snprintf(err, n, "--%s: with --%s the data would be two things at once",
			 c->verify_pattern ? "verify_pattern" : "buffer_pattern",
			 c->zero_buffers ? "zero_buffers" : c->compress_pct ? "buffer_compress_percentage"
									  : "dedupe_percentage");
		return -1;
	}
	if (j->verify == VM_PATTERN && !c->verify_pattern) {
		snprintf(err, n, "--verify=pattern: give the pattern with --verify_pattern");
		return -1;
	}
	if (!j->verify && j->verify_only) {
		snprintf(err, n, "--verify_only: give the --verify (and --verify_pattern) the data was written with");
		return -1;
	}
	if (j->verify_backlog_batch && !j->verify_backlog) {
		snprintf(err, n, "--verify_backlog_batch: with --verify_backlog (how many of its blocks each check reads)");
		return -1;
	}
	if (j->verify_backlog && (!j->verify || j->verify_only || !rw_writes(j->rw))) {
		snprintf(err, n, "--verify_backlog: %s", !j->verify ? "give --verify (how the blocks written are checked)"
							 : j->verify_only ? "--verify_only writes nothing to check as it goes"
									  : "a job that only reads checks each block as it reads it");
		return -1;
	}
	if (j->verify_backlog && j->numjobs > 1 && !j->per_thread && j->offset_inc < job_fsize(j, 1)) {
		snprintf(err, n, "--verify_backlog with --numjobs=%d on one region: a block another thread is writing "
			 "would read torn (give each its own, --offset_increment=%llu)", j->numjobs,
			 (unsigned long long)job_fsize(j, 1));
		return -1;
	}
	if ((c->verify_interval || c->verify_offset) && (!j->verify || j->verify == VM_PATTERN || j->verify == VM_NULL)) {
		snprintf(err, n, "--%s: %s", c->verify_interval ? "verify_interval" : "verify_offset",
			 !j->verify ? "give --verify (it places the verify headers)"
				    : j->verify == VM_NULL ? "--verify=null writes no header" : "--verify=pattern writes no header");
		return -1;
	}
	if (j->verify && j->verify != VM_PATTERN && j->verify != VM_NULL && verify_layout(j, err, n))
		return -1;
	if (!j->verify)
		return 0;
	what = j->verify == VM_PATTERN ? "--verify=pattern" : j->verify == VM_META ? "--verify=meta" : "--verify";
	if (j->verify_only)
		return 0;
	if (rw_trims(j->rw) && !rw_writes(j->rw))
		snprintf(err, n, "%s on a trim job: nothing is written to check (trimwrite is)", what);
	else if (!rw_writes(j->rw))
		return 0;   /* fio's: each block read is checked (what an earlier --verify job wrote) */
	else if (p->c->mode != MODE_DESTROY)
		snprintf(err, n, "%s writes its own data to every block: it needs --mode=destroy", what);
	else
		return 0;
	return -1;
}

/* fio's continue_on_error (a choice: none, read, write, io, verify, all, 0, 1) and
 * ignore_error (READS:WRITES:VERIFY lists of errnos; a type with a list goes on after
 * those, whatever continue_on_error says) */
static int parse_errors(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	static const int coe_mask[] = { 0, 1 << COE_READ, 1 << COE_WRITE, 1 << COE_READ | 1 << COE_WRITE,
					1 << COE_VERIFY, (1 << COE_N) - 1, 0, (1 << COE_N) - 1 };
	const char *p = c->ignore_error;
	j->coe = coe_mask[c->continue_on_error];
	j->error_dump = c->error_dump;
	for (int type = 0; p && *p; type++) {
		if (type == COE_N) {
			snprintf(err, n, "--ignore_error=%s: at most 3 lists (reads:writes:verify)", c->ignore_error);
			return -1;
		}
		while (*p && *p != ':') {
			size_t len = strcspn(p, ",:");
			char word[32];
			int e = 0;
			if (len == 0 || len >= sizeof word) {
				snprintf(err, n, "--ignore_error=%s: an empty or overlong errno in the list",
					 c->ignore_error);
				return -1;
			}
			memcpy(word, p, len);
			word[len] = 0;
			for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
				if (!strcmp(word, errnames[i].name))
					e = errnames[i].err;
			if (!e) {
				char *end;
				long v = strtol(word, &end, 10);
				if (*end || v <= 0 || v > 4095) {
					snprintf(err, n, "--ignore_error=%s: %s is no errno name or number (EIO, 5)",
						 c->ignore_error, word);
					return -1;
				}
				e = (int)v;
			}
			if (j->nign[type] == MAX_IGN) {
				snprintf(err, n, "--ignore_error=%s: more than %d errors in one list", c->ignore_error,
					 MAX_IGN);
				return -1;
			}
			j->ign[type][j->nign[type]++] = e;
			p += len;
			if (*p == ',')
				p++;
		}
		if (j->nign[type])
			j->coe |= 1 << type;
		if (*p == ':')
			p++;
	}
	return 0;
}

/* fio's percentage_random: one percent for all directions, or reads,writes[,trims] (an empty or
 * absent value: 100); out: 100 minus each (the sequential share); 0, or -1 when it is not
 * that */
static int parse_pct_random(const char *v, int out[DDIR_N])
{
	for (int d = 0; d < DDIR_N; d++) {
		const char *from;
		size_t l;
		long long x = 100;
		char part[32];
		out[d] = 0;
		if (!v)
			continue;
		if (opt_dir_part(v, d, &from, &l) || l >= sizeof part)
			return -1;
		memcpy(part, from, l);
		part[l] = 0;
		if (*part && (parse_int(part, &x) || x < 0 || x > 100))
			return -1;
		out[d] = 100 - (int)x;
	}
	return 0;
}

/* fio's steadystate=KIND:LIMIT[%] with steadystate_duration (0: off) */
static int parse_ss(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	static const char *const kinds[] = { "iops", "iops_slope", "bw", "bw_slope" };
	const char *v = c->steadystate, *colon = strchr(v, ':');
	char *end = NULL;
	size_t l = colon ? (size_t)(colon - v) : 0;
	int k;
	if (c->ss_dur <= 0) {
		if (GIVEN(c, "steadystate") || GIVEN(c, "ss") || GIVEN(c, "steadystate_ramp_time") || GIVEN(c, "ss_ramp")) {
			snprintf(err, n, "--steadystate: give the window it judges, --steadystate_duration (e.g. 60s)");
			return -1;
		}
		return 0;
	}
	for (k = 0; k < 4 && (strlen(kinds[k]) != l || strncmp(v, kinds[k], l)); k++)
		;
	j->ss.limit = colon ? strtod(colon + 1, &end) : -1;
	if (k == 4 || !colon || end == colon + 1 || (*end && strcmp(end, "%")) || !isfinite(j->ss.limit) ||
	    j->ss.limit < 0) {
		snprintf(err, n, "--steadystate=%s: KIND:LIMIT, KIND iops, iops_slope, bw or bw_slope, LIMIT a number "
			 "(I/Os or bytes per second) or a percent of the mean: iops_slope:0.1%%", v);
		return -1;
	}
	if (c->ss_dur < 2) {
		snprintf(err, n, "--steadystate_duration=%g: at least 2 seconds (one sample a second)", c->ss_dur);
		return -1;
	}
	j->ss.kind = SS_IOPS + k;
	j->ss.pct = *end == '%';
	j->ss.dur = (unsigned)llround(c->ss_dur);
	j->ss.ramp = (unsigned)llround(c->ss_ramp);
	snprintf(j->ss_desc, sizeof j->ss_desc, "%s", v);
	return 0;
}

/* a cmdprio priority's index in the direction's list (job.cmdprio_val), added when new;
 * -1 when the list is full */
static int cmdprio_index(struct job *j, int d, unsigned v)
{
	for (int k = 0; k < j->cmdprio_nval[d]; k++)
		if (j->cmdprio_val[d][k] == v)
			return k;
	if (j->cmdprio_nval[d] > CMDPRIO_MAX)
		return -1;
	j->cmdprio_val[d][j->cmdprio_nval[d]] = v;
	return j->cmdprio_nval[d]++;
}

/* fio's cmdprio_bssplit=bs/percent[/class/level]:...[,writes]: one direction's part p[0..l)
 * (entries without a class and level at cls/lvl, those of 0 percent dropped, sorted by size
 * as fio's); 0, or -1 with why */
static int parse_cmdprio_bssplit(const char *all, const char *p, size_t l, struct job *j, int d, long cls,
				 long lvl, char *err, size_t n)
{
	const char *e = p + l;
	struct cmdprio_ent *ent = j->cmdprio_ent[d];
	int ne = 0;
	for (const char *q = p; q < e;) {
		const char *colon = memchr(q, ':', (size_t)(e - q)), *qe = colon ? colon : e;
		char b[64], *f[5], *save = NULL;
		int nf = 0;
		long x[3] = { 0, cls, lvl };
		unsigned long long bs;
		if (qe == q) {   /* "4k/50:" */
			q = qe + 1;
			continue;
		}
		snprintf(b, sizeof b, "%.*s", (int)(qe - q < 63 ? qe - q : 63), q);
		for (char *t = strtok_r(b, "/", &save); t && nf < 5; t = strtok_r(NULL, "/", &save))
			f[nf++] = t;
		if (qe - q > 63 || nf < 1 || nf == 3 || nf > 4 || parse_size_fio(f[0], &bs) || !bs) {
			snprintf(err, n, "--cmdprio_bssplit=%s: '%.*s' is not size/percent or size/percent/class/level",
				 all, (int)(qe - q), q);
			return -1;
		}
		for (int k = 1; k < nf; k++) {
			static const long hi[3] = { 100, 3, 7 };
			static const char *const what[3] = { "a percent (0-100)", "a class (0-3)", "a level (0-7)" };
			char *end;
			x[k - 1] = strtol(f[k], &end, 10);
			if (*end || end == f[k] || x[k - 1] < 0 || x[k - 1] > hi[k - 1]) {
				snprintf(err, n, "--cmdprio_bssplit=%s: '%s' in '%.*s' is not %s", all, f[k], (int)(qe - q),
					 q, what[k - 1]);
				return -1;
			}
		}
		q = colon ? colon + 1 : e;
		if (!x[0])   /* fio's: a share of 0 says nothing */
			continue;
		if (ne == MAX_BSSPLIT) {
			snprintf(err, n, "--cmdprio_bssplit=%s: more than %d entries", all, MAX_BSSPLIT);
			return -1;
		}
		{   /* after every entry of a size up to this one: fio's order (idx holds the
		     * priority until the loop below turns it into its index) */
			int at = ne;
			while (at > 0 && ent[at - 1].bs > bs)
				at--;
			memmove(ent + at + 1, ent + at, (size_t)(ne - at) * sizeof *ent);
			ent[at] = (struct cmdprio_ent){ .bs = bs, .pct = (int)x[0], .idx = (int)(x[1] << 13 | x[2]) };
			ne++;
		}
	}
	for (int i = 0, tot = 0; i < ne; i++) {
		int v = ent[i].idx;
		tot = i && ent[i - 1].bs == ent[i].bs ? tot + ent[i].pct : ent[i].pct;
		if (tot > 100) {
			snprintf(err, n, "--cmdprio_bssplit=%s: the percents of %llu-byte I/Os add up to over 100", all,
				 (unsigned long long)ent[i].bs);
			return -1;
		}
		if (tot > j->cmdprio_pct[d])
			j->cmdprio_pct[d] = tot;
		if ((ent[i].idx = cmdprio_index(j, d, (unsigned)v)) < 0) {
			snprintf(err, n, "--cmdprio_bssplit=%s: more than %d priorities in a direction", all, CMDPRIO_MAX);
			return -1;
		}
	}
	j->cmdprio_nent[d] = ne;
	return 0;
}

/* fio's cmdprio_percentage, cmdprio_class, cmdprio: each a value for both directions, or
 * reads,writes (an empty part: the default); and cmdprio_bssplit, the shares by size
 * instead; 0, or -1 with why */
static int parse_cmdprio(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *names[3] = { "cmdprio_percentage", "cmdprio_class", "cmdprio" };
	const char *vals[3] = { c->cmdprio_pct, c->cmdprio_class, c->cmdprio };
	const long lo[3] = { 0, 1, 0 }, hi[3] = { 100, 3, 7 }, def[3] = { 0, 1, 0 };
	long v[3][2];
	for (int k = 0; k < 3; k++)
		for (int d = 0; d < 2; d++) {
			const char *p;
			size_t l;
			char part[24], *end;
			v[k][d] = def[k];
			if (!vals[k])
				continue;
			if (opt_dir_part(vals[k], d, &p, &l) || strchr(vals[k], ',') != strrchr(vals[k], ',') ||
			    l >= sizeof part)
				goto bad;
			memcpy(part, p, l);
			part[l] = 0;
			if (!*part)
				continue;
			v[k][d] = strtol(part, &end, 10);
			if (*end || v[k][d] < lo[k] || v[k][d] > hi[k])
				goto bad;
			continue;
bad:
			snprintf(err, n, "--%s=%s: a number %ld to %ld, or reads,writes", names[k], vals[k], lo[k], hi[k]);
			return -1;
		}
	if (c->cmdprio_bssplit && (v[0][0] || v[0][1])) {
		snprintf(err, n, "--cmdprio_bssplit and --cmdprio_percentage: give one or the other (fio's rule)");
		return -1;
	}
	for (int d = 0; d < 2; d++) {
		const char *p;
		size_t l;
		j->cmdprio_nval[d] = 1;
		j->cmdprio_val[d][0] = j->ioprio < 0 ? 0 : (unsigned)j->ioprio;
		if (c->cmdprio_bssplit) {
			if (opt_dir_part(c->cmdprio_bssplit, d, &p, &l)) {
				snprintf(err, n, "--cmdprio_bssplit=%s: give one for both directions, or reads,writes",
					 c->cmdprio_bssplit);
				return -1;
			}
			if (parse_cmdprio_bssplit(c->cmdprio_bssplit, p, l, j, d, v[1][d], v[2][d], err, n))
				return -1;
		} else if ((j->cmdprio_pct[d] = (int)v[0][d])) {
			j->cmdprio_nent[d] = 1;
			j->cmdprio_ent[d][0] = (struct cmdprio_ent){
				.pct = j->cmdprio_pct[d], .idx = cmdprio_index(j, d, (unsigned)(v[1][d] << 13 | v[2][d]))
			};
		}
	}
	if ((j->cmdprio_pct[0] || j->cmdprio_pct[1]) && !ioengine_kernel_async(j->ioengine)) {
		snprintf(err, n, "--%s: an io_uring and libaio option (--ioengine=%s)",
			 c->cmdprio_bssplit ? "cmdprio_bssplit" : "cmdprio_percentage", ioengine_names[j->ioengine]);
		return -1;
	}
	return 0;
}

/* fio's sync_file_range=FLAGS:N: FLAGS wait_before, write, wait_after (comma-separated) */
static int parse_sfr(const char *v, struct job *j, char *err, size_t n)
{
	static const char *const names[] = { "wait_before", "write", "wait_after" };
	static const unsigned flags[] = { SYNC_FILE_RANGE_WAIT_BEFORE, SYNC_FILE_RANGE_WRITE, SYNC_FILE_RANGE_WAIT_AFTER };
	const char *colon = strrchr(v, ':'), *p = v;
	char *end;
	long nw = colon ? strtol(colon + 1, &end, 10) : 0;
	j->sfr_flags = 0;
	if (!colon || *end || end == colon + 1 || nw < 1 || nw > 1000000000)
		goto bad;
	while (p < colon) {
		size_t l = strcspn(p, ",:");
		int k = 0;
		while (k < 3 && (strlen(names[k]) != l || strncmp(p, names[k], l)))
			k++;
		if (k == 3)
			goto bad;
		j->sfr_flags |= flags[k];
		p += l + (p[l] == ',');
	}
	if (!j->sfr_flags)
		goto bad;
	j->sfr_n = (int)nw;
	return 0;
bad:
	snprintf(err, n, "--sync_file_range=%s: FLAGS:N, FLAGS one or more of wait_before, write, wait_after "
		 "(e.g. wait_before,write:8)", v);
	return -1;
}

/* fio's thinktime values: microseconds when bare, else a time with its unit */
static int parse_think(const char *opt, const char *v, uint64_t *ns, char *err, size_t n)
{
	long long us;
	double s;
	if (*v == '(' && !fio_expr(v, FX_USEC, &s) && s >= 0 && s <= 3600e6) {
		*ns = (uint64_t)s * 1000;   /* fio's arithmetic: microseconds */
		return 0;
	}
	if (*v != '(' && !parse_int(v, &us) && us >= 0 && us <= 3600000000ll) {
		*ns = (uint64_t)us * 1000;
		return 0;
	}
	if (!parse_time(v, &s) && s >= 0 && s <= 3600) {
		*ns = (uint64_t)llround(s * 1e9);
		return 0;
	}
	snprintf(err, n, "--%s=%s: not a time (microseconds, or with a unit: 500us, 2ms, 1s; at most 1h)", opt, v);
	return -1;
}

/* fio's --cpus_allowed=0-3,8: CPUs this machine has */
/* CPU c onto the job's list, one this machine has (opt=v named when not) */
static int add_cpu(struct job *j, long c, const char *opt, const char *v, char *err, size_t n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (c >= ncpu || c >= 1024) {
		snprintf(err, n, "--%s=%s: CPU %ld: this machine has %ld (0-%ld)", opt, v, c, ncpu, ncpu - 1);
		return -1;
	}
	if (j->ncpus == (int)(sizeof j->cpus / sizeof j->cpus[0])) {
		snprintf(err, n, "--%s=%s: more than %d CPUs", opt, v, (int)(sizeof j->cpus / sizeof j->cpus[0]));
		return -1;
	}
	j->cpus[j->ncpus++] = (short)c;
	return 0;
}

/* a list of numbers and ranges, "0-3,8" (a trailing newline allowed: a sysfs file), into
 * set[0..1023]; 0, -1 when it is not one, or the first number past 1023 */
static long num_list(const char *v, unsigned char set[1024])
{
	const char *s = v;
	memset(set, 0, 1024);
	for (;;) {
		char *e;
		long a = strtol(s, &e, 10), b = a;
		if (e == s || a < 0 || !isdigit((unsigned char)*s))
			return -1;
		if (*e == '-') {
			const char *t = e + 1;
			b = strtol(t, &e, 10);
			if (e == t || b < a)
				return -1;
		}
		if (*e && *e != ',' && *e != '\n')
			return -1;
		if (b > 1023)
			return a > 1023 ? a : 1024;
		for (long c = a; c <= b; c++)
			set[c] = 1;
		if (!*e || *e == '\n')
			return 0;
		s = e + 1;
	}
}

static int parse_cpus(const char *v, struct job *j, char *err, size_t n)
{
	unsigned char set[1024];
	long r = num_list(v, set);
	j->ncpus = 0;
	if (r > 0)
		return add_cpu(j, r, "cpus_allowed", v, err, n);   /* (says how many there are) */
	if (r < 0) {
		snprintf(err, n, "--cpus_allowed=%s: not a list of CPU numbers and ranges (e.g. 0-3,8)", v);
		return -1;
	}
	for (long c = 0; c < 1024; c++)
		if (set[c] && add_cpu(j, c, "cpus_allowed", v, err, n))
			return -1;
	return 0;
}

/* fio's NUMA nodes, "0,2-3" or "all" (those online), into set; 0, or -1 with why */
static int numa_nodes(const char *opt, const char *shown, const char *v, unsigned char set[1024], char *err,
		      size_t n)
{
	char *online = read_file("/sys/devices/system/node/online", 4096, NULL);
	unsigned char on[1024];
	int r = -1;
	long k;
	if (!online || num_list(online, on)) {
		snprintf(err, n, "--%s=%s: this kernel shows no NUMA nodes (/sys/devices/system/node/online)", opt, shown);
		goto out;
	}
	if (!strcmp(v, "all"))
		memcpy(set, on, 1024);
	else if ((k = num_list(v, set)) > 0) {
		snprintf(err, n, "--%s=%s: node %ld: no such NUMA node here", opt, shown, k);
		goto out;
	} else if (k < 0) {
		snprintf(err, n, "--%s=%s: not a list of NUMA node numbers and ranges (e.g. 0,2-3), or all", opt, shown);
		goto out;
	}
	for (k = 0; k < 1024; k++)
		if (set[k] && !on[k]) {
			online[strcspn(online, "\n")] = 0;
			snprintf(err, n, "--%s=%s: node %ld: no such NUMA node here (online: %s)", opt, shown, k, online);
			goto out;
		}
	r = 0;
out:
	free(online);
	return r;
}

/* fio's numa_cpu_nodes: the CPUs of those nodes (fio's: instead of --cpus_allowed's) */
static int parse_numa_cpus(const char *v, struct job *j, char *err, size_t n)
{
	unsigned char nodes[1024], cpus[1024];
	j->ncpus = 0;
	if (numa_nodes("numa_cpu_nodes", v, v, nodes, err, n))
		return -1;
	for (int k = 0; k < 1024; k++) {
		char path[64], *l;
		if (!nodes[k])
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", k);
		if (!(l = read_file(path, 4096, NULL)) || (*l != '\n' && num_list(l, cpus))) {
			snprintf(err, n, "--numa_cpu_nodes=%s: cannot read %s", v, path);
			free(l);
			return -1;
		}
		for (long c = 0; *l != '\n' && c < 1024; c++)
			if (cpus[c] && add_cpu(j, c, "numa_cpu_nodes", v, err, n)) {
				free(l);
				return -1;
			}
		free(l);
	}
	if (!j->ncpus) {
		snprintf(err, n, "--numa_cpu_nodes=%s: those nodes have no CPUs", v);
		return -1;
	}
	return 0;
}

/* fio's numa_mem_policy=MODE[:NODES]: default, local (no nodes), prefer (one), bind and
 * interleave (a list); 0, or -1 with why */
static int parse_mpol(const char *v, struct job *j, char *err, size_t n)
{
	static const char *const modes[] = { "default", "prefer", "bind", "interleave", "local" };
	const char *colon = strchr(v, ':');
	size_t l = colon ? (size_t)(colon - v) : strlen(v);
	unsigned char set[1024];
	int m = -1, count = 0;
	for (int k = 0; k < 5; k++)
		if (strlen(modes[k]) == l && !strncmp(v, modes[k], l))
			m = k;   /* MPOL_DEFAULT, _PREFERRED, _BIND, _INTERLEAVE, _LOCAL: the kernel's numbers */
	if (m < 0) {
		snprintf(err, n, "--numa_mem_policy=%s: accepted: default, local, prefer:NODE, bind:NODES, "
			 "interleave:NODES", v);
		return -1;
	}
	if ((m == 0 || m == 4) && colon) {
		snprintf(err, n, "--numa_mem_policy=%s: %s takes no nodes", v, modes[m]);
		return -1;
	}
	if ((m == 1 || m == 2 || m == 3) && (!colon || numa_nodes("numa_mem_policy", v, colon + 1, set, err, n))) {
		if (!colon)
			snprintf(err, n, "--numa_mem_policy=%s: %s needs nodes (%s:0)", v, modes[m], modes[m]);
		return -1;
	}
	j->mpol_mode = m;
	j->mpol_nodes = 0;
	for (int k = 0; colon && k < 1024; k++)
		if (set[k]) {
			if (k >= 64) {
				snprintf(err, n, "--numa_mem_policy=%s: node %d: at most node 63 here", v, k);
				return -1;
			}
			j->mpol_nodes |= 1ull << k;
			count++;
		}
	if (m == 1 && count != 1) {
		snprintf(err, n, "--numa_mem_policy=%s: prefer takes one node", v);
		return -1;
	}
	return 0;
}

/* fio's cpumask: bit i set, CPU i allowed (decimal or 0x); the same list as --cpus_allowed's */
static int cpumask_list(const char *v, struct job *j, char *err, size_t n)
{
	unsigned long long m;
	char *e;
	errno = 0;
	m = strtoull(v, &e, 0);
	if (errno || e == v || *e || !m || *v == '-') {
		snprintf(err, n, "--cpumask=%s: not a mask of CPUs (bit i: CPU i; 0x3 is CPUs 0 and 1)", v);
		return -1;
	}
	j->ncpus = 0;
	for (int b = 0; b < 64; b++)
		if (m >> b & 1 && add_cpu(j, b, "cpumask", v, err, n))
			return -1;
	return 0;
}

/* fio's io_size (bytes per thread, wrapping over the region) and offset_increment (thread
 * i's region starts i increments later), checked against the device (each of the job's
 * files) */
static int io_extent(const struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	if (c->io_size && !j->var_bs && c->io_size % j->bs) {
		snprintf(err, n, "--io_size=%llu: not a multiple of --bs=%llu", c->io_size,
			 (unsigned long long)j->bs);
		return -1;
	}
	j->io_size = c->io_size;
	if (j->nfiles > 1 && c->io_size && c->io_size / (uint64_t)j->nfiles < j->bs) {
		snprintf(err, n, "--io_size=%llu: less than one --bs block for each of the job's %d files", c->io_size,
			 j->nfiles);
		return -1;
	}
	j->offset_inc = c->offset_increment;
	for (int k = 0; k < j->nftg && j->offset_inc; k++) {
		const struct blkdev *d = &p->tg[j->ftg[k]].dev;
		uint64_t size = j->fsize[k % j->nfiles], last = file_base(j, k % j->nfiles, j->numjobs - 1);
		if (j->direct && j->offset_inc % d->lbs) {
			snprintf(err, n, "--offset_increment=%llu: not a multiple of %s's logical block size (%u)",
				 c->offset_increment, d->path, d->lbs);
			return -1;
		}
		if (j->offset_inc > d->size || last > d->size || size > d->size - last) {
			snprintf(err, n, "--offset_increment=%llu: thread %d's region (from %llu, %llu bytes) ends "
				 "beyond %s (%llu bytes): give a smaller --size or --offset_increment",
				 c->offset_increment, j->numjobs - 1, (unsigned long long)last,
				 (unsigned long long)size, d->path, (unsigned long long)d->size);
			return -1;
		}
	}
	return 0;
}

/* fio's bs=reads,writes[,trims]: each direction its own size (the var_bs machinery of bssplit,
 * one size a side) */
static int pair_bs(const struct disk_cfg *c, struct job *j, const uint64_t bs_rw[DDIR_N], char *err,
		   size_t n)
{
	if (c->bssplit || c->bsrange) {
		snprintf(err, n, "--bs=%llu,%llu and --%s: give one or the other", (unsigned long long)bs_rw[0],
			 (unsigned long long)bs_rw[1], c->bssplit ? "bssplit" : "bsrange");
		return -1;
	}
	for (int d = 0; d < DDIR_N; d++) {
		j->nsplit[d] = 1;
		j->split_bs[d][0] = bs_rw[d];
		j->split_cum[d][0] = 100;
	}
	j->bs_max = bs_rw[0] > bs_rw[1] ? bs_rw[0] : bs_rw[1];
	if (bs_rw[2] > j->bs_max)
		j->bs_max = bs_rw[2];
	j->var_bs = j->bs_pair = 1;
	snprintf(j->bs_desc, sizeof j->bs_desc, bs_rw[2] != bs_rw[1] ? "%llu,%llu,%llu" : "%llu,%llu",
		 (unsigned long long)bs_rw[0], (unsigned long long)bs_rw[1], (unsigned long long)bs_rw[2]);
	return 0;
}

/* fio's rw: a pattern (rw is readwrite), then an offset modifier: :SIZE, a hole after
 * each sequential I/O, or :N, a new random offset every N I/Os (rw_sequencer: the next
 * blocks in between, or the same one); number_ios */
static int parse_rw(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	static const char *const names[] = { "read", "write", "randread", "randwrite", "randrw", "readwrite", "trim",
					     "randtrim", "trimwrite", "randtrimwrite", "rw" };
	const char *colon = strchr(c->rw, ':');
	size_t l = colon ? (size_t)(colon - c->rw) : strlen(c->rw);
	int k;
	for (k = 0; k < (int)(sizeof names / sizeof *names); k++)
		if (strlen(names[k]) == l && !strncmp(c->rw, names[k], l))
			break;
	if (k == (int)(sizeof names / sizeof *names)) {
		snprintf(err, n, "--rw=%s: unknown value; accepted: one of %s|rw, then :N (fio's offset modifier)",
			 c->rw, RW_CHOICES);
		return -1;
	}
	j->rw = k == 10 ? RW_READWRITE : k;
	j->rw_identical = c->rw_sequencer == 1;
	j->number_ios = (uint64_t)c->number_ios;
	if (!colon)
		return 0;
	if (rw_is_random(j->rw)) {
		long long r;
		if (parse_int(colon + 1, &r) || r < 1 || r > 1000000000) {
			snprintf(err, n, "--rw=%s: '%s' is not a number of I/Os (a new random offset every N)", c->rw,
				 colon + 1);
			return -1;
		}
		j->rand_run = (int)r;
	} else {
		unsigned long long h;
		if (parse_size_fio(colon + 1, &h)) {
			snprintf(err, n, "--rw=%s: '%s' is not a size (the hole after each I/O)", c->rw, colon + 1);
			return -1;
		}
		j->seq_hole = h;
	}
	return 0;
}

/* fio's read_iolog and write_iolog: the log loaded (its entries checked against the
 * device) and the job shaped by it: its directions (for the safety modes and the report),
 * its I/O sizes; one thread */
static int job_replay(const struct plan *p, const struct disk_cfg *c, const struct pjob *pj, struct job *j,
		      char *err, size_t n)
{
	struct replay_fit fit = { .nfiles = j->nfiles, .direct = j->direct, .align = c->replay_align,
				  .scale = (uint64_t)c->replay_scale };
	struct replay *rp;
	_Static_assert(REPLAY_FILES == MAX_FILES, "a log's files are a job's");
	for (int k = 0; k < j->nfiles; k++) {
		fit.dev_size[k] = p->tg[j->ftg[k]].dev.size;
		fit.lbs[k] = p->tg[j->ftg[k]].dev.lbs;
	}
	if (c->write_iolog) {
		if (j->numjobs > 1) {
			snprintf(err, n, "--write_iolog with --numjobs=%d: one thread per logged job (give each job its "
				 "own --name and log)", j->numjobs);
			return -1;
		}
		snprintf(j->iolog_out, sizeof j->iolog_out, "%s", c->write_iolog);
		for (int i = 0; i < p->njobs; i++)
			if (!strcmp(p->jobs[i].iolog_out, j->iolog_out)) {
				snprintf(err, n, "--write_iolog=%s: jobs '%s' and '%s' would both write it: give each job "
					 "its own", c->write_iolog, p->jobs[i].name, j->name);
				return -1;
			}
	}
	if (!c->read_iolog) {
		for (const char *const *o = (const char *const[]){ "replay_no_stall", "replay_time_scale", "replay_skip",
								    "replay_align", "replay_scale", NULL }; *o; o++)
			if (GIVEN(c, *o)) {
				snprintf(err, n, "--%s: no --read_iolog to replay", *o);
				return -1;
			}
		return 0;
	}
	if (c->replay_align & (c->replay_align - 1)) {
		snprintf(err, n, "--replay_align=%llu: not a power of 2", c->replay_align);
		return -1;
	}
	if (pj || j->numjobs > 1 || j->verify || j->lat_target_ns || c->bssplit || c->bsrange) {
		snprintf(err, n, "--read_iolog with %s: a log is replayed as it is, by one thread",
			 pj ? "--profile" : j->numjobs > 1 ? "--numjobs" : j->verify ? "--verify" :
			 j->lat_target_ns ? "--latency_target" : c->bssplit ? "--bssplit" : "--bsrange");
		return -1;
	}
	/* fio's replay_skip: read, write, trim, sync (sync and datasync) */
	fit.skip = (unsigned)(c->replay_skip & 7) | (c->replay_skip & 8 ? 1u << RP_SYNC | 1u << RP_DATASYNC : 0);
	if (!(rp = calloc(1, sizeof *rp))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (replay_load(c->read_iolog, &fit, rp, err, n)) {
		free(rp);
		return -1;
	}
	if (rp->nfiles < j->nfiles) {
		snprintf(err, n, "--read_iolog=%s: the log names %d file%s, --filename %d: one for each", c->read_iolog,
			 rp->nfiles, rp->nfiles > 1 ? "s" : "", j->nfiles);
		replay_free(rp);
		free(rp);
		return -1;
	}
	j->replay = rp;          /* kept for the run */
	j->replay_no_stall = c->replay_no_stall;
	j->replay_time_pct = (int)c->replay_time_scale;
	/* the log's directions decide what the job is (a trim in it: destroy mode only) */
	j->rw = rp->count[RP_TRIM] ? RW_RANDTRIMWRITE : rp->count[RP_WRITE] ? (rp->count[RP_READ] ? RW_RANDRW : RW_RANDWRITE)
										  : RW_RANDREAD;
	j->bs = rp->min_len;
	j->bs_max = rp->max_len;
	j->var_bs = rp->min_len != rp->max_len;
	j->offset = 0;
	j->size = 0;
	for (int k = 0; k < j->nfiles; k++)   /* each file whole */
		j->size += j->fsize[k] = p->tg[j->ftg[k]].dev.size / j->bs * j->bs;
	j->offset_inc = 0;
	return 0;
}

/* "Nz", fio's N zones: 1 and N, else 0 */
static int zone_count_str(const char *v, unsigned long long *nz)
{
	size_t l = v ? strlen(v) : 0;
	char *e;
	if (l < 2 || v[l - 1] != 'z' || !isdigit((unsigned char)*v))
		return 0;
	errno = 0;
	*nz = strtoull(v, &e, 10);
	return !errno && e == v + l - 1;
}

/* fio's sizes in zones (--size=4z, --offset, --io_size, --offset_increment, --zoneskip):
 * into bytes, in a copy of the job's options, once its target (and so the zones) is known:
 * --zonemode=zbd's (the device's own zones, or --zonesize) or strided ones (--zonesize);
 * 0 (cz unused when none is given in zones), or -1 with why */
static int zones_in_bytes(const struct disk_cfg *c, const struct blkdev *d, struct disk_cfg *cz,
			  char sbuf[32], char obuf[32], char *err, size_t n)
{
	static const char *const names[] = { "io_size", "offset_increment", "zoneskip" };
	unsigned long long *vals[] = { &cz->io_size, &cz->offset_increment, &cz->zoneskip };
	unsigned long long nz;
	int any = zone_count_str(c->size, &nz) || zone_count_str(c->offset_s, &nz);
	uint64_t zs = d->zoned[0] && (c->zonemode == 2 || (!GIVEN(c, "zonemode") && !c->zonesize)) ? d->zone_size
												     : c->zonesize;
	*cz = *c;
	for (int i = 0; i < 3; i++)
		any |= (*vals[i] & OPT_ZONE_COUNT) != 0;
	if (!any)
		return 0;
	for (int i = 0; i < 5; i++) {
		const char *name = i < 3 ? names[i] : i == 3 ? "size" : "offset", *v = i == 3 ? c->size : c->offset_s;
		char given[32];
		if (i < 3 && !(*vals[i] & OPT_ZONE_COUNT))
			continue;
		if (i < 3) {
			nz = *vals[i] & ~OPT_ZONE_COUNT;
			snprintf(given, sizeof given, "%lluz", nz);
		} else if (!zone_count_str(v, &nz)) {
			continue;
		} else {
			snprintf(given, sizeof given, "%s", v);
		}
		if (!zs) {
			snprintf(err, n, "--%s=%s: zones of what size? give --zonemode=zbd on a zoned device, or --zonesize",
				 name, given);
			return -1;
		}
		if (!nz || nz > (1ull << 62) / zs) {
			snprintf(err, n, "--%s=%s: %s", name, given, nz ? "beyond any device" : "no zones");
			return -1;
		}
		if (i < 3) {
			*vals[i] = nz * zs;
		} else {
			char *b = i == 3 ? sbuf : obuf;
			snprintf(b, 32, "%llu", nz * zs);
			*(i == 3 ? &cz->size : &cz->offset_s) = b;
		}
	}
	return 1;
}

/* fio lays out a test file that does not exist yet: a path (with a '/', never under /dev)
 * and a --size in bytes make one of --offset + --size bytes of random data (its share of
 * them, one of nshare files of a job), which stays; a --offset=N% of it is of the empty
 * file, 0 (fio's).  A regular file that exists but ends before --offset + --size is
 * extended with random data as fio does -- only with --mode=destroy, as it changes the
 * file (its bytes up to its old end stay).  --create_on_open=1: a new file is made empty
 * (fio's, which makes it when the job opens it), a write job extending it.  1 when made,
 * 2 when extended, 3 when made empty, 0 when there is nothing to make, -1 on failure (err
 * says why). */
static int lay_out_file(const struct disk_cfg *c, const char *fn, int nshare, struct blkdev *dry, uint64_t *was,
			uint64_t *planned, char *err, size_t n)
{
	unsigned long long size;
	struct stat st;
	char *buf;
	uint64_t from = 0, to, done = 0;
	int fd, e = 0, exists;
	uint64_t offset;
	struct disk_cfg cz;
	char zsize[32], zoff[32];
	const struct blkdev none = { 0 };
	int zr = fn ? zones_in_bytes(c, &none, &cz, zsize, zoff, err, n) : 0;
	if (zr > 0)
		c = &cz;    /* --size=4z --zonesize=1m: of those zones */
	if (!fn || !strchr(fn, '/') || !strncmp(fn, "/dev/", 5))
		return 0;
	exists = !stat(fn, &st);
	if (exists ? !S_ISREG(st.st_mode) || c->mode != MODE_DESTROY : errno != ENOENT)
		return 0;
	if (zr < 0)
		return -1;
	if (!c->size || parse_size_fio(c->size, &size) || !size)
		return 0;
	*was = from = exists ? (uint64_t)st.st_size : 0;
	if (parse_offset(c->offset_s, from, 0, &offset, err, n))
		return -1;
	size /= (unsigned)nshare;
	*planned = to = offset + size;
	if (exists && from >= to)
		return 0;
	if (exists) {
		/* what the destroy checks would refuse is not touched: they say why, later */
		struct blkdev *cur = malloc(sizeof *cur);
		int keep = !cur || blkdev_probe(fn, cur, err, n) ||
			(!c->force && (!cur->signature_checked || cur->partitions || cur->signature[0])) ||
			(c->expect_size && c->expect_size != cur->size);
		free(cur);
		if (keep)
			return 0;
	}
	if (!exists && !c->allow_file_create) {
		snprintf(err, n, "%s does not exist, and --allow_file_create=0", fn);
		return -1;
	}
	if (dry && exists)
		return 2;    /* --parse-only: the file as it is (probed), as long as it would be */
	if (dry) {
		/* --parse-only: the file it would be */
		memset(dry, 0, sizeof *dry);
		snprintf(dry->path, sizeof dry->path, "%s", fn);
		snprintf(dry->name, sizeof dry->name, "%s", fn);
		dry->is_file = 1;
		dry->size = to;
		dry->lbs = 512;
		dry->pbs = 4096;
		return c->create_on_open ? 3 : 1;
	}
	if (!exists && c->create_on_open) {
		fd = open(fn, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0) {
			snprintf(err, n, "cannot create %s: %s", fn, strerror(errno));
			return -1;
		}
		close(fd);
		info("disk: made %s empty (--create_on_open=1: not laid out; reads of it fail, writes extend it; it "
		     "stays)", fn);
		return 3;
	}
	fd = open(fn, exists ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, n, exists ? "cannot open %s to extend it: %s" : "cannot create %s: %s", fn, strerror(errno));
		return -1;
	}
	buf = malloc(1 << 20);
	for (uint64_t k = from >> 20; buf && from + done < to && !e; k++) {
		uint64_t left = to - from - done;
		size_t len = left < (1u << 20) ? (size_t)left : (1u << 20);
		ssize_t w;
		fill_buffer(buf, len, (uint64_t)c->randseed * 977 + k, 0, 512);
		w = pwrite(fd, buf, len, (off_t)(from + done));
		if (w < 0)
			e = errno;
		else
			done += (uint64_t)w;
	}
	if (!buf)
		e = ENOMEM;
	if (!e && fsync(fd))
		e = errno;
	if (e && exists && ftruncate(fd, (off_t)from))
		warn("disk: %s: could not cut it back to its %llu bytes: %s", fn, (unsigned long long)from,
		     strerror(errno));
	free(buf);
	close(fd);
	if (e) {
		if (!exists)
			unlink(fn);
		snprintf(err, n, "cannot %s %s (%llu bytes): %s", exists ? "extend" : "lay out", fn,
			 (unsigned long long)to, strerror(e));
		return -1;
	}
	if (exists)
		info("disk: extended %s from %llu to %llu bytes with random data, as fio does (--offset + --size "
		     "beyond its end)", fn, (unsigned long long)from, (unsigned long long)to);
	else
		info("disk: laid out %s: %llu bytes of random data (%s)", fn, (unsigned long long)to,
		     c->unlink ? "--unlink removes it at the end" : "it stays: delete it when done");
	return exists ? 2 : 1;
}

/* fio's unlink: the test files go when the run ends (regular files, never a device) */
static void unlink_targets(const struct plan *p)
{
	for (int i = 0; i < p->ntg && !p->c->parse_only; i++)
		if (p->tg[i].unlink && p->tg[i].dev.is_file && unlink(p->tg[i].filename) && errno != ENOENT)
			warn("disk: --unlink: %s: %s", p->tg[i].filename, strerror(errno));
}

/* "device": the (first job's) device; "devices": every one, when the jobs name several */
static void add_devices(struct json *as, const struct plan *p)
{
	json_add(as, "device", blkdev_json(&p->tg[0].dev));
	if (p->ntg > 1) {
		struct json *a = json_add_arr(as, "devices");
		for (int i = 0; i < p->ntg; i++)
			json_push(a, blkdev_json(&p->tg[i].dev));
	}
}

/* the same file or device (by the kernel's identity, whatever the names) */
static int same_target(const char *a, const char *b)
{
	struct stat x, y;
	if (stat(a, &x) || stat(b, &y) || (x.st_mode & S_IFMT) != (y.st_mode & S_IFMT))
		return 0;
	return S_ISBLK(x.st_mode) ? x.st_rdev == y.st_rdev : x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* fio's a:b: a --filename with ':' that does not exist is a list of files; how many names
 * (1: a name) */
static int name_count(const char *fn)
{
	int k = 1;
	if (!strchr(fn, ':') || !access(fn, F_OK))
		return 1;
	for (const char *q = fn; (q = strchr(q, ':')); q++)
		k++;
	return k;
}

/* One file of the job (fn): its target, probed once however many jobs name it (a file laid
 * out first when it is to be made, one of nshare of the job's); its index, or -1 with why */
static int plan_file(struct plan *p, const struct disk_cfg *c, const char *fn, int nshare, char *err, size_t n)
{
	int t;
	for (t = 0; t < p->ntg; t++)
		if (!strcmp(p->tg[t].filename, fn))
			return t;
	/* a name not seen: the file laid out, the device probed, then one of those already
	 * named under another name, or a new one */
	struct blkdev d;
	uint64_t was = 0, planned = 0;
	int made = lay_out_file(c, fn, nshare, p->c->parse_only ? &d : NULL, &was, &planned, err, n);
	/* (--parse-only: a new file is not made, lay_out_file said what it would be) */
	if (made < 0 || (!(p->c->parse_only && (made == 1 || made == 3)) && blkdev_probe(fn, &d, err, n)))
		return -1;
	if (made >= 2)   /* extended (or would be), or made empty: as long as planned */
		d.size = planned;
	for (t = 0; t < p->ntg; t++)
		if (same_target(p->tg[t].dev.path, d.path))
			return t;
	if (t == MAX_TARGETS) {
		snprintf(err, n, "--filename=%s: more than %d devices or files in one run", fn, MAX_TARGETS);
		return -1;
	}
	memset(&p->tg[t], 0, sizeof p->tg[t]);
	p->tg[t].excl_fd = -1;
	p->tg[t].filename = fn;
	p->tg[t].dev = d;
	p->tg[t].pct_of = made ? was : d.size;
	return p->ntg++;
}

/* The job's targets: its --filename, or the run's; fio's a:b (a name with ':' that does
 * not exist) names several files, each its own; 0, or -1 with why */
static int plan_target(struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *fn = c->filename ? c->filename : p->c->filename;
	if (!fn || !*fn) {
		snprintf(err, n, !fn ? "job '%s' has no --filename, and there is none for every job: name its device "
				       "(e.g. --filename=/dev/vdb); --list shows the disks found"
				     : "job '%s': --filename is empty", j->name);
		return -1;
	}
	j->nftg = 0;
	j->per_thread = c->per_thread_files;
	if (name_count(fn) > 1) {
		/* each thread's files share its --size */
		int nshare = name_count(fn) / (j->per_thread ? (int)c->numjobs : 1);
		for (const char *a = fn, *e; ; a = e + 1) {
			size_t l = strcspn(a, ":"), used = p->names_used;
			e = a + l;
			if (!l || j->nftg == (j->per_thread ? MAX_JOB_FILES : MAX_FILES) || used + l + 1 > sizeof p->names) {
				snprintf(err, n, !l ? "--filename=%s: an empty name in the list" :
					 j->nftg == (j->per_thread ? MAX_JOB_FILES : MAX_FILES) ?
					 "--filename=%s: more than %d files in one job" :
					 "--filename=%s: the lists of files of the run's jobs are too long together", fn,
					 j->per_thread ? MAX_JOB_FILES : MAX_FILES);
				return -1;
			}
			memcpy(p->names + used, a, l);
			p->names[used + l] = 0;
			p->names_used += l + 1;
			if ((j->ftg[j->nftg] = plan_file(p, c, p->names + used, nshare, err, n)) < 0)
				return -1;
			j->nftg++;
			if (!*e)
				break;
		}
		for (int k = 0; k < j->nftg; k++)
			for (int i = 0; i < k; i++)
				if (j->ftg[i] == j->ftg[k]) {
					snprintf(err, n, "--filename=%s: %s and %s are the same device or file", fn,
						 p->tg[j->ftg[i]].filename, p->tg[j->ftg[k]].filename);
					return -1;
				}
	} else if ((j->ftg[j->nftg++] = plan_file(p, c, fn, 1, err, n)) < 0)
		return -1;
	j->nfiles = j->per_thread ? j->nftg / (int)c->numjobs : j->nftg;
	j->tg = j->ftg[0];
	for (int k = 0; k < j->nftg; k++)
		p->tg[j->ftg[k]].unlink |= c->unlink;
	j->expect_serial = c->expect_serial;
	j->expect_size = c->expect_size;
	j->force = c->force;
	return 0;
}

/* fio's zonemode=zbd: the zones a zoned device has, or --zonesize ones on any other; a
 * job that writes does so in whole zones (its offset rounded up to a zone's start, its
 * size down to a zone's end, as fio's); 0, or -1 with why */
static int parse_zbd(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n)
{
	uint64_t zs = d->zoned[0] ? d->zone_size : c->zonesize, end;
	const char *with = c->zonerange || c->zoneskip ? "--zonerange/--zoneskip (strided zones)" :
			   j->nfiles > 1 || j->nftg > 1 ? "several files" : j->verify_only ? "--verify_only" :
			   j->verify && !rw_modifies(j->rw) ? "--verify on a read job" :
			   j->rw >= RW_TRIMWRITE ? "trimwrite" : c->read_iolog ? "--read_iolog" : d->is_null ? d->path :
			   NULL;
	if (with) {
		snprintf(err, n, "--zonemode=zbd with %s: not here", with);
		return -1;
	}
	if (d->zoned[0] && c->zonesize && c->zonesize != d->zone_size) {
		snprintf(err, n, "--zonesize=%llu: %s's zones are of %llu bytes", c->zonesize, d->path,
			 (unsigned long long)d->zone_size);
		return -1;
	}
	if (!zs) {
		snprintf(err, n, "--zonemode=zbd: %s is not a zoned device: give --zonesize (the zones kept here)",
			 d->path);
		return -1;
	}
	if (rw_trims(j->rw) && (j->bs != zs || j->var_bs)) {
		snprintf(err, n, "--zonemode=zbd: a trim resets a zone: --bs is to be the zone size (%llu; fio's rule)",
			 (unsigned long long)zs);
		return -1;
	}
	if (j->bs_max > zs) {
		snprintf(err, n, "--zonemode=zbd: an I/O of %llu bytes is longer than a zone (%llu)",
			 (unsigned long long)j->bs_max, (unsigned long long)zs);
		return -1;
	}
	if (zs % 512 || zs > d->size) {
		snprintf(err, n, "--zonesize=%llu: a multiple of 512, at most %s's size (%llu)", (unsigned long long)zs,
			 d->path, (unsigned long long)d->size);
		return -1;
	}
	if (!d->zoned[0] && (c->zonecapacity > zs || c->zonecapacity % 512)) {
		snprintf(err, n, "--zonecapacity=%llu: at most --zonesize=%llu, a multiple of 512", c->zonecapacity,
			 (unsigned long long)zs);
		return -1;
	}
	if ((j->verify || !rw_is_random(j->rw)) && (zs % j->bs || (!d->zoned[0] && c->zonecapacity % j->bs))) {
		/* (a sequential job's offsets are on the --bs grid here) */
		snprintf(err, n, "--zonemode=zbd%s: the zones' size and capacity are to be multiples of --bs=%llu%s",
			 j->verify ? " --verify" : ", sequential", (unsigned long long)j->bs, j->verify ? " (fio's rule)" : "");
		return -1;
	}
	if (rw_modifies(j->rw) && !strcmp(d->zoned, "host-managed") && (!j->direct || j->ioengine == IOE_MMAP)) {
		snprintf(err, n, "--zonemode=zbd: writes to host-managed %s need --direct=1 (buffered ones reach it "
			 "out of order; fio's rule)%s", d->path,
			 j->ioengine == IOE_MMAP ? ", and --ioengine=mmap writes through the page cache" : "");
		return -1;
	}
	if (rw_modifies(j->rw)) {
		if (j->offset_inc % zs) {
			snprintf(err, n, "--offset_increment=%llu: whole zones (of %llu bytes) with --zonemode=zbd",
				 (unsigned long long)j->offset_inc, (unsigned long long)zs);
			return -1;
		}
		uint64_t o0 = j->offset;
		end = (j->offset + j->size) / zs * zs;
		j->offset = (j->offset + zs - 1) / zs * zs;
		if (end <= j->offset) {
			snprintf(err, n, "--zonemode=zbd: the region (--offset, --size) holds no whole zone of %llu bytes",
				 (unsigned long long)zs);
			return -1;
		}
		if (end - j->offset != j->size || j->offset != o0)
			warn("disk: %s: --zonemode=zbd: its region is whole zones: %llu bytes from %llu (fio's rounding)",
			     j->name, (unsigned long long)(end - j->offset), (unsigned long long)j->offset);
		j->size = end - j->offset;
	}
	j->zbd = 1;
	j->zbd_zone = zs;
	j->zbd_cap = d->zoned[0] ? 0 : c->zonecapacity;
	j->read_beyond_wp = c->read_beyond_wp;
	j->ignore_zone_limits = c->ignore_zone_limits;
	j->max_open_zones = (unsigned)c->max_open_zones;
	j->job_max_open_zones = (unsigned)c->job_max_open_zones;
	j->zrt = c->zrt;
	j->zrf = c->zrf;
	if (j->job_max_open_zones && !j->max_open_zones && !(!strcmp(d->zoned, "host-managed") &&
							       d->max_open_zones > 0 && !j->ignore_zone_limits)) {
		snprintf(err, n, "--job_max_open_zones: needs a limit for the device (--max_open_zones; fio's rule)");
		return -1;
	}
	return 0;
}

/* fio's zonemode=strided (zonesize given: strided): zonesize bytes done in a zone of
 * zonerange (default zonesize) from the region's start, then zonerange + zoneskip on to
 * the next (after the device's end, the region's start again: fio's, whose zones go past
 * --size, the bytes done); 0, or -1 with why */
static int parse_zbd(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n);

static int parse_zones(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n)
{
	const char *with;
	if (c->zonemode == 2)
		return parse_zbd(c, d, j, err, n);
	if (!GIVEN(c, "zonemode") && !strcmp(d->zoned, "host-managed") && c->mode == MODE_DESTROY &&
	    rw_modifies(j->rw) && !c->zonesize) {
		/* a job writing to a host-managed zoned device in destroy mode (a profile's, in
		 * the image): at the write pointers, as the device takes writes; one that cannot
		 * (buffered, verify, trims) is skipped with the reason */
		char why[240];
		struct job t = *j;
		if (!parse_zbd(c, d, &t, why, sizeof why))
			*j = t;
		return 0;
	}
	for (const char *const *o = (const char *const[]){ "zonecapacity", "read_beyond_wp", "max_open_zones",
							    "job_max_open_zones", "ignore_zone_limits",
							    "zone_reset_threshold", "zone_reset_frequency", NULL }; *o; o++)
		if (GIVEN(c, *o)) {
			snprintf(err, n, "--%s: for --zonemode=zbd", *o);
			return -1;
		}
	if (!c->zonesize) {
		if (c->zonemode || c->zonerange || c->zoneskip) {
			snprintf(err, n, "--%s: strided zones need --zonesize", c->zonemode ? "zonemode=strided" :
				 c->zonerange ? "zonerange" : "zoneskip");
			return -1;
		}
		return 0;
	}
	if (GIVEN(c, "zonemode") && !c->zonemode) {
		snprintf(err, n, "--zonemode=none and --zonesize: give --zonemode=strided (as fio)");
		return -1;
	}
	j->zone_size = c->zonesize;
	j->zone_range = c->zonerange ? c->zonerange : c->zonesize;
	j->zone_skip = c->zoneskip;
	j->stride_end = d->size;
	if (j->zone_size % j->bs || j->zone_range % j->bs || j->zone_skip % j->bs) {
		snprintf(err, n, "--zonesize, --zonerange, --zoneskip: multiples of --bs=%llu", (unsigned long long)j->bs);
		return -1;
	}
	with = j->var_bs ? "--bssplit/--bsrange" : j->nfiles > 1 ? "several files" : j->seq_hole || j->rand_run > 1 ?
	       "an offset modifier" : j->dist != DIST_RANDOM ? "--random_distribution" : j->pct_seq[0] || j->pct_seq[1] ||
	       j->pct_seq[2] ? "--percentage_random" : j->ba ? "--blockalign" : c->read_iolog ? "--read_iolog" :
	       j->verify_only ? "--verify_only (the zones' blocks are not re-derived)" :
	       j->verify && j->numjobs > 1 && !j->per_thread ? "--verify and --numjobs (the threads' zones would cross)" :
	       d->is_null ? d->path : NULL;
	if (with) {
		snprintf(err, n, "strided zones (--zonesize) with %s: not here", with);
		return -1;
	}
	return 0;
}

/* fio's file_service_type: roundrobin[:N], sequential, random[:N]; 0, or -1 with why */
static int parse_fst(const char *v, struct job *j, char *err, size_t n)
{
	static const char *const names[] = { "roundrobin", "sequential", "random" };
	size_t l = strcspn(v, ":");
	j->fst_n = 1;
	for (j->fst = 0; j->fst < 3; j->fst++)
		if (strlen(names[j->fst]) == l && !strncmp(v, names[j->fst], l))
			break;
	if (j->fst == 3 || (v[l] && j->fst == FST_SEQ)) {
		snprintf(err, n, "--file_service_type=%s: roundrobin[:N], sequential or random[:N] (fio's zipf, pareto, "
			 "normal and gauss are not here)", v);
		return -1;
	}
	if (v[l]) {
		char *end;
		long long x = strtoll(v + l + 1, &end, 10);
		if (*end || end == v + l + 1 || x < 1 || x > 1000000) {
			snprintf(err, n, "--file_service_type=%s: N is a count of I/Os, 1 to 1000000", v);
			return -1;
		}
		j->fst_n = (int)x;
	}
	return 0;
}

/* fio's a:b: each file's region from --offset (--offset=N%: N% of that file, as fio's),
 * --size shared out among them (fio's: a size in bytes is the job's), else each one's own
 * to its end (--size=N% of each, a profile's cap on each); the job's size their sum; 0,
 * or -1 with why */
static int files_extent(const struct plan *p, const struct disk_cfg *c, struct job *j, uint64_t cap, char *err,
			size_t n)
{
	size_t l = c->size ? strlen(c->size) : 0;
	int shared = l && c->size[l - 1] != '%' && !c->fill_device;
	unsigned long long total = 0;
	if (shared && (parse_size_fio(c->size, &total) || total / (uint64_t)j->nfiles / j->bs == 0)) {
		snprintf(err, n, "--size=%s: %s", c->size, total ? "less than one --bs block for each of the job's files" :
			 "not a size; accepted: bytes with k/m/g/t suffix, or N%");
		return -1;
	}
	j->size = 0;
	for (int k = 0; k < j->nftg; k++) {   /* (fio's JOB.N.F: each thread's files as the first's) */
		const struct blkdev *d = &p->tg[j->ftg[k]].dev;
		uint64_t per = total / (uint64_t)j->nfiles / j->bs * j->bs, own, off = j->offset;
		if (d->is_null) {
			snprintf(err, n, "--filename: %s in a list of files: give it a job of its own", d->path);
			return -1;
		}
		if (parse_offset(c->offset_s, p->tg[j->ftg[k]].pct_of, c->offset_align ? c->offset_align : j->bs, &off,
				 err, n))
			return -1;
		if (k >= j->nfiles && off != j->foff[k % j->nfiles]) {
			snprintf(err, n, "--offset=%s: %s's region would start at %llu, thread 1's %s's at %llu: each "
				 "thread's files as big", c->offset_s, d->path, (unsigned long long)off,
				 p->tg[j->ftg[k % j->nfiles]].dev.path, (unsigned long long)j->foff[k % j->nfiles]);
			return -1;
		}
		if (k < j->nfiles)
			j->foff[k] = off;
		if (j->direct && (j->bs_max % d->lbs || j->bs % d->lbs || off % d->lbs)) {
			snprintf(err, n, "--direct=1: --bs and --offset are to be multiples of %s's logical block size (%u)",
				 d->path, d->lbs);
			return -1;
		}
		if (shared && (off >= d->size || per > d->size - off)) {
			snprintf(err, n, "--size=%s: %llu bytes of it (the job's files' share) from offset %llu go beyond "
				 "the end of %s (%llu bytes)%s", c->size, (unsigned long long)per, (unsigned long long)off,
				 d->path, (unsigned long long)d->size, extend_hint(c, d));
			return -1;
		}
		if (shared)
			own = per;
		else if (region(c, d, off, cap, j->bs, &own, err, n))
			return -1;
		if (k < j->nfiles) {
			j->fsize[k] = own;
			j->size += own;
		} else if (own < j->fsize[k % j->nfiles]) {
			snprintf(err, n, "%s: %llu bytes from --offset, thread 1's %s has %llu: each thread's files as big",
				 d->path, (unsigned long long)own, p->tg[j->ftg[k % j->nfiles]].dev.path,
				 (unsigned long long)j->fsize[k % j->nfiles]);
			return -1;
		}
	}
	return 0;
}

/* fio's dedupe_mode=working_set: the deduplicated writes each repeat one of the working
 * set's blocks (--dedupe_working_set_percentage of the region, in --bs blocks), page i's
 * data drawn from its own seed: the job's (the job index in it), or with dedupe_global one
 * for all such jobs; 0, or -1 with why */
static int dedupe_working_set(const struct disk_cfg *c, struct job *j, int index, char *err, size_t n)
{
	if (c->dedupe_ws_pct + c->dedupe_pct > 100) {
		/* fio's: the working set's blocks are unique ones */
		snprintf(err, n, "--dedupe_percentage=%lld with --dedupe_working_set_percentage=%lld: more than 100%% "
			 "(the working set's blocks are unique ones; fio's rule)", c->dedupe_pct, c->dedupe_ws_pct);
		return -1;
	}
	j->dedupe_ws = j->size * (uint64_t)c->dedupe_ws_pct / 100 / j->bs;
	if (!j->dedupe_ws) {
		snprintf(err, n, "--dedupe_working_set_percentage=%lld: not one --bs block of the region (%llu bytes)",
			 c->dedupe_ws_pct, (unsigned long long)j->size);
		return -1;
	}
	j->dedupe_ws_pct = (int)c->dedupe_ws_pct;
	j->dedupe_global = c->dedupe_global;
	j->dedupe_seed = c->dedupe_global ? 0x6a09e667f3bcc908ull : (j->randseed * 131 + 7) ^ ((uint64_t)(index + 1) << 40);
	return 0;
}

static int add_job(struct plan *p, const struct disk_cfg *c, const char *name, const struct pjob *pj,
		   char *err, size_t n)
{
	uint64_t bs_rw[DDIR_N];
	const struct blkdev *dev;
	struct job *j;
	struct disk_cfg cz;
	char zsize[32], zoff[32];
	if (p->njobs >= MAX_JOBS) {
		snprintf(err, n, "job '%s': more than %d jobs in one run", name, MAX_JOBS);
		return -1;
	}
	j = &p->jobs[p->njobs];
	memset(j, 0, sizeof *j);
	snprintf(j->name, sizeof j->name, "%s", name);
	if (plan_target(p, c, j, err, n))
		return -1;
	dev = &TG(p, j)->dev;
	switch (zones_in_bytes(c, dev, &cz, zsize, zoff, err, n)) {
	case -1: return -1;
	case 1: c = &cz; break;
	}
	/* the profile's shape, unless the user said otherwise */
	if (pj)
		j->rw = pj->rw;
	else if (parse_rw(c, j, err, n))
		return -1;
	if (c->description)
		snprintf(j->desc, sizeof j->desc, "%s", c->description);
	for (int d = 0; d < DDIR_N; d++)   /* trims: the writes' size */
		bs_rw[d] = pj && !GIVEN(c, "bs") && !GIVEN(c, "blocksize") ? pj->bs : c->bs[d];
	j->bs = bs_rw[0] < bs_rw[1] ? bs_rw[0] : bs_rw[1];
	if (bs_rw[DDIR_TRIM] < j->bs)
		j->bs = bs_rw[DDIR_TRIM];
	j->iodepth = (int)(pj && !GIVEN(c, "iodepth") ? pj->iodepth : c->iodepth);
	j->iodepth_low = c->iodepth_low && c->iodepth_low < j->iodepth ? (int)c->iodepth_low : j->iodepth;
	j->numjobs = (int)(pj && !GIVEN(c, "numjobs") ? pj->numjobs : c->numjobs);
	j->rwmixread = (int)(pj && pj->rwmixread && !GIVEN(c, "rwmixread") && !GIVEN(c, "rwmixwrite")
			     ? pj->rwmixread : c->rwmixread);
	if (GIVEN(c, "nrfiles") && c->nrfiles != j->nfiles) {
		snprintf(err, n, "--nrfiles=%lld: the job's files are those --filename names (%d here; fio's a:b names "
			 "several)", c->nrfiles, j->nfiles);
		return -1;
	}
	if (parse_fst(c->fst, j, err, n))
		return -1;
	if (c->readonly_flag && c->mode != MODE_READONLY) {
		snprintf(err, n, "--readonly and --mode=%s contradict each other", c->mode == MODE_DESTROY ? "destroy" :
			 "rewrite");
		return -1;
	}
	if (c->allow_mounted_write) {
		snprintf(err, n, "--allow_mounted_write=1: assay never writes to a mounted device");
		return -1;
	}
	if (GIVEN(c, "buffered") && GIVEN(c, "direct") && c->buffered == c->direct) {
		snprintf(err, n, "--buffered=%d and --direct=%d contradict each other", c->buffered, c->direct);
		return -1;
	}
	j->direct = GIVEN(c, "buffered") ? !c->buffered : pj && !GIVEN(c, "direct") ? pj->direct : c->direct;
	j->end_fsync = pj && !GIVEN(c, "end_fsync") ? pj->end_fsync : c->end_fsync;
	j->sync_flags = c->sync == 2 ? O_DSYNC : c->sync == 1 || c->sync == 4 ? O_SYNC : 0;
	j->fsync_on_close = c->fsync_on_close;
	j->time_based = pj && !GIVEN(c, "time_based") ? pj->time_based : c->time_based;
	j->runtime = c->runtime;
	if (pj && pj->time_based && !GIVEN(c, "runtime"))
		j->runtime = PROFILE_RUNTIME;
	j->ramp_time = c->ramp_time;
	j->ioengine = c->ioengine;
	j->fdatasync = (int)c->fdatasync;
	if (c->fsync_n && c->fdatasync) {
		snprintf(err, n, "--fsync and --fdatasync: give one or the other");
		return -1;
	}
	if (c->fsync_n) {
		j->fdatasync = (int)c->fsync_n;
		j->fsync_full = 1;
	}
	j->end_full = j->end_fsync && (!pj || GIVEN(c, "end_fsync"));
	j->randseed = (uint64_t)c->randseed;
	if (!c->randrepeat && !GIVEN(c, "randseed"))
		j->randseed = p->clock_seed;
	j->pre_read = c->pre_read;
	j->exec_prerun = c->exec_prerun;
	j->write_hint = c->write_hint;
	j->exec_postrun = c->exec_postrun;
	j->invalidate = c->invalidate && !c->pre_read;   /* fio's: pre-read, then kept */
	j->fadvise = c->fadvise_hint;
	j->norandommap = c->norandommap;
	j->bs_is_seq_rand = c->bs_is_seq_rand;
	j->compress_pct = (int)c->compress_pct;
	j->compress_chunk = (size_t)c->compress_chunk;
	j->dedupe_pct = (int)c->dedupe_pct;
	j->fixedbufs = c->fixedbufs;
	j->sqpoll = c->sqpoll;
	j->sqpoll_cpu = (int)c->sqpoll_cpu;
	j->hipri = c->hipri;
	j->hipri_pct = (int)c->hipri_pct;
	j->nowait = c->nowait;
	if (c->sync_file_range && parse_sfr(c->sync_file_range, j, err, n))
		return -1;
	if (j->nowait && !ioengine_kernel_async(j->ioengine) && j->ioengine != IOE_PVSYNC2) {
		snprintf(err, n, "--nowait: an io_uring, libaio and pvsync2 option (--ioengine=%s)",
			 ioengine_names[j->ioengine]);
		return -1;
	}
	j->offload = c->submit_mode == 1;
	if (j->offload && j->ioengine != IOE_PSYNC && j->ioengine != IOE_PVSYNC && j->ioengine != IOE_PVSYNC2) {
		snprintf(err, n, "--io_submit_mode=offload: for psync, pvsync and pvsync2 (--ioengine=%s)",
			 ioengine_names[j->ioengine]);
		return -1;
	}
	j->userspace_reap = c->userspace_reap;
	if (j->userspace_reap && j->ioengine != IOE_LIBAIO) {
		snprintf(err, n, "--userspace_reap: a libaio option (--ioengine=%s)", ioengine_names[j->ioengine]);
		return -1;
	}
	if ((j->sqpoll || j->hipri) && j->ioengine != IOE_IO_URING && !(j->hipri && !j->sqpoll && j->ioengine == IOE_PVSYNC2)) {
		snprintf(err, n, "--%s (--ioengine=%s)", j->sqpoll ? "sqthread_poll: an io_uring option" :
			 "hipri: an io_uring and pvsync2 option", ioengine_names[j->ioengine]);
		return -1;
	}
	if (j->hipri && !j->direct) {
		snprintf(err, n, "--hipri: polled I/O needs --direct=1");
		return -1;
	}
	if (j->sqpoll_cpu >= 0) {
		long ncpu = sysconf(_SC_NPROCESSORS_CONF);
		if (j->sqpoll_cpu >= ncpu) {
			snprintf(err, n, "--sqthread_poll_cpu=%d: this machine has %ld CPUs", j->sqpoll_cpu, ncpu);
			return -1;
		}
	}
	j->registerfiles = c->registerfiles;
	j->warmup_ios = pj ? pj->warmup_ios : 0;
	j->sample_ms = (double)c->sample_ms;
	j->io_timeout = c->io_timeout;
	j->spin_us = c->spin_us;
	/* fio's rules: a submit batch of 0 or beyond iodepth is the iodepth; a completion
	 * maximum below the minimum (0 included) is the minimum -- one at a time unless told;
	 * never waiting (a minimum of 0) and no maximum: all there are */
	j->batch_submit = c->batch_submit && c->batch_submit <= j->iodepth ? (int)c->batch_submit
									  : j->iodepth;
	j->batch_cmin = (int)(c->batch_cmin < j->iodepth ? c->batch_cmin : j->iodepth);
	j->batch_cmax = (int)(c->batch_cmax < j->batch_cmin ? j->batch_cmin : c->batch_cmax);
	/* assay's defaults for the kernel's queues (fio's are one I/O a call each way): every
	 * I/O ready in one submit, every completion there in one reap, as t/io_uring -- a
	 * system call is the dearest part of an I/O in a VM.  Given either way, fio's rules. */
	{
		int queues = ioengine_kernel_async(j->ioengine) && !j->offload;
		j->batch_default = queues && !GIVEN(c, "iodepth_batch_submit") && !GIVEN(c, "iodepth_batch");
		if (j->batch_default)
			j->batch_submit = j->iodepth;
		if (queues && !GIVEN(c, "iodepth_batch_complete_max"))
			j->batch_cmax = 0;
	}
	j->mode = dev->is_null ? MODE_DESTROY : c->mode;   /* /dev/null, /dev/zero: plain writes, nothing to keep */
	if (dev->is_null && j->ioengine == IOE_MMAP) {
		snprintf(err, n, "--ioengine=mmap: %s is a character device, nothing to map", dev->path);
		return -1;
	}
	j->force_uring_errno = c->force_uring_errno;
	j->slat_pcts = c->slat_pcts;
	j->clat_pcts = c->clat_pcts;
	j->lat_pcts = c->lat_pcts;
	j->npcts = c->npcts;
	j->bins = p->c->common.format == 3;   /* the run's (a job's words may repeat it) */
	memcpy(j->pcts, c->pcts, sizeof j->pcts);
	if (parse_offset(c->offset_s, TG(p, j)->pct_of, c->offset_align ? c->offset_align : j->bs, &j->offset,
			 err, n))
		return -1;
	j->bs_max = j->bs;
	if ((bs_rw[0] != bs_rw[1] || bs_rw[1] != bs_rw[2]) && pair_bs(c, j, bs_rw, err, n))
		return -1;
	if ((c->bssplit || c->bsrange) && parse_var_bs(c, j, err, n))
		return -1;
	for (int d = 0; j->direct && j->var_bs && d < DDIR_N; d++)
		for (int i = 0; i < (j->nsplit[d] ? j->nsplit[d] : 2); i++) {
			uint64_t b = j->nsplit[d] ? j->split_bs[d][i] : i ? j->range_hi[d] : j->range_lo[d];
			if (b % dev->lbs) {
				snprintf(err, n, "--%s=%s: %llu is not a multiple of %s's logical block size (%u), "
					 "which O_DIRECT needs",
					 j->bs_pair ? "bs" : c->bssplit ? "bssplit" : "bsrange", j->bs_desc,
					 (unsigned long long)b, dev->path, dev->lbs);
				return -1;
			}
		}
	if (j->direct && j->bs % dev->lbs) {
		snprintf(err, n, "--bs=%llu: not a multiple of %s's logical block size (%u), which "
			 "O_DIRECT needs", (unsigned long long)j->bs, dev->path, dev->lbs);
		return -1;
	}
	if (j->direct && j->offset % dev->lbs) {
		snprintf(err, n, "--offset=%s: not a multiple of %s's logical block size (%u)",
			 c->offset_s, dev->path, dev->lbs);
		return -1;
	}
	if (c->fill_device && dev->is_file) {
		snprintf(err, n, "--fill_device: %s is a file (fio would grow it until its file system is full): "
			 "give --size, or name the device", dev->path);
		return -1;
	}
	if (j->nftg > 1 ? files_extent(p, c, j, pj ? pj->size_cap : 0, err, n)
			: region(c, dev, j->offset, pj ? pj->size_cap : 0, j->bs, &j->size, err, n))
		return -1;
	j->fsize[0] = j->nftg > 1 ? j->fsize[0] : j->size;
	if (c->rate && c->rate_iops) {
		snprintf(err, n, "--rate and --rate_iops: give one or the other (as fio)");
		return -1;
	}
	if (c->rate ? parse_rate("rate", c->rate, 0, j->rate_bps, err, n)
		    : c->rate_iops && parse_rate("rate_iops", c->rate_iops, 1, j->rate_gap_ns, err, n))
		return -1;
	j->rate_poisson = c->rate_process == 1;
	if ((c->rate_min && parse_rate("rate_min", c->rate_min, 0, j->min_bps, err, n)) ||
	    (c->rate_iops_min && parse_rate("rate_iops_min", c->rate_iops_min, 1, j->min_gap_ns, err, n)))
		return -1;
	j->rate_cycle_ns = (uint64_t)c->rate_cycle * 1000000u;
	for (int d = 0; d < DDIR_N; d++)
		j->min_rate |= j->min_bps[d] || j->min_gap_ns[d];
	j->dist_center = -1;
	if ((c->random_distribution && parse_dist(c, j, err, n)) || parse_ss(c, j, err, n))
		return -1;
	if (c->percentage_sequential && c->percentage_random) {
		snprintf(err, n, "--percentage_sequential and --percentage_random: give one or the other");
		return -1;
	}
	if (c->percentage_sequential) {
		/* fio's inverse of percentage_random */
		if (parse_pct_random(c->percentage_sequential, j->pct_seq)) {
			snprintf(err, n, "--percentage_sequential=%s: a percent from 0 to 100, or reads,writes[,trims]",
				 c->percentage_sequential);
			return -1;
		}
		for (int d = 0; d < DDIR_N; d++)
			j->pct_seq[d] = 100 - j->pct_seq[d];
	} else if (parse_pct_random(c->percentage_random, j->pct_seq)) {
		snprintf(err, n, "--percentage_random=%s: a percent from 0 to 100, or reads,writes[,trims] (70,100)",
			 c->percentage_random);
		return -1;
	}
	j->loops = (int)c->loops;
	if (io_extent(p, c, j, err, n))
		return -1;
	j->startdelay = c->startdelay;
	j->exitall = c->exitall;
	if (c->wait_for) {
		int found = 0;
		for (int i = 0; i < p->njobs; i++)
			found |= !strcmp(p->jobs[i].name, c->wait_for);
		if (!found || strlen(c->wait_for) >= sizeof j->wait_for) {
			snprintf(err, n, "--wait_for=%s: no job of that name before '%s' (fio's waitee must be defined "
				 "first)", c->wait_for, j->name);
			return -1;
		}
		snprintf(j->wait_for, sizeof j->wait_for, "%s", c->wait_for);
	}
	j->exit_all = c->exitall && c->exit_what == 2;
	j->exitall_on_error = c->exitall_on_error;
	if (parse_errors(c, j, err, n))
		return -1;
	if (pj && !GIVEN(c, "continue_on_error") && !GIVEN(c, "ignore_error"))
		j->coe |= pj->coe;
	if (job_data(p, c, pj, j, err, n))
		return -1;
	if (dev->is_null && (j->verify || j->verify_only)) {
		snprintf(err, n, "--verify: %s keeps nothing to read back", dev->path);
		return -1;
	}
	memcpy(j->log.prefix, c->write_log, sizeof j->log.prefix);
	if (!iolog_wanted(&j->log))
		for (const char *const *o = (const char *const[]){ "log_avg_msec", "log_max_value", "log_offset",
								    "per_job_logs", "log_unix_epoch", NULL }; *o; o++)
			if (GIVEN(c, *o)) {
				snprintf(err, n, "--%s: no log asked for (--write_bw_log, --write_iops_log or "
					 "--write_lat_log)", *o);
				return -1;
			}
	if (!!c->write_log[IOLOG_HIST] != !!c->log_hist_msec ||
	    (GIVEN(c, "log_hist_coarseness") && !c->write_log[IOLOG_HIST])) {
		snprintf(err, n, c->write_log[IOLOG_HIST] ? "--write_hist_log: give its window, --log_hist_msec" :
			 "--log_hist_%s: no histogram log asked for (--write_hist_log)",
			 GIVEN(c, "log_hist_msec") ? "msec" : "coarseness");
		return -1;
	}
	j->log.hist_ms = (unsigned)c->log_hist_msec;
	j->log.hist_coarse = (unsigned)c->log_hist_coarseness;
	j->log.bs = j->bs;
	if (c->log_max_value && !c->log_avg_msec) {
		snprintf(err, n, "--log_max_value: the maximum of each window, which needs --log_avg_msec");
		return -1;
	}
	j->log.avg_ms = (unsigned)c->log_avg_msec;
	j->log.max_value = c->log_max_value;
	j->log.offset = c->log_offset;
	j->log.unix_epoch = c->log_unix_epoch;
	j->log.per_job = c->per_job_logs;
	j->thread0 = p->njobs ? p->jobs[p->njobs - 1].thread0 + p->jobs[p->njobs - 1].numjobs : 1;
	j->zero_buffers = c->zero_buffers;
	if (c->cpumask && c->cpus_allowed) {
		snprintf(err, n, "--cpumask and --cpus_allowed: give one or the other");
		return -1;
	}
	if (c->cpumask && cpumask_list(c->cpumask, j, err, n))
		return -1;
	j->mpol_mode = -1;
	if ((c->numa_cpu_nodes && parse_numa_cpus(c->numa_cpu_nodes, j, err, n)) ||
	    (c->numa_mem_policy && parse_mpol(c->numa_mem_policy, j, err, n)))
		return -1;
	if (!c->numa_cpu_nodes && c->cpus_allowed && parse_cpus(c->cpus_allowed, j, err, n))
		return -1;
	j->cpus_split = c->cpus_policy == 1;
	if ((c->thinktime && parse_think("thinktime", c->thinktime, &j->think_ns, err, n)) ||
	    (c->thinktime_spin && parse_think("thinktime_spin", c->thinktime_spin, &j->think_spin_ns, err, n)))
		return -1;
	if (j->think_spin_ns > j->think_ns)
		j->think_spin_ns = j->think_ns;    /* fio's: the spin is part of the pause */
	j->think_blocks = (int)c->thinktime_blocks;
	j->think_issue = c->think_issue;
	j->rate_ign_think = c->rate_ign_think;
	j->flow = (int)c->flow;
	j->flow_id = c->flow_id;
	j->flow_sleep_us = (uint64_t)c->flow_sleep;
	if (c->thinktime_iotime) {   /* fio's: seconds when bare */
		double s;
		long long sec;
		if (!c->thinktime) {
			snprintf(err, n, "--thinktime_iotime=%s: give --thinktime too (the pause)", c->thinktime_iotime);
			return -1;
		}
		if (!parse_int(c->thinktime_iotime, &sec) && sec >= 0 && sec <= 3600)
			s = (double)sec;
		else if (parse_time(c->thinktime_iotime, &s) || s < 0 || s > 3600) {
			snprintf(err, n, "--thinktime_iotime=%s: not a time (seconds, or with a unit: 500ms, 9s; at most "
				 "1h)", c->thinktime_iotime);
			return -1;
		}
		j->think_iotime_ns = (uint64_t)llround(s * 1e9);
		/* fio's: without --thinktime_blocks, time alone says when */
		if (j->think_iotime_ns && !GIVEN(c, "thinktime_blocks"))
			j->think_blocks = INT32_MAX;
	}
	for (int d = 0; c->max_latency && d < DDIR_N; d++) {   /* fio's max_latency, per direction */
		const char *from;
		size_t l;
		char part[64];
		if (opt_dir_part(c->max_latency, d, &from, &l) || l >= sizeof part) {
			snprintf(err, n, "--max_latency=%s: one time, or reads,writes[,trims]", c->max_latency);
			return -1;
		}
		memcpy(part, from, l);
		part[l] = 0;
		if (*part && parse_think("max_latency", part, &j->max_lat_ns[d], err, n))
			return -1;
	}
	j->nice = (int)c->nice;
	/* fio's prioclass and prio: a level alone is best effort's; a class alone, level 4
	 * (the kernel's default); realtime needs CAP_SYS_ADMIN, as fio's */
	j->ioprio = c->prioclass || c->prio >= 0
			    ? (int)((c->prioclass ? c->prioclass : 2) << 13 | (c->prio >= 0 ? c->prio : 4))
			    : -1;
	j->log.prio = j->ioprio < 0 ? 0 : (unsigned)j->ioprio;
	j->log.log_prio = c->log_prio;
	if (parse_cmdprio(c, j, err, n))
		return -1;
	memcpy(j->log.cmdprio, j->cmdprio_val, sizeof j->log.cmdprio);   /* the logs' last column, I/O by I/O */
	if (c->latency_target && parse_think("latency_target", c->latency_target, &j->lat_target_ns, err, n))
		return -1;
	if (c->latency_window && parse_think("latency_window", c->latency_window, &j->lat_window_ns, err, n))
		return -1;
	if (!j->lat_target_ns)
		for (const char *const *o = (const char *const[]){ "latency_window", "latency_percentile", "latency_run",
								    NULL }; *o; o++)
			if (GIVEN(c, *o)) {
				snprintf(err, n, "--%s: no --latency_target given", *o);
				return -1;
			}
	j->lat_pct = c->latency_percentile;
	j->lat_run = c->latency_run;
	j->unified = c->unified == 3 ? 0 : c->unified == 4 ? 1 : c->unified;   /* 0/1: none/mixed */
	if (j->time_based && j->runtime <= 0) {
		snprintf(err, n, "--time_based needs a --runtime");
		return -1;
	}
	if (c->ba && c->ba != j->bs) {
		/* fio's blockalign: random offsets on this boundary; the random map is off */
		if (c->ba % 512 || (j->direct && c->ba % dev->lbs)) {
			snprintf(err, n, "--blockalign=%llu: not a multiple of the logical block size (%u)", c->ba,
				 j->direct ? dev->lbs : 512);
			return -1;
		}
		if (j->verify || j->pct_seq[0] || j->pct_seq[1] || j->pct_seq[2] || j->rand_run > 1 ||
		    j->dist != DIST_RANDOM || j->rw == RW_RANDTRIMWRITE) {
			snprintf(err, n, "--blockalign with %s: offsets off the --bs grid", j->verify ? "--verify" :
				 j->rw == RW_RANDTRIMWRITE ? "randtrimwrite" :
				 j->rand_run > 1 ? "an offset modifier" : j->dist != DIST_RANDOM ? "--random_distribution" :
				 "--percentage_random");
			return -1;
		}
		j->ba = c->ba;
		j->norandommap = 1;
	}
	if (j->ioengine == IOE_NULL && (j->verify || c->read_iolog)) {
		snprintf(err, n, "--ioengine=null moves no data: %s", j->verify ? "nothing to --verify" :
			 "a --read_iolog replay is of real I/O");
		return -1;
	}
	if (j->seq_hole && (j->var_bs || j->seq_hole % j->bs)) {
		snprintf(err, n, "--rw=%s: the hole is to be a multiple of --bs (%llu), with one block size", c->rw,
			 (unsigned long long)j->bs);
		return -1;
	}
	if (parse_zones(c, dev, j, err, n) || job_replay(p, c, pj, j, err, n))
		return -1;
	if (c->dedupe_mode && j->dedupe_pct && rw_writes(j->rw) && dedupe_working_set(c, j, p->njobs, err, n))
		return -1;
	if (c->trim_pct) {
		const char *why = !j->verify || j->verify == VM_NULL ? "needs --verify (what is read back)" :
				  !rw_writes(j->rw) ? "needs a job that writes" : j->verify_only ? "with --verify_only" :
				  j->verify_backlog ? "with --verify_backlog" : j->zbd ? "with --zonemode=zbd" :
				  dev->is_null ? dev->path :
				  j->numjobs > 1 && !j->per_thread && j->offset_inc < job_fsize(j, 1) ?
				  "with threads sharing one region (a block one discards, another checks): give "
				  "--offset_increment" : NULL;
		if (why) {
			snprintf(err, n, "--trim_percentage=%lld: %s", c->trim_pct, why);
			return -1;
		}
		j->trim_pct = (int)c->trim_pct;
		j->trim_zero = c->trim_zero;
	}
	/* fio's: only where two I/Os in flight may overlap and one changes data */
	j->serialize_overlap = c->serialize_overlap && j->iodepth > 1 && (rw_modifies(j->rw) || j->replay);
	if (j->serialize_overlap && j->zbd) {
		snprintf(err, n, "--serialize_overlap with --zonemode=zbd: not here (its writes, each at a write pointer, "
			 "never overlap)");
		return -1;
	}
	/* a profile's jobs, and a job alone, run one after another; --name jobs at once
	 * unless stonewalled */
	p->group[p->njobs] = !p->njobs ? 0 : p->group[p->njobs - 1] + (pj || c->stonewall);
	p->rgroup[p->njobs] = !p->njobs ? 0 : p->rgroup[p->njobs - 1] + (pj || c->stonewall || c->new_group);
	p->njobs++;
	return 0;
}

/* fio's --directory: a relative --filename inside it (an absolute one is taken as it is,
 * as fio does; each of an a:b list's).  A job (named: job) with neither gets fio's own
 * names for its files, JOB.0.0 (--nrfiles of them: JOB.0.0:JOB.0.1:...), in --directory or
 * here, when --size says how big to lay them out; fio would make them per thread, so only
 * for one thread. */
/* fio's filename_format: each keyword (any case) replaced, in fio's order, wherever it is */
static void format_name(const char *fmt, const char *job, long long t, long long k, char *out, size_t n)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	char val[24], tmp[PATH_MAX];
	snprintf(out, n, "%s", fmt);
	for (int i = 0; i < 4; i++)
		for (char *at; (at = strcasestr(out, keys[i]));) {
			if (i == 1 || i == 2)
				snprintf(val, sizeof val, "%lld", i == 1 ? t : k);
			snprintf(tmp, sizeof tmp, "%.*s%s%s", (int)(at - out), out, i == 0 ? job : i == 3 ? "" : val,
				 at + strlen(keys[i]));
			snprintf(out, n, "%s", tmp);
		}
}

static int join_dir(struct disk_cfg *c, const char *job, char *err, size_t n)
{
	const char *dir = c->directory, *fn = c->filename;
	char def[MAX_JOB_FILES * 80], *path;
	size_t l = 0, cap;
	int list;
	if (!fn && job && c->size) {
		if (c->nrfiles > MAX_FILES || c->nrfiles * c->numjobs > MAX_JOB_FILES) {
			snprintf(err, n, "--nrfiles=%lld with --numjobs=%lld: more than %d files in one job (%d for each "
				 "thread)", c->nrfiles, c->numjobs, MAX_JOB_FILES, MAX_FILES);
			return -1;
		}
		/* fio's jobname.jobnum.filenum (or --filename_format): each thread its own; a
		 * format without $jobnum names the same files for every thread, which share them */
		const char *fmt = c->filename_format ? c->filename_format : "$jobname.$jobnum.$filenum";
		char a[80], b[80];
		format_name(fmt, job, 0, 0, a, sizeof a);
		format_name(fmt, job, 1, 0, b, sizeof b);
		c->per_thread_files = c->numjobs > 1 && strcmp(a, b);
		format_name(fmt, job, 0, 1, b, sizeof b);
		if (!a[0] || strchr(a, ':') || strlen(a) >= sizeof a - 1 || (c->nrfiles > 1 && !strcmp(a, b))) {
			snprintf(err, n, "--filename_format=%s: %s", fmt, !a[0] ? "names no file" : strchr(a, ':') ?
				 "a name with ':' (fio's list separator)" : strlen(a) >= sizeof a - 1 ? "names longer than 78 "
				 "characters" : "the same name for each of --nrfiles: put $filenum in it");
			return -1;
		}
		for (long long t = 0; t < (c->per_thread_files ? c->numjobs : 1); t++)
			for (long long k = 0; k < c->nrfiles; k++) {
				format_name(fmt, job, t, k, a, sizeof a);
				l += (size_t)snprintf(def + l, sizeof def - l, "%s%s", l ? ":" : "", a);
			}
		fn = def;
		dir = dir ? dir : ".";
	}
	if (!dir) {
		c->directory = NULL;
		return 0;
	}
	if (!fn) {
		snprintf(err, n, "--directory=%s: give --filename too, a name inside it (or --size, for fio's "
			 "JOBNAME.0.0)", dir);
		return -1;
	}
	list = name_count(fn) > 1;
	cap = strlen(fn) + (size_t)name_count(fn) * (strlen(dir) + 2);
	if (!(path = malloc(cap))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	l = 0;
	/* a list joined name by name */
	for (const char *a = fn, *e; ; a = e + 1) {
		size_t len = list ? strcspn(a, ":") : strlen(a);
		e = a + len;
		l += (size_t)snprintf(path + l, l < cap ? cap - l : 0, "%s%s%s%.*s", a == fn ? "" : ":",
				      a[0] == '/' ? "" : dir, a[0] == '/' ? "" : "/", (int)len, a);
		if (!*e)
			break;
	}
	c->filename = path;    /* kept for the run */
	c->directory = NULL;
	return 0;
}

static int is_name(const char *t)
{
	return !strncmp(t, "--name", 6) && (!t[6] || t[6] == '=');
}

/* fio's jobs: each --name starts one, with the global options and then its own */
static int plan_named_jobs(struct plan *p, char *err, size_t n)
{
	const struct disk_cfg *c = p->c;
	struct disk_cfg *jc = malloc(sizeof *jc);
	int r = 0;
	if (!jc) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (int s = c->nglobal; s < c->ntok && !r; ) {
		char *pos[16];
		int np, e = s + 1;
		while (e < c->ntok && !is_name(c->tok[e]))
			e++;
		/* every word was checked when the whole line was read: no error here; read
		 * again when the job's kb_base is not the one its sizes were read under */
		char seen[sizeof opt_iec_seen];
		memcpy(seen, opt_iec_seen, sizeof seen);
		for (int pass = 0; pass < 2; pass++) {
			memcpy(opt_iec_seen, seen, sizeof seen);   /* what a pass under another base saw: not so */
			memset(jc, 0, sizeof *jc);
			opt_defaults(disk_opts, jc);
			opt_parse_given(disk_opts, jc, c->nglobal, c->tok, pos, &np, 16, jc->common.given);
			opt_parse_given(disk_opts, jc, e - s, c->tok + s, pos, &np, 16, jc->common.given);
			if (KB_BASE(jc) == opt_kb_base)
				break;
			opt_kb_base = KB_BASE(jc);
		}
		jc->tok = c->tok;
		if (!jc->filename && c->filename)
			jc->filename = c->filename;     /* the run's, already joined */
		else if (join_dir(jc, jc->name, err, n)) {
			r = -1;
			break;
		}
		if (parse_pcts(jc, err, n)) {
			r = -1;
		} else {
			if (GIVEN(jc, "rwmixwrite") && jc->rwmixwrite >= 0)
				jc->rwmixread = 100 - jc->rwmixwrite;
			r = add_job(p, jc, jc->name, NULL, err, n);
		}
		s = e;
	}
	free(jc);
	return r;
}

static int make_plan(struct plan *p, char *err, size_t n)
{
	struct disk_cfg *c = p->c;
	p->clock_seed = (now_ns() ^ ((uint64_t)getpid() << 32)) & 0x7fffffffffffffffull;
	if (GIVEN(c, "rwmixwrite") && c->rwmixwrite >= 0)
		c->rwmixread = 100 - c->rwmixwrite;
	if (!c->profile)
		return c->nglobal < c->ntok ? plan_named_jobs(p, err, n) : add_job(p, c, c->name, NULL, err, n);
	if (c->ntok - c->nglobal > 0) {
		int names = 0;
		for (int i = c->nglobal; i < c->ntok; i++)
			names += is_name(c->tok[i]);
		if (names > 1) {
			snprintf(err, n, "--profile and several --name jobs: give one or the other");
			return -1;
		}
	}
	if (GIVEN(c, "rw") || GIVEN(c, "readwrite")) {
		snprintf(err, n, "--rw and --profile: give one or the other");
		return -1;
	}
	for (const char *s = c->profile; *s;) {
		const char *comma = strchr(s, ',');
		size_t l = comma ? (size_t)(comma - s) : strlen(s);
		const struct profile *pr = find_profile(s, l);
		if (l == 3 && !strncmp(s, "all", 3)) {
			for (size_t i = 0; i < NPROFILES; i++)
				for (int k = 0; k < 3 && profiles[i].j[k].bs && !profiles[i].explicit_only; k++) {
					char name[64];
					snprintf(name, sizeof name, "%s%s%s", profiles[i].name,
						 profiles[i].j[k].suffix[0] ? "." : "", profiles[i].j[k].suffix);
					if (add_job(p, c, name, &profiles[i].j[k], err, n))
						return -1;
				}
		} else if (!pr) {
			char names[256] = "";
			size_t nl = 0;
			for (size_t i = 0; i < NPROFILES; i++)
				nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s, ", profiles[i].name);
			snprintf(err, n, "--profile=%s: unknown profile '%.*s'; accepted: %sall", c->profile,
				 (int)l, s, names);
			return -1;
		} else {
			for (int k = 0; k < 3 && pr->j[k].bs; k++) {
				char name[64];
				snprintf(name, sizeof name, "%s%s%s", pr->name, pr->j[k].suffix[0] ? "." : "",
					 pr->j[k].suffix);
				if (add_job(p, c, name, &pr->j[k], err, n))
					return -1;
			}
		}
		if (!comma)
			break;
		s = comma + 1;
	}
	return 0;
}

/* ---- safety ---- */

/* Marks the targets a job changes; how many there are */
/* The host-managed zoned device among the files job j writes to, or NULL: such a device
 * fails any write not at its zone's write pointer, so the job is skipped and the device
 * never claimed for it -- unless it writes there (--zonemode=zbd) in destroy mode (its
 * zone resets erase; a rewrite cannot write a zone's bytes back in place) */
static const struct blkdev *zoned_refuses(const struct plan *p, const struct job *j)
{
	if (j->zbd && p->c->mode == MODE_DESTROY)
		return NULL;
	for (int k = 0; k < j->nftg && rw_modifies(j->rw) && !j->verify_only; k++)
		if (!strcmp(p->tg[j->ftg[k]].dev.zoned, "host-managed"))
			return &p->tg[j->ftg[k]].dev;
	return NULL;
}

static int mark_writes(struct plan *p)
{
	int nw = 0;
	for (int i = 0; i < p->njobs; i++)
		for (int k = 0; k < p->jobs[i].nftg && !zoned_refuses(p, &p->jobs[i]); k++)
			p->tg[p->jobs[i].ftg[k]].writes |= rw_modifies(p->jobs[i].rw);
	for (int i = 0; i < p->ntg; i++)
		nw += p->tg[i].writes;
	return nw;
}

static int write_allowed_dev(const struct plan *p, const struct job *j, const struct blkdev *d, char *err, size_t n);

/* May job j write to its device (each of its files) in this mode?  0, or -1 with the reason. */
static int write_allowed(const struct plan *p, const struct job *j, char *err, size_t n)
{
	for (int k = 0; k < j->nftg; k++)
		if (write_allowed_dev(p, j, &p->tg[j->ftg[k]].dev, err, n))
			return -1;
	return 0;
}

static int write_allowed_dev(const struct plan *p, const struct job *j, const struct blkdev *d, char *err, size_t n)
{
	const struct disk_cfg *c = p->c;
	const char *mode = c->mode == MODE_DESTROY ? "destroy" : "rewrite";
	if (d->is_null)
		return 0;        /* /dev/null, /dev/zero hold nothing */
	if (d->readonly) {
		snprintf(err, n, "refusing --mode=%s: %s is read-only", mode, d->path);
		return -1;
	}
	if (d->mounted[0]) {
		snprintf(err, n, "refusing --mode=%s: %s is %s", mode, d->path, d->mounted);
		return -1;
	}
	if (d->holders) {
		snprintf(err, n, "refusing --mode=%s: %s is in use by %d stacked device(s) (dm, md: see "
			 "/sys/block/%s/holders)", mode, d->path, d->holders, d->name);
		return -1;
	}
	if (j->expect_serial && strcmp(j->expect_serial, d->serial)) {
		snprintf(err, n, "refusing --mode=%s: %s has serial '%s', not '%s'", mode, d->path,
			 d->serial, j->expect_serial);
		return -1;
	}
	if (j->expect_size && j->expect_size != d->size) {
		snprintf(err, n, "refusing --mode=%s: %s has %llu bytes, not %llu", mode, d->path,
			 (unsigned long long)d->size, j->expect_size);
		return -1;
	}
	if (c->mode == MODE_DESTROY && !j->force) {
		if (!d->signature_checked) {
			snprintf(err, n, "refusing --mode=destroy: cannot read %s to check it holds no "
				 "partition table or filesystem", d->path);
			return -1;
		}
		if (d->partitions || d->signature[0]) {
			snprintf(err, n, "refusing --mode=destroy: %s holds %s%s%s; add --force to destroy it",
				 d->path, d->partitions ? "partitions" : "",
				 d->partitions && d->signature[0] ? " and " : "",
				 d->signature[0] ? d->signature : "");
			return -1;
		}
	}
	return 0;
}

/* fio's ioscheduler: write want to the device's queue/scheduler (one it offers); 0, or -1
 * with why */
static int set_scheduler(const struct blkdev *d, const char *want, char *err, size_t n)
{
	char path[300], *list, *save = NULL, offers[256] = "";
	int found = 0, fd;
	size_t l = 0;
	if (d->is_file) {
		snprintf(err, n, "--ioscheduler=%s: %s is a file: name the device", want, d->path);
		return -1;
	}
	snprintf(path, sizeof path, "/sys/block/%s/queue/scheduler", d->name);
	if (!(list = read_file(path, 4096, NULL))) {
		snprintf(err, n, "--ioscheduler=%s: cannot read %s: %s", want, path, strerror(errno));
		return -1;
	}
	for (char *w = strtok_r(list, " []\n", &save); w; w = strtok_r(NULL, " []\n", &save)) {
		found |= !strcmp(w, want);
		l += (size_t)snprintf(offers + l, l < sizeof offers ? sizeof offers - l : 0, "%s%s", l ? ", " : "", w);
	}
	free(list);
	if (!found) {
		snprintf(err, n, "--ioscheduler=%s: %s offers %s", want, d->name, offers[0] ? offers : "none");
		return -1;
	}
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0 || write_all(fd, want, strlen(want))) {
		snprintf(err, n, "--ioscheduler=%s: cannot set it (%s): %s", want, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Before any write, a block device is claimed exclusively for the whole run (O_EXCL:
 * EBUSY when it is mounted or claimed by someone else), so nobody mounts it meanwhile and
 * the per-job opens need no claim of their own (a ring's teardown may drop its file
 * reference late).  Trims go through this descriptor: the kernel drops the range's cached
 * pages for the holder of the claim, where for anyone else, while the claim is held, it
 * can only try to invalidate them (EBUSY when another thread's buffered write left one
 * dirty: fio, claiming nothing, never sees that). */
static int claim_device(const struct blkdev *d, char *err, size_t n)
{
	int fd = open(d->path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EBUSY)
			snprintf(err, n, "refusing to write: %s is in use (mounted, or claimed by "
				 "another program)", d->path);
		else
			snprintf(err, n, "cannot claim %s: %s", d->path, strerror(errno));
	}
	return fd;
}

/* the job's file k opened */
static int open_target(const struct plan *p, const struct job *j, int k, int writing, char *err, size_t n)
{
	int flags = (writing ? O_RDWR | j->sync_flags : O_RDONLY) | O_CLOEXEC | (j->direct ? O_DIRECT : 0);
	const char *path = p->tg[j->ftg[k]].dev.path;
	int fd = open(path, flags);
	if (fd < 0) {
		int e = errno;
		if (e == EINVAL && j->direct)
			snprintf(err, n, "cannot open %s with O_DIRECT (--direct=1): not supported here", path);
		else
			snprintf(err, n, "cannot open %s: %s", path, strerror(e));
		errno = e;
	}
	return fd;
}

/* ---- running ---- */

/* ---- fio's I/O logs ---- */

#define MAX_LOG_FILES 4096

/* Create (empty) every log file the run will write, before it starts: a name that cannot
 * be written fails the run at once, not after it.  Only regular files: never a device
 * node, a symlink's target or the file under test. */
static int create_logs(const struct plan *p, char *err, size_t n)
{
	struct stat st;
	int nfiles = 0;
	for (int k = 0; k < p->njobs; k++) {
		const struct job *j = &p->jobs[k];
		for (int rep = 1; iolog_wanted(&j->log) && rep <= p->c->repeat; rep++)
			for (int t = 0; t < (j->log.per_job ? j->numjobs : 1); t++)
				for (int kind = 0; kind < LOGF_N; kind++) {
					const char *o = iolog_opt_name[iolog_file_opt[kind]];
					char path[PATH_MAX];
					int fd;
					if (!j->log.prefix[iolog_file_opt[kind]])
						continue;
					if (iolog_path(&j->log, j->name, kind, j->thread0 + t, rep, (int)p->c->repeat,
						       path, sizeof path)) {
						snprintf(err, n, "--%s: the log's file name is too long", o);
						return -1;
					}
					if (++nfiles > MAX_LOG_FILES) {
						snprintf(err, n, "--%s: more than %d log files (threads x repeats): give "
							 "--per_job_logs=0", o, MAX_LOG_FILES);
						return -1;
					}
					int tested = 0;
					for (int k2 = 0; k2 < p->ntg; k2++)
						tested |= same_target(path, p->tg[k2].dev.path);
					if (!lstat(path, &st) && (!S_ISREG(st.st_mode) || tested)) {
						snprintf(err, n, "--%s: %s exists and is %s: give another name", o, path,
							 S_ISREG(st.st_mode) ? "the file under test" : "not a regular file");
						return -1;
					}
					fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
					if (fd < 0) {
						snprintf(err, n, "--%s: cannot create %s: %s", o, path, strerror(errno));
						return -1;
					}
					close(fd);
				}
	}
	return 0;
}

/* append each thread's log of a finished job to its file(s), then free them; a file
 * that cannot be written is the job's error */
static void write_logs(const struct plan *p, struct job_result *r)
{
	const struct job *j = &r->job;
	if (!iolog_wanted(&j->log))
		return;
	for (int kind = 0; kind < LOGF_N; kind++)
		for (int i = 0; j->log.prefix[iolog_file_opt[kind]] && i < r->nworkers; i++) {
			char path[PATH_MAX];
			FILE *f = NULL;
			int fd, bad;
			iolog_path(&j->log, j->name, kind, j->thread0 + i, r->repeat + 1, (int)p->c->repeat,
				   path, sizeof path);
			fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
			bad = fd < 0 || !(f = fdopen(fd, "a"));
			if (!bad) {
				setvbuf(f, NULL, _IOFBF, 1 << 20);
				bad = iolog_print(kind == LOGF_HIST ? &r->w[i].hlog : &r->w[i].log, kind, f);
				bad |= fclose(f);
			} else if (fd >= 0) {
				close(fd);
			}
			if (bad && !r->err) {
				r->err = errno ? errno : EIO;
				snprintf(r->errmsg, sizeof r->errmsg, "writing the I/O log %s: %s", path,
					 strerror(r->err));
			}
		}
	for (int i = 0; i < r->nworkers; i++) {
		if (r->w[i].log.truncated || r->w[i].hlog.truncated)
			warn("disk: %s: thread %d's %s log stopped after %llu entries (memory): give a longer "
			     "--log_%s_msec", j->name, i + 1, r->w[i].log.truncated ? "I/O" : "histogram",
			     (unsigned long long)(r->w[i].log.truncated ? r->w[i].log.n : r->w[i].hlog.n),
			     r->w[i].log.truncated ? "avg" : "hist");
		iolog_free(&r->w[i].log);
		iolog_free(&r->w[i].hlog);
	}
}

static void result_init(struct job_result *r, const struct job *j, int repeat)
{
	memset(r, 0, sizeof *r);
	r->job = *j;
	r->repeat = repeat;
	for (int d = 0; d < DDIR_N; d++)
		ddir_stats_init(&r->agg[d]);
	moments_init(&r->sync_lat);
}

/* fio's invalidate=1: what the page cache holds of the region would make buffered reads
 * a memory benchmark; a block device's whole cache goes (BLKFLSBUF, writing back what is
 * dirty first, as sync would), a file's region is dropped with fadvise */
static void drop_cache(const struct plan *p, const struct job *j, int k, int fd)
{
	if (p->tg[j->ftg[k]].dev.is_file || ioctl(fd, BLKFLSBUF, 0))   /* every thread's region */
		posix_fadvise(fd, (off_t)file_base(j, k % j->nfiles, 0),
			      (off_t)(j->fsize[k % j->nfiles] + (uint64_t)(j->numjobs - 1) * j->offset_inc), POSIX_FADV_DONTNEED);
}

/* fio's pre_read: the region (every thread's) read once through the page cache before
 * the job starts; 0, or -1 with the job's error */
static int pre_read(const struct plan *p, struct job_result *r, int k)
{
	const struct job *j = &r->job;
	const char *path = p->tg[j->ftg[k]].dev.path;
	uint64_t off = file_base(j, k % j->nfiles, 0),
		 end = file_base(j, k % j->nfiles, j->numjobs - 1) + j->fsize[k % j->nfiles];
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = fd < 0 ? errno : 0;
	char *buf = e ? NULL : malloc(1 << 20);
	if (!e && !buf)
		e = ENOMEM;
	while (!e && off < end) {
		ssize_t rd = pread(fd, buf, end - off < (1u << 20) ? (size_t)(end - off) : (1u << 20), (off_t)off);
		if (rd <= 0)
			e = rd < 0 ? errno : EIO;
		else
			off += (uint64_t)rd;
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	if (e) {
		r->err = e;
		snprintf(r->errmsg, sizeof r->errmsg, "--pre_read: reading %s at offset %llu: %s", path,
			 (unsigned long long)off, e == EIO && off < end ? "end of device" : strerror(e));
	}
	return e ? -1 : 0;
}

/* fio's fadvise_hint (1, its default: by the job's pattern): a random job's target is
 * read without readahead (POSIX_FADV_RANDOM), a sequential one's with twice the window
 * (POSIX_FADV_SEQUENTIAL); buffered reads then cost what fio's cost */
static void fadvise_hint(const struct job *j, int k, int fd)
{
	int advice = fadvise_random(j) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	if (j->fadvise)
		posix_fadvise(fd, (off_t)file_base(j, k % j->nfiles, 0),
			      (off_t)(j->fsize[k % j->nfiles] + (uint64_t)(j->numjobs - 1) * j->offset_inc), advice);
}

/* fio's exec_prerun/exec_postrun: the command through /bin/sh, its output in
 * JOBNAME.WHAT.txt (fio's file), once per thread as fio's threads each run it; 0, or -1
 * with why */
static int exec_hook(const struct job *j, const char *cmd, const char *what, char *err, size_t n)
{
	extern char **environ;
	char out[PATH_MAX + 32];
	posix_spawn_file_actions_t fa;
	snprintf(out, sizeof out, "%s.%s.txt", j->name, what);
	for (int t = 0; t < j->numjobs; t++) {
		pid_t pid;
		int st = 0, r;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
		r = posix_spawn(&pid, "/bin/sh", &fa, NULL, (char *[]){ "sh", "-c", (char *)cmd, NULL }, environ);
		posix_spawn_file_actions_destroy(&fa);
		if (r) {
			snprintf(err, n, "--exec_%s: cannot run /bin/sh: %s", what, strerror(r));
			return -1;
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			snprintf(err, n, "--exec_%s=%s: %s %d (its output: %s)", what, cmd,
				 WIFEXITED(st) ? "exit status" : "killed by signal",
				 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), out);
			return -1;
		}
	}
	return 0;
}

static void close_files(struct job_result *r)
{
	for (int k = 0; k < r->job.nftg; k++)
		close(r->fds[k]);
}

/* Open the target and set up the job's workers; -1 when it does not run (skipped, or
 * failed with r->err). */
static int job_prepare(struct plan *p, struct job_result *r)
{
	const struct job *j = &r->job;
	int writing = rw_modifies(j->rw) && !j->verify_only;   /* --verify_only: reads */
	char err[300];
	/* the logs of every thread together may take half the memory free */
	uint64_t log_cap = !iolog_wanted(&j->log) ? 0 : mem_available() / 2 / (unsigned)j->numjobs;
	unsigned dirs = job_dirs(j);   /* the logs' directions (a read-back's reads too) */

	if (writing && p->c->mode == MODE_READONLY && !TG(p, j)->dev.is_null) {
		r->skipped = rw_trims(j->rw) ? "trims; --mode=readonly (the default) never changes the device: "
					       "give --mode=destroy"
					     : "writes; --mode=readonly (the default) never writes: give --mode=rewrite "
					       "(writes back what it read) or --mode=destroy";
		return -1;
	}
	if (rw_trims(j->rw) && p->c->mode == MODE_REWRITE) {
		r->skipped = "trims; a trim discards the blocks' data and --mode=rewrite keeps every byte: give "
			     "--mode=destroy";
		return -1;
	}
	if (zoned_refuses(p, j)) {
		snprintf(r->skipmsg, sizeof r->skipmsg, "%s; %s is a host-managed zoned device (writes only "
			 "at each zone's write pointer): give --zonemode=zbd and --mode=destroy (zone resets "
			 "erase); its reads are measured", rw_trims(j->rw) ? "trims" : "writes", zoned_refuses(p, j)->path);
		r->skipped = r->skipmsg;
		return -1;
	}
	for (int k = 0; k < j->nftg; k++) {
		const struct blkdev *d = &p->tg[j->ftg[k]].dev;
		if (rw_trims(j->rw) && !d->is_file && d->discard_max == 0 && !j->zbd) {
			r->err = EOPNOTSUPP;
			snprintf(r->errmsg, sizeof r->errmsg, "trim: %s does not discard (its queue/discard_max_bytes is 0)",
				 d->path);
			return -1;
		}
	}
	if (j->exec_prerun && exec_hook(j, j->exec_prerun, "prerun", err, sizeof err)) {
		r->err = ECANCELED;
		snprintf(r->errmsg, sizeof r->errmsg, "%s", err);
		return -1;
	}
	for (int k = 0; k < j->nftg; k++)
		if ((r->fds[k] = open_target(p, j, k, writing, err, sizeof err)) < 0) {
			r->err = errno;
			snprintf(r->errmsg, sizeof r->errmsg, "%s", err);
			while (k--)
				close(r->fds[k]);
			return -1;
		}
	if (j->zbd) {   /* fio's zonemode=zbd: the target's zones, the jobs on it sharing them */
		struct target *t = &p->tg[j->ftg[0]];
		if ((!t->zbd && zbd_make(&t->zbd, r->fds[0], &t->dev, j, err, sizeof err)) ||
		    (t->zbd && zbd_size(t->zbd) != j->zbd_zone &&
		     snprintf(err, sizeof err, "--zonesize=%llu: another job on %s has zones of %llu bytes",
			      (unsigned long long)j->zbd_zone, t->dev.path, (unsigned long long)zbd_size(t->zbd)))) {
			r->err = EINVAL;
			snprintf(r->errmsg, sizeof r->errmsg, "%s", err);
			close_files(r);
			return -1;
		}
		r->job.zt = t->zbd;
	}
	for (int k = 0; k < j->nftg && j->write_hint; k++) {
		/* on the inode (fio's direct=1 path, a per-file hint, is gone since Linux 5.19) */
		uint64_t h = (uint64_t)j->write_hint;
		if (fcntl(r->fds[k], F_GET_RW_HINT, &r->old_hint[k]) || fcntl(r->fds[k], F_SET_RW_HINT, &h)) {
			r->err = errno;
			snprintf(r->errmsg, sizeof r->errmsg, "--write_hint: fcntl F_SET_RW_HINT on %s: %s",
				 p->tg[j->ftg[k]].dev.path, strerror(errno));
			while (k--)
				fcntl(r->fds[k], F_SET_RW_HINT, &r->old_hint[k]);
			close_files(r);
			return -1;
		}
	}
	for (int k = 0; k < j->nftg && j->invalidate; k++)
		drop_cache(p, j, k, r->fds[k]);
	for (int k = 0; k < j->nftg && j->pre_read; k++)
		if (pre_read(p, r, k)) {
			close_files(r);
			return -1;
		}
	for (int k = 0; k < j->nftg; k++)
		fadvise_hint(j, k, r->fds[k]);
	r->nworkers = r->writing = j->numjobs;
	r->w = calloc((size_t)j->numjobs, sizeof *r->w);
	if (!r->w) {
		r->err = ENOMEM;
		snprintf(r->errmsg, sizeof r->errmsg, "out of memory for %d threads", j->numjobs);
		r->nworkers = 0;
		close_files(r);
		return -1;
	}
	if (iolog_wanted(&j->log) && !log_cap)
		log_cap = 256ull << 20;     /* no /proc/meminfo */
	if (j->ss.kind && ss_init(&r->ss, &r->job.ss, j->numjobs)) {
		r->err = ENOMEM;
		snprintf(r->errmsg, sizeof r->errmsg, "--steadystate: cannot set up");
		free(r->w);
		r->w = NULL;
		r->nworkers = 0;
		close_files(r);
		return -1;
	}
	for (int i = 0; i < j->numjobs; i++) {
		struct worker *w = &r->w[i];
		w->job = &r->job;
		w->ss = j->ss.kind ? &r->ss : NULL;
		w->idx = i;
		w->writing = &r->writing;
		for (int k = 0; k < j->nfiles; k++) {   /* the thread's files (fio's JOB.N.F: its own) */
			int x = (j->per_thread ? i * j->nfiles : 0) + k;
			const struct target *t = &p->tg[j->ftg[x]];
			w->f[k] = (struct wfile){ &t->dev, r->fds[x], t->excl_fd >= 0 ? t->excl_fd : r->fds[x] };
		}
		w->dev = w->f[0].dev;
		w->fd = w->f[0].fd;
		iolog_init(&w->log, &r->job.log, dirs, log_cap);
		iolog_init_hist(&w->hlog, &r->job.log, dirs, log_cap,
				(const struct hist *const[]){ &w->st[DDIR_READ].clat, &w->st[DDIR_WRITE].clat,
							      &w->st[DDIR_TRIM].clat });
		/* the sync and vsync engines move the file position: a descriptor of its own each (fio's
		 * files of each thread are its own already) */
		for (int k = 0; ioengine_seeks(j->ioengine) && i > 0 && !j->per_thread && k < j->nfiles; k++)
			if ((w->f[k].fd = open_target(p, j, k, writing, err, sizeof err)) >= 0)
				fadvise_hint(j, k, w->f[k].fd);
			else if (!w->err) {
				w->err = errno;
				snprintf(w->errmsg, sizeof w->errmsg, "%s", err);
			}
		w->fd = w->f[0].fd;
	}
	return 0;
}

/* the sync engine's own descriptors of thread i (above) */
static int own_fds(const struct job_result *r, int i)
{
	return ioengine_seeks(r->job.ioengine) && i > 0 && !r->job.per_thread;
}

/* Add a job's threads up (the aggregate: group_reporting). */
static void job_aggregate(struct job_result *r)
{
	const struct job *j = &r->job;
	for (int i = 0; i < j->numjobs; i++) {
		struct worker *w = &r->w[i];
		if (w->err && !r->err) {
			r->err = w->err;
			snprintf(r->errmsg, sizeof r->errmsg, "%s", w->errmsg);
		}
		if (i >= r->nworkers)
			continue;
		errlog_merge(&r->errs, &w->errs, "");
		for (int d = 0; d < DDIR_N; d++)
			ddir_stats_merge(&r->agg[d], &w->st[d]);
		moments_merge(&r->sync_lat, &w->sync_lat);
		r->sync_ios += w->sync_ios;
		if (worker_runtime(w) > 0) {
			struct cpu_use u = { 0 };
			worker_cpu(w, 0, &u);
			r->usr_s += u.usr;
			r->sys_s += u.sys;
			r->ctx += u.ctx;
		}
		if (worker_runtime(w) > r->runtime_ns)
			r->runtime_ns = worker_runtime(w);
		for (int d = 0; d < DDIR_N; d++)
			if (worker_dir_ns(w, d) > r->dir_ns[d])
				r->dir_ns[d] = worker_dir_ns(w, d);
		if (w->ver.ran) {   /* the threads read back at once: the slowest one's time */
			r->ver.ran = 1;
			r->ver.blocks += w->ver.blocks;
			r->ver.trimmed += w->ver.trimmed;
			if (w->ver.bad && !r->ver.bad)
				snprintf(r->ver.first, sizeof r->ver.first, "%s", w->ver.first);
			r->ver.bad += w->ver.bad;
			if ((double)(w->ver.ns + w->ver.bl_ns) / 1e9 > r->ver.seconds)
				r->ver.seconds = (double)(w->ver.ns + w->ver.bl_ns) / 1e9;
		}
	}
	if (r->ver.bad && !r->err && !coe_nonfatal(j, COE_VERIFY, EILSEQ)) {
		r->err = EILSEQ;
		snprintf(r->errmsg, sizeof r->errmsg, "verify: %llu of %llu blocks bad; %s",
			 (unsigned long long)r->ver.bad, (unsigned long long)r->ver.blocks, r->ver.first);
	}
}

/* Add its threads up, then close the job's files. */
static void job_finish(const struct plan *p, struct job_result *r)
{
	const struct job *j = &r->job;
	char err[600];
	job_aggregate(r);
	for (int k = 0; k < j->nftg; k++)
		if (j->fsync_on_close && rw_writes(j->rw) && fsync(r->fds[k]) && !r->err) {
			r->err = errno;
			snprintf(r->errmsg, sizeof r->errmsg, "fsync_on_close: %s", strerror(errno));
		}
	for (int i = 1; i < j->numjobs; i++)
		for (int k = 0; own_fds(r, i) && k < j->nfiles; k++)
			if (r->w[i].f[k].fd >= 0)
				close(r->w[i].f[k].fd);
	for (int k = 0; k < j->nftg && j->write_hint; k++)
		fcntl(r->fds[k], F_SET_RW_HINT, &r->old_hint[k]);
	close_files(r);
	r->nworkers = j->numjobs;
	if (j->exec_postrun && exec_hook(j, j->exec_postrun, "postrun", err, sizeof err))
		warn("disk: %s: %s", j->name, err);
}

/* ---- fio's ETA line: "Jobs: 2: [45.0%][r=221MiB/s,w=0B/s][r=56.7k,w=0 IOPS][eta 00m:11s]" ---- */

struct eta {
	const struct job_result *rs;
	int n, stop;
	pthread_t tid;
};

/* seconds a job has left after elapsed s, having moved done bytes (-1: unknown) */
static double eta_left(const struct job *j, double elapsed, double done)
{
	double total = j->startdelay + j->ramp_time + j->runtime, bytes;
	if (j->time_based)
		return total > elapsed ? total - elapsed : 0;
	bytes = (double)j->numjobs * (double)(j->io_size ? j->io_size : j->size) * (j->loops > 1 ? j->loops : 1);
	if (done <= 0 || elapsed <= 0)
		return j->runtime > 0 ? total - elapsed : -1;
	done = bytes * elapsed / done - elapsed;        /* at the rate so far */
	return j->runtime > 0 && total - elapsed < done ? total - elapsed : done;
}

static void *eta_main(void *arg)
{
	struct eta *e = arg;
	uint64_t t0 = now_ns(), last = t0, prev[DDIR_N][2] = { { 0 } };
	int width = 0;
	for (;;) {
		uint64_t cur[DDIR_N][2] = { { 0 } }, now;
		double el, left = 0, dt;
		char rb[DDIR_N][24], ri[DDIR_N][24], tb[40] = "", ti[40] = "", line[240];
		int threads = 0;
		for (int t = 0; t < 10 && !__atomic_load_n(&e->stop, __ATOMIC_RELAXED); t++)
			nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
		if (__atomic_load_n(&e->stop, __ATOMIC_RELAXED))
			break;
		now = now_ns();
		el = (double)(now - t0) / 1e9;
		dt = (double)(now - last) / 1e9;
		for (int k = 0; k < e->n; k++) {
			double done = 0, l;
			for (int i = 0; e->rs[k].w && i < e->rs[k].nworkers; i++, threads++)
				for (int d = 0; d < DDIR_N; d++) {
					uint64_t b = __atomic_load_n(&e->rs[k].w[i].prog_bytes[d], __ATOMIC_RELAXED);
					cur[d][0] += __atomic_load_n(&e->rs[k].w[i].prog_ios[d], __ATOMIC_RELAXED);
					cur[d][1] += b;
					if (d == DDIR_READ)   /* --verify's read-back: not the workload's progress */
						b -= __atomic_load_n(&e->rs[k].w[i].ver.prog_bytes, __ATOMIC_RELAXED);
					if (d != DDIR_TRIM || !rw_writes(e->rs[k].job.rw))  /* trimwrite: by its writes */
						done += (double)b;
				}
			l = e->rs[k].w ? eta_left(&e->rs[k].job, el, done) : 0;
			left = l < 0 || left < 0 ? -1 : l > left ? l : left;
		}
		for (int d = 0; d < DDIR_N; d++) {
			scale_bytes((double)(cur[d][1] - prev[d][1]) / dt, rb[d], sizeof rb[d], 0);
			scale_count((double)(cur[d][0] - prev[d][0]) / dt, ri[d], sizeof ri[d]);
		}
		memcpy(prev, cur, sizeof prev);
		last = now;
		if (cur[DDIR_TRIM][0]) {    /* fio's t= only once there are trims */
			snprintf(tb, sizeof tb, ",t=%s/s", rb[DDIR_TRIM]);
			snprintf(ti, sizeof ti, ",t=%s", ri[DDIR_TRIM]);
		}
		if (left >= 0)
			snprintf(line, sizeof line, "Jobs: %d: [%.1f%%][r=%s/s,w=%s/s%s][r=%s,w=%s%s IOPS][eta %02um:%02us]",
				 threads, el + left > 0 ? 100 * el / (el + left) : 100.0, rb[0], rb[1], tb, ri[0], ri[1],
				 ti, (unsigned)(left + 0.5) / 60, (unsigned)(left + 0.5) % 60);
		else
			snprintf(line, sizeof line, "Jobs: %d: [r=%s/s,w=%s/s%s][r=%s,w=%s%s IOPS][eta --m:--s]", threads,
				 rb[0], rb[1], tb, ri[0], ri[1], ti);
		fprintf(stderr, "\r%-*s", width, line);
		fflush(stderr);
		width = (int)strlen(line);
	}
	if (width)
		fprintf(stderr, "\r%*s\r", width, "");
	return NULL;
}

/* ---- fio's status-interval: the report so far, every N seconds, in the run's formats ---- */

struct status {
	const struct plan *p;
	struct job_result *rs;
	const int *ready;
	int n, stop;
	unsigned gen;          /* the workers' snap_req: a new report asks */
	pthread_t tid;
	struct cpusnap s0;
};

static void disk_text(const struct json *r, FILE *f);
static void group_bandwidth(struct job_result *rs, int n);
static int report_groups(struct job_result *rs, int n, int merge);
static void fill_global(struct json *g, const struct disk_cfg *c, const struct blkdev *d);

static void status_report(struct status *st)
{
	const struct plan *p = st->p;
	const struct disk_cfg *c = p->c;
	struct job_result *r2 = calloc((size_t)st->n, sizeof *r2);
	struct worker *snaps[MAX_JOBS] = { 0 };
	struct json *doc, *jobs, *as;
	struct cpusnap s1;
	struct cpuload load;
	unsigned gen, fmts = c->common.formats ? (unsigned)c->common.formats : 1u << c->common.format;
	int n = 0;
	if (!r2)
		return;
	for (int k = 0; k < st->n; k++)
		if (st->ready[k] && st->rs[k].w && st->rs[k].nworkers > 0 &&
		    (snaps[k] = calloc((size_t)st->rs[k].job.numjobs, sizeof *snaps[k])))  /* as r->w */
			for (int i = 0; i < st->rs[k].nworkers; i++)
				st->rs[k].w[i].snap_dst = &snaps[k][i];
	gen = st->gen + 1;
	__atomic_store_n(&st->gen, gen, __ATOMIC_RELEASE);
	/* every thread answers at its next turn of the loop, or has ended (its figures final) */
	for (int k = 0; k < st->n; k++)
		for (int i = 0; snaps[k] && i < st->rs[k].nworkers; i++) {
			struct worker *w = &st->rs[k].w[i];
			for (;;) {
				if (__atomic_load_n(&w->snap_seen, __ATOMIC_ACQUIRE) == gen)
					break;
				if (__atomic_load_n(&w->finished, __ATOMIC_ACQUIRE)) {
					worker_snapshot(w, &snaps[k][i], 0);
					break;
				}
				nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
			}
		}
	cpusnap_take(&s1);
	cpuload_between(&st->s0, &s1, &load);
	for (int k = 0; k < st->n; k++) {
		struct job_result *r = &r2[n];
		if (!snaps[k])
			continue;
		/* the job as far as its threads got: their copies added up as at the end */
		result_init(r, &st->rs[k].job, st->rs[k].repeat);
		r->group = st->rs[k].group;
		r->t0_ns = st->rs[k].t0_ns;
		r->w = snaps[k];
		r->nworkers = st->rs[k].nworkers;
		r->load = load;
		job_aggregate(r);
		n++;
	}
	report_groups(r2, n, 0);     /* each reporting group's bandwidth shares */
	doc = json_obj();
	json_add_str(doc, "fio version", "assay-" ASSAY_VERSION);
	json_add_int(doc, "timestamp", (long long)time(NULL));
	fill_global(json_add_obj(doc, "global options"), c, &p->tg[0].dev);
	jobs = json_add_arr(doc, "jobs");
	for (int k = 0; k < n; k++)
		job_json(&r2[k], c->group_reporting, jobs);
	as = json_add_obj(doc, "assay");
	json_add_str(as, "status_report", "so far: the run goes on");
	add_devices(as, p);
	/* the run's formats, in fio's order */
	if (fmts & 4)
		disk_terse(doc, stdout);
	if (fmts & 10)
		json_print(stdout, doc, 2);
	if (fmts & 1)
		disk_text(doc, stdout);
	fflush(stdout);
	json_free(doc);
	for (int k = 0; k < st->n; k++) {
		for (int i = 0; snaps[k] && i < st->rs[k].nworkers; i++)
			worker_snap_free(&snaps[k][i]);
		free(snaps[k]);
	}
	free(r2);
}

static void *status_main(void *arg)
{
	struct status *st = arg;
	uint64_t every = (uint64_t)(st->p->c->status_interval * 1e9), next = now_ns() + every;
	cpusnap_take(&st->s0);
	for (;;) {
		/* in 10 ms steps, so that the group's end is seen at once */
		while (!__atomic_load_n(&st->stop, __ATOMIC_RELAXED) && now_ns() < next)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		if (__atomic_load_n(&st->stop, __ATOMIC_RELAXED))
			break;
		status_report(st);
		next += every;
	}
	return NULL;
}

/* Run one group: every thread of every job in it starts measuring together (a barrier),
 * as fio starts a group's jobs; the CPU load is taken over the whole group. */
static void run_group(struct plan *p, struct job_result *rs, int n)
{
	int total = 0, ready[MAX_JOBS] = { 0 }, failed = 0, stop = 0, show_eta, show_status;
	struct eta eta = { 0 };
	struct status st = { 0 };
	pthread_barrier_t bar;
	struct cpusnap s0, s1;
	struct cpuload load;

	for (int k = 0; k < n; k++)
		if (!job_prepare(p, &rs[k])) {
			ready[k] = 1;
			total += rs[k].job.numjobs;
		}
	if (!total)
		return;
	eta.rs = rs;
	eta.n = n;
	show_eta = (p->c->eta == 1 || (p->c->eta == 0 && isatty(2))) &&
		   !pthread_create(&eta.tid, NULL, eta_main, &eta);
	st.p = p;
	st.rs = rs;
	st.ready = ready;
	st.n = n;
	for (int k = 0; p->c->status_interval > 0 && k < n; k++)
		for (int i = 0; ready[k] && i < rs[k].job.numjobs; i++)
			rs[k].w[i].snap_req = &st.gen;
	show_status = p->c->status_interval > 0 && !pthread_create(&st.tid, NULL, status_main, &st);
	if (total == 1) {
		/* one thread: run it here, no second thread waiting in join (with its CPU
		 * mask as it was after) */
		cpu_set_t mask;
		int saved = !sched_getaffinity(0, sizeof mask, &mask);
		for (int k = 0; k < n; k++)
			if (ready[k]) {
				rs[k].w[0].started = 1;
				cpusnap_take(&s0);
				worker_run(&rs[k].w[0]);
				cpusnap_take(&s1);
			}
		if (saved)
			sched_setaffinity(0, sizeof mask, &mask);
	} else if (pthread_barrier_init(&bar, NULL, (unsigned)total + 1)) {
		for (int k = 0; k < n; k++)
			if (ready[k]) {
				rs[k].err = ENOMEM;
				snprintf(rs[k].errmsg, sizeof rs[k].errmsg, "cannot start %d threads", total);
				rs[k].nworkers = 0;
			}
		memset(&s0, 0, sizeof s0);
		s1 = s0;
	} else {
		for (int k = 0; k < n; k++) {
			struct job_result *r = &rs[k];
			if (!ready[k])
				continue;
			for (int i = 0; i < r->job.numjobs; i++) {
				struct worker *w = &r->w[i];
				w->barrier = &bar;
				w->group_stop = &stop;
				for (int m = 0; r->job.wait_for[0] && m < k; m++)
					if (!strcmp(rs[m].job.name, r->job.wait_for) && ready[m]) {
						w->waitee = rs[m].w;     /* fio's wait_for, in this group */
						w->nwaitee = rs[m].job.numjobs;
					}
				if (failed || pthread_create(&w->tid, NULL, worker_run, w)) {
					/* stand in for the missing thread at the barrier */
					if (!failed)
						r->nworkers = i;
					failed = 1;
					w->err = EAGAIN;
					snprintf(w->errmsg, sizeof w->errmsg, "cannot start thread %d", i);
					__atomic_store_n(&w->finished, 1, __ATOMIC_RELEASE);   /* no wait_for on it */
					__atomic_sub_fetch(&r->writing, 1, __ATOMIC_ACQ_REL);  /* nor a read-back */
					pthread_barrier_wait(&bar);
				}
			}
			if (failed && r->nworkers == r->job.numjobs)
				r->nworkers = 0;   /* a later job: none of its threads started */
		}
		pthread_barrier_wait(&bar);
		cpusnap_take(&s0);
		for (int k = 0; k < n; k++)
			for (int i = 0; ready[k] && i < rs[k].nworkers; i++)
				pthread_join(rs[k].w[i].tid, NULL);
		cpusnap_take(&s1);
		pthread_barrier_destroy(&bar);
	}
	if (show_eta) {
		__atomic_store_n(&eta.stop, 1, __ATOMIC_RELAXED);
		pthread_join(eta.tid, NULL);
	}
	if (show_status) {
		__atomic_store_n(&st.stop, 1, __ATOMIC_RELAXED);
		pthread_join(st.tid, NULL);
	}
	cpuload_between(&s0, &s1, &load);
	for (int k = 0; k < n; k++)
		if (ready[k]) {
			rs[k].load = load;
			job_finish(p, &rs[k]);
		}
}

/* fio's aggregate bandwidth of a group (each direction: the jobs' bytes over their
 * runtimes, KiB/s), which per= in its reports is a share of */
static void group_bandwidth(struct job_result *rs, int n)
{
	double kib[DDIR_N] = { 0 };
	for (int k = 0; k < n; k++)
		for (int d = 0; d < DDIR_N; d++)
			if (rs[k].dir_ns[d])
				kib[d] += (double)rs[k].agg[d].bytes / 1024.0 / ((double)rs[k].dir_ns[d] / 1e9);
	for (int k = 0; k < n; k++)
		memcpy(rs[k].group_kib, kib, sizeof kib);
}

/* fio's group_reporting over several jobs of a group: one report, named after the
 * first, of all their threads; returns how many results remain (skipped ones stay apart) */
static int merge_group(struct job_result *rs, int n)
{
	int base = -1, out = 0;
	for (int k = 0; k < n; k++) {
		struct job_result *r = &rs[k], *b;
		struct worker *nw;
		char name[sizeof r->job.name + 2];
		if (r->skipped || !r->w || base < 0) {
			if (!r->skipped && r->w && base < 0)
				base = out;
			if (out != k)
				rs[out] = *r;
			out++;
			continue;
		}
		b = &rs[base];
		nw = realloc(b->w, (size_t)(b->nworkers + r->nworkers) * sizeof *nw);
		if (!nw) {
			if (out != k)
				rs[out] = *r;
			out++;
			continue;
		}
		b->w = nw;
		memcpy(b->w + b->nworkers, r->w, (size_t)r->nworkers * sizeof *nw);
		b->nworkers += r->nworkers;
		for (int d = 0; d < DDIR_N; d++)
			ddir_stats_merge(&b->agg[d], &r->agg[d]);
		/* (fio merges priorities by value: jobs whose --cmdprio_* or priority differ have
		 * none reported apart here) */
		if (memcmp(b->job.cmdprio_pct, r->job.cmdprio_pct, sizeof b->job.cmdprio_pct) ||
		    memcmp(b->job.cmdprio_nval, r->job.cmdprio_nval, sizeof b->job.cmdprio_nval) ||
		    memcmp(b->job.cmdprio_val, r->job.cmdprio_val, sizeof b->job.cmdprio_val) || b->job.ioprio != r->job.ioprio)
			b->job.cmdprio_pct[0] = b->job.cmdprio_pct[1] = 0;
		moments_merge(&b->sync_lat, &r->sync_lat);
		b->sync_ios += r->sync_ios;
		b->usr_s += r->usr_s;
		b->sys_s += r->sys_s;
		b->ctx += r->ctx;
		if (r->runtime_ns > b->runtime_ns)
			b->runtime_ns = r->runtime_ns;
		for (int d = 0; d < DDIR_N; d++)
			if (r->dir_ns[d] > b->dir_ns[d])
				b->dir_ns[d] = r->dir_ns[d];
		if (r->ver.ran) {   /* each job's read-back */
			b->ver.ran = 1;
			b->ver.blocks += r->ver.blocks;
			b->ver.trimmed += r->ver.trimmed;
			if (r->ver.bad && !b->ver.bad)
				snprintf(b->ver.first, sizeof b->ver.first, "%s: %s", r->job.name, r->ver.first);
			b->ver.bad += r->ver.bad;
			b->ver.seconds = fmax(b->ver.seconds, r->ver.seconds);
		}
		if (r->err && !b->err) {
			b->err = r->err;
			snprintf(b->errmsg, sizeof b->errmsg, "%s: %s", r->job.name, r->errmsg);
		}
		snprintf(name, sizeof name, "%s: ", r->job.name);
		errlog_merge(&b->errs, &r->errs, name);
		b->job.coe |= r->job.coe;
		free(r->w);       /* the threads' samples now belong to the base */
		ss_free(&r->ss);
	}
	return out;
}

/* The jobs of a run group, reporting group by reporting group (fio's groupid: --new_group
 * splits a run group): each one's bandwidth shares, and with group_reporting one report
 * each; how many results remain, in order at the front */
static int report_groups(struct job_result *rs, int n, int merge)
{
	int out = 0;
	for (int a = 0, b; a < n; a = b) {
		int m;
		for (b = a + 1; b < n && rs[b].group == rs[a].group; b++)
			;
		group_bandwidth(rs + a, b - a);
		m = merge && b - a > 1 ? merge_group(rs + a, b - a) : b - a;
		if (out != a)
			memmove(rs + out, rs + a, (size_t)m * sizeof *rs);
		out += m;
	}
	return out;
}

static void result_free(struct job_result *r)
{
	for (int i = 0; r->w && i < r->nworkers; i++) {
		for (int d = 0; d < DDIR_N; d++) {
			free(r->w[i].smp.ios[d]);
			free(r->w[i].smp.bytes[d]);
		}
		iolog_free(&r->w[i].log);
		iolog_free(&r->w[i].hlog);
		free(r->w[i].vmap);
		free(r->w[i].tmap);
	}
	free(r->w);
	ss_free(&r->ss);
}

/* ---- repeats: mean, stddev, 95% CI of the headline figures of each job ---- */

struct rep_series {
	char name[64];
	double v[DDIR_N][4][100];     /* [ddir][iops, bw_bytes, clat p50, clat p99][repeat] */
	int n;
};

static void rep_add(struct rep_series *s, const struct job_result *r)
{
	int k = s->n;
	if (k >= 100)
		return;
	for (int d = 0; d < DDIR_N; d++) {
		double rt = (double)r->dir_ns[d] / 1e9;
		s->v[d][0][k] = rt > 0 ? (double)r->agg[d].ios / rt : 0;
		s->v[d][1][k] = rt > 0 ? (double)r->agg[d].bytes / rt : 0;
		s->v[d][2][k] = (double)hist_percentile(&r->agg[d].clat, 50);
		s->v[d][3][k] = (double)hist_percentile(&r->agg[d].clat, 99);
	}
	s->n++;
}

static struct json *rep_json(const struct rep_series *s, const struct job *j)
{
	static const char *const fig[4] = { "iops", "bw_bytes", "clat_p50_ns", "clat_p99_ns" };
	struct json *o = json_obj();
	for (int d = 0; d < DDIR_N; d++) {
		struct json *dj;
		if (!(job_dirs(j) >> d & 1))
			continue;   /* the directions it does; a --verify read-back's reads */
		dj = json_add_obj(o, ddir_name[d]);
		for (int f = 0; f < 4; f++)
			json_add(dj, fig[f], stats_json(s->v[d][f], s->n));
	}
	return o;
}

/* ---- the command ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* --percentile_list=99:99.9:99.99 (fio's: at most 20, sorted; here also without repeats,
 * which would be one JSON key) */
static int parse_pcts(struct disk_cfg *c, char *err, size_t n)
{
	const char *s = c->percentile_list;
	int k = 0;
	if (!s) {
		c->npcts = HIST_NPCT;
		memcpy(c->pcts, hist_default_pcts, sizeof hist_default_pcts);
		return 0;
	}
	for (;;) {
		char *end;
		double v = strtod(s, &end);
		if (end == s || (*end && *end != ':') || isnan(v)) {
			snprintf(err, n, "--percentile_list=%s: not a list of percents separated by ':' "
				 "(e.g. 50:99:99.9)", c->percentile_list);
			return -1;
		}
		v = round(v * 1e6) / 1e6;   /* as reported: fio's keys have six decimals */
		if (!(v > 0 && v <= 100)) {
			snprintf(err, n, "--percentile_list=%s: %g is not a percent in (0,100]",
				 c->percentile_list, v);
			return -1;
		}
		if (k == MAX_PCTS) {
			snprintf(err, n, "--percentile_list=%s: more than %d percents", c->percentile_list,
				 MAX_PCTS);
			return -1;
		}
		c->pcts[k++] = v;
		if (!*end)
			break;
		s = end + 1;
	}
	qsort(c->pcts, (size_t)k, sizeof c->pcts[0], cmp_double);
	c->npcts = 0;
	for (int i = 0; i < k; i++)
		if (!i || c->pcts[i] != c->pcts[i - 1])
			c->pcts[c->npcts++] = c->pcts[i];
	return 0;
}

/* A fio job file?  A regular text file with a [section] line. */
static char *read_jobfile(const char *path)
{
	struct stat st;
	char *text;
	size_t len;
	FILE *f;
	int section = 0;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 20))
		return NULL;
	f = fopen(path, "r");
	if (!f)
		return NULL;
	text = malloc((size_t)st.st_size + 1);
	len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!text)
		return NULL;
	text[len] = 0;
	if (strlen(text) != len) {         /* binary: a file to measure */
		free(text);
		return NULL;
	}
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		l += strspn(l, " \t");
		if (*l == '[') {
			section = 1;
			break;
		}
	}
	if (!section) {
		free(text);
		return NULL;
	}
	return text;
}

static int push_tok(struct disk_cfg *c, int *cap, char *t)
{
	if (c->ntok == *cap) {
		char **nt = realloc(c->tok, (size_t)(*cap = *cap ? *cap * 2 : 64) * sizeof *nt);
		if (!nt)
			return -1;
		c->tok = nt;
	}
	c->tok[c->ntok++] = t;
	return 0;
}

/* fio's --section (given once or more, or a comma list): the i-th section named on the
 * command line; how many there are */
static const char *section_at(const struct disk_cfg *c, int want)
{
	static char buf[128];
	int k = 0;
	for (int i = 0; i < c->common.argc; i++) {
		const char *a = c->common.argv[i], *v = NULL;
		if (!strncmp(a, "--section=", 10) || !strncmp(a, "-section=", 9))
			v = strchr(a, '=') + 1;
		else if ((!strcmp(a, "--section") || !strcmp(a, "-section")) && i + 1 < c->common.argc)
			v = c->common.argv[++i];
		for (; v && *v; v += strcspn(v, ","), v += *v == ',') {
			size_t l = strcspn(v, ",");
			if (l && k++ == want) {
				snprintf(buf, sizeof buf, "%.*s", (int)l, v);
				return buf;
			}
		}
	}
	return NULL;
}

static int count_sections(const struct disk_cfg *c)
{
	int k = 0;
	while (k < 64 && section_at(c, k))
		k++;
	return k;
}

/* is the job file's section sect one --section named? (seen: which were found) */
static int section_named(const struct disk_cfg *c, const char *sect, unsigned char seen[64])
{
	for (int i = 0; i < 64; i++) {
		const char *s = section_at(c, i);
		if (!s)
			break;
		if (!strcmp(s, sect)) {
			seen[i] = 1;
			return 1;
		}
	}
	return 0;
}

/* a job file's key=value as the word "--key=value" (tl: where the value starts, past
 * "--key="), fio's ${VAR} (the environment's, or nothing) and $pagesize, $mb_memory,
 * $ncpus expanded in the value */
static char *job_value(const char *key, const char *val, size_t tl)
{
	size_t cap = tl + strlen(val) + 64, len;
	char *t = malloc(cap);
	if (!t)
		return NULL;
	len = (size_t)snprintf(t, cap, "--%s=", key);
	while (*val) {
		char num[32];
		const char *add = NULL;
		size_t skip = 1, al;
		if (val[0] == '$' && val[1] == '{' && strchr(val, '}')) {
			char name[128];
			size_t l = (size_t)(strchr(val, '}') - val - 2);
			snprintf(name, sizeof name, "%.*s", (int)(l < sizeof name ? l : sizeof name - 1), val + 2);
			add = *name && getenv(name) ? getenv(name) : "";
			skip = l + 3;
		} else if (!strncmp(val, "$pagesize", 9)) {
			snprintf(num, sizeof num, "%ld", sysconf(_SC_PAGESIZE));
			add = num, skip = 9;
		} else if (!strncmp(val, "$mb_memory", 10)) {
			snprintf(num, sizeof num, "%lld",
				 (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / (1024 * 1024));
			add = num, skip = 10;
		} else if (!strncmp(val, "$ncpus", 6)) {
			snprintf(num, sizeof num, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
			add = num, skip = 6;
		}
		al = add ? strlen(add) : 1;
		if (len + al + 1 > cap) {
			char *nt = realloc(t, cap = (len + al + 1) * 2);
			if (!nt) {
				free(t);
				return NULL;
			}
			t = nt;
		}
		memcpy(t + len, add ? add : val, al);
		len += al;
		val += skip;
	}
	t[len] = 0;
	return t;
}

/* reading a job file (and those it includes): the words so far, the section under way */
struct jf {
	struct disk_cfg *c, *scratch;
	char **ftok, *sect;
	int nf, fcap, nfglobal, skipping, nsect;
	int name_at;            /* the section's --name word (fio's name= in it replaces it) */
	unsigned char seen[64];
};

/* a file fio's include names: beside the file naming it, unless absolute */
static char *read_include(const char *from, const char *name, char *path, size_t pn)
{
	const char *slash = strrchr(from, '/');
	struct stat st;
	char *text;
	FILE *f;
	size_t len;
	if (name[0] == '/' || !slash)
		snprintf(path, pn, "%s", name);
	else
		snprintf(path, pn, "%.*s/%s", (int)(slash - from), from, name);
	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 20) || !(f = fopen(path, "re")))
		return NULL;
	text = malloc((size_t)st.st_size + 1);
	len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (text)
		text[len] = 0;
	return text;
}

/* the lines of one job file: each option checked (FILE:LINE: naming a bad one) and kept as
 * a word; fio's include reads another file in its place (the texts stay: words point
 * into them) */
static int jf_lines(struct jf *s, char *text, const char *file, int depth, char *err, size_t n)
{
	struct disk_cfg *c = s->c;
	int line = 0;
	for (char *l = text, *next; l && *l; l = next) {
		char *e, *key, *val, *t, e2[300];
		size_t tl;
		line++;
		next = strchr(l, '\n');
		if (next)
			*next++ = 0;
		l += strspn(l, " \t\r");
		l[strcspn(l, "#;")] = 0;     /* fio's: a comment runs from ; or # to the line's end */
		for (e = l + strlen(l); e > l && strchr(" \t\r", e[-1]); e--)
			;
		*e = 0;
		if (!*l)
			continue;
		if (*l != '[' && s->skipping)
			continue;     /* a section --section did not name */
		if (!strncmp(l, "include", 7) && (l[7] == ' ' || l[7] == '\t')) {
			char path[4096], *inc;
			const char *name = l + 8 + strspn(l + 8, " \t");
			if (depth >= 8) {
				snprintf(err, n, "%s:%d: include: nested more than 8 deep", file, line);
				return -1;
			}
			errno = 0;
			if (!(inc = read_include(file, name, path, sizeof path))) {
				snprintf(err, n, "%s:%d: include %s: %s", file, line, name,
					 errno ? strerror(errno) : "not a readable text file");
				return -1;
			}
			if (jf_lines(s, inc, path, depth + 1, err, n))
				return -1;
			continue;
		}
		if (*l == '[') {
			if (e[-1] != ']' || e - l < 3) {
				snprintf(err, n, "%s:%d: '%s': a section is [name]", file, line, l);
				return -1;
			}
			e[-1] = 0;
			s->sect = l + 1;
			s->skipping = strcmp(s->sect, "global") && s->nsect && !section_named(c, s->sect, s->seen);
			if (s->skipping)
				continue;
			if (!strcmp(s->sect, "global")) {
				if (s->nf > s->nfglobal) {
					snprintf(err, n, "%s:%d: [global] after a job: put it first", file, line);
					return -1;
				}
				continue;
			}
			tl = strlen(s->sect) + 8;
			if (!(t = malloc(tl)))
				return -1;
			snprintf(t, tl, "--name=%s", s->sect);
			s->name_at = s->nf;
		} else {
			if (!s->sect) {
				snprintf(err, n, "%s:%d: '%s' comes before any [section]", file, line, l);
				return -1;
			}
			key = l;
			val = strchr(l, '=');
			if (val) {
				char *ke = val;
				while (ke > key && strchr(" \t", ke[-1]))
					ke--;
				*ke = 0;
				val++;
				val += strspn(val, " \t");
			}
			if (!strcmp(key, "profile") || (!strcmp(key, "name") && (!val || !*val))) {
				snprintf(err, n, "%s:%d: %s: %s", file, line, key, !strcmp(key, "name") ? "give the job's name: "
					 "name=NAME" : "not in a job file (a [section] is a job)");
				return -1;
			}
			if (!strcmp(key, "name") && !strcmp(s->sect, "global"))
				continue;     /* fio's: each section names its job anyway */
			if (!strcmp(key, "name")) {
				/* fio's: the job's name, in place of its section's */
				tl = strlen(val) + 8;
				if (!(t = malloc(tl)))
					return -1;
				snprintf(t, tl, "--name=%s", val);
				s->ftok[s->name_at] = t;     /* the section's word stays allocated: words point in */
				continue;
			}
			if (!val) {     /* a key alone: a flag set, or an optional value left out */
				const struct opt *o = opt_find(disk_opts, key);
				val = o && (o->flags & OPT_OPTARG) ? "" : "1";
			}
			tl = strlen(key) + 4;
			if (!(t = job_value(key, val, tl)))
				return -1;
			if (opt_set(disk_opts, s->scratch, key, t + tl - 1, e2, sizeof e2)) {
				snprintf(err, n, "%s:%d: %s", file, line, e2);
				free(t);
				return -1;
			}
		}
		if (s->nf == s->fcap) {
			char **nt = realloc(s->ftok, (size_t)(s->fcap = s->fcap ? s->fcap * 2 : 64) * sizeof *nt);
			if (!nt)
				return -1;
			s->ftok = nt;
		}
		s->ftok[s->nf++] = t;
		if (!strcmp(s->sect, "global"))
			s->nfglobal = s->nf;
	}
	return 0;
}

/* The words in the order they apply: the job file's [global], the command line's global
 * options, the job file's jobs, the command line's jobs (fio's: a job's own options win;
 * here the command line's global options also win over the file's).  Each line of the
 * file is checked; an error names the file and line. */
static int order_words(struct disk_cfg *c, char *text, char *err, size_t n)
{
	struct jf s = { .c = c, .nsect = count_sections(c) };
	int first_name = c->common.argc, cap = 0;
	int r = -1;
	if (!(s.scratch = calloc(1, sizeof *s.scratch)))
		goto out;
	opt_defaults(disk_opts, s.scratch);
	for (int i = 0; i < c->common.argc; i++)
		if (is_name(c->common.argv[i])) {
			first_name = i;
			break;
		}
	if (jf_lines(&s, text, c->jobfile, 0, err, n))
		goto out;
	for (int i = 0; i < s.nsect; i++)
		if (!s.seen[i]) {
			snprintf(err, n, "--section=%s: %s has no such section", section_at(c, i), c->jobfile);
			goto out;
		}
	for (int i = 0; i < s.nfglobal; i++)
		if (push_tok(c, &cap, s.ftok[i]))
			goto out;
	for (int i = 0; i < first_name; i++)
		if (push_tok(c, &cap, c->common.argv[i]))
			goto out;
	c->nglobal = c->ntok;
	for (int i = s.nfglobal; i < s.nf; i++)
		if (push_tok(c, &cap, s.ftok[i]))
			goto out;
	for (int i = first_name; i < c->common.argc; i++)
		if (push_tok(c, &cap, c->common.argv[i]))
			goto out;
	r = 0;
out:
	if (r && !*err)
		snprintf(err, n, "out of memory");
	free(s.ftok);      /* the words stay: options point into them */
	free(s.scratch);
	return r;
}

static int disk_check(void *p, int npos, char **pos, char *err, size_t n)
{
	struct disk_cfg *c = p;
	char *text = npos == 1 ? read_jobfile(pos[0]) : NULL;
	*err = 0;
	if (text) {
		/* a fio job file: read again, the file's words and the command line's in
		 * their order */
		c->jobfile = pos[0];
		if (order_words(c, text, err, n))
			return EXIT_USAGE;
		opt_defaults(disk_opts, c);
		memset(c->common.given, 0, sizeof c->common.given);
		if (opt_parse_given(disk_opts, c, c->ntok, c->tok, pos, &npos, 16, c->common.given)) {
			snprintf(err, n, "%s: see the line above", c->jobfile);
			return EXIT_USAGE;
		}
		npos = 0;
	} else {
		if (GIVEN(c, "section")) {
			snprintf(err, n, "--section: it picks sections of a job file, and none was given");
			return EXIT_USAGE;
		}
		c->tok = c->common.argv;
		c->ntok = c->common.argc;
		for (c->nglobal = 0; c->nglobal < c->ntok && !is_name(c->tok[c->nglobal]); c->nglobal++)
			;
	}
	if (KB_BASE(c) != opt_kb_base) {
		/* fio's kb_base=1000: the sizes read again under it (fio applies it to the
		 * options after it; here to the whole job, wherever it is given) */
		char *p2[16];
		int n2;
		opt_kb_base = KB_BASE(c);
		opt_iec_seen[0] = 0;
		opt_defaults(disk_opts, c);
		memset(c->common.given, 0, sizeof c->common.given);
		opt_parse_given(disk_opts, c, c->ntok, c->tok, p2, &n2, 16, c->common.given);
	}
	if (c->nglobal < c->ntok) {
		/* the run's device is the global one (if any); a job may name its own (plan) */
		struct disk_cfg *g = c->nglobal > 0 ? calloc(1, sizeof *g) : NULL;
		char *gpos[16];
		int gn;
		c->filename = NULL;
		if (g && !opt_parse_given(disk_opts, g, c->nglobal, c->tok, gpos, &gn, 16, g->common.given))
			c->filename = g->filename;
		free(g);
	}
	if (npos > 1 || (npos == 1 && c->filename)) {
		snprintf(err, n, "unexpected argument '%s' (the device goes in --filename)", pos[npos - 1]);
		return EXIT_USAGE;
	}
	if (npos == 1)
		c->filename = pos[0];    /* assay disk /dev/vdb */
	if ((c->filename || c->nglobal == c->ntok) && join_dir(c, NULL, err, n))   /* else: each job's (plan) */
		return EXIT_USAGE;
	if (!c->filename && !c->list && c->nglobal == c->ntok) {
		snprintf(err, n, "no --filename: name the device (e.g. --filename=/dev/vdb); "
			 "--list shows the disks found");
		return EXIT_USAGE;
	}
	if (c->filename && !*c->filename) {
		snprintf(err, n, "--filename is empty");
		return EXIT_USAGE;
	}
	if (parse_pcts(c, err, n))
		return EXIT_USAGE;
	if (c->status_interval > 0 && c->status_interval < 0.1) {
		snprintf(err, n, "--status-interval=%g: at least 0.1 s (or 0: never)", c->status_interval);
		return EXIT_USAGE;
	}
	/* fio's --output: the report goes to the file, messages stay on stderr */
	if (c->output && !freopen(c->output, "w", stdout)) {
		snprintf(err, n, "--output=%s: %s", c->output, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

static void fill_global(struct json *g, const struct disk_cfg *c, const struct blkdev *d)
{
	static const char *const modes[] = { "readonly", "rewrite", "destroy" };
	json_add_str(g, "filename", d->path);
	json_add_str(g, "ioengine", ioengine_names[c->ioengine]);
	json_add_str(g, "mode", modes[c->mode]);
	if (c->profile)
		json_add_str(g, "profile", c->profile);
}

static int disk_list(const struct disk_cfg *c, struct json *out)
{
	struct blkdev *list;
	int n = blkdev_list(&list, c->include_virtual);
	struct json *arr = json_add_arr(out, "disks");
	for (int i = 0; i < n; i++)
		json_push(arr, blkdev_json(&list[i]));
	free(list);
	return EXIT_OK;
}

static void dstat_take(const char *path, struct dstat *d)
{
	struct stat st;
	char p[96], real[PATH_MAX];
	FILE *f;
	dev_t dv;
	d->ok = 0;
	if (stat(path, &st))
		return;
	dv = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(dv), minor(dv));
	if (!realpath(p, real))
		return;
	snprintf(d->name, sizeof d->name, "%s", strrchr(real, '/') + 1);
	snprintf(p + strlen(p), sizeof p - strlen(p), "/stat");
	f = fopen(p, "r");
	if (!f)
		return;
	d->ok = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &d->v[0], &d->v[1],
		       &d->v[2], &d->v[3], &d->v[4], &d->v[5], &d->v[6], &d->v[7], &d->v[8], &d->v[9],
		       &d->v[10]) == 11;
	fclose(f);
	d->t_ns = now_ns();
}

static void dstat_one(struct json *arr, const struct dstat *a, const struct dstat *b)
{
	struct json *u;
	double ms = (double)(b->t_ns - a->t_ns) / 1e6, util;
	u = json_push(arr, json_obj());
	json_add_str(u, "name", a->name);
	json_add_int(u, "read_ios", (long long)(b->v[0] - a->v[0]));
	json_add_int(u, "write_ios", (long long)(b->v[4] - a->v[4]));
	json_add_int(u, "read_merges", (long long)(b->v[1] - a->v[1]));
	json_add_int(u, "write_merges", (long long)(b->v[5] - a->v[5]));
	json_add_int(u, "read_ticks", (long long)(b->v[3] - a->v[3]));
	json_add_int(u, "write_ticks", (long long)(b->v[7] - a->v[7]));
	json_add_int(u, "in_queue", (long long)(b->v[10] - a->v[10]));
	util = ms > 0 ? 100.0 * (double)(b->v[9] - a->v[9]) / ms : 0;
	json_add_num(u, "util", util > 100 ? 100 : util);
}

/* fio's top-level "disk_util": what each disk under the targets did over the run (every
 * process's I/O), once per disk */
static void dstat_json(struct json *out, const struct plan *p)
{
	struct json *arr = NULL;
	for (int i = 0; i < p->ntg; i++) {
		const struct dstat *a = &p->tg[i].ds0, *b = &p->tg[i].ds1;
		int seen = 0;
		for (int k = 0; k < i; k++)
			seen |= p->tg[k].ds0.ok && !strcmp(p->tg[k].ds0.name, a->name);
		if (a->ok && b->ok && !seen && !strcmp(a->name, b->name))
			dstat_one(arr ? arr : (arr = json_add_arr(out, "disk_util")), a, b);
	}
}

/* fio's --showcmd: the words of the run (a job file's, the command line's) as one command
 * line, quoted for a shell */
static int show_cmd(const struct disk_cfg *c)
{
	fputs("assay disk", stdout);
	for (int i = 0; i < c->ntok; i++) {
		const char *t = c->tok[i], *nm = t + (t[0] == '-') + (t[0] == '-' && t[1] == '-');
		size_t nl = strcspn(nm, "=");
		if (t == c->jobfile)
			continue;      /* the job file's words are there instead */
		int sect = nm != t && nl == 7 && !strncmp(nm, "section", 7);
		if (sect || (nm != t && nl == 7 && !strncmp(nm, "showcmd", 7))) {
			i += sect && !nm[nl];   /* "--section NAME": its value too */
			continue;      /* what picked the words, not one of them */
		}
		if (*t && !t[strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=,:%+-@")]) {
			printf(" %s", t);
			continue;
		}
		fputs(" '", stdout);
		for (; *t; t++)
			fputs(*t == '\'' ? "'\\''" : (char[]){ *t, 0 }, stdout);
		putchar('\'');
	}
	putchar('\n');
	return EXIT_OK;
}

/* The run's end (or its setup failing): each device's scheduler put back, its claim
 * dropped, --unlink's files removed */
static void restore_targets(struct plan *p)
{
	char err[300];
	for (int i = 0; i < p->ntg; i++) {
		struct target *t = &p->tg[i];
		if (p->c->ioscheduler && !t->dev.is_file && t->dev.scheduler[0] &&
		    strcmp(p->c->ioscheduler, t->dev.scheduler) && set_scheduler(&t->dev, t->dev.scheduler, err, sizeof err))
			warn("disk: putting the scheduler back: %s", err);
		if (t->excl_fd >= 0)
			close(t->excl_fd);
		t->excl_fd = -1;
		zbd_free(t->zbd);
		t->zbd = NULL;
	}
	unlink_targets(p);
}

static int disk_run(void *p, struct json *out)
{
	struct disk_cfg *c = p;
	struct plan *pl;
	struct json *jobs, *as, *reps;
	struct rep_series *series = NULL;
	char err[512] = "";
	int rc = EXIT_OK, nok = 0, nskip = 0, fallback = 0, nres, halted = 0, halted_err = 0, nwrites;
	const char *fb_engine = ioengine_names[c->ioengine];
	time_t now = time(NULL);
	uint64_t t0;

	if (c->list)
		return disk_list(c, out);
	if (c->showcmd)
		return show_cmd(c);
	pl = calloc(1, sizeof *pl);
	if (!pl) {
		json_add_str(out, "error", "out of memory");
		return EXIT_SYS;
	}
	pl->c = c;
	json_add_str(out, "fio version", "assay-" ASSAY_VERSION);
	json_add_int(out, "timestamp", (long long)now);
	json_add_int(out, "timestamp_ms", (long long)now * 1000);
	{
		char tb[64];
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(tb, sizeof tb, "%a %b %e %H:%M:%S %Y", &tm);
		json_add_str(out, "time", tb);
	}
	as = json_obj();
	if (make_plan(pl, err, sizeof err)) {
		errmsg("disk: %s", err);
		json_add_str(out, "error", err);
		json_add(out, "assay", as);
		unlink_targets(pl);
		free(pl);
		return EXIT_USAGE;
	}
	if (opt_iec_seen[0]) {
		/* fio's kb_base=1024 reads KiB, MiB, GiB as powers of 1000: say so once */
		unsigned long long b = 0;
		int kb = opt_kb_base;
		opt_kb_base = 1024;
		parse_size_fio(opt_iec_seen, &b);
		opt_kb_base = kb;
		warn("disk: %s read as fio reads it, %llu bytes (with fio's default --kb_base=1024, KiB, MiB and "
		     "GiB are powers of 1000): give k, m, g for powers of 1024, or --kb_base=1000", opt_iec_seen, b);
	}
	fill_global(json_add_obj(out, "global options"), c, &pl->tg[0].dev);
	add_devices(as, pl);
	nwrites = c->mode != MODE_READONLY ? mark_writes(pl) : 0;
	for (int i = 0; i < pl->njobs && nwrites && !err[0]; i++)
		if (rw_modifies(pl->jobs[i].rw) && !zoned_refuses(pl, &pl->jobs[i]))
			write_allowed(pl, &pl->jobs[i], err, sizeof err);
	if (!err[0] && c->parse_only) {
		info("disk: --parse-only: %d job%s on %d device%s checked; nothing run", pl->njobs,
		     pl->njobs > 1 ? "s" : "", pl->ntg, pl->ntg > 1 ? "s" : "");
		json_add_str(as, "parse_only", "checked; nothing run");
		json_add(out, "assay", as);
		free(pl);
		return EXIT_OK;
	}
	for (int i = 0; i < pl->ntg && !err[0]; i++) {
		struct target *t = &pl->tg[i];
		if (t->writes && !t->dev.is_file && !t->dev.is_null)
			t->excl_fd = claim_device(&t->dev, err, sizeof err);
	}
	if (!err[0])
		create_logs(pl, err, sizeof err);
	for (int i = 0; i < pl->ntg && !err[0] && c->ioscheduler; i++)
		set_scheduler(&pl->tg[i].dev, c->ioscheduler, err, sizeof err);
	if (err[0]) {
		errmsg("disk: %s", err);
		json_add_str(out, "error", err);
		json_add(out, "assay", as);
		restore_targets(pl);
		free(pl);
		return EXIT_USAGE;
	}
	if (c->ioscheduler) {
		struct json *sch = json_add_obj(as, "ioscheduler");
		json_add_str(sch, "used", c->ioscheduler);
		json_add_str(sch, "before", pl->tg[0].dev.scheduler);
	}
	for (int i = 0; i < pl->ntg; i++) {
		const struct blkdev *d = &pl->tg[i].dev;
		if (c->mode == MODE_DESTROY && pl->tg[i].writes && !d->is_null)
			info("disk: destroying the data on %s (%s%s%llu bytes): --mode=destroy", d->path,
			     d->serial[0] ? d->serial : "", d->serial[0] ? ", " : "", (unsigned long long)d->size);
		dstat_take(d->path, &pl->tg[i].ds0);
	}
	t0 = now_ns();
	jobs = json_add_arr(out, "jobs");
	series = calloc((size_t)pl->njobs, sizeof *series);
	for (int rep = 0; rep < c->repeat && !halted; rep++) {
		for (int g0 = 0, g1; g0 < pl->njobs && !halted; g0 = g1) {
			struct job_result *rs;
			for (g1 = g0 + 1; g1 < pl->njobs && pl->group[g1] == pl->group[g0]; g1++)
				;
			rs = calloc((size_t)(g1 - g0), sizeof *rs);
			if (!rs) {
				errmsg("disk: out of memory");
				rc = EXIT_SYS;
				break;
			}
			for (int i = g0; i < g1; i++) {
				result_init(&rs[i - g0], &pl->jobs[i], rep);
				rs[i - g0].group = pl->rgroup[i];
				rs[i - g0].t0_ns = t0;
			}
			run_group(pl, rs, g1 - g0);
			for (int i = 0; i < g1 - g0; i++)
				write_logs(pl, &rs[i]);
			nres = report_groups(rs, g1 - g0, c->group_reporting && GIVEN(c, "group_reporting"));
			for (int i = g0; i < g0 + nres; i++) {
				struct job_result *r = &rs[i - g0];
				for (int k = 0; k < r->nworkers; k++)
					if (r->w[k].engine_fallback && !fallback) {
						fallback = r->w[k].engine_fallback;
						fb_engine = ioengine_names[r->job.ioengine];
						warn("disk: %s unavailable (%s): measured with psync instead",
						     fb_engine, strerror(fallback));
					}
				if (r->errs.n)
					warn("disk: %s: %llu I/O error%s gone on after (--continue_on_error); the first: %s",
					     r->job.name, (unsigned long long)r->errs.n, r->errs.n > 1 ? "s" : "",
					     r->errs.first_msg);
				if (!r->skipped && r->job.exit_all && !halted) {
					halted = 1;
					if (g1 < pl->njobs || rep + 1 < c->repeat)
						warn("disk: %s ended with --exitall --exit_what=all: the jobs after it were not "
						     "run", r->job.name);
				}
				if (r->skipped)
					nskip++;
				else if (r->err) {
					errmsg("disk: %s: %s", r->job.name, r->errmsg);
					rc = EXIT_FAIL;
					halted_err |= r->job.exitall_on_error;
					halted |= halted_err;
				} else
					nok++;
				if (series && !r->skipped && !r->err) {
					snprintf(series[i].name, sizeof series[i].name, "%s", r->job.name);
					rep_add(&series[i], r);
				}
				job_json(r, c->group_reporting, jobs);
				result_free(r);
			}
			free(rs);
			if (halted_err && (g1 < pl->njobs || rep + 1 < c->repeat))
				warn("disk: --exitall_on_error: a job failed; the jobs after it were not run");
		}
	}
	if (c->repeat > 1 && series) {
		reps = json_add_obj(as, "repeats");
		for (int i = 0; i < pl->njobs; i++)
			if (series[i].n)
				json_add(reps, series[i].name, rep_json(&series[i], &pl->jobs[i]));
	}
	for (int i = 0; i < pl->ntg; i++)
		dstat_take(pl->tg[i].dev.path, &pl->tg[i].ds1);
	if (c->disk_util)
		dstat_json(out, pl);
	json_add_int(as, "repeat", c->repeat);
	if (fallback) {
		char b[200];
		snprintf(b, sizeof b, "%s unavailable (%s): measured with psync", fb_engine,
			 strerror(fallback));
		json_add_str(as, "ioengine_fallback", b);
		if (rc == EXIT_OK)
			rc = EXIT_FAIL;
		json_add_str(out, "error", b);
	}
	json_add(out, "assay", as);
	if (rc == EXIT_FAIL && !json_get(out, "error")) {
		const struct json *jj = json_get(out, "jobs");
		for (const struct json *e = jj ? jj->child : NULL; e; e = e->next)
			if (json_get_str(e, "assay.error", NULL)) {
				json_add_str(out, "error", json_get_str(e, "assay.error", ""));
				break;
			}
	}
	if (rc == EXIT_OK && !nok && nskip) {
		json_add_str(out, "skip_reason", "every job writes and --mode=readonly");
		rc = EXIT_SKIP;
	}
	restore_targets(pl);
	free(series);
	free(pl);
	return rc;
}

/* The text report: one fio-style block per job. */
static void disk_text(const struct json *r, FILE *f)
{
	const struct json *jobs = json_get(r, "jobs"), *devs = json_path(r, "assay.devices");
	const struct json *disks = json_get(r, "disks");
	if (disks) {
		fprintf(f, "%-10s %12s %5s %5s %-4s %-5s %-4s %-12s %-24s %-20s %s\n", "disk", "size", "lbs",
			"pbs", "rot", "cache", "trim", "scheduler", "model", "serial", "holds");
		for (const struct json *d = disks->child; d; d = d->next) {
			char holds[128];
			snprintf(holds, sizeof holds, "%s%s%s%s%s", json_get_str(d, "signature", "unreadable"),
				 json_get_num(d, "partitions", 0) > 0 ? ", partitions" : "",
				 strcmp(json_get_str(d, "mounted", "no"), "no") ? ", mounted" : "",
				 json_get(d, "zoned") ? ", zoned " : "", json_get_str(d, "zoned", ""));
			/* a volatile write cache (write back, wb) or none (write through, wt); discard */
			const char *wc = json_get_str(d, "write_cache", "");
			fprintf(f, "%-10s %10.1fGB %5.0f %5.0f %-4s %-5s %-4s %-12s %-24s %-20s %s\n",
				json_get_str(d, "name", "?"), json_get_num(d, "size_bytes", 0) / 1e9,
				json_get_num(d, "logical_block_size", 0), json_get_num(d, "physical_block_size", 0),
				json_get(d, "rotational") ? (json_get(d, "rotational")->b ? "yes" : "no") : "?",
				!strcmp(wc, "write back") ? "wb" : !strcmp(wc, "write through") ? "wt" : "?",
				!json_get(d, "discard_max_bytes") ? "?" : json_get_num(d, "discard_max_bytes", 0) > 0 ? "yes" : "no",
				json_get_str(d, "scheduler", "-"), json_get_str(d, "model", "-"),
				json_get_str(d, "serial", "-"), holds);
		}
		return;
	}
	/* the device, or each one when the jobs name several */
	for (const struct json *dev = devs ? devs->child : json_path(r, "assay.device"); dev; dev = devs ? dev->next : NULL) {
		/* what a VPS's virtual disk says of itself: a volatile write cache (fsync then
		 * costs), discard (trim) */
		char extra[192] = "";
		size_t l = 0;
		if (json_get(dev, "write_cache") || json_get(dev, "discard_max_bytes"))
			l = (size_t)snprintf(extra, sizeof extra, "%s%s%s%s", json_get(dev, "write_cache") ? ", cache " : "",
					     json_get_str(dev, "write_cache", ""),
					     json_get(dev, "discard_max_bytes") ? ", discard " : "",
					     !json_get(dev, "discard_max_bytes")                 ? ""
					     : json_get_num(dev, "discard_max_bytes", 0) > 0 ? "yes"
											     : "no");
		if (json_get(dev, "zoned") && l < sizeof extra)   /* SMR, ZNS: N zones of SIZE */
			snprintf(extra + l, sizeof extra - l, ", zoned %s, %.0f zones of %.0f MiB",
				 json_get_str(dev, "zoned", ""), json_get_num(dev, "nr_zones", 0),
				 json_get_num(dev, "zone_size_bytes", 0) / 1048576);
		fprintf(f, "%s:%s%s%s%s %.2f GB, logical/physical block %.0f/%.0f%s, mode %s\n",
			json_get_str(dev, "path", "?"), json_get(dev, "model") ? " model " : "",
			json_get_str(dev, "model", ""), json_get(dev, "serial") ? " serial " : "",
			json_get_str(dev, "serial", ""), json_get_num(dev, "size_bytes", 0) / 1e9,
			json_get_num(dev, "logical_block_size", 0), json_get_num(dev, "physical_block_size", 0), extra,
			json_get_str(r, "global options.mode", "?"));
	}
	for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next)
		disk_text_job(j, f);
	disk_text_groups(r, f);
	if (json_path(r, "assay.repeats")) {
		const struct json *reps = json_path(r, "assay.repeats");
		fprintf(f, "\nacross %.0f repeats (mean +- stddev, 95%% CI):\n", json_get_num(r, "assay.repeat", 0));
		for (const struct json *jr = reps->child; jr; jr = jr->next)
			for (const struct json *d = jr->child; d; d = d->next)
				fprintf(f, "  %-22s %-5s IOPS %.0f +- %.0f [%.0f, %.0f]  clat p99 %.1f +- %.1f us\n",
					jr->key, d->key, json_get_num(d, "iops.mean", 0),
					json_get_num(d, "iops.stddev", 0), json_get_num(d, "iops.ci95_low", 0),
					json_get_num(d, "iops.ci95_high", 0),
					json_get_num(d, "clat_p99_ns.mean", 0) / 1e3,
					json_get_num(d, "clat_p99_ns.stddev", 0) / 1e3);
	}
	if (json_get(r, "error"))
		fprintf(f, "error: %s\n", json_get_str(r, "error", ""));
	for (const struct json *u = json_get(r, "disk_util") ? json_get(r, "disk_util")->child : NULL; u;
	     u = u->next)
		fprintf(f, "%s  %s: ios=%.0f/%.0f, merge=%.0f/%.0f, ticks=%.0f/%.0f, "
			"in_queue=%.0f, util=%.2f%%\n", u == json_get(r, "disk_util")->child ? "\nDisk stats (read/write):\n" : "",
			json_get_str(u, "name", "?"), json_get_num(u, "read_ios", 0),
			json_get_num(u, "write_ios", 0), json_get_num(u, "read_merges", 0),
			json_get_num(u, "write_merges", 0), json_get_num(u, "read_ticks", 0),
			json_get_num(u, "write_ticks", 0), json_get_num(u, "in_queue", 0), json_get_num(u, "util", 0));
}

/* Summary figures: <test>.<job>.<read|write|trim|mixed>.{bw (MB/s), iops, clat.p50, clat.p99
 * (us)}, <test>.<job>.steal (%), <test>.<job>.errors (with --continue_on_error) */
static void disk_figures(const struct json *res, const char *test, struct json *sum)
{
	const struct json *jobs = json_get(res, "jobs"), *reps = json_path(res, "assay.repeats");
	for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next) {
		const char *jn = json_get_str(j, "jobname", "?");
		char name[200];
		if (json_path(j, "assay.skipped") || json_path(j, "assay.error"))
			continue;
		if (reps && json_get_num(j, "assay.repeat", 0) + 1 < json_get_num(res, "assay.repeat", 1))
			continue;   /* with repeats: the means, added once below */
		for (int d = 0; d <= DDIR_N; d++) {
			const char *dn = d < DDIR_N ? ddir_name[d] : "mixed";
			const struct json *dj = json_get(j, dn), *rj = reps ? json_get(json_get(reps, jn), dn) : NULL;
			char base[160];
			size_t jl = strlen(jn), dl = strlen(dn);
			if (!dj || json_get_num(dj, "total_ios", 0) <= 0)
				continue;
			/* seq.write.bw, not seq.write.write.bw */
			if (jl > dl && jn[jl - dl - 1] == '.' && !strcmp(jn + jl - dl, dn))
				snprintf(base, sizeof base, "%s.%s", test, jn);
			else
				snprintf(base, sizeof base, "%s.%s.%s", test, jn, dn);
			snprintf(name, sizeof name, "%s.bw", base);
			report_figure(sum, name, (rj ? json_get_num(rj, "bw_bytes.mean", 0)
						     : json_get_num(dj, "bw_bytes", 0)) / 1e6, "MB/s");
			snprintf(name, sizeof name, "%s.iops", base);
			report_figure(sum, name, rj ? json_get_num(rj, "iops.mean", 0) : json_get_num(dj, "iops", 0),
				      "IOPS");
			for (int p = 0; p < 2; p++) {
				/* assay's p50/p99, whatever --percentile_list was (results written
				 * before they existed: fio's percentile keys) */
				char k[64];
				const struct json *v;
				snprintf(k, sizeof k, "assay.clat_p%d_ns.%s", p ? 99 : 50, dn);
				v = json_path(j, k);
				if (!v) {
					snprintf(k, sizeof k, "clat_ns.percentile.%s", p ? "99.000000" : "50.000000");
					v = json_path(dj, k);
				}
				snprintf(k, sizeof k, "clat_p%d_ns.mean", p ? 99 : 50);
				if (rj)
					v = json_path(rj, k);
				if (!v || v->type != J_NUM)
					continue;
				snprintf(name, sizeof name, "%s.clat.p%d", base, p ? 99 : 50);
				report_figure(sum, name, v->num / 1e3, "us");
			}
		}
		if (json_get(j, "total_err")) {   /* --continue_on_error (the scan profile): I/O errors */
			snprintf(name, sizeof name, "%s.%s.errors", test, jn);
			report_figure(sum, name, json_get_num(j, "total_err", 0), "errors");
		}
		if (json_path(j, "assay.steal_pct") && json_path(j, "assay.steal_pct")->type == J_NUM) {
			snprintf(name, sizeof name, "%s.%s.steal", test, jn);
			report_figure(sum, name, json_get_num(j, "assay.steal_pct", 0), "%");
		}
	}
}

const struct engine engine_disk = {
	.name = "disk",
	.summary = "disk: fio-compatible raw block device benchmarks on io_uring, read-only by default",
	.usage = "--filename=DEV [--profile=LIST | --rw=.. --bs=.. --iodepth=.. | --name=JOB OPTIONS.. ..] "
		 "[--mode=..]  or  assay disk JOBFILE.fio [options] "
		 "(profiles: seq qd1 qd8 randrw64 randwrite4 randread16x4 latency scan scanwrite all)",
	.opts = disk_opts,
	.cfg_size = sizeof(struct disk_cfg),
	.check = disk_check,
	.run = disk_run,
	.text = disk_text,
	.terse = disk_terse,
	.figures_fn = disk_figures,
};
