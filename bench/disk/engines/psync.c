/* The system-call engines: psync, sync, pvsync, pvsync2 (one I/O at a time) and mmap. */
#include "disk/io.h"
#include "clock.h"
#include <liburing.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* full_io's vec for the job's engine: pread/pwrite 0, preadv/pwritev 1, preadv2/pwritev2 2 */
int psync_vec(const struct job *j)
{
	return j->ioengine == IOE_PVSYNC ? 1 : j->ioengine == IOE_PVSYNC2 ? 2 : 0;
}
/* fio's pvsync2 hipri: this share of the I/Os polled (fio's draw, 1-100): RWF_HIPRI or 0, counted */
int hipri_draw(struct worker *w, struct meter *m)
{
	const struct job *j = w->job;
	if (!j->hipri || j->ioengine != IOE_PVSYNC2 || (int)prng_below(&m->prio_rng, 100) >= j->hipri_pct)
		return 0;
	w->hipri_ios += m->counting;
	return RWF_HIPRI;
}

/* ---- psync: one pread/pwrite at a time (iodepth is 1 whatever was asked, as fio);
 * sync: read/write, with an lseek first when the offset is not where the file position
 * already is (fio's sync engine) ---- */

/* pos: the sync engine's file position (-1: unknown), NULL for psync; vec: 1 preadv/pwritev
 * (fio's pvsync), 2 preadv2/pwritev2 with the flags rwf (pvsync2: RWF_HIPRI) */
ssize_t full_io(int fd, int write_, void *buf, size_t len, uint64_t off, int64_t *pos, int vec, int rwf)
{
	struct iovec iov = { buf, len };
	ssize_t r;
	if (pos && *pos != (int64_t)off && lseek(fd, (off_t)off, SEEK_SET) < 0) {
		*pos = -1;
		return -errno;
	}
	do
		if (pos)
			r = write_ ? write(fd, buf, len) : read(fd, buf, len);
		else if (vec == 2)   /* (the offset's low and high halves: all of it low on 64 bits) */
			r = syscall(write_ ? SYS_pwritev2 : SYS_preadv2, fd, &iov, 1, (unsigned long)off, 0ul, rwf);
		else if (vec == 1)
			r = write_ ? pwritev(fd, &iov, 1, (off_t)off) : preadv(fd, &iov, 1, (off_t)off);
		else
			r = write_ ? pwrite(fd, buf, len, (off_t)off) : pread(fd, buf, len, (off_t)off);
	while (r < 0 && errno == EINTR);
	if (pos)
		*pos = r < 0 ? -1 : (int64_t)(off + (uint64_t)r);
	return r < 0 ? -errno : r;
}

/* fio's mmap engine: each file mapped whole (MAP_SHARED; writable when opened for
 * writing), a read a memcpy from the map, a write one into it; with --direct, msync of the
 * I/O's range after it (fio's "not really direct").  A page the device fails to read is a
 * SIGBUS in the memcpy: caught (this thread's jump), the I/O fails with EIO. */
static __thread sigjmp_buf *mmap_jmp;

static void mmap_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (mmap_jmp)
		siglongjmp(*mmap_jmp, 1);
	signal(sig, SIG_DFL);   /* not ours: the crash it is */
	raise(sig);
}

static void mmap_sigbus_install(void)
{
	struct sigaction sa = { .sa_sigaction = mmap_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static ssize_t mmap_io(char *map, int write_, void *buf, size_t len, uint64_t off, int direct)
{
	sigjmp_buf jb;
	if (sigsetjmp(jb, 0)) {
		mmap_jmp = NULL;
		return -EIO;
	}
	mmap_jmp = &jb;
	if (write_)
		memcpy(map + off, buf, len);
	else
		memcpy(buf, map + off, len);
	mmap_jmp = NULL;
	if (direct) {
		long pg = sysconf(_SC_PAGESIZE);
		uint64_t a = off & ~(uint64_t)(pg - 1);
		if (msync(map + a, (size_t)(off + len - a), MS_SYNC))
			return -errno;
	}
	return (ssize_t)len;
}

/* map each of the job's files; 0, or -1 with the worker's error set */
static int mmap_files(struct worker *w, char **maps)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const struct job *j = w->job;
	pthread_once(&once, mmap_sigbus_install);
	for (int f = 0; f < j->nfiles; f++) {
		int fl = fcntl(w->f[f].fd, F_GETFL);
		int prot = PROT_READ | (fl >= 0 && (fl & O_ACCMODE) == O_RDWR ? PROT_WRITE : 0);
		size_t len = (size_t)w->f[f].dev->size;
		maps[f] = len ? mmap(NULL, len, prot, MAP_SHARED, w->f[f].fd, 0) : MAP_FAILED;
		if (maps[f] == MAP_FAILED) {
			char what[300];
			snprintf(what, sizeof what, "mapping %s (--ioengine=mmap)", w->f[f].dev->path);
			set_err(w, len ? errno : EINVAL, what, UINT64_MAX);
			maps[f] = NULL;
			return -1;
		}
		/* fio's fadvise_hint, as madvise */
		if (j->fadvise)
			posix_madvise(maps[f], len, fadvise_random(j) ? POSIX_MADV_RANDOM : POSIX_MADV_SEQUENTIAL);
	}
	return 0;
}

static void mmap_unmap(const struct worker *w, char **maps)
{
	for (int f = 0; f < w->job->nfiles; f++)
		if (maps[f])
			munmap(maps[f], (size_t)w->f[f].dev->size);
}

int run_psync(struct worker *w, struct meter *m, struct iogen *g, char *buf)
{
	const struct job *j = w->job;
	uint64_t writes_since_sync = 0;
	struct prng scr;
	int64_t fpos[MAX_FILES];   /* the sync engine's position in each file (-1: unknown) */
	int vec = psync_vec(j), rwf;
	char *maps[MAX_FILES] = { 0 };
	for (int f = 0; f < MAX_FILES; f++)
		fpos[f] = -1;
	prng_seed(&scr, j->randseed ^ 0x5eedull ^ (uint64_t)w->idx);
	if (j->ioengine == IOE_MMAP && !w->engine_fallback && mmap_files(w, maps) < 0) {
		mmap_unmap(w, maps);
		start_line(w);
		w->end_ns = now_ns();
		return 0;
	}
	start_job(w, m);
	for (;;) {
		struct slot s = { .buf = buf, .sync = 1 };
		uint64_t t_done, now = now_ns(), until;
		ssize_t r;
		int64_t *pos;
		int more = loop_tick(w, m, now) ? 0 : next_io(w, m, g, now, 0, &s.ddir, &s.off, &s.len, &until);
		if (!more)
			break;
		if (more < 0) {                  /* a rate cap's wait */
			sleep_until(until);
			continue;
		}
		s.counted = m->counting;
		s.file = m->io_file;
		pos = j->ioengine == IOE_SYNC ? &fpos[s.file] : NULL;
		rwf = hipri_draw(w, m) | (j->nowait ? RWF_NOWAIT : 0);
		log_issue(w, m, s.file, s.ddir, s.off, s.len);
		/* a write's data made (and verify header stamped) after its start, before its
		 * issue: in its lat, not its clat (fio's) */
		s.t_prep = now_ns();
		if (s.ddir == DDIR_WRITE && (j->mode != MODE_REWRITE || j->ioengine == IOE_NULL)) {
			scramble(w, buf, s.off, s.len, &scr);
			s.t_issue = now_ns();
		} else {
			s.t_issue = s.t_prep;
		}
		if (j->ioengine == IOE_NULL) {
			/* fio's null engine: done at once, no data moved (the engine's own cost) */
			r = (ssize_t)s.len;
		} else if (s.ddir == DDIR_WRITE && j->mode == MODE_REWRITE) {
			r = maps[s.file] ? mmap_io(maps[s.file], 0, buf, s.len, s.off, j->direct)
					 : full_io(w->f[s.file].fd, 0, buf, s.len, s.off, pos, vec, rwf);
			if (r == (ssize_t)s.len)
				r = maps[s.file] ? mmap_io(maps[s.file], 1, buf, s.len, s.off, j->direct)
						 : full_io(w->f[s.file].fd, 1, buf, s.len, s.off, pos, vec, rwf);
			else if (r < 0) {
				if (!io_error(w, &s, COE_READ, (int)-r, "rewrite read"))
					break;
				s.rd_failed = 1;
			} else {
				set_err(w, EIO, "rewrite read came back short", s.off);
				break;
			}
		} else if (s.ddir == DDIR_TRIM) {
			r = trim_range(w, s.file, s.off, s.len);
		} else if (maps[s.file]) {
			r = mmap_io(maps[s.file], s.ddir == DDIR_WRITE, buf, s.len, s.off, j->direct);
		} else {
			r = full_io(w->f[s.file].fd, s.ddir == DDIR_WRITE, buf, s.len, s.off, pos, vec, rwf);
		}
		t_done = now_ns();
		mark_depth(w, m, 1, 1);
		mark_calls(m, w->submit_map, 1);
		mark_calls(m, w->complete_map, 1);
		if (s.rd_failed)
			m->think_done += !j->think_issue;
		else
			account(w, m, &s, r, t_done);
		sample_tick(w, m, t_done);
		if (s.ddir == DDIR_WRITE && j->fdatasync && ++writes_since_sync >= (uint64_t)j->fdatasync) {
			writes_since_sync = 0;
			timed_sync(w, m, j->fsync_full);
		}
		if (s.ddir == DDIR_WRITE && j->sfr_n && ++m->sfr_writes >= j->sfr_n) {
			m->sfr_writes = 0;
			timed_sync(w, m, SYNC_RANGE);
		}
		if (s.ddir == DDIR_WRITE && j->verify_backlog && ++w->bl_writes >= j->verify_backlog)
			backlog_check(w, m, 0);
		if (w->passes_left && (w->pass_bytes += s.len) >= w->pass_len)
			pass_check(w, m, 0);
	}
	if (!w->err && j->end_fsync && rw_writes(j->rw))
		timed_sync(w, m, j->end_full);
	w->end_ns = now_ns();
	getrusage(RUSAGE_THREAD, &w->ru_end);
	mmap_unmap(w, maps);
	return 0;
}
