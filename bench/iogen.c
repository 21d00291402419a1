/* The I/O pattern: which direction and offset comes next.  Offsets are multiples of bs
 * inside [offset, offset + size); random ones come from xoshiro256** seeded by randseed
 * and the thread's index, so a fixed --randseed repeats the same sequence.  As fio by
 * default, random offsets visit every block once per pass (fio keeps a bitmap of the
 * blocks done; a keyed permutation gives the same with no memory); --norandommap draws
 * them uniformly. */
#include "disk.h"

#include <string.h>

static void perm_rekey(struct iogen *g)
{
	for (int i = 0; i < 4; i++)
		g->perm_key[i] = prng_next(&g->rng);
	g->perm_pos = 0;
}

/* a bijection of [0, 2^(2 half)): four Feistel rounds */
static uint64_t perm_at(const struct iogen *g, uint64_t x)
{
	uint64_t mask = (1ull << g->half) - 1, l = x >> g->half, r = x & mask;
	for (int i = 0; i < 4; i++) {
		uint64_t f = (r ^ g->perm_key[i]) * 0x9e3779b97f4a7c15ull;
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
		if (g->perm_pos == g->perm_size)
			perm_rekey(g);
		v = perm_at(g, g->perm_pos++);
	} while (v >= g->nblocks);
	return v;
}

void iogen_init(struct iogen *g, const struct job *j, int idx)
{
	unsigned bits = 1;
	memset(g, 0, sizeof *g);
	g->job = j;
	prng_seed(&g->rng, j->randseed + 0x9e3779b97f4a7c15ull * (uint64_t)(idx + 1));
	g->nblocks = j->size / j->bs;
	if (!j->time_based)   /* --io_size, or the region's bytes --loops times (a size-based end) */
		g->limit = j->io_size ? j->io_size : g->nblocks * j->bs * (uint64_t)(j->loops > 1 ? j->loops : 1);
	g->base = j->offset + (uint64_t)idx * j->offset_inc;
	while (bits < 64 && (1ull << bits) < g->nblocks)
		bits++;
	g->half = (bits + 1) / 2;
	g->perm_size = 1ull << (2 * g->half);
	perm_rekey(g);
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

int iogen_next(struct iogen *g, int *ddir, uint64_t *off, uint64_t *len)
{
	const struct job *j = g->job;
	uint64_t blk, l = j->bs;
	if (g->done || (g->limit && g->issued_bytes >= g->limit))
		return 0;
	switch (j->rw) {
	case RW_READ: case RW_RANDREAD: *ddir = DDIR_READ; break;
	case RW_WRITE: case RW_RANDWRITE: *ddir = DDIR_WRITE; break;
	default: *ddir = (int)prng_below(&g->rng, 100) < j->rwmixread ? DDIR_READ : DDIR_WRITE;
	}
	if (j->var_bs) {
		l = draw_len(g, *ddir);
		if (l > j->size)
			l = j->size;
		if (g->limit && l > g->limit - g->issued_bytes)
			l = g->limit - g->issued_bytes;     /* the last of a size-based job */
	}
	if (rw_is_random(j->rw)) {
		blk = j->norandommap ? prng_below(&g->rng, g->nblocks) : perm_next(g);
		if (j->var_bs && (blk * j->bs + l > j->size))
			blk = (j->size - l) / j->bs;        /* a long I/O near the end: inside it */
	} else {
		if (g->seq_pos >= g->nblocks)
			g->seq_pos = 0;      /* time based, or the next of --loops (limit) */
		blk = g->seq_pos;
		if (j->var_bs && blk * j->bs + l > j->size)
			l = j->size - blk * j->bs;          /* the pass's last I/O is shorter */
		g->seq_pos += l / j->bs;
	}
	*off = g->base + blk * j->bs;
	*len = l;
	g->issued++;
	g->issued_bytes += l;
	return 1;
}
