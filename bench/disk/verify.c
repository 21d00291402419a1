/* fio's verify for the disk engine: see disk.h.  The header is ours (fio's has other
 * fields); what each method catches is what fio's catches. */
#include "job.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERIFY_MAGIC 0x66767361u   /* "asvf" */

struct vhdr {
	uint32_t magic, len;
	uint64_t off, seed;
	uint16_t method, dlen;
	uint32_t zero;
};

const char *verify_name(int method)
{
	static const char *const names[] = { [VM_NONE] = "none", [DG_CRC32C] = "crc32c", [DG_CRC32] = "crc32",
					     [DG_CRC64] = "crc64", [DG_CRC16] = "crc16", [DG_CRC7] = "crc7",
					     [DG_MD5] = "md5", [DG_SHA1] = "sha1", [DG_SHA256] = "sha256",
					     [DG_SHA512] = "sha512", [DG_XXHASH] = "xxhash", [VM_META] = "meta",
					     [VM_PATTERN] = "pattern", [DG_SHA3_224] = "sha3-224",
					     [DG_SHA3_256] = "sha3-256", [DG_SHA3_384] = "sha3-384",
					     [DG_SHA3_512] = "sha3-512" };
	if (method == VM_NULL)
		return "null";
	return method >= 0 && method < DG_N && names[method] ? names[method] : "?";
}

/* one piece of a pattern: 0x hex digits, "text", a decimal number (the fewest bytes
 * little-endian; a negative one 4 bytes), 'a file' (as much of it as fits) */
static int pattern_piece(const char **sp, uint8_t *out, size_t room, size_t *got, char *why, size_t n)
{
	const char *s = *sp;
	if ((s[0] == '0') && (s[1] == 'x' || s[1] == 'X')) {
		size_t nd = strspn(s + 2, "0123456789abcdefABCDEF"), nb = (nd + 1) / 2;
		if (!nd)
			return snprintf(why, n, "0x without hex digits"), -1;
		if (nb > room)
			return snprintf(why, n, "longer than %d bytes", PATTERN_MAX), -1;
		memset(out, 0, nb);
		for (size_t i = 0; i < nd; i++) {   /* an odd count: a 0 before the first digit (0x123: 01 23) */
			char c = s[2 + i];
			size_t at = i + nd % 2;
			out[at / 2] |= (uint8_t)((c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10) << (at % 2 ? 0 : 4));
		}
		*got = nb;
		*sp = s + 2 + nd;
		return 0;
	}
	if (*s == '"' || *s == '\'') {
		const char *e = strchr(s + 1, *s);
		size_t len;
		if (!e)
			return snprintf(why, n, "%c without its closing %c", *s, *s), -1;
		len = (size_t)(e - s - 1);
		if (*s == '"') {
			if (!len)
				return snprintf(why, n, "an empty \"\""), -1;
			if (len > room)
				return snprintf(why, n, "longer than %d bytes", PATTERN_MAX), -1;
			memcpy(out, s + 1, len);
			*got = len;
		} else {
			char path[4096];
			int fd;
			ssize_t r;
			if (!len || len >= sizeof path)
				return snprintf(why, n, "'%.*s': not a file name", (int)len, s + 1), -1;
			memcpy(path, s + 1, len);
			path[len] = 0;
			if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
				return snprintf(why, n, "'%s': %s", path, strerror(errno)), -1;
			r = read(fd, out, room);
			close(fd);
			if (r <= 0)
				return snprintf(why, n, "'%s': %s", path, r ? strerror(errno) : "empty"), -1;
			*got = (size_t)r;
		}
		*sp = e + 1;
		return 0;
	}
	if (*s == '-' || (*s >= '0' && *s <= '9')) {
		char *e;
		long long v;
		size_t nb = 1;
		errno = 0;
		v = strtoll(s, &e, 10);
		if (e == s || (*s == '-' && e == s + 1))
			return snprintf(why, n, "'%s': not a number", s), -1;
		if (errno || v > 0xffffffffll || v < -0x80000000ll)
			return snprintf(why, n, "%.*s: beyond 32 bits", (int)(e - s), s), -1;
		if (v < 0)
			nb = 4;
		else
			while (nb < 4 && (unsigned long long)v >> (8 * nb))
				nb++;
		if (nb > room)
			return snprintf(why, n, "longer than %d bytes", PATTERN_MAX), -1;
		for (size_t i = 0; i < nb; i++)
			out[i] = (uint8_t)((unsigned long long)v >> (8 * i));
		*got = nb;
		*sp = e;
		return 0;
	}
	snprintf(why, n, "'%s': not 0xHEX, \"text\", a number or 'a file'", s);
	return -1;
}

int pattern_parse_offs(const char *opt, const char *s, uint8_t out[PATTERN_MAX], uint16_t *offs, int *noffs,
		       char *err, size_t n)
{
	size_t len = 0;
	char why[300];
	if (noffs)
		*noffs = 0;
	if (!*s) {
		snprintf(err, n, "--%s=: an empty pattern", opt);
		return -1;
	}
	while (*s) {
		size_t got = 0;
		if (s[0] == '%' && s[1] == 'o') {   /* fio's: the block's offset, 8 bytes */
			if (!offs) {
				snprintf(err, n, "--%s: %%o (the block's offset) is --verify_pattern's", opt);
				return -1;
			}
			if (len + 8 > PATTERN_MAX) {
				snprintf(err, n, "--%s: longer than %d bytes", opt, PATTERN_MAX);
				return -1;
			}
			offs[(*noffs)++] = (uint16_t)len;
			memset(out + len, 0, 8);
			len += 8;
			s += 2;
			continue;
		}
		if (pattern_piece(&s, out + len, PATTERN_MAX - len, &got, why, sizeof why)) {
			snprintf(err, n, "--%s: %s", opt, why);
			return -1;
		}
		len += got;
	}
	return (int)len;
}

void pattern_offsets(const struct job *j, void *blk, uint64_t off)
{
	uint8_t le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(off >> (8 * i));
	for (uint64_t k = 0; j->npat_off && k < j->bs; k += (uint64_t)j->pattern_len)
		for (int i = 0; i < j->npat_off; i++) {
			uint64_t at = k + j->pat_off[i];
			if (at < j->bs)
				memcpy((uint8_t *)blk + at, le, j->bs - at < 8 ? j->bs - at : 8);
		}
}

void pattern_fill(const struct job *j, void *buf, uint64_t len)
{
	for (uint64_t b = 0; b < len; b += j->bs)
		for (uint64_t k = 0; k < j->bs && b + k < len; k += (uint64_t)j->pattern_len) {
			uint64_t c = j->bs - k < (uint64_t)j->pattern_len ? j->bs - k : (uint64_t)j->pattern_len;
			memcpy((char *)buf + b + k, j->pattern, b + k + c <= len ? c : len - b - k);
		}
}

/* a chunk's header with its digest: how many bytes */
static size_t hdr_len(const struct job *j)
{
	return sizeof(struct vhdr) + digest_len(j->verify);
}

int verify_layout(const struct job *j, char *err, size_t n)
{
	size_t h = hdr_len(j);
	if (j->vint > j->bs || j->bs % j->vint)
		snprintf(err, n, "--verify_interval=%" PRIu64 ": it divides --bs=%" PRIu64 " (a header per chunk of each "
			 "block)", j->vint, j->bs);
	else if (j->voff + h > j->vint)
		snprintf(err, n, "--verify_offset=%" PRIu64 ": the header (%zu bytes with its digest) would end past the "
			 "%" PRIu64 "-byte %s", j->voff, h, j->vint, j->vint == j->bs ? "block" : "chunk (--verify_interval)");
	else if (j->voff && j->voff < h)
		snprintf(err, n, "--verify_offset=%" PRIu64 ": inside the header's own %zu bytes (0, or at least %zu)",
			 j->voff, h, h);
	else
		return 0;
	return -1;
}

/* --verify_offset: the header and the data at voff trade places (its own inverse) */
static void swap_hdr(const struct job *j, unsigned char *chunk)
{
	unsigned char t[sizeof(struct vhdr) + DIGEST_MAX];
	size_t h = hdr_len(j);
	if (!j->voff)
		return;
	memcpy(t, chunk, h);
	memcpy(chunk, chunk + j->voff, h);
	memcpy(chunk + j->voff, t, h);
}

void verify_stamp(const struct job *j, void *buf, uint64_t off, uint64_t len)
{
	size_t dlen = digest_len(j->verify);
	if (j->verify == VM_PATTERN || j->verify == VM_NULL)
		return;   /* the buffer holds the pattern; null: nothing to stamp */
	for (uint64_t k = 0; k + j->vint <= len; k += j->vint) {
		unsigned char *blk = (unsigned char *)buf + k;
		uint8_t d[DIGEST_MAX];
		struct vhdr h = { VERIFY_MAGIC, (uint32_t)j->vint, off + k, j->randseed, (uint16_t)j->verify,
				  (uint16_t)dlen, 0 };
		memcpy(blk, &h, sizeof h);
		if (j->voff)   /* no stale header there (the buffer's last write's) to trade places */
			memset(blk + j->voff, 0, sizeof h.magic);
		if (dlen) {
			memset(blk + sizeof h, 0, dlen);
			digest(j->verify, blk, j->vint, d);
			memcpy(blk + sizeof h, d, dlen);
		}
		swap_hdr(j, blk);
	}
}

static void hexs(char *s, size_t n, const uint8_t *d, size_t len)
{
	size_t i;
	for (i = 0; i < len && i < 8 && 2 * i + 3 <= n; i++)
		snprintf(s + 2 * i, 3, "%02x", d[i]);
	if (len > 8)
		snprintf(s + 2 * i, n - 2 * i, "...");
}

/* one chunk (--verify_interval; else the block) at off: 0, or -1 with why; the chunk is
 * left as it was read */
static int check_chunk(const struct job *j, unsigned char *blk, uint64_t off, char *why, size_t n)
{
	struct vhdr h;
	size_t dlen = digest_len(j->verify);
	uint8_t stored[DIGEST_MAX], now[DIGEST_MAX];
	int bad = -1;
	swap_hdr(j, blk);
	memcpy(&h, blk, sizeof h);
	if (h.magic != VERIFY_MAGIC)
		snprintf(why, n, "no verify header (never written by a --verify run, or overwritten since)");
	else if (h.off != off)
		snprintf(why, n, "its header is the %s at offset %" PRIu64 "'s (a misdirected write)",
			 j->vint == j->bs ? "block" : "chunk", h.off);
	else if (h.len != j->vint)
		snprintf(why, n, "its header says a %s of %u bytes, not --%s=%" PRIu64, j->vint == j->bs ? "block" : "chunk",
			 h.len, j->vint == j->bs ? "bs" : "verify_interval", j->vint);
	else if (h.seed != j->randseed)
		snprintf(why, n, "written by another run (--randseed=%" PRIu64 ", this one %" PRIu64 ")", h.seed,
			 j->randseed);
	else if (h.method != j->verify || h.dlen != dlen)
		snprintf(why, n, "written with --verify=%s, checked with --verify=%s", verify_name(h.method),
			 verify_name(j->verify));
	else if (!dlen)
		bad = 0;
	else {
		memcpy(stored, blk + sizeof h, dlen);
		memset(blk + sizeof h, 0, dlen);
		digest(j->verify, blk, j->vint, now);
		memcpy(blk + sizeof h, stored, dlen);
		if (!memcmp(stored, now, dlen))
			bad = 0;
		else {
			char a[24], b[24];
			hexs(a, sizeof a, stored, dlen);
			hexs(b, sizeof b, now, dlen);
			snprintf(why, n, "%s %s stored, %s read back: the data changed", verify_name(j->verify), a, b);
		}
	}
	swap_hdr(j, blk);   /* as it was */
	return bad;
}

int verify_check(const struct job *j, void *blk, uint64_t off, char *why, size_t n)
{
	if (j->verify == VM_NULL)
		return 0;   /* fio's null: it only pretends */
	if (j->verify == VM_PATTERN) {
		const uint8_t *b = blk;
		uint8_t le[8];
		for (int i = 0; i < 8; i++)
			le[i] = (uint8_t)(off >> (8 * i));
		for (uint64_t i = 0; i < j->bs; i++) {
			uint64_t at = i % (uint64_t)j->pattern_len;
			uint8_t want = j->pattern[at];
			for (int k = 0; k < j->npat_off; k++)   /* %o: the block's offset there */
				if (at >= j->pat_off[k] && at < j->pat_off[k] + 8u)
					want = le[at - j->pat_off[k]];
			if (b[i] != want) {
				snprintf(why, n, "byte %" PRIu64 " is 0x%02x, the pattern's 0x%02x: the data changed, "
					 "or was never written with this pattern%s", i, b[i], want,
					 j->npat_off ? " (its %o: this block's offset)" : "");
				return -1;
			}
		}
		return 0;
	}
	for (uint64_t c = 0; c < j->bs; c += j->vint) {
		char w[200];
		if (!check_chunk(j, (unsigned char *)blk + c, off + c, w, sizeof w))
			continue;
		if (j->vint == j->bs)
			snprintf(why, n, "%s", w);
		else
			snprintf(why, n, "its chunk at offset %" PRIu64 ": %s", off + c, w);
		return -1;
	}
	return 0;
}

void verify_mark(struct worker *w, int f, uint64_t off, uint64_t len)
{
	const struct job *j = w->job;
	uint64_t base = file_base(j, f, w->idx);
	if (!w->vmap || off < base)
		return;
	for (uint64_t b = w->vb[f] + (off - base) / j->bs, e = b + len / j->bs; b < e && b < w->vb[f + 1]; b++)
		w->vmap[b / 8] |= (uint8_t)(1u << (b % 8));
}

void verify_unmark(struct worker *w, uint64_t b)
{
	if (w->vmap && b < w->vb[w->job->nfiles])
		w->vmap[b / 8] &= (uint8_t)~(1u << (b % 8));
}

/* one dump file: its name on stderr, or why not */
static void dump_file(const struct job *j, const char *path, uint64_t off, const char *type, const void *buf)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char name[PATH_MAX];
	int fd;
	ssize_t wr = -1;
	snprintf(name, sizeof name, "%s%s%s.%" PRIu64 ".%s", j->aux_path, j->aux_path[0] ? "/" : "", base, off, type);
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		wr = write(fd, buf, j->bs);
		if (close(fd))
			wr = -1;
	}
	if (wr == (ssize_t)j->bs)
		fprintf(stderr, "assay: disk: %s: %s data of the block at offset %" PRIu64 " dumped as %s\n", j->name, type,
			off, name);
	else
		fprintf(stderr, "assay: disk: %s: --verify_dump: cannot write %s: %s\n", j->name, name,
			fd < 0 || wr < 0 ? strerror(errno) : "short write");
}

void verify_dump(const struct job *j, const char *path, const void *blk, uint64_t off)
{
	dump_file(j, path, off, "received", blk);
	if (j->verify == VM_PATTERN) {
		void *want = malloc(j->bs);
		if (want) {
			pattern_fill(j, want, j->bs);
			pattern_offsets(j, want, off);
			dump_file(j, path, off, "expected", want);
			free(want);
		}
	}
}
