#include "crc32.h"

#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

uint32_t crc32_update(uint32_t crc, const void *p, size_t n)
{
	static uint32_t table[256];
	const unsigned char *b = p;
	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static uint32_t crc32c_table(uint32_t crc, const unsigned char *b, size_t n)
{
	static uint32_t table[256];
	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0x82F63B78u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const unsigned char *b, size_t n)
{
	uint64_t c = ~crc & 0xffffffffu;
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t v;
		memcpy(&v, b, 8);
		c = __builtin_ia32_crc32di(c, v);
	}
	crc = (uint32_t)c;
	while (n--)
		crc = __builtin_ia32_crc32qi(crc, *b++);
	return ~crc;
}
#endif

uint32_t crc32c(uint32_t crc, const void *p, size_t n)
{
#if defined(__x86_64__)
	static int hw = -1;
	if (hw < 0) {
		unsigned a, b, c = 0, d;
		hw = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2);
	}
	if (hw)
		return crc32c_sse42(crc, p, n);
#endif
	return crc32c_table(crc, p, n);
}
