#include "crc32.h"

#include <pthread.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

static uint32_t tab32[256], tab32c[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill(uint32_t table[256], uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? poly ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

static void fill_tables(void)
{
	fill(tab32, 0xEDB88320u);
	fill(tab32c, 0x82F63B78u);
}

/* a reflected CRC-32 a byte at a time (the tables filled once, whichever thread comes
 * first: --verify stamps from every worker) */
static uint32_t crc_bytes(const uint32_t table[256], uint32_t crc, const unsigned char *b, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

uint32_t crc32_update(uint32_t crc, const void *p, size_t n)
{
	pthread_once(&tables_once, fill_tables);
	return crc_bytes(tab32, crc, p, n);
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
	pthread_once(&tables_once, fill_tables);
	return crc_bytes(tab32c, crc, p, n);
}
