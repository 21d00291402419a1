/* gzip of a buffer and back (gzip.c): the console's compact result block. */
#ifndef ASSAY_GZIP_H
#define ASSAY_GZIP_H

#include <stddef.h>

/* n bytes of src as a gzip member (mtime 0: the same bytes every time) in *out (malloc'd);
 * 0, or -1 out of memory */
int gzip_compress(const void *src, size_t n, unsigned char **out, size_t *outn);
/* a gzip member back (at most max bytes out, its CRC-32 and size checked); 0, -1 not a
 * valid gzip member, -2 larger than max (or out of memory) */
int gzip_decompress(const unsigned char *in, size_t n, size_t max, unsigned char **out, size_t *outn);

#endif
