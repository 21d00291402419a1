#ifndef ASSAY_CRC32_H
#define ASSAY_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 as zlib/gzip/cksum -o3 compute it (reflected 0xEDB88320). */
uint32_t crc32_update(uint32_t crc, const void *p, size_t n);

#endif
