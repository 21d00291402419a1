/* assay mem: memory bandwidth and latency.
 *  - sysbench 1.0.20's memory test (src/tests/memory/sb_memory.c): an event is one pass
 *    over a block of --memory-block-size storing (or loading) every 64-bit word with a
 *    store the compiler cannot elide; MiB/sec = events * block / 2^20 / total time.
 *  - STREAM (stream.c): Copy c=a, Scale b=3c, Add c=a+b, Triad a=b+3c on doubles, arrays
 *    of at least 4x the last-level cache, best of N (first not counted), MB = 1e6 bytes,
 *    bytes counted 2,2,3,3 x 8 x N; plus a memcpy of the same arrays as a yardstick.
 *  - latency: a dependent random pointer chase through working sets from 16 KiB to past
 *    the LLC, ns per load, min over repeats, transparent huge pages when available. */
#include "clock.h"
#include "cpustat.h"
#include "engine/engine.h"
#include "engine/plan.h"
#include "json.h"
#include "msg.h"
#include "prng.h"
#include "result/result.h"
#include "fileio.h"
#include "machine/sysinfo.h"

#include <emmintrin.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { SCOPE_GLOBAL, SCOPE_LOCAL };
enum { OPER_WRITE, OPER_READ, OPER_NONE };
enum { ACCESS_SEQ, ACCESS_RND };

struct mem_cfg {
	struct common_cfg common;
	const char *tests;
	long long threads;
	double time;
	unsigned long long block;
	unsigned long long total;
	int scope, oper, access;
	long long stream_ntimes;
	double stream_time;                 /* fewer repetitions to end within it; 0: all */
	unsigned long long stream_size;     /* bytes per array; 0 = 4x LLC */
	unsigned long long lat_max;         /* largest working set; 0 = 4x LLC */
	long long lat_repeats;
	double lat_time;                    /* the sweep's time: loads a size to fit; 0: 4M */
	int hugepages;
};

#define O(f) offsetof(struct mem_cfg, f)
static const struct opt mem_opts[] = {
	OPTS_COMMON(struct mem_cfg),
	{ "tests", 0, OPT_STR, O(tests), "sysbench,stream,latency", 0, 0,
	  "a comma list of sysbench, stream, latency", "which memory tests", 0 },
	{ "threads", 0, OPT_INT, O(threads), "1", 1, 4096, "all=0", "threads (sysbench and STREAM)", 0 },
	{ "time", 0, OPT_TIME, O(time), "10", 0.01, 86400, NULL, "sysbench test time limit", 0 },
	{ "memory-block-size", 0, OPT_SIZE, O(block), "1k", 8, 1ull << 32, NULL,
	  "sysbench block size (a power of two)", 0 },
	{ "memory-total-size", 0, OPT_SIZE, O(total), "100g", 0, 0, NULL,
	  "sysbench total size to transfer (0: only --time limits)", 0 },
	{ "memory-scope", 0, OPT_ENUM, O(scope), "global", 0, 0, "global|local",
	  "one block shared by all threads, or one each", 0 },
	{ "memory-oper", 0, OPT_ENUM, O(oper), "write", 0, 0, "write|read|none", "operation", 0 },
	{ "memory-access-mode", 0, OPT_ENUM, O(access), "seq", 0, 0, "seq|rnd", "access order", 0 },
	{ "stream-ntimes", 0, OPT_INT, O(stream_ntimes), "10", 2, 1000, NULL,
	  "STREAM repetitions (the first is not counted)", 0 },
	{ "stream-time", 0, OPT_TIME, O(stream_time), "0", 0, 86400, NULL,
	  "end STREAM within about this time: as many of --stream-ntimes as fit, at least 2 (0: all)", 0 },
	{ "stream-array-size", 0, OPT_SIZE, O(stream_size), "0", 0, 0, NULL,
	  "bytes per STREAM array (0: 4x the last-level cache, at least 32m)", 0 },
	{ "latency-max", 0, OPT_SIZE, O(lat_max), "0", 0, 0, NULL,
	  "largest latency working set (0: 4x the last-level cache, at least 64m)", 0 },
	{ "latency-repeats", 0, OPT_INT, O(lat_repeats), "3", 1, 100, NULL, "min over this many runs", 0 },
	{ "latency-time", 0, OPT_TIME, O(lat_time), "0", 0, 86400, NULL,
	  "end the sweep within about this time: each size's loads fit its share, 256Ki to 4Mi a run "
	  "(0: 4Mi loads a run)", 0 },
	{ "hugepages", 0, OPT_BOOL, O(hugepages), "1", 0, 0, NULL,
	  "ask for transparent huge pages (madvise) for big buffers", 0 },
	OPT_END,
};
#undef O

/* largest cache from sysfs, bytes; 0 when unknown */
static unsigned long long llc_size(void)
{
	unsigned long long best = 0;
	for (int i = 0; i < 16; i++) {
		char p[128], b[64], *end;
		unsigned long long v;
		snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (read_line(p, b, sizeof b))
			continue;
		v = strtoull(b, &end, 10);
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		if (v > best)
			best = v;
	}
	return best;
}

/* big, 2 MiB-aligned, optionally THP-backed (thp: whether madvise took) */
struct region {
	void *map;
	size_t len;
};

static void *big_alloc(struct region *r, size_t n, int huge, int *thp)
{
	size_t align = 2u << 20;
	char *a;
	r->len = n + align;
	r->map = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return NULL;
	}
	a = (char *)(((uintptr_t)r->map + align - 1) & ~(uintptr_t)(align - 1));
	if (huge) {
		int ok = !madvise(a, n, MADV_HUGEPAGE);
		if (thp)
			*thp = ok;
	}
	return a;
}

static void big_free(struct region *r)
{
	if (r->map)
		munmap(r->map, r->len);
}

/* ---- sysbench memory ---- */

/* sysbench's per-event bookkeeping is part of its figure: with 1 KiB blocks an event is a
 * few dozen nanoseconds of stores, so the rest of the loop weighs as much, and with
 * threads sharing one block, *where* its serialising instructions fall decides how long
 * each thread holds the block's cache lines.  So each event does what Debian's sysbench
 * 1.0.20 binary does (read from its machine code, README): a clock read against the time
 * limit; the event timer's start and stop, each a clock read inside a per-thread spinlock
 * (an xchg, so the stop drains the block's stores before its clock read); the timer's
 * count, sum, min and max; sb_histogram_update: a bucket of 1024 log-spaced ones (0.001
 * to 100000 ms) found with log(), in one of 128 arrays shared by all threads, picked at
 * random, bumped with one atomic increment; and the event counter, a plain per-thread
 * store.  Calls stay calls, as in sysbench. */
#define SB_HIST_BUCKETS 1024
#define SB_HIST_ARRAYS 128
#define SB_HIST_LN_MIN (-6.907755278982137)   /* ln 0.001 (ms) */
#define SB_HIST_LN_SPAN 18.420680743952367    /* ln 100000 - ln 0.001 */
struct sb_hist {
	_Atomic uint64_t a[SB_HIST_ARRAYS][SB_HIST_BUCKETS];
};

struct sb_timer {                       /* sysbench's sb_timer_t */
	_Atomic int lock;
	uint64_t start, events, min, max, sum;   /* ns */
};

struct sb_worker {                      /* one per thread, on cache lines of its own */
	_Alignas(64) const struct mem_cfg *c;
	uint64_t *buf;
	uint64_t ops_left;                  /* 0 with no total limit */
	uint64_t deadline;
	struct prng rng;
	struct sb_hist *sbh;                /* shared by all threads */
	_Alignas(64) struct sb_timer timer;
	_Alignas(64) _Atomic uint64_t events;   /* sysbench's per-thread counter row */
};

#define SB_CALL __attribute__((noinline))

static SB_CALL void sb_timer_lock(struct sb_timer *t)
{
	while (atomic_exchange_explicit(&t->lock, 1, memory_order_acquire))
		while (atomic_load_explicit(&t->lock, memory_order_relaxed))
			__builtin_ia32_pause();
}

static SB_CALL int sb_more_events(const struct sb_worker *w)
{
	return now_ns() < w->deadline;
}

static SB_CALL void sb_event_start(struct sb_worker *w)
{
	sb_timer_lock(&w->timer);
	w->timer.start = now_ns();
	atomic_store_explicit(&w->timer.lock, 0, memory_order_release);
}

static SB_CALL void sb_histogram_update(struct sb_hist *h, struct prng *r, double ms)
{
	unsigned arr = (unsigned)(prng_next(r) % SB_HIST_ARRAYS);
	long b = ms > 0 ? (long)floor((log(ms) - SB_HIST_LN_MIN) * ((SB_HIST_BUCKETS - 1) / SB_HIST_LN_SPAN) + 0.5) : 0;
	if (b < 0)
		b = 0;
	else if (b >= SB_HIST_BUCKETS)
		b = SB_HIST_BUCKETS - 1;
	atomic_fetch_add_explicit(&h->a[arr][b], 1, memory_order_relaxed);
}

static SB_CALL void sb_event_stop(struct sb_worker *w)
{
	struct sb_timer *t = &w->timer;
	uint64_t e;
	sb_timer_lock(t);
	e = now_ns() - t->start;
	t->events++;
	t->sum += e;
	if (e < t->min)
		t->min = e;
	if (e > t->max)
		t->max = e;
	atomic_store_explicit(&t->lock, 0, memory_order_release);
	sb_histogram_update(w->sbh, &w->rng, (double)e / 1e6);
	atomic_store_explicit(&w->events, atomic_load_explicit(&w->events, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* sysbench's percentile: the bucket where the running count reaches pct% of the events
 * (rounded), reported as that bucket's value, in ms */
static double sb_percentile(const struct sb_hist *h, double pct)
{
	uint64_t n = 0, cur = 0, want;
	int b;
	for (int k = 0; k < SB_HIST_ARRAYS; k++)
		for (b = 0; b < SB_HIST_BUCKETS; b++)
			n += h->a[k][b];
	want = (uint64_t)floor((double)n * pct / 100 + 0.5);
	for (b = 0; b < SB_HIST_BUCKETS - 1; b++) {
		for (int k = 0; k < SB_HIST_ARRAYS; k++)
			cur += h->a[k][b];
		if (cur >= want)
			break;
	}
	return exp(b * SB_HIST_LN_SPAN / (SB_HIST_BUCKETS - 1) + SB_HIST_LN_MIN);
}

/* one event: sysbench's event_seq_write and its siblings */
static SB_CALL void sb_execute(struct sb_worker *w)
{
	size_t words = w->c->block / 8;
	volatile uint64_t *buf = w->buf;   /* every load and store happens, in order */
	if (w->c->access == ACCESS_SEQ) {
		if (w->c->oper == OPER_WRITE)
			for (size_t i = 0; i < words; i++)
				buf[i] = words - i;
		else if (w->c->oper == OPER_READ)
			for (size_t i = 0; i < words; i++)
				(void)buf[i];
		else
			for (size_t i = 0; i < words; i++)
				__asm__ volatile("" ::: "memory");
	} else {
		for (size_t i = 0; i < words; i++) {
			/* sysbench: a uniform double times the word count */
			size_t off = (size_t)((double)(prng_next(&w->rng) >> 11) * 0x1.0p-53 * (double)words);
			if (w->c->oper == OPER_WRITE)
				buf[off] = i;
			else if (w->c->oper == OPER_READ)
				(void)buf[off];
		}
	}
}

static void *sb_main(void *arg)
{
	struct sb_worker *w = arg;
	int limited = w->ops_left > 0;
	while (sb_more_events(w)) {
		if (limited && !w->ops_left--)
			break;
		sb_event_start(w);
		sb_execute(w);
		sb_event_stop(w);
	}
	return NULL;
}

static int run_sysbench(const struct mem_cfg *c, struct json *out)
{
	struct sb_worker *w = aligned_alloc(64, (size_t)c->threads * sizeof *w);
	struct sb_hist *sbh = calloc(1, sizeof *sbh);
	uint64_t *global = NULL;
	struct cpuload load;
	uint64_t start, events = 0, lat_min = UINT64_MAX, lat_max = 0, lat_sum = 0;
	long long ready, started;
	double total_s;
	struct json *o = json_add_obj(out, "sysbench"), *lat;
	static const char *const scopes[] = { "global", "local" }, *const opers[] = { "write", "read", "none" },
			       *const modes[] = { "seq", "rnd" };
	if (!w || !sbh || (c->scope == SCOPE_GLOBAL && posix_memalign((void **)&global, 4096, c->block))) {
		free(w);
		free(sbh);
		return -1;
	}
	memset(w, 0, (size_t)c->threads * sizeof *w);
	if (global)
		memset(global, 0, c->block);
	start = now_ns();
	for (ready = 0; ready < c->threads; ready++) {
		struct sb_worker *x = &w[ready];
		x->c = c;
		x->buf = global;
		if (!global) {
			if (posix_memalign((void **)&x->buf, 4096, c->block))
				break;
			memset(x->buf, 0, c->block);
		}
		x->ops_left = c->total ? c->total / c->block / (uint64_t)c->threads : 0;
		x->deadline = start + (uint64_t)(c->time * 1e9);
		prng_seed(&x->rng, (uint64_t)ready + 1);
		x->timer.min = UINT64_MAX;
		x->sbh = sbh;
	}
	if (ready < c->threads)
		warn("mem: out of memory for thread %lld of %lld", ready + 1, c->threads);
	started = run_threads("mem", sb_main, w, sizeof *w, ready, &load);
	for (long long i = 0; i < ready; i++) {
		const struct sb_timer *t = &w[i].timer;
		lat_min = t->min < lat_min ? t->min : lat_min;
		lat_max = t->max > lat_max ? t->max : lat_max;
		lat_sum += t->sum;
		events += w[i].events;
		if (!global)
			free(w[i].buf);
	}
	total_s = load.wall_s;
	json_add_int(o, "threads", c->threads);
	json_add_int(o, "block_size", (long long)c->block);
	json_add_int(o, "total_size", (long long)c->total);
	json_add_str(o, "scope", scopes[c->scope]);
	json_add_str(o, "oper", opers[c->oper]);
	json_add_str(o, "access_mode", modes[c->access]);
	json_add_num(o, "total_time_s", total_s);
	json_add_int(o, "total_operations", (long long)events);
	json_add_num(o, "ops_per_sec", total_s > 0 ? (double)events / total_s : 0);
	json_add_num(o, "total_mib", (double)events * (double)c->block / 1048576.0);
	json_add_num(o, "mib_per_sec", total_s > 0 ? (double)events * (double)c->block / 1048576.0 / total_s : 0);
	lat = json_add_obj(o, "latency_ms");
	json_add_num(lat, "min", events ? (double)lat_min / 1e6 : 0);
	json_add_num(lat, "avg", events ? (double)lat_sum / (double)events / 1e6 : 0);
	json_add_num(lat, "max", (double)lat_max / 1e6);
	json_add_num(lat, "p95", events ? sb_percentile(sbh, 95) : 0);
	json_add_num(lat, "sum", (double)lat_sum / 1e6);
	cpuload_json(&load, o);
	free(global);
	free(sbh);
	free(w);
	return started == c->threads ? 0 : -1;
}

/* ---- STREAM ---- */

struct st_shared {
	double *a, *b, *c;
	size_t n;
	int nthreads;
	long long ntimes;
	double time;                 /* --stream-time: ntimes cut after the first repetition */
	pthread_barrier_t bar;
	double times[5][1000];       /* [copy, scale, add, triad, memcpy][k] */
};

struct st_worker {
	pthread_t tid;
	struct st_shared *s;
	int idx;
};

/* The kernels store with non-temporal (streaming) stores, as tuned STREAM builds do: the
 * arrays are far larger than the caches, and a regular store would first read each line
 * it writes (traffic STREAM does not count).  Slices start 64-byte aligned. */
#define KERNEL __attribute__((optimize("O3"), noinline))

static KERNEL void k_copy(double *restrict c, const double *restrict a, size_t lo, size_t hi)
{
	size_t j = lo;
	for (; j + 2 <= hi; j += 2)
		_mm_stream_pd(c + j, _mm_load_pd(a + j));
	for (; j < hi; j++)
		c[j] = a[j];
}
static KERNEL void k_scale(double *restrict b, const double *restrict c, double q, size_t lo, size_t hi)
{
	__m128d qq = _mm_set1_pd(q);
	size_t j = lo;
	for (; j + 2 <= hi; j += 2)
		_mm_stream_pd(b + j, _mm_mul_pd(qq, _mm_load_pd(c + j)));
	for (; j < hi; j++)
		b[j] = q * c[j];
}
static KERNEL void k_add(double *restrict c, const double *restrict a, const double *restrict b,
			 size_t lo, size_t hi)
{
	size_t j = lo;
	for (; j + 2 <= hi; j += 2)
		_mm_stream_pd(c + j, _mm_add_pd(_mm_load_pd(a + j), _mm_load_pd(b + j)));
	for (; j < hi; j++)
		c[j] = a[j] + b[j];
}
static KERNEL void k_triad(double *restrict a, const double *restrict b, const double *restrict c,
			   double q, size_t lo, size_t hi)
{
	__m128d qq = _mm_set1_pd(q);
	size_t j = lo;
	for (; j + 2 <= hi; j += 2)
		_mm_stream_pd(a + j, _mm_add_pd(_mm_load_pd(b + j), _mm_mul_pd(qq, _mm_load_pd(c + j))));
	for (; j < hi; j++)
		a[j] = b[j] + q * c[j];
}

static void *st_main(void *arg)
{
	struct st_worker *w = arg;
	struct st_shared *s = w->s;
	size_t per = s->n / (size_t)s->nthreads / 8 * 8, lo = per * (size_t)w->idx;
	size_t hi = w->idx == s->nthreads - 1 ? s->n : lo + per;
	/* first touch by the thread that uses the slice (NUMA placement, as STREAM's OpenMP) */
	for (size_t j = lo; j < hi; j++) {
		s->a[j] = 1.0;
		s->b[j] = 2.0;
		s->c[j] = 0.0;
	}
	for (long long k = 0; k < s->ntimes; k++) {
		for (int kern = 0; kern < 5; kern++) {
			uint64_t t0 = 0;
			pthread_barrier_wait(&s->bar);
			if (w->idx == 0)
				t0 = now_ns();
			switch (kern) {
			case 0: k_copy(s->c, s->a, lo, hi); break;
			case 1: k_scale(s->b, s->c, 3.0, lo, hi); break;
			case 2: k_add(s->c, s->a, s->b, lo, hi); break;
			case 3: k_triad(s->a, s->b, s->c, 3.0, lo, hi); break;
			case 4: memcpy(s->c + lo, s->a + lo, (hi - lo) * sizeof(double)); break;
			}
			_mm_sfence();
			pthread_barrier_wait(&s->bar);
			if (w->idx == 0)
				s->times[kern][k] = (double)(now_ns() - t0) / 1e9;
		}
		/* a time budget: as many repetitions as fit, known after the first (which is
		 * not counted); the others read ntimes past the next barriers, and it stays >= 2 */
		if (k == 0 && w->idx == 0 && s->time > 0) {
			double rep = 0;
			for (int kern = 0; kern < 5; kern++)
				rep += s->times[kern][0];
			if (rep > 0 && s->time / rep < (double)s->ntimes)
				s->ntimes = s->time / rep < 2 ? 2 : (long long)(s->time / rep);
		}
	}
	return NULL;
}

static int run_stream(const struct mem_cfg *c, unsigned long long llc, struct json *out, char *err, size_t en)
{
	static const char *const names[5] = { "copy", "scale", "add", "triad", "memcpy" };
	static const double words[5] = { 2, 2, 3, 3, 2 };
	struct st_shared *s = calloc(1, sizeof *s);
	struct st_worker *w = calloc((size_t)c->threads, sizeof *w);
	unsigned long long bytes = c->stream_size ? c->stream_size : llc * 4;
	int thp = 0;
	struct json *o, *mb;
	struct region ra = { 0 }, rb = { 0 }, rc = { 0 };
	double best[5];
	if (!c->stream_size && bytes < (32ull << 20))
		bytes = 32ull << 20;
	if (!s || !w) {
		snprintf(err, en, "out of memory");
		free(s);
		free(w);
		return -1;
	}
	if (3 * bytes > mem_available() * 0.8) {
		snprintf(err, en, "STREAM needs 3 x %llu MiB but only %llu MiB are available: give a smaller "
			 "--stream-array-size", bytes >> 20, mem_available() >> 20);
		free(s);
		free(w);
		return -1;
	}
	s->n = bytes / sizeof(double);
	s->a = big_alloc(&ra, s->n * sizeof(double), c->hugepages, &thp);
	s->b = big_alloc(&rb, s->n * sizeof(double), c->hugepages, NULL);
	s->c = big_alloc(&rc, s->n * sizeof(double), c->hugepages, NULL);
	if (!s->a || !s->b || !s->c) {
		snprintf(err, en, "cannot map 3 x %llu MiB for STREAM", bytes >> 20);
		big_free(&ra);
		big_free(&rb);
		big_free(&rc);
		free(s);
		free(w);
		return -1;
	}
	s->nthreads = (int)c->threads;
	s->ntimes = c->stream_ntimes;
	s->time = c->stream_time;
	pthread_barrier_init(&s->bar, NULL, (unsigned)c->threads);
	for (int i = 0; i < s->nthreads; i++) {
		w[i].s = s;
		w[i].idx = i;
		if (i && pthread_create(&w[i].tid, NULL, st_main, &w[i]))
			die(EXIT_SYS, "mem: cannot start STREAM thread %d:", i);
	}
	st_main(&w[0]);
	for (int i = 1; i < s->nthreads; i++)
		pthread_join(w[i].tid, NULL);
	o = json_add_obj(out, "stream");
	json_add_int(o, "threads", c->threads);
	json_add_int(o, "array_bytes", (long long)(s->n * sizeof(double)));
	json_add_int(o, "ntimes", s->ntimes);
	json_add_bool(o, "thp_requested", thp);
	mb = json_add_obj(o, "mb_per_sec");
	for (int k = 0; k < 5; k++) {
		best[k] = INFINITY;
		for (long long t = 1; t < s->ntimes; t++)
			best[k] = fmin(best[k], s->times[k][t]);
		json_add_num(mb, names[k], 1e-6 * words[k] * 8.0 * (double)s->n / best[k]);
	}
	json_add_num(o, "triad_vs_memcpy", (words[3] / best[3]) / (words[4] / best[4]));
	pthread_barrier_destroy(&s->bar);
	big_free(&ra);
	big_free(&rb);
	big_free(&rc);
	free(s);
	free(w);
	return 0;
}

/* ---- latency: dependent loads through a random cycle of cache lines ---- */

static double chase(void **start, uint64_t loads)
{
	void **p = start;
	uint64_t t0 = now_ns();
	for (uint64_t i = 0; i < loads; i += 8) {
		p = (void **)*p; p = (void **)*p; p = (void **)*p; p = (void **)*p;
		p = (void **)*p; p = (void **)*p; p = (void **)*p; p = (void **)*p;
	}
	__asm__ volatile("" :: "r"(p));
	return (double)(now_ns() - t0) / (double)loads;
}

static int run_latency(const struct mem_cfg *c, unsigned long long llc, struct json *out, char *err, size_t en)
{
	unsigned long long max = c->lat_max ? c->lat_max : llc * 4;
	const size_t line = 64;
	struct json *o, *ns, *ld;
	char *buf;
	size_t *order;
	int thp = 0, sizes = 0;
	struct prng r;
	struct region reg = { 0 };
	if (!c->lat_max && max < (64ull << 20))
		max = 64ull << 20;
	if (max > mem_available() * 0.8) {
		snprintf(err, en, "the latency test needs %llu MiB but only %llu MiB are available: give a "
			 "smaller --latency-max", max >> 20, mem_available() >> 20);
		return -1;
	}
	buf = big_alloc(&reg, max, c->hugepages, &thp);
	order = malloc(max / line * sizeof *order);
	if (!buf || !order) {
		snprintf(err, en, "cannot allocate %llu MiB for the latency test", max >> 20);
		free(order);
		big_free(&reg);
		return -1;
	}
	prng_seed(&r, 42);
	o = json_add_obj(out, "latency");
	json_add_bool(o, "thp_requested", thp);
	{
		char b[64];
		if (!read_line("/sys/kernel/mm/transparent_hugepage/enabled", b, sizeof b))
			json_add_str(o, "thp_mode", b);
	}
	json_add_int(o, "repeats", c->lat_repeats);
	if (c->lat_time > 0)
		json_add_num(o, "time_s", c->lat_time);
	ns = json_add_obj(o, "ns_per_load");
	ld = json_add_obj(o, "loads_per_run");
	for (unsigned long long size = 16 << 10; size <= max; size *= 2)
		sizes++;
	for (unsigned long long size = 16 << 10; size <= max; size *= 2) {
		size_t n = size / line;
		double best = INFINITY, warm;
		uint64_t loads = 4u << 20;
		char key[32];
		/* a random cyclic permutation (Sattolo) of the lines */
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)prng_below(&r, i), t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		for (size_t i = 0; i < n; i++)
			*(void **)(buf + order[i] * line) = buf + order[(i + 1) % n] * line;
		warm = chase((void **)(buf + order[0] * line), n * 2);   /* warm: and its speed */
		if (c->lat_time > 0) {   /* this size's share of the sweep's time, less the warm-up */
			double share = c->lat_time / sizes - warm * (double)n * 2 / 1e9;
			double fit = share / (double)c->lat_repeats / (warm / 1e9);
			loads = fit > (double)(4u << 20) ? 4u << 20 : fit < (double)(256u << 10) ? 256u << 10 : (uint64_t)fit / 8 * 8;
		}
		for (long long k = 0; k < c->lat_repeats; k++)
			best = fmin(best, chase((void **)(buf + order[0] * line), loads));
		if (size < (1 << 20))
			snprintf(key, sizeof key, "%lluk", size >> 10);
		else
			snprintf(key, sizeof key, "%llum", size >> 20);
		json_add_num(ns, key, best);
		json_add_int(ld, key, (long long)loads);
	}
	free(order);
	big_free(&reg);
	return 0;
}

static int mem_check(void *p, int npos, char **pos, char *err, size_t n)
{
	struct mem_cfg *c = p;
	if (npos) {
		snprintf(err, n, "unexpected argument '%s'", pos[0]);
		return EXIT_USAGE;
	}
	if (c->threads == 0) {
		long on = sysconf(_SC_NPROCESSORS_ONLN);
		c->threads = on > 0 ? on : 1;
	}
	if (c->block & (c->block - 1)) {
		snprintf(err, n, "--memory-block-size=%llu: must be a power of two (as sysbench)", c->block);
		return EXIT_USAGE;
	}
	if (c->scope == SCOPE_LOCAL && c->block * (unsigned long long)c->threads > mem_available() * 0.8) {
		snprintf(err, n, "--memory-block-size=%llu x %lld threads exceeds the available memory",
			 c->block, c->threads);
		return EXIT_USAGE;
	}
	if (c->block > mem_available() * 0.8) {
		snprintf(err, n, "--memory-block-size=%llu exceeds the available memory (%llu MiB)", c->block,
			 mem_available() >> 20);
		return EXIT_USAGE;
	}
	for (const char *s = c->tests; *s;) {
		const char *comma = strchr(s, ',');
		size_t l = comma ? (size_t)(comma - s) : strlen(s);
		if (!((l == 8 && !strncmp(s, "sysbench", 8)) || (l == 6 && !strncmp(s, "stream", 6)) ||
		      (l == 7 && !strncmp(s, "latency", 7)))) {
			snprintf(err, n, "--tests=%s: unknown test '%.*s'; accepted: sysbench, stream, latency",
				 c->tests, (int)l, s);
			return EXIT_USAGE;
		}
		if (!comma)
			break;
		s = comma + 1;
	}
	{
		/* refuse what would not fit rather than be OOM-killed half way */
		unsigned long long llc = llc_size() ? llc_size() : 32ull << 20, avail = mem_available();
		unsigned long long sb = c->stream_size ? c->stream_size : llc * 4 < (32ull << 20) ? 32ull << 20 : llc * 4;
		unsigned long long lm = c->lat_max ? c->lat_max : llc * 4 < (64ull << 20) ? 64ull << 20 : llc * 4;
		if (list_has(c->tests, "stream") && 3 * sb > avail / 10 * 8) {
			snprintf(err, n, "STREAM needs 3 x %llu MiB but %llu MiB are available: give a smaller "
				 "--stream-array-size", sb >> 20, avail >> 20);
			return EXIT_USAGE;
		}
		if (list_has(c->tests, "latency") && lm * 9 / 8 > avail / 10 * 8) {
			snprintf(err, n, "the latency sweep up to %llu MiB does not fit in the %llu MiB available: "
				 "give a smaller --latency-max", lm >> 20, avail >> 20);
			return EXIT_USAGE;
		}
		if (c->stream_size && c->stream_size < 1024 * 1024) {
			snprintf(err, n, "--stream-array-size=%llu: at least 1m", c->stream_size);
			return EXIT_USAGE;
		}
		if (c->lat_max && c->lat_max < 16 * 1024) {
			snprintf(err, n, "--latency-max=%llu: at least 16k", c->lat_max);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int mem_run(void *p, struct json *out)
{
	struct mem_cfg *c = p;
	unsigned long long llc = llc_size();
	char err[300];
	int rc = EXIT_OK;
	struct cpusnap s0, s1;
	struct cpuload load;
	cpusnap_take(&s0);
	json_add_str(out, "test", "mem");
	json_add_int(out, "llc_bytes", (long long)llc);
	json_add_int(out, "mem_total_available_bytes", (long long)mem_available());
	if (!llc)
		llc = 32ull << 20;
	if (list_has(c->tests, "sysbench") && run_sysbench(c, out)) {
		json_add_str(out, "error", "sysbench memory test: out of memory or threads");
		rc = EXIT_FAIL;
	}
	if (list_has(c->tests, "stream") && run_stream(c, llc, out, err, sizeof err)) {
		errmsg("mem: %s", err);
		json_add_str(out, "error", err);
		rc = EXIT_FAIL;
	}
	if (list_has(c->tests, "latency") && run_latency(c, llc, out, err, sizeof err)) {
		errmsg("mem: %s", err);
		json_add_str(out, "error", err);
		rc = EXIT_FAIL;
	}
	cpusnap_take(&s1);
	cpuload_between(&s0, &s1, &load);
	cpuload_json(&load, out);
	return rc;
}

static void mem_text(const struct json *r, FILE *f)
{
	const struct json *sb = json_get(r, "sysbench"), *st = json_get(r, "stream"), *lt = json_get(r, "latency");
	if (sb) {
		fprintf(f, "sysbench memory: block %.0fKiB, %s, %s, %s, %.0f thread%s\n",
			json_get_num(sb, "block_size", 0) / 1024, json_get_str(sb, "oper", "?"),
			json_get_str(sb, "scope", "?"), json_get_str(sb, "access_mode", "?"),
			json_get_num(sb, "threads", 0), json_get_num(sb, "threads", 0) == 1 ? "" : "s");
		fprintf(f, "Total operations: %.0f (%8.2f per second)\n\n", json_get_num(sb, "total_operations", 0),
			json_get_num(sb, "ops_per_sec", 0));
		fprintf(f, "%.2f MiB transferred (%.2f MiB/sec)\n\n", json_get_num(sb, "total_mib", 0),
			json_get_num(sb, "mib_per_sec", 0));
		fprintf(f, "General statistics:\n    total time:                          %.4fs\n",
			json_get_num(sb, "total_time_s", 0));
		fprintf(f, "Latency (ms):\n         min: %.2f  avg: %.2f  max: %.2f  95th percentile: %.2f\n\n",
			json_get_num(sb, "latency_ms.min", 0), json_get_num(sb, "latency_ms.avg", 0),
			json_get_num(sb, "latency_ms.max", 0), json_get_num(sb, "latency_ms.p95", 0));
	}
	if (st) {
		fprintf(f, "STREAM (%.0f thread%s, 3 x %.0f MiB arrays, best of %.0f):\n",
			json_get_num(st, "threads", 0), json_get_num(st, "threads", 0) == 1 ? "" : "s",
			json_get_num(st, "array_bytes", 0) / 1048576, json_get_num(st, "ntimes", 0) - 1);
		fprintf(f, "Function    Best Rate MB/s\n");
		for (const struct json *k = json_path(st, "mb_per_sec")->child; k; k = k->next)
			fprintf(f, "%-8s %14.1f\n", k->key, k->num);
		fprintf(f, "triad / memcpy: %.2f\n\n", json_get_num(st, "triad_vs_memcpy", 0));
	}
	if (lt) {
		fprintf(f, "memory latency (random pointer chase, ns per load, THP %s):\n",
			json_get(lt, "thp_requested") && json_get(lt, "thp_requested")->b ? "requested" : "not used");
		for (const struct json *k = json_path(lt, "ns_per_load")->child; k; k = k->next)
			fprintf(f, "  %6s %8.2f\n", k->key, k->num);
	}
	if (json_get(r, "error"))
		fprintf(f, "error: %s\n", json_get_str(r, "error", ""));
}

/* mem.mib_per_sec.1t, mem.triad.all, mem.latency_ns.64m ... */
static void mem_figures(const struct json *r, const char *test, struct json *sum)
{
	const char *variant = strncmp(test, "mem.", 4) ? test : test + 4;
	const struct json *st = json_path(r, "stream.mb_per_sec"), *lt = json_path(r, "latency.ns_per_load");
	char name[128];
	if (json_path(r, "sysbench.mib_per_sec")) {
		snprintf(name, sizeof name, "mem.mib_per_sec.%s", variant);
		figure_add(sum, name, json_get_num(r, "sysbench.mib_per_sec", 0), "MiB/s", HIGHER_BETTER);
	}
	for (const struct json *k = st ? st->child : NULL; k; k = k->next) {
		snprintf(name, sizeof name, "mem.%s.%s", k->key, variant);
		figure_add(sum, name, k->num, "MB/s", HIGHER_BETTER);
	}
	for (const struct json *k = lt ? lt->child : NULL; k; k = k->next) {
		snprintf(name, sizeof name, "mem.latency_ns.%s", k->key);
		figure_add(sum, name, k->num, "ns", LOWER_BETTER);
	}
	if (json_get(r, "steal_pct") && json_get(r, "steal_pct")->type == J_NUM) {
		snprintf(name, sizeof name, "mem.steal.%s", variant);
		figure_add(sum, name, json_get_num(r, "steal_pct", 0), "%", LOWER_BETTER);
	}
}

/* assay run's memory tests: one thread with the latency sweep, then every CPU (the
 * suite's sizes for STREAM and the sweep).  Each part has a time: sysbench its --time,
 * STREAM and the sweep budgets of their own (a half and a quarter of it, within bounds),
 * so that the plan holds under emulation as on metal; a suite's own words come after and
 * win. */
static void mem_plan(struct run_plan *p, const struct plan_req *c)
{
	double t = c->cpu_time, lat = fmin(fmax(t / 2, 1), 10), st = fmin(fmax(t / 4, 0.5), 5);
	char arg[64], lt[48], stt[48], extra[200], *save = NULL;
	char *a1[14] = { "--threads=1", arg, "--tests=sysbench,stream,latency", lt, stt };
	char *a2[14] = { "--threads=all", arg, "--tests=sysbench,stream", stt };
	int n1 = 5, n2 = 4;
	if (!plan_wants(c, "mem"))
		return;
	snprintf(arg, sizeof arg, "--time=%g", t);
	snprintf(lt, sizeof lt, "--latency-time=%g", lat);
	snprintf(stt, sizeof stt, "--stream-time=%g", st);
	snprintf(extra, sizeof extra, "%s", c->mem_args);
	for (char *w = strtok_r(extra, " ", &save); w && n1 < 13; w = strtok_r(NULL, " ", &save)) {
		a1[n1++] = w;
		if (strncmp(w, "--latency", 9))
			a2[n2++] = w;
	}
	/* and half a second each for the buffers' first touch and the sweep's permutations */
	plan_add(p, "mem.1t", "mem", n1, a1, t + st + lat + 0.5);
	plan_add(p, "mem.all", "mem", n2, a2, t + st + 0.5);
}

static const char *const *mem_figure_names(void)
{
	static const char *const names[] = { "mem.{mib_per_sec,copy,scale,add,triad,memcpy,steal}.{1t,all}", "mem.latency_ns.*", NULL };
	return names;
}

const struct engine engine_mem = {
	.cmd = ENGINE_COMMAND("mem",
			      "memory: sysbench-compatible bandwidth, STREAM, latency by working set",
			      "[--tests=sysbench,stream,latency] [--threads N|all] [--time SECS] [sysbench's --memory-* options]",
			      mem_opts, struct mem_cfg, 0),
	.check = mem_check,
	.run = mem_run,
	.text = mem_text,
	.figures = mem_figures,
	.plan = mem_plan,
	.title = "Memory",
	.figure_names = mem_figure_names,
};
