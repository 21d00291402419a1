/* base64 (RFC 4648), standard alphabet with padding. */
#include "base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64_write(FILE *f, const unsigned char *in, size_t n, int width)
{
	int col = 0;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
			     (i + 2 < n ? in[i + 2] : 0);
		char q[4] = { alphabet[v >> 18 & 63], alphabet[v >> 12 & 63], i + 1 < n ? alphabet[v >> 6 & 63] : '=',
			      i + 2 < n ? alphabet[v & 63] : '=' };
		for (int k = 0; k < 4; k++) {
			if (width && col == width) {
				fputc('\n', f);
				col = 0;
			}
			fputc(q[k], f);
			col++;
		}
	}
	fputc('\n', f);
}

static int value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

long base64_decode(const char *in, size_t n, unsigned char *out)
{
	unsigned v = 0;
	int k = 0, pad = 0;
	long len = 0;
	for (size_t i = 0; i < n; i++) {
		char c = in[i];
		int x;
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			continue;
		if (c == '=') {
			pad++;
			x = 0;
		} else if (pad || (x = value(c)) < 0) {
			return -1;    /* a character after padding, or not base64 */
		}
		v = v << 6 | (unsigned)x;
		if (++k == 4) {
			if (pad > 2)
				return -1;
			out[len++] = (unsigned char)(v >> 16);
			if (pad < 2)
				out[len++] = (unsigned char)(v >> 8);
			if (pad < 1)
				out[len++] = (unsigned char)v;
			v = 0;
			k = 0;
		}
	}
	return k ? -1 : len;
}
