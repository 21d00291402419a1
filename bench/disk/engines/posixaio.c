/* posixaio as glibc runs it (a helper thread per file descriptor), and fio's
 * io_submit_mode=offload (a pool of --iodepth helpers), with the aio family's requests
 * and reap (aio.c). */
#include "aio.h"
#include "clock.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>

/* ---- posixaio: what fio's posixaio engine measures on Linux, glibc's POSIX AIO: aio_read
 * and aio_write hand each request to a helper thread, one per file descriptor, which does
 * that descriptor's requests one after the other with pread/pwrite (glibc's rule: no second
 * thread for a descriptor being worked on), and aio_suspend waits for one to finish.
 * musl's aio runs a thread per request instead (not the figures fio users see), so glibc's
 * scheme is here, with the aio family's requests: paio_submit and paio_getevents stand for io_submit
 * and io_getevents.  The job's usr/sys CPU is its thread's, as fio's (RUSAGE_THREAD); the
 * helpers' is reported apart.
 * The same queue, one for all files and --iodepth helpers on it, is fio's
 * io_submit_mode=offload: the job thread hands out its I/Os, each helper does one at a
 * time (fio's offload workers, each an iodepth-1 copy of the job on a sync engine) and
 * stamps when it began and ended it: clat is the helper's, lat from the job thread's
 * preparation, the wait for a free helper in it; the helpers' CPU the job's (fio's). ---- */

struct paio;
struct paio_fd {
	struct paio *p;
	int fd, head, n;           /* (fd: -1 for a pool's queue) */
	pthread_t tid;
	pthread_cond_t work;
	struct iocb **q;           /* FIFO of iodepth */
};
struct paio {
	pthread_mutex_t mu;
	pthread_cond_t done;
	int cap, stop, counting, nfd, nev, waiting;
	int pool;                  /* offload: this many helpers on fds[0], the only queue */
	int vec;                   /* full_io's: pread/pwrite, preadv/pwritev, preadv2/pwritev2 */
	pthread_t *tids;           /* the pool's helpers */
	struct paio_fd fds[MAX_FILES];
	struct io_event *ev;       /* finished, not yet reaped (FIFO of iodepth); a pool's with
				    * obj: when its I/O began, res2: when it ended (ns) */
	struct rusage aux;         /* the helpers' CPU while counting, once they are gone */
};

static void *paio_helper(void *arg)
{
	struct paio_fd *h = arg;
	struct paio *p = h->p;
	struct rusage ru, ru0;
	int counted = 0;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct iocb *cb;
		ssize_t r;
		uint64_t t0 = 0, t1 = 0;
		while (!h->n && !p->stop)
			pthread_cond_wait(&h->work, &p->mu);
		if (!h->n)
			break;
		if (p->counting && !counted) {   /* the ramp's CPU is not the job's */
			getrusage(RUSAGE_THREAD, &ru0);
			counted = 1;
		}
		cb = h->q[h->head];
		h->head = (h->head + 1) % p->cap;
		h->n--;
		pthread_mutex_unlock(&p->mu);
		if (p->pool)
			t0 = now_ns();
		r = full_io((int)cb->aio_fildes, cb->aio_lio_opcode == IOCB_CMD_PWRITE, (void *)(uintptr_t)cb->aio_buf,
			    (size_t)cb->aio_nbytes, (uint64_t)cb->aio_offset, NULL, p->vec, (int)cb->aio_rw_flags);
		if (p->pool)
			t1 = now_ns();
		pthread_mutex_lock(&p->mu);
		p->ev[p->nev++] = (struct io_event){ .data = cb->aio_data, .obj = t0, .res = r, .res2 = (int64_t)t1 };
		if (p->waiting) {   /* (signalled unlocked: the waiter need not wait for the lock) */
			pthread_mutex_unlock(&p->mu);
			pthread_cond_signal(&p->done);
			pthread_mutex_lock(&p->mu);
		}
	}
	getrusage(RUSAGE_THREAD, &ru);
	if (counted)
		ru_add(&p->aux, &ru, &ru0);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* pool: 0, posixaio's helper per descriptor; n, offload's n helpers on one queue */
static struct paio *paio_new(int cap, int pool, int vec)
{
	struct paio *p = calloc(1, sizeof *p);
	pthread_condattr_t ca;
	if (!p || !(p->ev = calloc((size_t)cap, sizeof *p->ev)) || (pool && !(p->tids = calloc((size_t)pool, sizeof *p->tids)))) {
		if (p)
			free(p->ev);
		free(p);
		return NULL;
	}
	p->cap = cap;
	p->pool = pool;
	p->vec = vec;
	pthread_mutex_init(&p->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->done, &ca);
	pthread_condattr_destroy(&ca);
	return p;
}

/* queue n requests (their descriptors' helpers started on first use); n, or -1 with errno */
static long paio_submit(struct paio *p, long n, struct iocb **cbs, int counting)
{
	long i;
	int e = 0;
	pthread_mutex_lock(&p->mu);
	p->counting = counting;
	for (i = 0; i < n; i++) {
		struct paio_fd *h = NULL;
		int fd = p->pool ? -1 : (int)cbs[i]->aio_fildes;
		for (int k = 0; k < p->nfd && !h; k++)
			if (p->fds[k].fd == fd)
				h = &p->fds[k];
		if (!h) {
			if (p->nfd == MAX_FILES) {
				e = EMFILE;
				break;
			}
			h = &p->fds[p->nfd];
			*h = (struct paio_fd){ .p = p, .fd = fd };
			if (!(h->q = calloc((size_t)p->cap, sizeof *h->q))) {
				e = ENOMEM;
				break;
			}
			pthread_cond_init(&h->work, NULL);
			if ((e = pthread_create(p->pool ? &p->tids[0] : &h->tid, NULL, paio_helper, h))) {
				pthread_cond_destroy(&h->work);
				free(h->q);
				break;
			}
			for (int t = 1; t < p->pool; t++)   /* (the pool's first is enough to go on) */
				if (pthread_create(&p->tids[t], NULL, paio_helper, h)) {
					p->pool = t;
					break;
				}
			p->nfd++;
		}
		h->q[(h->head + h->n++) % p->cap] = cbs[i];
		pthread_cond_signal(&h->work);
	}
	pthread_mutex_unlock(&p->mu);
	if (!i && n) {
		errno = e;
		return -1;
	}
	return i;
}

/* wait up to *t for min finished requests (0: none), then take up to max */
static long paio_getevents(struct paio *p, long min, long max, struct io_event *ev, const struct timespec *t)
{
	struct timespec dl;
	long n;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += t->tv_sec + (dl.tv_nsec + t->tv_nsec) / 1000000000L;
	dl.tv_nsec = (dl.tv_nsec + t->tv_nsec) % 1000000000L;
	pthread_mutex_lock(&p->mu);
	p->waiting = 1;
	while (p->nev < min && pthread_cond_timedwait(&p->done, &p->mu, &dl) != ETIMEDOUT)
		;
	p->waiting = 0;
	n = p->nev < max ? p->nev : max;
	for (long i = 0; i < n; i++)   /* the oldest first; the rest move up */
		ev[i] = p->ev[i];
	memmove(p->ev, p->ev + n, (size_t)(p->nev - n) * sizeof *p->ev);
	p->nev -= (int)n;
	pthread_mutex_unlock(&p->mu);
	return n;
}

/* the helpers finish what is queued and go; their CPU while counting added to *aux */
static void paio_free(struct paio *p, struct rusage *aux)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	for (int k = 0; k < p->nfd; k++)
		pthread_cond_broadcast(&p->fds[k].work);
	pthread_mutex_unlock(&p->mu);
	for (int t = 0; p->nfd && t < p->pool; t++)
		pthread_join(p->tids[t], NULL);
	for (int k = 0; k < p->nfd; k++) {
		if (!p->pool)
			pthread_join(p->fds[k].tid, NULL);
		pthread_cond_destroy(&p->fds[k].work);
		free(p->fds[k].q);
	}
	ru_add(aux, &p->aux, &(struct rusage){ 0 });
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	free(p->ev);
	free(p->tids);
	free(p);
}

static long queue_submit(struct aio_state *a, long n, struct iocb **cbs, int counting)
{
	return paio_submit(a->px, n, cbs, counting);
}

static long queue_getevents(struct aio_state *a, long min, long max, const struct timespec *t)
{
	return paio_getevents(a->px, min, max, a->ev, t);
}

static const struct aio_queue paio_queue = { queue_submit, queue_getevents, "posixaio: queueing" };

/* a pool (offload) of iodepth helpers, or posixaio's helper per file */
static int paio_init(struct io_ctx *x, int pool)
{
	struct aio_state *a;
	int r = aio_family_init(x, &paio_queue, &a);
	if (r)
		return r;
	a->pooled = pool > 0;
	if (!(a->px = paio_new(x->j->o.iodepth, pool, psync_vec(x->j)))) {
		aio_family_cleanup(x);
		return -ENOMEM;
	}
	return 0;
}

static int posixaio_init(struct io_ctx *x)
{
	return paio_init(x, 0);
}

static int offload_init(struct io_ctx *x)
{
	return paio_init(x, x->j->o.iodepth);
}

static void paio_cleanup(struct io_ctx *x)
{
	struct aio_state *a = x->priv;
	paio_free(a->px, &x->w->ru_aux);
	aio_family_cleanup(x);
}

const struct ioengine_ops ioengine_posixaio = {
	.name = "posixaio",
	.flags = IOE_QUEUED | IOE_DEPTH | IOE_HELPERS,
	.init = posixaio_init,
	.prep = aio_family_prep,
	.submit = aio_family_submit,
	.reap = aio_family_reap,
	.cleanup = paio_cleanup,
};

/* io_submit_mode=offload: not named by --ioengine, it carries a psync, pvsync or pvsync2
 * job's I/Os (psync_vec: which calls) */
const struct ioengine_ops ioengine_offload = {
	.name = "offload",
	.flags = IOE_QUEUED | IOE_DEPTH,
	.init = offload_init,
	.prep = aio_family_prep,
	.submit = aio_family_submit,
	.reap = aio_family_reap,
	.cleanup = paio_cleanup,
};
