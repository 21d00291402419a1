/* base64 (RFC 4648) for the console's compact result block. */
#ifndef ASSAY_BASE64_H
#define ASSAY_BASE64_H

#include <stddef.h>
#include <stdio.h>

/* n bytes as base64, lines of at most width characters (0: one line), to f */
void base64_write(FILE *f, const unsigned char *in, size_t n, int width);
/* base64 text (whitespace and \r ignored) decoded in place into out (room for
 * n * 3 / 4 bytes); the bytes, or -1 on a character that is not base64 or bad padding */
long base64_decode(const char *in, size_t n, unsigned char *out);

#endif
