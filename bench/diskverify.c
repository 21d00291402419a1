/* fio's verify for the disk engine: see disk.h.  The header is ours (fio's has more
 * kinds); what it catches is what fio's crc32c verify catches. */
#include "crc32.h"
#include "disk.h"

#include <inttypes.h>
#include <string.h>

#define VERIFY_MAGIC 0x66767361u   /* "asvf" */

struct vhdr {
	uint32_t magic, len;
	uint64_t off, seed;
	uint32_t crc, zero;
};

static uint32_t block_crc(const struct vhdr *h, const unsigned char *blk, uint64_t bs)
{
	return crc32c(crc32c(0, blk + VERIFY_HDR, bs - VERIFY_HDR), h, offsetof(struct vhdr, crc));
}

void verify_stamp(const struct job *j, void *buf, uint64_t off, uint64_t len)
{
	for (uint64_t k = 0; k + j->bs <= len; k += j->bs) {
		unsigned char *blk = (unsigned char *)buf + k;
		struct vhdr h = { VERIFY_MAGIC, (uint32_t)j->bs, off + k, j->randseed, 0, 0 };
		h.crc = block_crc(&h, blk, j->bs);
		memcpy(blk, &h, sizeof h);
	}
}

int verify_check(const struct job *j, const void *blk, uint64_t off, char *why, size_t n)
{
	struct vhdr h;
	uint32_t c;
	memcpy(&h, blk, sizeof h);
	if (h.magic != VERIFY_MAGIC)
		snprintf(why, n, "no verify header (never written by a --verify run, or overwritten since)");
	else if (h.off != off)
		snprintf(why, n, "its header is the block at offset %" PRIu64 "'s (a misdirected write)", h.off);
	else if (h.len != j->bs)
		snprintf(why, n, "its header says a block of %u bytes, not --bs=%" PRIu64, h.len, j->bs);
	else if (h.seed != j->randseed)
		snprintf(why, n, "written by another run (--randseed=%" PRIu64 ", this one %" PRIu64 ")", h.seed,
			 j->randseed);
	else if ((c = block_crc(&h, blk, j->bs)) != h.crc)
		snprintf(why, n, "CRC-32C 0x%08x stored, 0x%08x read back: the data changed", h.crc, c);
	else
		return 0;
	return -1;
}

void verify_mark(struct worker *w, uint64_t off, uint64_t len)
{
	const struct job *j = w->job;
	uint64_t base = j->offset + (uint64_t)w->idx * j->offset_inc;
	if (!w->vmap || off < base)
		return;
	for (uint64_t b = (off - base) / j->bs, e = b + len / j->bs; b < e && b < j->size / j->bs; b++)
		w->vmap[b / 8] |= (uint8_t)(1u << (b % 8));
}
