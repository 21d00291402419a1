/* Running the plan: each group's jobs at once (a barrier start), their threads joined
 * and aggregated, fio's log files, pre-read and hooks, repeats' figures. */
#include "plan.h"
#include "ioengine.h"
#include "json.h"
#include "msg.h"
#include "stats.h"
#include "machine/sysinfo.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- running ---- */

/* ---- fio's I/O logs ---- */

#define MAX_LOG_FILES 4096

/* Create (empty) every log file the run will write, before it starts: a name that cannot
 * be written fails the run at once, not after it.  Only regular files: never a device
 * node, a symlink's target or the file under test. */
int create_logs(const struct plan *p, char *err, size_t n)
{
	struct stat st;
	int nfiles = 0;
	for (int k = 0; k < p->njobs; k++) {
		const struct job *j = &p->jobs[k];
		for (int rep = 1; iolog_wanted(&j->log) && rep <= repeats_max(&p->c->o); rep++)
			for (int t = 0; t < (j->log.per_job ? j->o.numjobs : 1); t++)
				for (int kind = 0; kind < LOGF_N; kind++) {
					const char *o = iolog_opt_name[iolog_file_opt[kind]];
					char path[PATH_MAX];
					int fd;
					if (!j->log.prefix[iolog_file_opt[kind]])
						continue;
					if (iolog_path(&j->log, j->name, kind, j->thread0 + t, rep, repeats_max(&p->c->o),
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
void write_logs(const struct plan *p, struct job_result *r)
{
	const struct job *j = &r->job;
	if (!iolog_wanted(&j->log))
		return;
	for (int kind = 0; kind < LOGF_N; kind++)
		for (int i = 0; j->log.prefix[iolog_file_opt[kind]] && i < r->nworkers; i++) {
			char path[PATH_MAX];
			FILE *f = NULL;
			int fd, bad;
			iolog_path(&j->log, j->name, kind, j->thread0 + i, r->repeat + 1, repeats_max(&p->c->o),
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

void result_init(struct job_result *r, const struct job *j, int repeat)
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
			      (off_t)(j->fsize[k % j->nfiles] + (uint64_t)(j->o.numjobs - 1) * j->offset_inc), POSIX_FADV_DONTNEED);
}

/* fio's pre_read: the region (every thread's) read once through the page cache before
 * the job starts; 0, or -1 with the job's error */
int pre_read(const struct plan *p, struct job_result *r, int k)
{
	const struct job *j = &r->job;
	const char *path = p->tg[j->ftg[k]].dev.path;
	uint64_t off = file_base(j, k % j->nfiles, 0),
		 end = file_base(j, k % j->nfiles, j->o.numjobs - 1) + j->fsize[k % j->nfiles];
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
void fadvise_hint(const struct job *j, int k, int fd)
{
	int advice = fadvise_random(j) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	if (j->fadvise)
		posix_fadvise(fd, (off_t)file_base(j, k % j->nfiles, 0),
			      (off_t)(j->fsize[k % j->nfiles] + (uint64_t)(j->o.numjobs - 1) * j->offset_inc), advice);
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
	for (int t = 0; t < j->o.numjobs; t++) {
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

/* the reasons a job does not run at all, in r (skipped, or failed with r->err); 0: it runs */
static int job_refused(struct plan *p, struct job_result *r, int writing)
{
	const struct job *j = &r->job;
	char err[300];
	if (writing && j->o.mode == MODE_READONLY && FIO_FILES(p->c) && TG(p, j)->dev.is_file) {
		/* fio's options on a file that is a disk image (a filesystem or partition table) */
		const struct blkdev *d = &TG(p, j)->dev;
		snprintf(r->skipmsg, sizeof r->skipmsg, "%s; %s holds %s (a disk image): fio would overwrite it, assay "
			 "only with --mode=destroy --force", rw_trims(j->rw) ? "trims" : "writes", d->path,
			 d->signature[0] ? d->signature : d->partitions ? "partitions" : "what could not be read");
		r->skipped = r->skipmsg;
		return -1;
	}
	if (writing && j->o.mode == MODE_READONLY && !TG(p, j)->dev.is_null) {
		r->skipped = rw_trims(j->rw) ? "trims; --mode=readonly (the default) never changes the device: "
					       "give --mode=destroy"
					     : "writes; --mode=readonly (the default) never writes: give --mode=rewrite "
					       "(writes back what it read) or --mode=destroy";
		return -1;
	}
	if (rw_trims(j->rw) && p->c->o.mode == MODE_REWRITE) {
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
	if (j->setup_err[0]) {
		r->err = EINVAL;
		snprintf(r->errmsg, sizeof r->errmsg, "%s", j->setup_err);
		return -1;
	}
	if (j->o.exec_prerun && exec_hook(j, j->o.exec_prerun, "prerun", err, sizeof err)) {
		r->err = ECANCELED;
		snprintf(r->errmsg, sizeof r->errmsg, "%s", err);
		return -1;
	}
	return 0;
}

/* its targets opened and made ready (zones, write hints, caches); 0, or -1 failed with
 * r->err and nothing left open */
static int job_open(struct plan *p, struct job_result *r, int writing)
{
	const struct job *j = &r->job;
	char err[300];
	for (int k = 0; k < j->nftg; k++)
		if ((r->fds[k] = open_target(p, j, k, writing, err, sizeof err)) < 0) {
			r->err = errno;
			snprintf(r->errmsg, sizeof r->errmsg, "%s", err);
			while (k--)
				close(r->fds[k]);
			return -1;
		}
	/* fio's zonemode=zbd: the target's zones, the jobs on it sharing them; with a file of
	 * each thread's own (fio's JOB.N.0), each file's */
	for (int k = 0; j->zbd && k < (j->per_thread ? j->nftg : 1); k++) {
		struct target *t = &p->tg[j->ftg[k]];
		if ((!t->zbd && zbd_make(&t->zbd, r->fds[k], &t->dev, j, err, sizeof err)) ||
		    (t->zbd && zbd_size(t->zbd) != j->zbd_zone &&
		     snprintf(err, sizeof err, "--zonesize=%llu: another job on %s has zones of %llu bytes",
			      (unsigned long long)j->zbd_zone, t->dev.path, (unsigned long long)zbd_size(t->zbd)))) {
			r->err = EINVAL;
			snprintf(r->errmsg, sizeof r->errmsg, "%s", err);
			close_files(r);
			return -1;
		}
		if (!k)
			r->job.zt = t->zbd;
	}
	for (int k = 0; k < j->nftg && j->o.write_hint; k++) {
		/* on the inode (fio's direct=1 path, a per-file hint, is gone since Linux 5.19) */
		uint64_t h = (uint64_t)j->o.write_hint;
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
	for (int k = 0; k < j->nftg && j->o.invalidate; k++)
		drop_cache(p, j, k, r->fds[k]);
	for (int k = 0; k < j->nftg && j->o.pre_read; k++)
		if (pre_read(p, r, k)) {
			close_files(r);
			return -1;
		}
	for (int k = 0; k < j->nftg; k++)
		fadvise_hint(j, k, r->fds[k]);
	return 0;
}

/* its threads' workers, each with its files and logs; 0, or -1 failed with r->err */
static int job_workers(struct plan *p, struct job_result *r, int writing)
{
	const struct job *j = &r->job;
	char err[300];
	/* the logs of every thread together may take half the memory free */
	uint64_t log_cap = !iolog_wanted(&j->log) ? 0 : mem_available() / 2 / (unsigned)j->o.numjobs;
	unsigned dirs = job_dirs(j);   /* the logs' directions (a read-back's reads too) */
	r->nworkers = r->writing = j->o.numjobs;
	r->w = calloc((size_t)j->o.numjobs, sizeof *r->w);
	if (!r->w) {
		r->err = ENOMEM;
		snprintf(r->errmsg, sizeof r->errmsg, "out of memory for %lld threads", j->o.numjobs);
		r->nworkers = 0;
		close_files(r);
		return -1;
	}
	if (iolog_wanted(&j->log) && !log_cap)
		log_cap = 256ull << 20;     /* no /proc/meminfo */
	if (j->ss.kind && ss_init(&r->ss, &r->job.ss, j->o.numjobs)) {
		r->err = ENOMEM;
		snprintf(r->errmsg, sizeof r->errmsg, "--steadystate: cannot set up");
		free(r->w);
		r->w = NULL;
		r->nworkers = 0;
		close_files(r);
		return -1;
	}
	for (int i = 0; i < j->o.numjobs; i++) {
		struct worker *w = &r->w[i];
		w->job = &r->job;
		w->ss = j->ss.kind ? &r->ss : NULL;
		w->idx = i;
		w->writing = &r->writing;
		for (int k = 0; k < j->nfiles; k++) {   /* the thread's files (fio's JOB.N.F: its own) */
			int x = (j->per_thread ? i * j->nfiles : 0) + k;
			const struct target *t = &p->tg[j->ftg[x]];
			w->f[k] = (struct wfile){ &t->dev, r->fds[x], t->excl_fd >= 0 ? t->excl_fd : r->fds[x] };
			if (!k && j->zbd)   /* its file's zones (the job's, or its own file's) */
				w->zt = t->zbd;
		}
		w->dev = w->f[0].dev;
		w->fd = w->f[0].fd;
		iolog_init(&w->log, &r->job.log, dirs, log_cap);
		iolog_init_hist(&w->hlog, &r->job.log, dirs, log_cap,
				(const struct hist *const[]){ &w->st[DDIR_READ].clat, &w->st[DDIR_WRITE].clat,
							      &w->st[DDIR_TRIM].clat });
		/* the sync and vsync engines move the file position: a descriptor of its own each (fio's
		 * files of each thread are its own already) */
		for (int k = 0; JOB_ENGINE_HAS(j, IOE_SEEKS) && i > 0 && !j->per_thread && k < j->nfiles; k++)
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

/* Open the target and set up the job's workers; -1 when it does not run (skipped, or
 * failed with r->err). */
static int job_prepare(struct plan *p, struct job_result *r)
{
	const struct job *j = &r->job;
	int writing = rw_modifies(j->rw) && !j->o.verify_only;   /* --verify_only: reads */
	return job_refused(p, r, writing) || job_open(p, r, writing) || job_workers(p, r, writing) ? -1 : 0;
}

/* the sync engine's own descriptors of thread i (above) */
static int own_fds(const struct job_result *r, int i)
{
	return JOB_ENGINE_HAS(&r->job, IOE_SEEKS) && i > 0 && !r->job.per_thread;
}

/* Add a job's threads up (the aggregate: group_reporting). */
void job_aggregate(struct job_result *r)
{
	const struct job *j = &r->job;
	for (int i = 0; i < j->o.numjobs; i++) {
		struct worker *w = &r->w[i];
		if (w->err && !r->err) {
			/* an I/O error of a disk unplugged mid-test says so */
			char gone[96];
			disk_gone_note(w, gone, sizeof gone, w->err == EIO || w->err == ENODEV || w->err == ENXIO ? 1 : 0);
			r->err = w->err;
			snprintf(r->errmsg, sizeof r->errmsg, "%s%s", w->errmsg, gone);
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
		r->threads_ns += worker_runtime(w);
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
		if (j->o.fsync_on_close && rw_writes(j->rw) && fsync(r->fds[k]) && !r->err) {
			r->err = errno;
			snprintf(r->errmsg, sizeof r->errmsg, "fsync_on_close: %s", strerror(errno));
		}
	for (int i = 1; i < j->o.numjobs; i++)
		for (int k = 0; own_fds(r, i) && k < j->nfiles; k++)
			if (r->w[i].f[k].fd >= 0)
				close(r->w[i].f[k].fd);
	for (int k = 0; k < j->nftg && j->o.write_hint; k++)
		fcntl(r->fds[k], F_SET_RW_HINT, &r->old_hint[k]);
	close_files(r);
	r->nworkers = j->o.numjobs;
	if (j->o.exec_postrun && exec_hook(j, j->o.exec_postrun, "postrun", err, sizeof err))
		warn("disk: %s: %s", j->name, err);
}

/* Run one group: every thread of every job in it starts measuring together (a barrier),
 * as fio starts a group's jobs; the CPU load is taken over the whole group. */
void run_group(struct plan *p, struct job_result *rs, int n)
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
			total += rs[k].job.o.numjobs;
		}
	if (!total)
		return;
	eta.rs = rs;
	eta.n = n;
	show_eta = (p->c->o.eta == 1 || (p->c->o.eta == 0 && isatty(2))) &&
		   !pthread_create(&eta.tid, NULL, eta_main, &eta);
	st.p = p;
	st.rs = rs;
	st.ready = ready;
	st.n = n;
	for (int k = 0; p->c->o.status_interval > 0 && k < n; k++)
		for (int i = 0; ready[k] && i < rs[k].job.o.numjobs; i++)
			rs[k].w[i].snap_req = &st.gen;
	show_status = p->c->o.status_interval > 0 && !pthread_create(&st.tid, NULL, status_main, &st);
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
			for (int i = 0; i < r->job.o.numjobs; i++) {
				struct worker *w = &r->w[i];
				w->barrier = &bar;
				w->group_stop = &stop;
				for (int m = 0; r->job.wait_for[0] && m < k; m++)
					if (!strcmp(rs[m].job.name, r->job.wait_for) && ready[m]) {
						w->waitee = rs[m].w;     /* fio's wait_for, in this group */
						w->nwaitee = rs[m].job.o.numjobs;
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
			if (failed && r->nworkers == r->job.o.numjobs)
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
void group_bandwidth(struct job_result *rs, int n)
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
		b->threads_ns += r->threads_ns;
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
int report_groups(struct job_result *rs, int n, int merge)
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

void result_free(struct job_result *r)
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

int repeats_max(const struct job_opts *o)
{
	return o->repeat ? (int)o->repeat : (int)o->repeat_max;
}

double rep_worst_ci(const struct rep_series *series, const struct job *jobs, int njobs, int *worst_job,
		    int *worst_dir)
{
	double worst = 0;
	*worst_job = *worst_dir = -1;
	for (int i = 0; i < njobs; i++)
		for (int d = 0; d < DDIR_N && series[i].n; d++) {
			struct summary sm;
			double pct;
			if (!(job_dirs(&jobs[i]) >> d & 1))
				continue;
			stats_summarize(series[i].v[d][0], series[i].n, &sm);
			if (sm.n < 2 || sm.mean <= 0)
				continue;
			pct = (sm.ci95_high - sm.ci95_low) / 2 / sm.mean * 100;
			if (pct > worst || *worst_job < 0) {
				worst = pct;
				*worst_job = i;
				*worst_dir = d;
			}
		}
	return worst;
}

void rep_add(struct rep_series *s, const struct job_result *r)
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

struct json *rep_json(const struct rep_series *s, const struct job *j)
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
