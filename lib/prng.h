/* xoshiro256** (Blackman & Vigna): fast, good enough for offsets and buffer data;
 * seeded through splitmix64 so any 64-bit seed gives a well-mixed state. */
#ifndef ASSAY_PRNG_H
#define ASSAY_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void prng_seed(struct prng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_next(struct prng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return out;
}

/* uniform in [0, n), n > 0 (Lemire's multiply-shift; bias < n / 2^64) */
static inline uint64_t prng_below(struct prng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)prng_next(r) * n) >> 64);
}

#endif
