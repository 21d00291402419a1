/* gzip (RFC 1952) of a buffer and back, small and dependency-free: deflate (RFC 1951)
 * with an LZ77 hash chain and the fixed Huffman codes; inflate of stored, fixed and
 * dynamic blocks (after zlib's puff.c design, written here).  For the console's result
 * block, which is kilobytes: speed is not the point, a bounded and checked decoder is. */
#include "gzip.h"
#include "bytes.h"
#include "crc32.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

struct bitw {
	unsigned char *buf;
	size_t len, cap;
	uint32_t acc;
	int nacc;
	int oom;
};

static void put_byte(struct bitw *w, unsigned char b)
{
	if (w->len == w->cap) {
		size_t nc = w->cap ? w->cap * 2 : 4096;
		unsigned char *nb = realloc(w->buf, nc);
		if (!nb) {
			w->oom = 1;
			return;
		}
		w->buf = nb;
		w->cap = nc;
	}
	w->buf[w->len++] = b;
}

/* n bits of v, least significant first (deflate's order for everything but codes) */
static void put_bits(struct bitw *w, uint32_t v, int n)
{
	w->acc |= v << w->nacc;
	w->nacc += n;
	while (w->nacc >= 8) {
		put_byte(w, (unsigned char)w->acc);
		w->acc >>= 8;
		w->nacc -= 8;
	}
}

/* a Huffman code of n bits, most significant bit first */
static void put_code(struct bitw *w, uint32_t code, int n)
{
	uint32_t r = 0;
	for (int i = 0; i < n; i++)
		r |= ((code >> i) & 1u) << (n - 1 - i);
	put_bits(w, r, n);
}

static void put_lit(struct bitw *w, int c)
{
	if (c < 144)
		put_code(w, 0x30u + (unsigned)c, 8);
	else if (c < 256)
		put_code(w, 0x190u + (unsigned)(c - 144), 9);
	else if (c < 280)
		put_code(w, (unsigned)(c - 256), 7);
	else
		put_code(w, 0xc0u + (unsigned)(c - 280), 8);
}

static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51,
				       59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
				       5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
					513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10,
					10, 11, 11, 12, 12, 13, 13 };

static void put_match(struct bitw *w, int len, int dist)
{
	int i = 28, d = 29;
	while (len_base[i] > len)
		i--;
	put_lit(w, 257 + i);
	put_bits(w, (uint32_t)(len - len_base[i]), len_extra[i]);
	while (dist_base[d] > dist)
		d--;
	put_code(w, (uint32_t)d, 5);
	put_bits(w, (uint32_t)(dist - dist_base[d]), dist_extra[d]);
}

#define WIN 32768
#define HBITS 15
#define MAXCHAIN 64

static uint32_t hash3(const unsigned char *p)
{
	return ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) * 2654435761u >> (32 - HBITS);
}

int gzip_compress(const void *src, size_t n, unsigned char **out, size_t *outn)
{
	const unsigned char *in = src;
	static const unsigned char hdr[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };   /* mtime 0: reproducible */
	struct bitw w = { 0 };
	int32_t *head = malloc(sizeof *head << HBITS), *prev = malloc(sizeof *prev * WIN);
	uint32_t crc = crc32_update(0, in, n);
	if (!head || !prev) {
		free(head);
		free(prev);
		return -1;
	}
	for (int i = 0; i < 1 << HBITS; i++)
		head[i] = -1;
	for (int i = 0; i < 10; i++)
		put_byte(&w, hdr[i]);
	put_bits(&w, 1, 1);      /* the last block */
	put_bits(&w, 1, 2);      /* fixed Huffman codes */
	for (size_t i = 0; i < n;) {
		int best = 0, bdist = 0;
		if (i + 3 <= n) {
			uint32_t h = hash3(in + i);
			int32_t cand = head[h];
			for (int k = 0; cand >= 0 && k < MAXCHAIN && i - (size_t)cand <= WIN - 1; k++) {
				size_t l = 0, maxl = n - i < 258 ? n - i : 258;
				while (l < maxl && in[cand + (int32_t)l] == in[i + l])
					l++;
				if ((int)l > best) {
					best = (int)l;
					bdist = (int)(i - (size_t)cand);
					if (l == maxl)
						break;
				}
				cand = prev[cand % WIN];
			}
		}
		if (best < 3) {
			best = 1;
			put_lit(&w, in[i]);
		} else {
			put_match(&w, best, bdist);
		}
		for (int k = 0; k < best; k++, i++)   /* every position in the chains */
			if (i + 3 <= n) {
				uint32_t h = hash3(in + i);
				prev[i % WIN] = head[h];
				head[h] = (int32_t)i;
			}
	}
	put_lit(&w, 256);
	if (w.nacc)
		put_bits(&w, 0, 8 - w.nacc);
	for (int i = 0; i < 4; i++)
		put_byte(&w, (unsigned char)(crc >> (8 * i)));
	for (int i = 0; i < 4; i++)
		put_byte(&w, (unsigned char)((uint32_t)n >> (8 * i)));
	free(head);
	free(prev);
	if (w.oom) {
		free(w.buf);
		return -1;
	}
	*out = w.buf;
	*outn = w.len;
	return 0;
}

/* ---- reading ---- */

struct bitr {
	const unsigned char *in;
	size_t n, pos;
	uint32_t acc;
	int nacc;
	int err;
	unsigned char *out;
	size_t len, cap, max;
};

static int get_bits(struct bitr *r, int need)
{
	uint32_t v;
	while (r->nacc < need) {
		if (r->pos >= r->n) {
			r->err = 1;     /* past the end of the input */
			return 0;
		}
		r->acc |= (uint32_t)r->in[r->pos++] << r->nacc;
		r->nacc += 8;
	}
	v = r->acc & ((1u << need) - 1);
	r->acc = need == 32 ? 0 : r->acc >> need;
	r->nacc -= need;
	return (int)v;
}

static void emit(struct bitr *r, unsigned char c)
{
	if (r->len == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 65536;
		unsigned char *nb;
		if (nc > r->max)
			nc = r->max;
		if (r->len >= nc || !(nb = realloc(r->out, nc))) {
			r->err = 2;     /* beyond the limit, or out of memory */
			return;
		}
		r->out = nb;
		r->cap = nc;
	}
	r->out[r->len++] = c;
}

/* a canonical Huffman code from code lengths: counts per length, symbols by code */
struct huff {
	short count[16];
	short sym[320];
};

static int huff_build(struct huff *h, const short *lens, int n)
{
	short offs[16];
	int left = 1;
	memset(h->count, 0, sizeof h->count);
	for (int s = 0; s < n; s++)
		h->count[lens[s]]++;
	if (h->count[0] == n)
		return 0;             /* no codes: only valid for a distance code not used */
	for (int l = 1; l < 16; l++) {
		left <<= 1;
		left -= h->count[l];
		if (left < 0)
			return -1;    /* over-subscribed */
	}
	offs[1] = 0;
	for (int l = 1; l < 15; l++)
		offs[l + 1] = (short)(offs[l] + h->count[l]);
	for (int s = 0; s < n; s++)
		if (lens[s])
			h->sym[offs[lens[s]]++] = (short)s;
	return left;              /* > 0: incomplete (allowed for a single code) */
}

static int huff_decode(struct bitr *r, const struct huff *h)
{
	int code = 0, first = 0, index = 0;
	for (int l = 1; l < 16; l++) {
		code |= get_bits(r, 1);
		if (r->err)
			return -1;
		if (code - h->count[l] < first)
			return h->sym[index + (code - first)];
		index += h->count[l];
		first += h->count[l];
		first <<= 1;
		code <<= 1;
	}
	r->err = 1;
	return -1;
}

static int inflate_codes(struct bitr *r, const struct huff *lit, const struct huff *dist)
{
	for (;;) {
		int s = huff_decode(r, lit), len, d;
		size_t from;
		if (s < 0 || r->err)
			return -1;
		if (s < 256) {
			emit(r, (unsigned char)s);
			continue;
		}
		if (s == 256)
			return 0;
		s -= 257;
		if (s >= 29)
			return -1;
		len = len_base[s] + get_bits(r, len_extra[s]);
		d = huff_decode(r, dist);
		if (d < 0 || d >= 30)
			return -1;
		from = (size_t)(dist_base[d] + get_bits(r, dist_extra[d]));
		if (r->err || from > r->len)
			return -1;    /* a distance before the start */
		for (int k = 0; k < len && !r->err; k++)
			emit(r, r->out[r->len - from]);
		if (r->err)
			return -1;
	}
}

static int inflate_fixed(struct bitr *r)
{
	static struct huff lit, dist;
	static int made;
	if (!made) {
		short l[288], d[30];
		for (int s = 0; s < 288; s++)
			l[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
		for (int s = 0; s < 30; s++)
			d[s] = 5;
		huff_build(&lit, l, 288);
		huff_build(&dist, d, 30);
		made = 1;
	}
	return inflate_codes(r, &lit, &dist);
}

static int inflate_dynamic(struct bitr *r)
{
	static const short order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	short lens[320] = { 0 };
	struct huff lit, dist, cl;
	int nlen = get_bits(r, 5) + 257, ndist = get_bits(r, 5) + 1, ncode = get_bits(r, 4) + 4;
	if (r->err || nlen > 286 || ndist > 30)
		return -1;
	for (int i = 0; i < ncode; i++)
		lens[order[i]] = (short)get_bits(r, 3);
	if (r->err || huff_build(&cl, lens, 19) != 0)
		return -1;
	for (int i = 0; i < nlen + ndist;) {
		int s = huff_decode(r, &cl), rep, val = 0;
		if (s < 0)
			return -1;
		if (s < 16) {
			lens[i++] = (short)s;
			continue;
		}
		if (s == 16) {
			if (!i)
				return -1;
			val = lens[i - 1];
			rep = 3 + get_bits(r, 2);
		} else {
			rep = s == 17 ? 3 + get_bits(r, 3) : 11 + get_bits(r, 7);
		}
		if (r->err || i + rep > nlen + ndist)
			return -1;
		while (rep--)
			lens[i++] = (short)val;
	}
	if (!lens[256])
		return -1;            /* no end-of-block code */
	if (huff_build(&lit, lens, nlen) < 0 || (huff_build(&lit, lens, nlen) > 0 && nlen - lit.count[0] != 1))
		return -1;
	if (huff_build(&dist, lens + nlen, ndist) < 0 ||
	    (huff_build(&dist, lens + nlen, ndist) > 0 && ndist - dist.count[0] != 1))
		return -1;
	return inflate_codes(r, &lit, &dist);
}

static int inflate_stored(struct bitr *r)
{
	unsigned len, nlen;
	r->acc = 0;               /* to a byte boundary */
	r->nacc = 0;
	if (r->pos + 4 > r->n)
		return -1;
	len = r->in[r->pos] | (unsigned)r->in[r->pos + 1] << 8;
	nlen = r->in[r->pos + 2] | (unsigned)r->in[r->pos + 3] << 8;
	r->pos += 4;
	if (len != (~nlen & 0xffffu) || r->pos + len > r->n)
		return -1;
	for (unsigned k = 0; k < len && !r->err; k++)
		emit(r, r->in[r->pos++]);
	return r->err ? -1 : 0;
}

int gzip_decompress(const unsigned char *in, size_t n, size_t max, unsigned char **out, size_t *outn)
{
	struct bitr r = { .in = in, .n = n, .max = max };
	size_t p = 10;
	int last;
	uint32_t crc, isize;
	if (n < 18 || in[0] != 0x1f || in[1] != 0x8b || in[2] != 8)
		return -1;
	if (in[3] & 4) {          /* FEXTRA */
		if (p + 2 > n)
			return -1;
		p += 2 + (size_t)get_le16(in + p);
	}
	for (int f = 8; f <= 16; f <<= 1)   /* FNAME, FCOMMENT: NUL-terminated */
		if (in[3] & f) {
			while (p < n && in[p])
				p++;
			p++;
		}
	if (in[3] & 2)
		p += 2;               /* FHCRC */
	if (p + 8 > n)
		return -1;
	r.pos = p;
	r.n = n - 8;              /* the trailer is not deflate data */
	do {
		int type, rc;
		last = get_bits(&r, 1);
		type = get_bits(&r, 2);
		if (r.err)
			break;
		rc = type == 0 ? inflate_stored(&r) : type == 1 ? inflate_fixed(&r) : type == 2 ? inflate_dynamic(&r) : -1;
		if (rc) {
			r.err = r.err ? r.err : 1;
			break;
		}
	} while (!last);
	crc = get_le32(in + n - 8);
	isize = get_le32(in + n - 4);
	if (r.err || isize != (uint32_t)r.len || crc != crc32_update(0, r.out, r.len)) {
		free(r.out);
		return r.err == 2 ? -2 : -1;
	}
	if (!r.out && !(r.out = malloc(1))) 
		return -2;
	*out = r.out;
	*outn = r.len;
	return 0;
}
