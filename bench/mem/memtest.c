/* assay memtest: memory cells tested with memtester's and memtest86's classic patterns
 * (stuck address, random value, xor/sub/mul/div compare, solid bits, checkerboard, block
 * sequential, bit spread, bit flip, walking ones and zeros, moving inversions) over as
 * much RAM as can be locked.  Each pattern is a few sweeps over the whole region, split
 * between threads: fill, check, or check-and-rewrite (ascending or descending).  A value
 * is a function of the word's index, so nothing is kept beside the region: memtester
 * halves its buffer to compare, this tests all of it.  A failing word is reported with
 * its physical address (/proc/self/pagemap) and, where EDAC counts errors, the DIMMs whose
 * counts grew.  Bounded by passes or time.  --test-flip flips a bit (tests only). */
#include "clock.h"
#include "engine/engine.h"
#include "fileio.h"
#include "edac.h"
#include "json.h"
#include "msg.h"
#include "result/result.h"
#include "engine/plan.h"
#include "machine/sysinfo.h"

#include <emmintrin.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct mt_cfg {
	struct common_cfg common;
	const char *size_s;
	unsigned long long size;      /* 0: all that can be locked, less --reserve */
	unsigned long long reserve;
	long long passes;
	double time;                  /* 0: no limit */
	long long threads;
	const char *patterns;
	const char *flip;             /* "PATTERN:OFFSET:BIT" (tests) */
};

#define O(f) offsetof(struct mt_cfg, f)
static const struct opt mt_opts[] = {
	OPTS_COMMON(struct mt_cfg),
	{ "size", 0, OPT_STR, O(size_s), "auto", 0, 0, "auto or a size (256m, 4g)", "how much memory to test "
	  "(auto: in the image all that can be locked less --reserve; on a live system half the "
	  "available memory)", 0 },
	{ "reserve", 0, OPT_SIZE, O(reserve), "24m", 0, 0, NULL, "with --size=auto: left to the system", 0 },
	{ "passes", 0, OPT_INT, O(passes), "1", 1, 1000000, NULL, "passes over every pattern", 0 },
	{ "time", 0, OPT_TIME, O(time), "0", 0, 30 * 86400, NULL,
	  "stop when this is reached, in the middle of a pattern if need be (0: the passes decide); the "
	  "result says the coverage reached", 0 },
	{ "threads", 0, OPT_INT, O(threads), "all", 1, 4096, "all=0", "threads sharing the region", 0 },
	{ "patterns", 0, OPT_STR, O(patterns), "all", 0, 0, "all or a comma list of the pattern names",
	  "which patterns (assay memtest --help lists them)", 0 },
	{ "test-flip", 0, OPT_STR, O(flip), NULL, 0, 0, "PATTERN:BYTE-OFFSET:BIT",
	  "tests only: flip a bit after the pattern's first sweep", OPT_HIDDEN },
	OPT_END,
};
#undef O

/* how a word's value comes from its index i (and the word's address for V_ADDR) */
enum vkind { V_ADDR, V_RAND, V_ARITH, V_CONST, V_ALT, V_SPREAD, V_FLIP, V_WALK };
struct val { enum vkind k; uint64_t x; int step; };
enum sweep_op { S_FILL, S_CHECK, S_CHECK_FILL };
struct sweep { enum sweep_op op; struct val a, b; int down; };

#define MAXSW 12
static const struct pattern {
	const char *name;
	int n;
	struct sweep s[MAXSW];
} patterns[] = {
	{ "stuck_address", 4, { { S_FILL, { V_ADDR, 0, 0 } }, { S_CHECK, { V_ADDR, 0, 0 } },
				{ S_FILL, { V_ADDR, ~0ull, 0 } }, { S_CHECK, { V_ADDR, ~0ull, 0 } } } },
	{ "random_value", 2, { { S_FILL, { V_RAND, 0, 0 } }, { S_CHECK, { V_RAND, 0, 0 } } } },
	/* xor, sub, mul, div in turn, each checking what the one before left */
	{ "compare_xor_sub_mul_div", 6,
	  { { S_FILL, { V_ARITH, 0, 0 } }, { S_CHECK_FILL, { V_ARITH, 0, 0 }, { V_ARITH, 0, 1 } },
	    { S_CHECK_FILL, { V_ARITH, 0, 1 }, { V_ARITH, 0, 2 } }, { S_CHECK_FILL, { V_ARITH, 0, 2 }, { V_ARITH, 0, 3 } },
	    { S_CHECK_FILL, { V_ARITH, 0, 3 }, { V_ARITH, 0, 4 } }, { S_CHECK, { V_ARITH, 0, 4 } } } },
	{ "solid_bits", 4, { { S_FILL, { V_ALT, ~0ull, 0 } }, { S_CHECK, { V_ALT, ~0ull, 0 } },
			     { S_FILL, { V_ALT, 0, 0 } }, { S_CHECK, { V_ALT, 0, 0 } } } },
	{ "checkerboard", 4, { { S_FILL, { V_ALT, 0x5555555555555555ull, 0 } },
			       { S_CHECK, { V_ALT, 0x5555555555555555ull, 0 } },
			       { S_FILL, { V_ALT, 0xaaaaaaaaaaaaaaaaull, 0 } },
			       { S_CHECK, { V_ALT, 0xaaaaaaaaaaaaaaaaull, 0 } } } },
	{ "block_sequential", 4, { { S_FILL, { V_CONST, 0x3c3c3c3c3c3c3c3cull, 0 } },
				   { S_CHECK_FILL, { V_CONST, 0x3c3c3c3c3c3c3c3cull, 0 }, { V_CONST, 0xc3c3c3c3c3c3c3c3ull, 0 } },
				   { S_CHECK_FILL, { V_CONST, 0xc3c3c3c3c3c3c3c3ull, 0 }, { V_CONST, 0x0101010101010101ull, 0 } },
				   { S_CHECK, { V_CONST, 0x0101010101010101ull, 0 } } } },
	{ "bit_spread", 4, { { S_FILL, { V_SPREAD, 0, 0 } }, { S_CHECK, { V_SPREAD, 0, 0 } },
			     { S_FILL, { V_SPREAD, ~0ull, 0 } }, { S_CHECK, { V_SPREAD, ~0ull, 0 } } } },
	{ "bit_flip", 4, { { S_FILL, { V_FLIP, 0, 0 } }, { S_CHECK, { V_FLIP, 0, 0 } },
			   { S_FILL, { V_FLIP, ~0ull, 0 } }, { S_CHECK, { V_FLIP, ~0ull, 0 } } } },
	{ "walking_ones", 2, { { S_FILL, { V_WALK, 0, 0 } }, { S_CHECK, { V_WALK, 0, 0 } } } },
	{ "walking_zeros", 2, { { S_FILL, { V_WALK, ~0ull, 0 } }, { S_CHECK, { V_WALK, ~0ull, 0 } } } },
	/* memtest86's: up checking P writing ~P, down checking ~P writing P, then a check */
	{ "moving_inversions", 4, { { S_FILL, { V_RAND, 1, 0 } },
				    { S_CHECK_FILL, { V_RAND, 1, 0 }, { V_RAND, 1 | 1ull << 63, 0 } },
				    { S_CHECK_FILL, { V_RAND, 1 | 1ull << 63, 0 }, { V_RAND, 1, 0 }, 1 },
				    { S_CHECK, { V_RAND, 1, 0 } } } },
};
#define NPAT (int)(sizeof patterns / sizeof patterns[0])

static inline uint64_t mix(uint64_t z)     /* splitmix64's finaliser */
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* a word's pseudo-random value: one multiply, enough to vary every bit between words */
static inline uint64_t hash(uint64_t z)
{
	z *= 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 29);
}

static inline uint64_t hash2(uint64_t z)
{
	z *= 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#define Q 0x9e3779b97f4a7c15ull     /* the compare patterns' operand (odd: mul keeps bits) */
/* a word's value; k is a constant where this is inlined, so each sweep loop below is
 * compiled once per kind with nothing but its own arithmetic inside */
static inline __attribute__((always_inline)) uint64_t value(enum vkind k, uint64_t x, int step, const uint64_t *w,
							     uint64_t seed)
{
	uint64_t i = (uint64_t)(uintptr_t)w >> 3, r, j;
	switch (k) {
	case V_ADDR: return (uint64_t)(uintptr_t)w ^ x;
	case V_RAND:   /* a random word for each place in a 4 KiB block, xor a random word for the block */
		r = hash((seed ^ (x & 1)) + (i & 511) * Q) ^ hash2(seed + (i >> 9));
		return x >> 63 ? ~r : r;
	case V_ARITH: r = hash(seed ^ i);
		if (step >= 1) r ^= Q;
		if (step >= 2) r -= Q;
		if (step >= 3) r *= Q;
		if (step >= 4) r /= (Q >> 40) | 1;
		return r;
	case V_CONST: return x;
	case V_ALT: return i & 1 ? ~x : x;
	case V_SPREAD: j = i & 63;
		r = 1ull << j | 1ull << ((j + 2) & 63);
		return (i & 1 ? ~r : r) ^ x;
	case V_FLIP: r = 1ull << (i & 63);
		return (i >> 6 & 1 ? ~r : r) ^ x;
	case V_WALK: return 1ull << (i & 63) ^ x;
	}
	return 0;
}

#define MAXERR 32
struct shared {
	uint64_t *base;
	size_t words;
	int nthreads;
	pthread_barrier_t bar;
	pthread_mutex_t lock;
	uint64_t seed;
	atomic_ullong errors;
	struct { size_t word; uint64_t want, got; int pat, pass; } err[MAXERR];
	int nerr;
	int pat, pass;             /* what the sweeps test now */
	int stop;                  /* thread 0: the time is up */
	double deadline;           /* --time: when every thread stops, mid-sweep if need be (0: none) */
	atomic_int timeup;         /* a thread saw the deadline pass */
	double warmup_s;
};

static __attribute__((noinline, cold)) void bad(struct shared *s, uint64_t *w, uint64_t want, uint64_t got)
{
	atomic_fetch_add(&s->errors, 1);
	pthread_mutex_lock(&s->lock);
	if (s->nerr < MAXERR) {
		s->err[s->nerr].word = (size_t)(w - s->base);
		s->err[s->nerr].want = want;
		s->err[s->nerr].got = got;
		s->err[s->nerr].pat = s->pat;
		s->err[s->nerr].pass = s->pass;
		s->nerr++;
	}
	pthread_mutex_unlock(&s->lock);
}

#define BLOCK 512

static uint64_t value_any(const struct val *v, const uint64_t *w, uint64_t seed)
{
	switch (v->k) {
	case V_ADDR: return value(V_ADDR, v->x, v->step, w, seed);
	case V_RAND: return value(V_RAND, v->x, v->step, w, seed);
	case V_ARITH: return value(V_ARITH, v->x, v->step, w, seed);
	case V_CONST: return value(V_CONST, v->x, v->step, w, seed);
	case V_ALT: return value(V_ALT, v->x, v->step, w, seed);
	case V_SPREAD: return value(V_SPREAD, v->x, v->step, w, seed);
	case V_FLIP: return value(V_FLIP, v->x, v->step, w, seed);
	case V_WALK: return value(V_WALK, v->x, v->step, w, seed);
	}
	return 0;
}

/* a block that differed: which words */
static __attribute__((noinline, cold)) void recheck(struct shared *s, const struct sweep *sw, uint64_t *lo,
						    uint64_t *hi)
{
	for (uint64_t *w = lo; w < hi; w++) {
		uint64_t want = value_any(&sw->a, w, s->seed), got = *(volatile uint64_t *)w;
		if (got != want)
			bad(s, w, want, got);
	}
}

/* one sweep over words [lo, hi) of kind K (check-and-fill: the new values' kind is the
 * same as the old ones' in every pattern); volatile reads: each is a load from memory */
static inline __attribute__((always_inline)) void sweep_k(struct shared *s, const struct sweep *sw, uint64_t *lo,
							   uint64_t *hi, const enum vkind K)
{
	const uint64_t seed = s->seed, ax = sw->a.x, bx = sw->b.x;
	const int as = sw->a.step, bs = sw->b.step, fill2 = sw->op == S_CHECK_FILL;
	if (sw->op == S_FILL) {
		for (uint64_t *w = lo; w < hi; w++)
			_mm_stream_si64((long long *)w, (long long)value(K, ax, as, w, seed));
		_mm_sfence();
		return;
	}
	if (!sw->down) {
		/* a block's differences ORed together, without a branch a word (the compiler
		 * vectorises what it can); a block with any is read again word by word */
		for (uint64_t *blk = lo; blk < hi; blk += BLOCK) {
			uint64_t *end = hi - blk > BLOCK ? blk + BLOCK : hi, acc = 0;
			for (uint64_t *w = blk; w < end; w++)
				acc |= *w ^ value(K, ax, as, w, seed);
			if (__builtin_expect(acc != 0, 0))
				recheck(s, sw, blk, end);
			if (fill2)      /* the block is in the L1 cache: rewritten at little cost */
				for (uint64_t *w = blk; w < end; w++)
					*w = value(K, bx, bs, w, seed);
		}
		return;
	}
	for (uint64_t *w = hi; w-- > lo;) {
		uint64_t want = value(K, ax, as, w, seed), got = *(volatile uint64_t *)w;
		if (__builtin_expect(got != want, 0))
			bad(s, w, want, got);
		if (fill2)
			*w = value(K, bx, bs, w, seed);
	}
}

/* the kinds whose value repeats every 128 words or fewer (constant, alternating, walking, bit
 * spread and flip), or is such a value xor a word of the block's own (the address, the
 * random kind): a block's values are a table made once, and each block is checked and
 * written 16 bytes at a time.  Blocks are BLOCK words at 4 KiB boundaries (the region is
 * page-aligned, each thread's slice a multiple of BLOCK), so word j of every block has the
 * same value. */
static int periodic(enum vkind k)
{
	return k == V_CONST || k == V_ALT || k == V_SPREAD || k == V_FLIP || k == V_WALK || k == V_RAND || k == V_ADDR;
}

/* the values of block 0; another block's are these xor its block word */
static void table(const struct val *v, uint64_t *t, uint64_t seed)
{
	for (size_t j = 0; j < BLOCK; j++)
		t[j] = value_any(v, (const uint64_t *)(uintptr_t)(j * 8), seed) ^
		       (v->k == V_RAND ? hash2(seed) : 0);
}

/* the word every value of the block at w is xored with: the random kind's block word; the
 * block's address (4 KiB aligned: its address plus 8j is its address xor 8j) */
static inline __m128i block_word(const struct val *v, const uint64_t *w, uint64_t seed)
{
	return v->k == V_RAND ? _mm_set1_epi64x((long long)hash2(seed + ((uintptr_t)w >> 12)))
	       : v->k == V_ADDR ? _mm_set1_epi64x((long long)(uintptr_t)w) : _mm_setzero_si128();
}

static __attribute__((optimize("O3"))) void sweep_periodic(struct shared *s, const struct sweep *sw, uint64_t *lo,
							    uint64_t *hi)
{
	static __thread uint64_t ta[BLOCK] __attribute__((aligned(64))), tb[BLOCK] __attribute__((aligned(64)));
	const __m128i *a = (const __m128i *)ta, *b = (const __m128i *)tb;
	size_t nblk = (size_t)(hi - lo) / BLOCK;
	table(&sw->a, ta, s->seed);
	if (sw->op == S_CHECK_FILL)
		table(&sw->b, tb, s->seed);
	/* memtest86's moving inversions go down as well: blocks, and words in them, in turn */
	for (size_t k = 0; k < nblk; k++) {
		uint64_t *blk = sw->down ? hi - (k + 1) * BLOCK : lo + k * BLOCK;
		__m128i *w = (__m128i *)blk, ba = block_word(&sw->a, blk, s->seed), acc = _mm_setzero_si128();
		if (sw->op == S_FILL) {
			for (size_t j = 0; j < BLOCK / 2; j++)
				_mm_stream_si128(w + j, _mm_xor_si128(_mm_load_si128(a + j), ba));
			continue;
		}
		if (!sw->down)
			for (size_t j = 0; j < BLOCK / 2; j++)
				acc = _mm_or_si128(acc, _mm_xor_si128(_mm_load_si128(w + j), _mm_xor_si128(_mm_load_si128(a + j), ba)));
		else
			for (size_t j = BLOCK / 2; j-- > 0;)
				acc = _mm_or_si128(acc, _mm_xor_si128(_mm_load_si128(w + j), _mm_xor_si128(_mm_load_si128(a + j), ba)));
		if (__builtin_expect(_mm_movemask_epi8(_mm_cmpeq_epi8(acc, _mm_setzero_si128())) != 0xffff, 0))
			recheck(s, sw, blk, blk + BLOCK);
		if (sw->op == S_CHECK_FILL) {
			__m128i bb = block_word(&sw->b, blk, s->seed);
			for (size_t j = 0; j < BLOCK / 2; j++)
				_mm_store_si128(w + j, _mm_xor_si128(_mm_load_si128(b + j), bb));
		}
	}
	if (sw->op == S_FILL)
		_mm_sfence();
}

static __attribute__((optimize("O3"))) void sweep_all(struct shared *s, const struct sweep *sw, uint64_t *lo,
						       uint64_t *hi)
{
	if (periodic(sw->a.k) && (sw->op != S_CHECK_FILL || periodic(sw->b.k)) &&
	    !((uintptr_t)lo % (BLOCK * 8)) && !((uintptr_t)hi % (BLOCK * 8))) {
		sweep_periodic(s, sw, lo, hi);
		return;
	}
	switch (sw->a.k) {
	case V_ADDR: sweep_k(s, sw, lo, hi, V_ADDR); break;
	case V_RAND: sweep_k(s, sw, lo, hi, V_RAND); break;
	case V_ARITH: sweep_k(s, sw, lo, hi, V_ARITH); break;
	case V_CONST: sweep_k(s, sw, lo, hi, V_CONST); break;
	case V_ALT: sweep_k(s, sw, lo, hi, V_ALT); break;
	case V_SPREAD: sweep_k(s, sw, lo, hi, V_SPREAD); break;
	case V_FLIP: sweep_k(s, sw, lo, hi, V_FLIP); break;
	case V_WALK: sweep_k(s, sw, lo, hi, V_WALK); break;
	}
}

/* a sweep in slices of 16 MiB, in its direction, each begun only before the deadline, so
 * that --time holds on any size; the time up is said in s->timeup */
#define SLICE ((size_t)1 << 21)   /* words: a multiple of BLOCK */
static void sweep(struct shared *s, const struct sweep *sw, uint64_t *lo, uint64_t *hi)
{
	size_t n = (size_t)(hi - lo);
	for (size_t done = 0; done < n; done += SLICE) {
		size_t len = n - done < SLICE ? n - done : SLICE;
		if (s->deadline && (atomic_load(&s->timeup) || now_s() >= s->deadline)) {
			atomic_store(&s->timeup, 1);
			return;
		}
		if (sw->down)
			sweep_all(s, sw, hi - done - len, hi - done);
		else
			sweep_all(s, sw, lo + done, lo + done + len);
	}
}

struct worker {
	pthread_t tid;
	struct shared *s;
	int idx;
	const struct mt_cfg *c;
	double t0;
	int *chosen, nchosen;
	struct json *rows;          /* thread 0: one row per pattern and pass */
	int stopped_by_time, passes_done;
	int patterns_first;         /* thread 0: the patterns the first pass finished */
};

/* thread 0 between sweeps: the --test-flip hook */
static void flip_hook(const struct worker *w, int pat, int k)
{
	char name[64];
	unsigned long long off;
	int bit;
	if (!w->c->flip || k != 0 || sscanf(w->c->flip, "%63[^:]:%llu:%d", name, &off, &bit) != 3 ||
	    strcmp(name, patterns[pat].name) || off >= w->s->words * 8 || bit < 0 || bit > 7)
		return;
	((volatile uint8_t *)w->s->base)[off] ^= (uint8_t)(1u << bit);
}

static void *mt_main(void *arg)
{
	struct worker *w = arg;
	struct shared *s = w->s;
	size_t per = s->words / (size_t)s->nthreads / BLOCK * BLOCK, lo = per * (size_t)w->idx;
	size_t hi = w->idx == s->nthreads - 1 ? s->words : lo + per;
	{
		/* a first write of every word, not timed: the first touch of freshly locked memory
		 * costs a hypervisor (or the kernel) far more than a pattern's sweep */
		static const struct sweep zero = { S_FILL, { V_CONST, 0, 0 } };
		double t0 = now_s();
		sweep(s, &zero, s->base + lo, s->base + hi);
		pthread_barrier_wait(&s->bar);
		if (w->idx == 0)
			s->warmup_s = now_s() - t0;
		if (atomic_load(&s->timeup))
			return NULL;
	}
	for (int pass = 0; pass < w->c->passes; pass++) {
		for (int q = 0; q < w->nchosen; q++) {
			int pat = w->chosen[q];
			double t0 = now_s();
			unsigned long long e0 = atomic_load(&s->errors);
			/* thread 0 decides for all whether the time is up between patterns; within
			 * one, each thread between slices (sweep) */
			if (w->idx == 0) {
				s->pat = pat;
				s->pass = pass + 1;
				s->stop = s->deadline && now_s() >= s->deadline;
			}
			pthread_barrier_wait(&s->bar);
			if (s->stop)
				return NULL;
			for (int k = 0; k < patterns[pat].n; k++) {
				sweep(s, &patterns[pat].s[k], s->base + lo, s->base + hi);
				pthread_barrier_wait(&s->bar);
				if (atomic_load(&s->timeup)) {   /* (every thread past the barrier sees it) */
					if (w->idx == 0)
						s->stop = 1;
					return NULL;
				}
				if (w->idx == 0)
					flip_hook(w, pat, k);
				pthread_barrier_wait(&s->bar);
			}
			if (w->idx == 0) {
				struct json *r = json_push(w->rows, json_obj());
				double dt = now_s() - t0;
				int bytes_per_word = 0;
				for (int k = 0; k < patterns[pat].n; k++)
					bytes_per_word += patterns[pat].s[k].op == S_CHECK_FILL ? 16 : 8;
				json_add_str(r, "pattern", patterns[pat].name);
				json_add_int(r, "pass", pass + 1);
				json_add_num(r, "seconds", dt);
				/* bytes written plus bytes read, as STREAM counts its copy */
				json_add_num(r, "mib_per_sec", (double)s->words * bytes_per_word / dt / 1048576);
				json_add_int(r, "errors", (long long)(atomic_load(&s->errors) - e0));
				w->passes_done = pass + (q + 1 == w->nchosen);
				w->patterns_first += pass == 0;
			}
		}
		if (w->idx == 0)
			s->seed = mix(s->seed + 1);
		pthread_barrier_wait(&s->bar);
	}
	return NULL;
}

/* a virtual address's physical one (pagemap; root sees frame numbers), or 0 */
static uint64_t phys_of(const void *p)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t e = 0, v = (uint64_t)(uintptr_t)p;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, (off_t)(v / (uint64_t)pg * 8)) != 8)
		e = 0;
	close(fd);
	if (!(e >> 63) || !(e & ((1ull << 55) - 1)))
		return 0;
	return (e & ((1ull << 55) - 1)) * (uint64_t)pg + v % (uint64_t)pg;
}

/* map and lock size bytes, or less when the kernel will not lock that much (5% less a try,
 * as memtester does); without the right to lock (a container without CAP_IPC_LOCK), the
 * whole size unlocked, as memtester then does, *locked 0; NULL when nothing could be had */
#define LOCK_SLICE (256ull << 20)

/* mlock p[0..want) a slice at a time until stop (0: never) passes, at least the first slice:
 * how much was locked (the rest unmapped), or 0 when the kernel refused (nothing left) */
static unsigned long long lock_slices(char *p, unsigned long long want, double stop)
{
	unsigned long long got = 0;
	while (got < want) {
		unsigned long long len = want - got < LOCK_SLICE ? want - got : LOCK_SLICE;
		if (got && stop && now_s() >= stop)
			break;
		if (mlock(p + got, len)) {
			munmap(p, want);
			return 0;
		}
		got += len;
	}
	if (got < want)
		munmap(p + got, want - got);
	return got;
}

/* stop: when to stop locking more (a --time's quarter: the rest is for the patterns) */
static void *lock_region(unsigned long long *size, int *locked, double stop, char *err, size_t n)
{
	unsigned long long want = *size / 4096 * 4096, floor = want / 4, got;
	void *p;
	*locked = 1;
	while (want >= floor && want >= 1 << 20) {
		p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED && (got = lock_slices(p, want, stop))) {
			*size = got;
			return p;
		}
		want = want / 100 * 95 / 4096 * 4096;
	}
	/* not even a quarter could be locked (RLIMIT_MEMLOCK without CAP_IPC_LOCK) */
	*locked = 0;
	want = *size / 4096 * 4096;
	p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p != MAP_FAILED) {
		*size = want;
		return p;
	}
	snprintf(err, n, "cannot map %llu MiB of memory: %s", *size >> 20, strerror(errno));
	return NULL;
}

static int choose(const char *list, int *out, char *err, size_t n)
{
	int k = 0;
	for (int i = 0; i < NPAT; i++)
		if (in_list(list, patterns[i].name))
			out[k++] = i;
	for (const char *p = list; strcmp(list, "all") && *p;) {
		size_t l = strcspn(p, ",");
		int found = 0;
		for (int i = 0; i < NPAT; i++)
			found |= strlen(patterns[i].name) == l && !strncmp(patterns[i].name, p, l);
		if (!found) {
			size_t m = (size_t)snprintf(err, n, "--patterns=%s: unknown pattern '%.*s'; accepted: all or",
						    list, (int)l, p);
			for (int i = 0; i < NPAT && m < n; i++)
				m += (size_t)snprintf(err + m, n - m, " %s", patterns[i].name);
			return -1;
		}
		p += l + (p[l] == ',');
	}
	return k;
}

static int mt_check(void *p, int npos, char **pos, char *err, size_t n)
{
	struct mt_cfg *c = p;
	int chosen[NPAT];
	char name[64];
	unsigned long long off;
	int bit;
	if (npos) {
		snprintf(err, n, "unexpected argument '%s'", pos[0]);
		return EXIT_USAGE;
	}
	if (c->threads == 0) {
		long on = sysconf(_SC_NPROCESSORS_ONLN);
		c->threads = on > 0 ? on : 1;
	}
	if (choose(c->patterns, chosen, err, n) < 0)
		return EXIT_USAGE;
	if (c->flip && (sscanf(c->flip, "%63[^:]:%llu:%d", name, &off, &bit) != 3 || bit < 0 || bit > 7)) {
		snprintf(err, n, "--test-flip=%s: expected PATTERN:BYTE-OFFSET:BIT (bit 0-7)", c->flip);
		return EXIT_USAGE;
	}
	if (strcmp(c->size_s, "auto") && (parse_size(c->size_s, &c->size) || !c->size)) {
		snprintf(err, n, "--size=%s: expected auto or a size (256m, 4g)", c->size_s);
		return EXIT_USAGE;
	}
	if (c->size && c->size < (1 << 20)) {
		snprintf(err, n, "--size=%llu: at least 1m", c->size);
		return EXIT_USAGE;
	}
	return 0;
}

static void errors_json(struct shared *s, struct json *out)
{
	struct json *arr = json_add_arr(out, "error_list");
	for (int i = 0; i < s->nerr; i++) {
		struct json *o = json_push(arr, json_obj());
		char hex[24];
		uint64_t phys = phys_of(s->base + s->err[i].word);
		json_add_str(o, "pattern", patterns[s->err[i].pat].name);
		json_add_int(o, "pass", s->err[i].pass);
		json_add_num(o, "offset", (double)s->err[i].word * 8);
		snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)phys);
		json_add_str(o, "phys_addr", phys ? hex : "unknown");
		snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)s->err[i].want);
		json_add_str(o, "expected", hex);
		snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)s->err[i].got);
		json_add_str(o, "actual", hex);
		snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)(s->err[i].want ^ s->err[i].got));
		json_add_str(o, "bits", hex);
	}
}

/* a DIMM whose EDAC counts grew during the test, into the result's edac_dimms */
static void edac_blame(const char *mc, const struct json *d, double ce, double ue, void *arg)
{
	struct json *o = arg, *arr = (struct json *)json_get(o, "edac_dimms"), *e;
	if (!arr)
		arr = json_add_arr(o, "edac_dimms");
	e = json_push(arr, json_obj());
	json_add_str(e, "controller", mc);
	json_add_str(e, "dimm", json_get_str(d, "name", "?"));
	json_add_str(e, "label", json_get_str(d, "label", ""));
	json_add_num(e, "ce", ce);
	json_add_num(e, "ue", ue);
}

static int mt_run(void *p, struct json *out)
{
	struct mt_cfg *c = p;
	struct shared *s = calloc(1, sizeof *s);
	struct worker *w = calloc((size_t)c->threads, sizeof *w);
	int chosen[NPAT], nchosen;
	unsigned long long total = meminfo_bytes("MemTotal"), size = c->size, avail = mem_available();
	char err[300];
	struct json *o = json_add_obj(out, "memtest"), *before = json_obj(), *after = json_obj();
	double t0 = now_s();
	unsigned long long nerr;
	int locked = 0;
	FILE *adj;
	if (!s || !w)
		die(EXIT_SYS, "memtest: out of memory");
	nchosen = choose(c->patterns, chosen, err, sizeof err);
	/* when memory runs short, this process is the one the kernel kills, not the run */
	if ((adj = fopen("/proc/self/oom_score_adj", "w"))) {
		fputs("1000\n", adj);
		fclose(adj);
	}
	if (!size && getenv("ASSAY_IMAGE"))
		size = avail > c->reserve + (8 << 20) ? avail - c->reserve : 8 << 20;
	else if (!size)     /* a live system: half of what is available, its own left alone */
		size = avail / 2 > (8 << 20) ? avail / 2 : 8 << 20;
	json_add_str(o, "size_rule", c->size ? "given" : getenv("ASSAY_IMAGE") ? "available less the reserve (the image)"
		     : "half the available memory (a live system)");
	{
		/* with --time, locking takes at most a quarter of it: a slower hypervisor or a bigger
		 * memory tests less of it in that time, and says how much */
		unsigned long long asked = size;
		s->base = lock_region(&size, &locked, c->time > 0 ? t0 + c->time / 4 : 0, err, sizeof err);
		if (s->base && size < asked)
			info("memtest: %llu of %llu MiB locked within a quarter of --time=%g s: testing those", size >> 20,
			     asked >> 20, c->time);
	}
	if (!s->base) {
		json_add_str(out, "error", err);
		free(s);
		free(w);
		return EXIT_FAIL;
	}
	s->words = size / 8;
	s->nthreads = (int)c->threads;
	s->deadline = c->time > 0 ? t0 + c->time : 0;
	s->seed = 0x5eed ^ (uint64_t)time(NULL);
	pthread_barrier_init(&s->bar, NULL, (unsigned)c->threads);
	pthread_mutex_init(&s->lock, NULL);
	edac_snapshot(before);
	json_add_num(o, "bytes_tested", (double)size);
	json_add_bool(o, "locked", locked);
	if (!locked)
		warn("memtest: no right to lock memory (CAP_IPC_LOCK): testing %llu MiB unlocked, which the kernel may "
		     "move or swap during the test", size >> 20);
	json_add_num(o, "mem_total_bytes", (double)total);
	json_add_num(o, "mem_available_bytes", (double)avail);
	json_add_num(o, "tested_pct", total ? 100.0 * (double)size / (double)total : 0);
	json_add_int(o, "threads", c->threads);
	json_add_int(o, "passes_asked", c->passes);
	w[0].rows = json_add_arr(o, "patterns");
	for (int i = 0; i < s->nthreads; i++) {
		w[i] = (struct worker){ .s = s, .idx = i, .c = c, .t0 = t0, .chosen = chosen, .nchosen = nchosen,
					.rows = w[0].rows };
		if (i && pthread_create(&w[i].tid, NULL, mt_main, &w[i]))
			die(EXIT_SYS, "memtest: cannot start thread %d:", i);
	}
	mt_main(&w[0]);
	for (int i = 1; i < s->nthreads; i++)
		pthread_join(w[i].tid, NULL);
	edac_snapshot(after);
	json_add_int(o, "passes_done", w[0].passes_done);
	{
		/* what was covered: a whole pass of every pattern over all of it, or less */
		struct json *cv = json_add_obj(o, "coverage");
		char what[160];
		json_add_int(cv, "patterns_done", w[0].patterns_first);
		json_add_int(cv, "patterns", nchosen);
		json_add_int(cv, "patterns_known", NPAT);
		json_add_num(cv, "bytes", (double)size);
		json_add_bool(cv, "complete", w[0].passes_done >= 1 && nchosen == NPAT);
		snprintf(what, sizeof what, "%d of %d patterns over %.1f GiB%s", w[0].patterns_first, NPAT,
			 (double)size / 1073741824, w[0].passes_done >= 1 && nchosen == NPAT ? ", a whole pass" : "");
		json_add_str(cv, "what", what);
	}
	json_add_num(o, "warmup_s", s->warmup_s);
	json_add_str(o, "stopped_by", s->stop || atomic_load(&s->timeup) ? "time" : "passes");
	json_add_num(o, "time_s", now_s() - t0);
	{
		double mn = INFINITY;
		for (const struct json *r = w[0].rows->child; r; r = r->next)
			mn = fmin(mn, json_get_num(r, "mib_per_sec", INFINITY));
		if (isfinite(mn))
			json_add_num(o, "min_mib_per_sec", mn);
	}
	nerr = atomic_load(&s->errors);
	json_add_num(o, "errors", (double)nerr);
	errors_json(s, o);
	if (nerr) {
		/* a failed test whose figures stand: the errors are what was measured */
		json_add_bool(out, "figures_valid", 1);
		snprintf(err, sizeof err, "%llu memory errors, the first in %s at physical address %s", nerr,
			 json_get_str(json_get(o, "error_list")->child, "pattern", "?"),
			 json_get_str(json_get(o, "error_list")->child, "phys_addr", "?"));
		json_add_str(out, "error", err);
	}
	edac_grown(before, after, edac_blame, o);
	json_free(before);
	json_free(after);
	pthread_barrier_destroy(&s->bar);
	munmap(s->base, size);
	free(s);
	free(w);
	return nerr ? EXIT_FAIL : EXIT_OK;
}

static void mt_text(const struct json *r, FILE *f)
{
	const struct json *o = json_get(r, "memtest"), *rows = json_get(o, "patterns"), *el = json_get(o, "error_list");
	if (!o)
		return;
	fprintf(f, "memtest: %.0f MiB locked and tested (%.1f%% of MemTotal %.0f MiB), %d threads, %.0f of %.0f passes "
		"in %.1f s%s\n", json_get_num(o, "bytes_tested", 0) / 1048576, json_get_num(o, "tested_pct", 0),
		json_get_num(o, "mem_total_bytes", 0) / 1048576, (int)json_get_num(o, "threads", 0),
		json_get_num(o, "passes_done", 0), json_get_num(o, "passes_asked", 0), json_get_num(o, "time_s", 0),
		!strcmp(json_get_str(o, "stopped_by", ""), "time") ? " (stopped by --time)" : "");
	for (const struct json *p = rows ? rows->child : NULL; p; p = p->next)
		fprintf(f, "  pass %-3.0f %-26s %8.0f MiB/s %7.2f s  %s\n", json_get_num(p, "pass", 0),
			json_get_str(p, "pattern", "?"), json_get_num(p, "mib_per_sec", 0), json_get_num(p, "seconds", 0),
			json_get_num(p, "errors", 0) ? "FAILED" : "ok");
	if (json_get(o, "coverage"))
		fprintf(f, "coverage: %s\n", json_get_str(json_get(o, "coverage"), "what", ""));
	fprintf(f, "errors: %.0f\n", json_get_num(o, "errors", 0));
	for (const struct json *e = el ? el->child : NULL; e; e = e->next)
		fprintf(f, "  %s pass %.0f: offset %.0f, physical %s: expected %s, read %s (bits %s)\n",
			json_get_str(e, "pattern", "?"), json_get_num(e, "pass", 0), json_get_num(e, "offset", 0),
			json_get_str(e, "phys_addr", "?"), json_get_str(e, "expected", "?"), json_get_str(e, "actual", "?"),
			json_get_str(e, "bits", "?"));
	for (const struct json *d = json_get(o, "edac_dimms") ? json_get(o, "edac_dimms")->child : NULL; d; d = d->next)
		fprintf(f, "  EDAC: %s/%s %s: +%.0f CE, +%.0f UE during the test\n", json_get_str(d, "controller", "?"),
			json_get_str(d, "dimm", "?"), json_get_str(d, "label", ""), json_get_num(d, "ce", 0),
			json_get_num(d, "ue", 0));
}

static void mt_figures(const struct json *r, const char *test, struct json *sum)
{
	const struct json *o = json_get(r, "memtest");
	struct json *row;
	if (!o)
		return;
	row = figure_add(sum, "memtest.errors", json_get_num(o, "errors", 0), "errors", LOWER_BETTER);
	if (json_get(r, "error"))
		json_add_str(row, "detail", json_get_str(r, "error", ""));
	if (json_get(o, "coverage")) {   /* no error counts as a pass only over a whole pass */
		struct json *cv = json_add_obj(row, "coverage");
		json_add_bool(cv, "complete", json_path(o, "coverage.complete")->b);
		json_add_str(cv, "what", json_get_str(json_get(o, "coverage"), "what", ""));
	}
	figure_add(sum, "memtest.tested_pct", json_get_num(o, "tested_pct", 0), "%", HIGHER_BETTER);
	if (json_get(o, "min_mib_per_sec"))
		figure_add(sum, "memtest.min_bw", json_get_num(o, "min_mib_per_sec", 0), "MiB/s", HIGHER_BETTER);
}

/* in the full suite (and the burn-in), or when --tests names it: one pass over all the
 * memory that can be locked */
static void mt_plan(struct run_plan *p, const struct plan_req *c)
{
	char size[80], tm[80];
	char *args[4] = { "--passes=1", size, tm };
	double t = c->memtest_time;
	if (!list_has(c->tests, "memtest") && !(c->rules_engines && list_has(c->rules_engines, "memtest")) &&
	    !((c->suite == SUITE_FULL || c->suite == SUITE_BURNIN) && !strcmp(c->tests, "all")))
		return;
	snprintf(size, sizeof size, "--size=%s", c->memtest_size);
	snprintf(tm, sizeof tm, "--time=%g", t);
	/* --time holds within a second or two (locking and unmapping); one whole pass: 40
	 * sweeps of the memory at about 2 GB/s (TCG's speed; real machines do far better) */
	plan_add(p, "memtest", "memtest", 3, args, t > 0 ? t + 2 : (double)mem_available() / 2e9 * 40 + 5);
}

static const char *const *mt_figure_names(void)
{
	static const char *const names[] = { "memtest.{errors,tested_pct,min_bw}", NULL };
	return names;
}

const struct engine engine_memtest = {
	.cmd = ENGINE_COMMAND("memtest",
			      "memory cells: memtester's and memtest86's patterns over all the memory that can be locked",
			      "[--size SIZE|auto] [--passes N] [--time SECS] [--patterns LIST] [--threads N|all]",
			      mt_opts, struct mt_cfg, 0),
	.check = mt_check,
	.run = mt_run,
	.text = mt_text,
	.figures = mt_figures,
	.plan = mt_plan,
	.title = "Memory test",
	.figure_names = mt_figure_names,
};
