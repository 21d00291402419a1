/* The I/O pattern: which direction and offset comes next.  Offsets are multiples of bs
 * inside [offset, offset + size); random ones come from xoshiro256** seeded by randseed
 * and the thread's index, so a fixed --randseed repeats the same sequence.  As fio by
 * default, random offsets visit every block once per pass (fio keeps a bitmap of the
 * blocks done; a keyed permutation gives the same with no memory); --norandommap draws
 * them uniformly, and fio's --random_distribution from a skewed distribution (no map). */
#include "job.h"

#include <math.h>
#include <string.h>

static void perm_rekey(struct iogen *g)
{
	for (int i = 0; i < 4; i++)
		g->perm_key[i] = prng_next(&g->rng);
	g->perm_pos = 0;
}

/* a bijection of [0, 2^(2 half)): four Feistel rounds */
static uint64_t perm_at(const struct iogen *g, const uint64_t key[4], uint64_t x)
{
	uint64_t mask = (1ull << g->half) - 1, l = x >> g->half, r = x & mask;
	for (int i = 0; i < 4; i++) {
		uint64_t f = (r ^ key[i]) * 0x9e3779b97f4a7c15ull;
		uint64_t t = l ^ ((f ^ (f >> 29)) & mask);
		l = r;
		r = t;
	}
	return (l << g->half) | r;
}

/* the next block of this pass; a new pass (new keys) once every block was visited */
static uint64_t perm_next(struct iogen *g)
{
	uint64_t v;
	do {
		if (g->perm_pos == g->perm_size) {
			perm_rekey(g);
			g->passed = 1;   /* the random map full: fio's reset, a pass */
		}
		v = perm_at(g, g->perm_key, g->perm_pos++);
	} while (v >= g->nblocks);
	return v;
}

/* ---- fio's random_distribution ---- */

/* uniform in [0, 1) */
static double unit(struct iogen *g)
{
	return (double)(prng_next(&g->rng) >> 11) * 0x1p-53;
}

/* the popularity rank v (0: the most popular) to its block: a bijection of the region's
 * blocks (the permutation, cycle-walked into [0, nblocks)), rotated by dist_off */
static uint64_t scatter(const struct iogen *g, uint64_t v)
{
	do
		v = perm_at(g, g->scatter_key, v);
	while (v >= g->nblocks);
	return (v + g->dist_off) % g->nblocks;
}

/* Zipf by rejection-inversion (Hoermann and Derflinger 1996): exact for any exponent
 * s > 0, constant time, no table.  H is the integral of h(x) = x^-s. */
static double zh1(double x) { return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x)); }
static double zh2(double x) { return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x)); }
static double zH(double s, double x) { return zh2((1 - s) * log(x)) * log(x); }
static double zh(double s, double x) { return exp(-s * log(x)); }
static double zHinv(double s, double x)
{
	double t = x * (1 - s);
	return exp(zh1(t < -1 ? -1 : t) * x);
}

/* the rank (1 = the most popular) of the next access, among n */
static uint64_t zipf_next(struct iogen *g, uint64_t n)
{
	for (;;) {
		double u = g->z_hn + unit(g) * (g->z_hx1 - g->z_hn), x = zHinv(g->z_s, u);
		uint64_t k = (uint64_t)(x + 0.5);
		if (k < 1)
			k = 1;
		else if (k > n)
			k = n;
		if ((double)k - x <= g->z_sc ||
		    u >= zH(g->z_s, (double)k + 0.5) - zh(g->z_s, (double)k))
			return k;
	}
}

static void dist_init(struct iogen *g, const struct job *j)
{
	struct prng kr;
	uint64_t n = g->nblocks;
	/* the same keys in every thread of the job: they share the popular blocks */
	prng_seed(&kr, j->randseed ^ 0xd15757ull);
	for (int i = 0; i < 4; i++)
		g->scatter_key[i] = prng_next(&kr);
	g->dist_off = j->dist_center >= 0 ? (uint64_t)(j->dist_center * (double)n) % n : prng_below(&kr, n);
	if (j->dist == DIST_ZIPF) {
		g->z_s = j->dist_arg;
		g->z_hx1 = zH(g->z_s, 1.5) - 1;
		g->z_hn = zH(g->z_s, (double)n + 0.5);
		g->z_sc = 2 - zHinv(g->z_s, zH(g->z_s, 2.5) - zh(g->z_s, 2));
	}
	for (int i = 0; i < j->nzones; i++) {
		double e = j->zone_abs ? j->zone_end[i] / (double)j->bs : j->zone_end[i] / 100 * (double)n;
		g->zone_blk[i] = e >= (double)n ? n : (uint64_t)e;
	}
	if (j->nzones && !j->zone_abs && j->zone_end[j->nzones - 1] > 100 - 1e-6)
		g->zone_blk[j->nzones - 1] = n;    /* percents adding up to 100: the whole region */
}

/* a block drawn from the job's distribution */
static uint64_t dist_next(struct iogen *g, const struct job *j)
{
	uint64_t n = g->nblocks, v;
	switch (j->dist) {
	case DIST_ZIPF:
		return scatter(g, zipf_next(g, n) - 1);
	case DIST_PARETO:
		/* fio's: (n - 1) u^(ln h / ln(1 - h)); a share h of the accesses go to the
		 * (1 - h) of the blocks at the top, and so on within them */
		v = (uint64_t)((double)(n - 1) * pow(unit(g), log(j->dist_arg) / log(1 - j->dist_arg)));
		return scatter(g, n - 1 - (v < n ? v : n - 1));
	case DIST_NORMAL: {
		/* Box-Muller; drawn again outside the region */
		double mean = (j->dist_center >= 0 ? j->dist_center : 0.5) * (double)n, sd = j->dist_arg / 100 * (double)n, x;
		do
			x = mean + sd * sqrt(-2 * log(1 - unit(g))) * cos(2 * M_PI * unit(g));
		while (x < 0 || x >= (double)n);
		/* by distance from the mean, so the rank's popularity falls as the density does */
		v = (uint64_t)(2 * fabs(x - mean));
		return scatter(g, v < n ? v : n - 1);
	}
	case DIST_ZONED: {
		unsigned r = (unsigned)prng_below(&g->rng, 100);
		for (int i = 0; i < j->nzones; i++)
			if (r < j->zone_acc[i]) {
				uint64_t lo = i ? g->zone_blk[i - 1] : 0;
				return g->zone_blk[i] > lo ? lo + prng_below(&g->rng, g->zone_blk[i] - lo) : lo;
			}
		return prng_below(&g->rng, n);
	}
	}
	return prng_below(&g->rng, n);
}

void iogen_init(struct iogen *g, const struct job *j, int idx)
{
	unsigned bits = 1;
	memset(g, 0, sizeof *g);
	g->job = j;
	prng_seed(&g->rng, j->randseed + 0x9e3779b97f4a7c15ull * (uint64_t)(idx + 1));
	g->nblocks = j->size / j->bs;
	if (!j->o.time_based) {  /* --io_size or the region's bytes, --loops times (a size-based end) */
		/* rw=write:4k: a pass is the I/Os that fit with their holes */
		uint64_t step = 1 + j->seq_hole / j->bs, pass = (g->nblocks + step - 1) / step * j->bs;
		if (j->seq_back || (j->seq_hole && !j->past_end)) {
			/* read:-8k: the region's blocks, backwards; a hole on a target that ends
			 * where the region does (a file laid out for the job): fio's wrap to the
			 * start at its end, so the region's bytes of I/O, as fio's */
			pass = g->nblocks * j->bs;
		} else if (j->seq_hole % j->bs) {   /* a hole off the --bs grid: I/Os a bs + hole apart */
			uint64_t apart = j->bs + j->seq_hole, k = (j->size + apart - 1) / apart;
			uint64_t last = j->size + j->past_end - (k - 1) * apart;
			pass = k ? (k - 1) * j->bs + (last < j->bs ? last : j->bs) : 0;
		}
		/* fio's: each of --loops does this; --io_size beyond the region, with --loops or
		 * --verify, ends each pass where the region does (sequential, or the random map
		 * full), as fio's */
		g->loop_bytes = j->o.io_size ? j->o.io_size : pass;
		if (j->o.io_size > pass && (j->o.loops > 1 || j->verify) && (!rw_is_random(j->rw) || !j->o.norandommap))
			g->loop_bytes = pass;
		g->limit = g->loop_bytes * (uint64_t)(j->o.loops > 1 ? j->o.loops : 1);
	}
	/* (not file_base: with several files j is one file's copy, its offset that file's) */
	g->base = j->offset + (uint64_t)idx * j->offset_inc;
	g->region_blocks = g->nblocks;
	if (j->zone_size) {   /* fio's strided zones: the first zone, of those to the device's end */
		g->region_blocks = j->stride_end > g->base ? (j->stride_end - g->base) / j->bs : 0;
		g->nblocks = j->zone_range / j->bs < g->region_blocks ? j->zone_range / j->bs : g->region_blocks;
	}
	while (bits < 64 && (1ull << bits) < g->nblocks)
		bits++;
	g->half = (bits + 1) / 2;
	g->perm_size = 1ull << (2 * g->half);
	perm_rekey(g);
	if (j->dist != DIST_RANDOM)
		dist_init(g, j);
}

/* fio's strided zones (its setup_strided_zone_mode) before an I/O of direction d: once
 * zone_size bytes are done, the next zone (zone_range + zone_skip on, the region's start
 * after its end); a sequential position past the zone goes back to its start; every
 * zone_range bytes done, the zone starts afresh (the random map, every position) */
static void zone_step(struct iogen *g, const struct job *j, int d)
{
	uint64_t rb = j->zone_range / j->bs;
	if (g->zone_bytes >= j->zone_size) {
		g->zone_bytes = 0;
		g->stride_blk += (j->zone_range + j->zone_skip) / j->bs;
		if (g->stride_blk >= g->region_blocks)
			g->stride_blk = 0;
		g->seq_pos[d] = 0;
	}
	g->nblocks = rb < g->region_blocks - g->stride_blk ? rb : g->region_blocks - g->stride_blk;
	if (g->seq_pos[d] >= rb)
		g->seq_pos[d] = 0;
	if (g->zone_bytes % j->zone_range == 0) {
		memset(g->seq_pos, 0, sizeof g->seq_pos);
		memset(g->after_last, 0, sizeof g->after_last);
		perm_rekey(g);
	}
}

/* --bssplit/--bsrange: this I/O's size */
static uint64_t draw_len(struct iogen *g, int d)
{
	const struct job *j = g->job;
	if (j->range_hi[d])
		return j->range_lo[d] + prng_below(&g->rng, (j->range_hi[d] - j->range_lo[d]) / j->bs + 1) * j->bs;
	if (j->nsplit[d]) {
		unsigned r = (unsigned)prng_below(&g->rng, 100);
		for (int i = 0; i < j->nsplit[d] - 1; i++)
			if (r < j->split_cum[d][i])
				return j->split_bs[d][i];
		return j->split_bs[d][j->nsplit[d] - 1];
	}
	return j->bs;
}

/* this I/O's size from the job's sizes of direction d, within the region and what is left */
static uint64_t job_len(struct iogen *g, int d)
{
	const struct job *j = g->job;
	uint64_t l = draw_len(g, d);
	if (l > j->size)
		l = j->size;
	if (g->limit && l > g->limit - g->issued_bytes)
		l = g->limit - g->issued_bytes;     /* the last of a size-based job */
	return l;
}

/* where the next I/O of direction d goes: on from the last one (percentage_random's
 * sequential share), the next of an rw=randread:N run, a random offset (on the blockalign
 * grid), or the sequential position */
enum { K_CONTINUE, K_RUN, K_ALIGNED, K_RAND, K_SEQ };
static int pick_kind(struct iogen *g, const struct job *j, int d)
{
	if (!rw_is_random(j->rw))
		return K_SEQ;
	if (j->o.pct_seq[d] && (int)prng_below(&g->rng, 100) < j->o.pct_seq[d])
		return K_CONTINUE;
	if (g->run_left)
		return K_RUN;
	return j->o.ba ? K_ALIGNED : K_RAND;
}

/* --read_iolog: the log's next entry; at its end, again from the start when the job is
 * time based or has loops left (its times continuing after the last one) */
static int replay_next(struct iogen *g, int *ddir, uint64_t *off, uint64_t *len)
{
	const struct job *j = g->job;
	const struct replay *r = j->replay;
	const struct replay_io *e;
	if (g->rpos == r->n) {
		if (g->done || !(j->o.time_based || ++g->rloops < j->o.loops))
			return 0;
		g->r_base_us += r->io[r->n - 1].t_us - r->io[0].t_us + 1;
		g->rpos = 0;
	}
	e = &r->io[g->rpos++];
	*ddir = e->op < RP_SYNC ? e->op : DDIR_N + (e->op - RP_SYNC);
	*off = e->off;
	*len = e->len;
	g->r_file = e->file;
	g->r_t_us = g->r_base_us + e->t_us - r->io[0].t_us;
	if (e->op < RP_SYNC) {
		g->issued++;
		g->issued_bytes += e->len;
	}
	return 1;
}

int iogen_next(struct iogen *g, int *ddir, uint64_t *off, uint64_t *len)
{
	const struct job *j = g->job;
	uint64_t blk, l = j->bs, o = UINT64_MAX;   /* o: the offset in the region */
	int kind;
	if (j->replay)
		return replay_next(g, ddir, off, len);
	if (g->tw_pending) {   /* fio's trimwrite: write the block just trimmed */
		g->tw_pending = 0;
		*ddir = DDIR_WRITE;
		*off = g->tw_off;
		*len = g->tw_len;
		g->issued++;
		g->issued_bytes += g->tw_len;
		return 1;
	}
	if (g->done || (g->limit && g->issued_bytes >= g->limit) || (j->o.number_ios && g->issued >= (uint64_t)j->o.number_ios))
		return 0;
	switch (j->rw) {
	case RW_READ: case RW_RANDREAD: *ddir = DDIR_READ; break;
	case RW_WRITE: case RW_RANDWRITE: *ddir = DDIR_WRITE; break;
	case RW_TRIM: case RW_RANDTRIM: case RW_TRIMWRITE: case RW_RANDTRIMWRITE: *ddir = DDIR_TRIM; break;
	default: *ddir = (int)prng_below(&g->rng, 100) < j->o.rwmixread ? DDIR_READ : DDIR_WRITE;
	}
	if (j->zone_size)
		zone_step(g, j, *ddir);
	if (j->var_bs && !j->o.bs_is_seq_rand)
		l = job_len(g, *ddir);
	kind = pick_kind(g, j, *ddir);
	if (j->var_bs && j->o.bs_is_seq_rand)     /* fio's: sequential I/Os the reads' sizes, random the writes' */
		l = job_len(g, kind == K_RAND || kind == K_ALIGNED ? DDIR_WRITE : DDIR_READ);
	if (kind == K_CONTINUE) {
		/* fio's percentage_random: this one continues where the last ended */
		blk = g->after_last[*ddir] < g->nblocks ? g->after_last[*ddir] : 0;
		if (j->var_bs && blk * j->bs + l > j->size)
			blk = 0;
	} else if (kind == K_RUN) {
		/* fio's rw=randread:N: between new random offsets, the next block (or, with
		 * rw_sequencer=identical, the same one) */
		g->run_left--;
		blk = j->rw_identical ? g->last_blk : g->after_last[*ddir] < g->nblocks ? g->after_last[*ddir] : 0;
		if (j->var_bs && blk * j->bs + l > j->size)
			blk = 0;
	} else if (kind == K_ALIGNED) {
		/* fio's blockalign: any multiple of ba that fits the I/O in the region; with
		 * --random_distribution, where it draws, down to the ba grid (JESD219's zones) */
		uint64_t top = (j->size - l) / j->o.ba;
		o = j->dist == DIST_RANDOM ? prng_below(&g->rng, top + 1) : dist_next(g, j) * j->bs / j->o.ba;
		o = (o > top ? top : o) * j->o.ba;
		blk = o / j->bs;
	} else if (kind == K_RAND) {
		blk = j->dist != DIST_RANDOM ? dist_next(g, j) : j->o.norandommap ? prng_below(&g->rng, g->nblocks)
										    : perm_next(g);
		if (j->var_bs && (blk * j->bs + l > j->size))
			blk = (j->size - l) / j->bs;        /* a long I/O near the end: inside it */
		if (j->rand_run > 1)
			g->run_left = j->rand_run - 1;
	} else if (j->seq_hole % j->bs || j->seq_back) {
		/* fio's rw=read:512k with bs=1m: offsets a bs + hole apart, off the --bs grid; the
		 * last I/O may run past the region's end, as fio's, not past the target's */
		if (j->seq_back && !g->seq_started[*ddir] && g->base) {
			/* fio's first backwards I/O with an --offset: the region's length less the
			 * offset, less the hole (fio's rewind takes its io_size as a position) */
			uint64_t from = j->size > g->base ? j->size - g->base : 0;
			g->seq_off[*ddir] = from >= j->seq_hole ? from - j->seq_hole
				: j->size >= j->seq_hole ? j->size - j->seq_hole : 0;
		}
		g->seq_started[*ddir] = 1;
		if (g->seq_off[*ddir] >= j->size) {
			g->seq_off[*ddir] = 0;
			g->passed = 1;
		}
		o = g->seq_off[*ddir];
		if (o + l > j->size + (g->base == j->offset ? j->past_end : 0))
			l = j->size + (g->base == j->offset ? j->past_end : 0) - o;
		blk = o / j->bs;
		if (!j->seq_back)
			g->seq_off[*ddir] = o + l + j->seq_hole;
		else   /* fio's backwards: hole bytes back from this I/O's end; past the start, from the end */
			g->seq_off[*ddir] = o + l >= j->seq_hole ? o + l - j->seq_hole
				: j->size >= j->seq_hole ? j->size - j->seq_hole : 0;
	} else {
		if (g->seq_pos[*ddir] >= g->nblocks) {
			g->seq_pos[*ddir] = 0;      /* time based, or the next of --loops (limit) */
			g->passed = 1;
		}
		blk = g->seq_pos[*ddir];
		if (j->var_bs && blk * j->bs + l > j->size)
			l = j->size - blk * j->bs;          /* the pass's last I/O is shorter */
		g->seq_pos[*ddir] += l / j->bs + j->seq_hole / j->bs;    /* fio's rw=write:4k: a hole after it */
	}
	if (o == UINT64_MAX)
		o = blk * j->bs;        /* on the --bs grid (all but --blockalign's) */
	g->last_blk = blk;
	g->after_last[*ddir] = (o + l) / j->bs;
	*off = g->base + g->stride_blk * j->bs + o;
	*len = l;
	g->issued++;
	g->zone_bytes += l;
	if (j->rw == RW_TRIMWRITE || j->rw == RW_RANDTRIMWRITE) {
		/* the region counts once, by its writes (as fio's) */
		g->tw_pending = 1;
		g->tw_off = *off;
		g->tw_len = l;
		return 1;
	}
	g->issued_bytes += l;
	return 1;
}
