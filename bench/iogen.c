/* The I/O pattern: which direction and offset comes next.  Offsets are multiples of bs
 * inside [offset, offset + size); random ones come from xoshiro256** seeded by randseed
 * and the thread's index, so a fixed --randseed repeats the same sequence. */
#include "disk.h"

#include <string.h>

void iogen_init(struct iogen *g, const struct job *j, int idx)
{
	memset(g, 0, sizeof *g);
	g->job = j;
	prng_seed(&g->rng, j->randseed + 0x9e3779b97f4a7c15ull * (uint64_t)(idx + 1));
	g->nblocks = j->size / j->bs;
	if (!j->time_based)
		g->limit = g->nblocks;
}

int iogen_next(struct iogen *g, int *ddir, uint64_t *off)
{
	const struct job *j = g->job;
	uint64_t blk;
	if (g->done || (g->limit && g->issued >= g->limit))
		return 0;
	switch (j->rw) {
	case RW_READ: case RW_RANDREAD: *ddir = DDIR_READ; break;
	case RW_WRITE: case RW_RANDWRITE: *ddir = DDIR_WRITE; break;
	default: *ddir = (int)prng_below(&g->rng, 100) < j->rwmixread ? DDIR_READ : DDIR_WRITE;
	}
	if (rw_is_random(j->rw)) {
		blk = prng_below(&g->rng, g->nblocks);
	} else {
		if (g->seq_pos >= g->nblocks) {
			if (!j->time_based) {
				g->done = 1;
				return 0;
			}
			g->seq_pos = 0;
		}
		blk = g->seq_pos++;
	}
	*off = j->offset + blk * j->bs;
	g->issued++;
	return 1;
}
