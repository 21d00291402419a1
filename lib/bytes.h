/* Integers read from bytes in a stated order, wherever they sit (file formats, wire
 * protocols, digests): no alignment needed, the host's own order never matters. */
#ifndef ASSAY_BYTES_H
#define ASSAY_BYTES_H

#include <stdint.h>

static inline uint16_t get_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get_le64(const uint8_t *p) { return get_le32(p) | (uint64_t)get_le32(p + 4) << 32; }
static inline uint16_t get_be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t get_be64(const uint8_t *p) { return (uint64_t)get_be32(p) << 32 | get_be32(p + 4); }

#endif
