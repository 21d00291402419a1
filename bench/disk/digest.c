/* fio's --verify checksums and hashes beyond CRC-32C (crc32.c): written from their
 * specifications (RFC 1321, FIPS 180-4, the xxHash spec, the CRC catalogue's parameters);
 * tests/unit/digest checks each against its published values and the tools that compute
 * it (md5sum, sha*sum, xz, xxhsum) in tests/host/disk-verify.sh. */
#include "digest.h"
#include "bytes.h"
#include "crc32.h"

#include <pthread.h>
#include <string.h>

static uint64_t tab64[256];
static uint16_t tab16[256];
static uint8_t tab7[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_tables(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint64_t c64 = i;
		uint16_t c16 = (uint16_t)i;
		uint8_t c7 = (uint8_t)i;   /* the 7 bits kept in the byte's top */
		for (int k = 0; k < 8; k++) {
			c64 = c64 & 1 ? 0xC96C5795D7870F42ull ^ (c64 >> 1) : c64 >> 1;
			c16 = c16 & 1 ? (uint16_t)(0xA001u ^ (c16 >> 1)) : (uint16_t)(c16 >> 1);
			c7 = c7 & 0x80 ? (uint8_t)((c7 << 1) ^ (0x09u << 1)) : (uint8_t)(c7 << 1);
		}
		tab64[i] = c64;
		tab16[i] = c16;
		tab7[i] = c7;
	}
}

uint64_t crc64_xz(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t c = ~0ull;
	pthread_once(&tables_once, fill_tables);
	while (n--)
		c = tab64[(c ^ *b++) & 0xff] ^ (c >> 8);
	return ~c;
}

uint16_t crc16_arc(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint16_t c = 0;
	pthread_once(&tables_once, fill_tables);
	while (n--)
		c = (uint16_t)(tab16[(c ^ *b++) & 0xff] ^ (c >> 8));
	return c;
}

uint8_t crc7_mmc(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint8_t c = 0;
	pthread_once(&tables_once, fill_tables);
	while (n--)
		c = tab7[c ^ *b++];
	return (uint8_t)(c >> 1);
}

static uint32_t rol32(uint32_t x, int r) { return x << r | x >> (32 - r); }
static uint32_t ror32(uint32_t x, int r) { return x >> r | x << (32 - r); }
static uint64_t ror64(uint64_t x, int r) { return x >> r | x << (64 - r); }

#define XP1 2654435761u
#define XP2 2246822519u
#define XP3 3266489917u
#define XP4 668265263u
#define XP5 374761393u

static uint32_t xround(uint32_t acc, uint32_t in) { return rol32(acc + in * XP2, 13) * XP1; }

uint32_t xxh32(const void *p, size_t n, uint32_t seed)
{
	const uint8_t *b = p, *end = b + n;
	uint32_t h;
	if (n >= 16) {
		uint32_t v[4] = { seed + XP1 + XP2, seed + XP2, seed, seed - XP1 };
		for (; end - b >= 16; b += 16)
			for (int i = 0; i < 4; i++)
				v[i] = xround(v[i], get_le32(b + 4 * i));
		h = rol32(v[0], 1) + rol32(v[1], 7) + rol32(v[2], 12) + rol32(v[3], 18);
	} else {
		h = seed + XP5;
	}
	h += (uint32_t)n;
	for (; end - b >= 4; b += 4)
		h = rol32(h + get_le32(b) * XP3, 17) * XP4;
	for (; b < end; b++)
		h = rol32(h + *b * XP5, 11) * XP1;
	h ^= h >> 15;
	h *= XP2;
	h ^= h >> 13;
	h *= XP3;
	return h ^ h >> 16;
}

/* Merkle-Damgard: the whole blocks, then the tail padded with 0x80, zeros and the length
 * in bits (in the last 8 of the final block's lensz bytes; big- or little-endian) */
static void md_run(void *st, void (*block)(void *, const uint8_t *), const uint8_t *p, size_t n,
		   size_t bsz, size_t lensz, int big)
{
	uint8_t tail[256];
	size_t full = n / bsz * bsz, r = n - full, end;
	uint64_t bits = (uint64_t)n * 8;
	for (size_t i = 0; i < full; i += bsz)
		block(st, p + i);
	memset(tail, 0, sizeof tail);
	memcpy(tail, p + full, r);
	tail[r] = 0x80;
	end = r + 1 + lensz <= bsz ? bsz : 2 * bsz;
	for (int k = 0; k < 8; k++)
		tail[big ? end - 1 - k : end - lensz + k] = (uint8_t)(bits >> (8 * k));
	for (size_t i = 0; i < end; i += bsz)
		block(st, tail + i);
}

static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};
static const uint8_t md5_r[16] = { 7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21 };

static void md5_block(void *st, const uint8_t *p)
{
	uint32_t *h = st, m[16], a = h[0], b = h[1], c = h[2], d = h[3];
	for (int i = 0; i < 16; i++)
		m[i] = get_le32(p + 4 * i);
	for (int i = 0; i < 64; i++) {
		uint32_t f, t;
		int g;
		switch (i / 16) {
		case 0: f = (b & c) | (~b & d); g = i; break;
		case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16; break;
		case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
		default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
		}
		t = d;
		d = c;
		c = b;
		b += rol32(a + f + md5_k[i] + m[g], md5_r[i / 16 * 4 + i % 4]);
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

void md5(const void *p, size_t n, uint8_t out[16])
{
	uint32_t h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	md_run(h, md5_block, p, n, 64, 8, 0);
	for (int i = 0; i < 16; i++)
		out[i] = (uint8_t)(h[i / 4] >> (8 * (i % 4)));
}

static void sha1_block(void *st, const uint8_t *p)
{
	uint32_t *h = st, w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	for (int t = 0; t < 16; t++)
		w[t] = get_be32(p + 4 * t);
	for (int t = 16; t < 80; t++)
		w[t] = rol32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
#define SHA1_ROUNDS(from, to, f, k) \
	for (int t = from; t < to; t++) { \
		uint32_t tmp = rol32(a, 5) + (f) + e + (k) + w[t]; \
		e = d; \
		d = c; \
		c = rol32(b, 30); \
		b = a; \
		a = tmp; \
	}
	SHA1_ROUNDS(0, 20, (b & c) | (~b & d), 0x5a827999)
	SHA1_ROUNDS(20, 40, b ^ c ^ d, 0x6ed9eba1)
	SHA1_ROUNDS(40, 60, (b & c) | (b & d) | (c & d), 0x8f1bbcdc)
	SHA1_ROUNDS(60, 80, b ^ c ^ d, 0xca62c1d6)
#undef SHA1_ROUNDS
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1(const void *p, size_t n, uint8_t out[20])
{
	uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
	md_run(h, sha1_block, p, n, 64, 8, 1);
	for (int i = 0; i < 20; i++)
		out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static void sha256_block(void *st, const uint8_t *p)
{
	uint32_t *h = st, w[64];
	for (int t = 0; t < 16; t++)
		w[t] = get_be32(p + 4 * t);
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = ror32(w[t - 15], 7) ^ ror32(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = ror32(w[t - 2], 17) ^ ror32(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) + sha256_k[t] + w[t];
		uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void sha256(const void *p, size_t n, uint8_t out[32])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	md_run(h, sha256_block, p, n, 64, 8, 1);
	for (int i = 0; i < 32; i++)
		out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static const uint64_t sha512_k[80] = {
	0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,
	0x3956c25bf348b538ull, 0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,
	0xd807aa98a3030242ull, 0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
	0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,
	0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
	0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
	0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,
	0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull, 0x06ca6351e003826full, 0x142929670a0e6e70ull,
	0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
	0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,
	0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,
	0xd192e819d6ef5218ull, 0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
	0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,
	0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,
	0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
	0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,
	0xca273eceea26619cull, 0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,
	0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
	0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,
	0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull,
};

static void sha512_block(void *st, const uint8_t *p)
{
	uint64_t *h = st, w[80];
	for (int t = 0; t < 16; t++)
		w[t] = get_be64(p + 8 * t);
	for (int t = 16; t < 80; t++) {
		uint64_t s0 = ror64(w[t - 15], 1) ^ ror64(w[t - 15], 8) ^ (w[t - 15] >> 7);
		uint64_t s1 = ror64(w[t - 2], 19) ^ ror64(w[t - 2], 61) ^ (w[t - 2] >> 6);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int t = 0; t < 80; t++) {
		uint64_t t1 = hh + (ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41)) + ((e & f) ^ (~e & g)) + sha512_k[t] + w[t];
		uint64_t t2 = (ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void sha512(const void *p, size_t n, uint8_t out[64])
{
	uint64_t h[8] = { 0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull,
			  0xa54ff53a5f1d36f1ull, 0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
			  0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull };
	md_run(h, sha512_block, p, n, 128, 16, 1);
	for (int i = 0; i < 64; i++)
		out[i] = (uint8_t)(h[i / 8] >> (56 - 8 * (i % 8)));
}

/* ---- SHA-3 (FIPS 202): the Keccak-f[1600] permutation in a sponge whose rate is 200
 * bytes less twice the digest's; the message padded with 0x06 ... 0x80 ---- */

static const uint64_t keccak_rc[24] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
	0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
	0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
	0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
	0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
	0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};
/* each lane's rotation, lane x + 5y */
static const uint8_t keccak_rot[25] = { 0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
					41, 45, 15, 21, 8, 18, 2, 61, 56, 14 };

static uint64_t rol64(uint64_t x, int r) { return r ? x << r | x >> (64 - r) : x; }

/* rho and pi: lane i goes to keccak_pi[i] (lane (x, y) to (y, 2x + 3y)) */
static const uint8_t keccak_pi[25] = { 0, 10, 20, 5, 15, 16, 1, 11, 21, 6, 7, 17, 2, 12, 22, 23, 8, 18, 3, 13, 14, 24, 9, 19, 4 };

static void keccak_f(uint64_t a[25])
{
	for (int round = 0; round < 24; round++) {
		uint64_t c[5], b[25];
		for (int x = 0; x < 5; x++)          /* theta */
			c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
		for (int x = 0; x < 5; x++) {
			uint64_t d = c[x == 0 ? 4 : x - 1] ^ rol64(c[x == 4 ? 0 : x + 1], 1);
			a[x] ^= d;
			a[x + 5] ^= d;
			a[x + 10] ^= d;
			a[x + 15] ^= d;
			a[x + 20] ^= d;
		}
		for (int i = 0; i < 25; i++)
			b[keccak_pi[i]] = rol64(a[i], keccak_rot[i]);
		for (int y = 0; y < 25; y += 5) {    /* chi */
			a[y] = b[y] ^ (~b[y + 1] & b[y + 2]);
			a[y + 1] = b[y + 1] ^ (~b[y + 2] & b[y + 3]);
			a[y + 2] = b[y + 2] ^ (~b[y + 3] & b[y + 4]);
			a[y + 3] = b[y + 3] ^ (~b[y + 4] & b[y]);
			a[y + 4] = b[y + 4] ^ (~b[y] & b[y + 1]);
		}
		a[0] ^= keccak_rc[round];            /* iota */
	}
}

void sha3(const void *p, size_t n, uint8_t *out, size_t olen)
{
	uint64_t a[25] = { 0 };
	size_t rate = 200 - 2 * olen;
	const uint8_t *s = p;
	uint8_t last[200] = { 0 };
	for (; n >= rate; n -= rate, s += rate) {
		for (size_t i = 0; i < rate / 8; i++)
			a[i] ^= get_le64(s + 8 * i);
		keccak_f(a);
	}
	memcpy(last, s, n);
	last[n] ^= 0x06;
	last[rate - 1] ^= 0x80;
	for (size_t i = 0; i < rate / 8; i++)
		a[i] ^= get_le64(last + 8 * i);
	keccak_f(a);
	for (size_t i = 0; i < olen; i++)
		out[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
}

size_t digest_len(int kind)
{
	static const uint8_t len[DG_N] = { [DG_CRC32C] = 4, [DG_CRC32] = 4, [DG_CRC64] = 8, [DG_CRC16] = 2,
					   [DG_CRC7] = 1, [DG_MD5] = 16, [DG_SHA1] = 20, [DG_SHA256] = 32,
					   [DG_SHA512] = 64, [DG_XXHASH] = 4, [DG_SHA3_224] = 28, [DG_SHA3_256] = 32,
					   [DG_SHA3_384] = 48, [DG_SHA3_512] = 64 };
	return kind > 0 && kind < DG_N ? len[kind] : 0;
}

static void put_le(uint8_t *out, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

void digest(int kind, const void *p, size_t n, uint8_t *out)
{
	switch (kind) {
	case DG_CRC32C: put_le(out, crc32c(0, p, n), 4); break;
	case DG_CRC32: put_le(out, crc32_update(0, p, n), 4); break;
	case DG_CRC64: put_le(out, crc64_xz(p, n), 8); break;
	case DG_CRC16: put_le(out, crc16_arc(p, n), 2); break;
	case DG_CRC7: put_le(out, crc7_mmc(p, n), 1); break;
	case DG_MD5: md5(p, n, out); break;
	case DG_SHA1: sha1(p, n, out); break;
	case DG_SHA256: sha256(p, n, out); break;
	case DG_SHA512: sha512(p, n, out); break;
	case DG_XXHASH: put_le(out, xxh32(p, n, 0), 4); break;
	case DG_SHA3_224: case DG_SHA3_256: case DG_SHA3_384: case DG_SHA3_512: sha3(p, n, out, digest_len(kind)); break;
	default: break;
	}
}
