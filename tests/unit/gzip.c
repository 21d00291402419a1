/* gzip and base64 of the console's compact result block: round trips of text, random
 * and repetitive data at every size edge, gzip's own stream read back (host/results.sh
 * checks the other way with the system's gzip), damaged input refused, not crashed on. */
#include "base64.h"
#include "gzip.h"
#include "unit.h"

#include <stdint.h>
#include <string.h>

static void round_trip(const unsigned char *src, size_t n, const char *what)
{
	unsigned char *z = NULL, *back = NULL;
	size_t zn = 0, bn = 0;
	CHECK(gzip_compress(src, n, &z, &zn) == 0, "%s: compress", what);
	CHECK(zn >= 18 && z[0] == 0x1f && z[1] == 0x8b && z[2] == 8, "%s: a gzip header", what);
	CHECK(gzip_decompress(z, zn, n, &back, &bn) == 0, "%s: decompress", what);
	CHECK(bn == n && (n == 0 || !memcmp(back, src, n)), "%s: same bytes back (%zu of %zu)", what, bn, n);
	free(back);
	back = NULL;
	if (n > 0)
		CHECK(gzip_decompress(z, zn, n - 1, &back, &bn) == -2, "%s: one byte over max is refused", what);
	free(back);
	free(z);
}

/* base64 through a memory stream and back */
static void b64_trip(const unsigned char *src, size_t n, int width)
{
	char *txt = NULL;
	size_t tn = 0;
	FILE *f = open_memstream(&txt, &tn);
	unsigned char *out = malloc(n + 4);
	long got;
	base64_write(f, src, n, width);
	fclose(f);
	got = base64_decode(txt, tn, out);
	CHECK(got == (long)n && !memcmp(out, src, n), "base64 %zu bytes width %d: %ld back", n, width, got);
	for (size_t i = 0; width && i < tn; i += (size_t)width + 1)
		CHECK(i + (size_t)width >= tn || txt[i + (size_t)width] == '\n', "base64 lines of %d", width);
	free(out);
	free(txt);
}

int main(void)
{
	static unsigned char buf[300000];
	uint64_t x = 7;
	const char *json = "{\"schema_version\": 2, \"summary\": [{\"name\": \"disk.seq.read.bw\", \"value\": 812.5}]}\n";
	/* "hello\n" as `printf 'hello\n' | gzip -n` writes it: a stream we did not make */
	static const unsigned char sys[] = { 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48,
					     0xcd, 0xc9, 0xc9, 0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a, 0x36, 0x06, 0x00,
					     0x00, 0x00 };
	unsigned char *out = NULL;
	size_t on = 0;
	char dec[16];

	round_trip((const unsigned char *)"", 0, "empty");
	round_trip((const unsigned char *)"a", 1, "one byte");
	round_trip((const unsigned char *)json, strlen(json), "json");
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (unsigned char)(x >> 56);
	}
	round_trip(buf, sizeof buf, "random");
	memset(buf, 'z', sizeof buf);
	round_trip(buf, sizeof buf, "one byte repeated (matches of 258, distance 1)");
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = "abcdefghij, {\"k\": 1}\n"[(i * 7 + i / 1000) % 21];
	round_trip(buf, sizeof buf, "text-like (distances to 32K)");
	for (size_t n = 1; n < 70; n++)
		round_trip(buf + 5, n, "short");

	CHECK(gzip_decompress(sys, sizeof sys, 100, &out, &on) == 0 && on == 6 && !memcmp(out, "hello\n", 6),
	      "the system's gzip read");
	free(out);
	out = NULL;
	/* damaged: a bit flipped in the data or the CRC, cut short, not gzip */
	for (size_t i = 10; i < sizeof sys; i++) {
		unsigned char bad[sizeof sys];
		memcpy(bad, sys, sizeof sys);
		bad[i] ^= 0x10;
		/* (a flipped padding bit after the last block changes nothing: the same bytes) */
		CHECK(gzip_decompress(bad, sizeof bad, 100, &out, &on) != 0 || (on == 6 && !memcmp(out, "hello\n", 6)),
		      "bit flipped at %zu: wrong bytes accepted", i);
		free(out);
		out = NULL;
		CHECK(gzip_decompress(sys, i, 100, &out, &on) != 0, "cut at %zu accepted", i);
		free(out);
		out = NULL;
	}
	CHECK(gzip_decompress((const unsigned char *)"hello", 5, 100, &out, &on) == -1, "not gzip");

	for (size_t n = 0; n < 40; n++) {
		b64_trip(buf + 3, n, 0);
		b64_trip(buf + 3, n, 8);
	}
	b64_trip(buf, 10000, 76);
	CHECK(base64_decode("aGVs\r\nbG8K\n", 11, (unsigned char *)dec) == 6 && !memcmp(dec, "hello\n", 6),
	      "whitespace and \\r ignored");
	CHECK(base64_decode("aGVsbG8K!", 9, (unsigned char *)dec) == -1, "a character not base64");
	CHECK(base64_decode("aGV", 3, (unsigned char *)dec) == -1, "a length not a multiple of 4");
	CHECK(base64_decode("a===", 4, (unsigned char *)dec) == -1, "bad padding");
	return unit_done();
}
