#ifndef ASSAY_CRC32_H
#define ASSAY_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 as zlib/gzip/cksum -o3 compute it (reflected 0xEDB88320). */
uint32_t crc32_update(uint32_t crc, const void *p, size_t n);
/* CRC-32C (Castagnoli, reflected 0x82F63B78: iSCSI's, ext4's, fio's crc32c), continued
 * from crc (0 to start): the SSE 4.2 instruction where the CPU has it, else a table. */
uint32_t crc32c(uint32_t crc, const void *p, size_t n);

#endif
