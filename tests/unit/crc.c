/* CRC-32 (zlib's) and CRC-32C (Castagnoli, --verify's) against their check values and a
 * bit-at-a-time reference, at every length and alignment the fast path splits on. */
#include "crc32.h"
#include "unit.h"

#include <string.h>

static uint32_t ref(uint32_t poly, const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? poly ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

int main(void)
{
	unsigned char buf[300];
	uint64_t x = 0x12345;
	CHECK(crc32_update(0, "123456789", 9) == 0xCBF43926u, "crc32 check value");
	CHECK(crc32c(0, "123456789", 9) == 0xE3069283u, "crc32c check value: %08x", crc32c(0, "123456789", 9));
	CHECK(crc32c(0, "", 0) == 0, "crc32c of nothing");
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (unsigned char)(x >> 56);
	}
	for (size_t off = 0; off < 9; off++)
		for (size_t n = 0; off + n <= sizeof buf; n += n < 40 ? 1 : 37) {
			uint32_t want = ref(0x82F63B78u, buf + off, n);
			CHECK(crc32c(0, buf + off, n) == want, "crc32c at %zu+%zu", off, n);
			/* continued in two parts: the same */
			CHECK(crc32c(crc32c(0, buf + off, n / 3), buf + off + n / 3, n - n / 3) == want,
			      "crc32c in parts at %zu+%zu", off, n);
			CHECK(crc32_update(0, buf + off, n) == ref(0xEDB88320u, buf + off, n), "crc32 at %zu+%zu", off, n);
		}
	return unit_done();
}
