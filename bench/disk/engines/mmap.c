/* fio's mmap engine: each file mapped whole (MAP_SHARED; writable when opened for
 * writing), a read a memcpy from the map, a write one into it; with --direct, msync of the
 * I/O's range after it (fio's "not really direct").  A page the device fails to read is a
 * SIGBUS in the memcpy: caught (this thread's jump), the I/O fails with EIO. */
#include "sync.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

static ssize_t mmap_xfer(struct io_ctx *x, int f, int write_, void *buf, size_t len, uint64_t off, int rwf)
{
	struct sync_ctx *c = x->priv;
	(void)rwf;
	return mmap_io(c->maps[f], write_, buf, len, off, x->j->o.direct);
}

static void mmap_cleanup(struct io_ctx *x)
{
	struct sync_ctx *c = x->priv;
	mmap_unmap(x->w, c->maps);
	sync_ctx_cleanup(x);
}

static int mmap_init(struct io_ctx *x)
{
	struct sync_ctx *c;
	int r = sync_ctx_init(x, mmap_xfer);
	if (r)
		return r;
	c = x->priv;
	if (mmap_files(x->w, c->maps) < 0) {
		mmap_cleanup(x);
		return 1;
	}
	return 0;
}

const struct ioengine_ops ioengine_mmap = {
	.name = "mmap",
	.flags = IOE_MAPS,
	.init = mmap_init,
	.prep = sync_prep,
	.submit = sync_submit,
	.reap = sync_reap,
	.cleanup = mmap_cleanup,
};
