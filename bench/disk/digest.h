#ifndef ASSAY_DIGEST_H
#define ASSAY_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* The checksums and hashes of fio's --verify methods, each over one buffer.  The digest
 * goes to out as bytes: a CRC or xxhash as its value little-endian, MD5 and SHA as their
 * usual byte strings (what md5sum, sha256sum... print). */
enum digest {   /* the numbers are verify's method ids on disk: never renumber */
	DG_CRC32C = 1, DG_CRC32, DG_CRC64, DG_CRC16, DG_CRC7, DG_MD5, DG_SHA1, DG_SHA256, DG_SHA512,
	DG_XXHASH,
	/* 11 and 12 are verify's meta and pattern (disk.h), no digests */
	DG_SHA3_224 = 13, DG_SHA3_256, DG_SHA3_384, DG_SHA3_512, DG_N
};
#define DIGEST_MAX 64

/* the digest's length in bytes (0 for an unknown kind) */
size_t digest_len(int kind);
/* the digest of p[0..n) into out (digest_len(kind) bytes) */
void digest(int kind, const void *p, size_t n, uint8_t *out);

uint64_t crc64_xz(const void *p, size_t n);       /* CRC-64/XZ (xz's --check=crc64) */
uint16_t crc16_arc(const void *p, size_t n);      /* CRC-16/ARC (Linux's crc16, fio's) */
uint8_t crc7_mmc(const void *p, size_t n);        /* CRC-7/MMC (Linux's crc7, fio's) */
uint32_t xxh32(const void *p, size_t n, uint32_t seed);
void md5(const void *p, size_t n, uint8_t out[16]);
void sha1(const void *p, size_t n, uint8_t out[20]);
void sha256(const void *p, size_t n, uint8_t out[32]);
void sha512(const void *p, size_t n, uint8_t out[64]);
void sha3(const void *p, size_t n, uint8_t *out, size_t olen);   /* SHA3-(8 x olen), FIPS 202 */

#endif
