/* assay extract LOG: the result document from a console log.  The block sits between
 * RESULT_BEGIN and RESULT_END, its length and CRC-32 on the line after BEGIN (and, in
 * the compact block, the gzip's length: the JSON gzipped in base64 lines).  A serial
 * console adds \r; kernel messages ("[   12.345678] ...") may land between or inside its
 * lines: they are cut out and the checksum decides.  A block without its end marker, or
 * shorter than announced, is reported as truncated. */
#include "cli/command.h"
#include "base64.h"
#include "crc32.h"
#include "gzip.h"
#include "certify.h"
#include "report.h"
#include "fileio.h"
#include "json.h"
#include "msg.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "[    3.801730] " at p? returns its length, 0 if not a kernel timestamp */
static size_t kernel_stamp(const char *p)
{
	const char *q = p;
	if (*q++ != '[')
		return 0;
	while (*q == ' ')
		q++;
	if (!isdigit((unsigned char)*q))
		return 0;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q++ != '.')
		return 0;
	for (int i = 0; i < 6; i++)   /* the kernel prints %5lu.%06lu */
		if (!isdigit((unsigned char)*q++))
			return 0;
	if (*q++ != ']')
		return 0;
	return (size_t)(q - p);
}

/* Remove \r and every kernel message (stamp to end of line) from s, in place. */
static size_t clean(char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n;) {
		size_t k;
		if (s[i] == '\r') {
			i++;
			continue;
		}
		if (s[i] == '[' && (k = kernel_stamp(s + i))) {
			/* a kernel line: drop it with its newline; if it interrupted one of
			 * our lines, that line goes on after it */
			while (i < n && s[i] != '\n')
				i++;
			if (i < n)
				i++;
			continue;
		}
		s[w++] = s[i++];
	}
	return w;
}

/* the compact body (base64 of the gzipped JSON, up to END): the JSON, checked against
 * its announced length and CRC-32; 0, or 2 with why */
static int compact_body(const char *body, const char *end, size_t want_len, unsigned want_crc, size_t gzlen,
			char **json, char *why, size_t wn)
{
	size_t n = (size_t)(end - body), got;
	unsigned char *z = malloc(n / 4 * 3 + 3), *out = NULL;
	long zn = z ? base64_decode(body, n, z) : -1;
	int r;
	if (zn < 0) {
		snprintf(why, wn, z ? "damaged: not base64 between the markers" : "out of memory");
		free(z);
		return 2;
	}
	if ((size_t)zn != gzlen) {
		snprintf(why, wn, "damaged: %ld gzip bytes between the markers, %zu announced", zn, gzlen);
		free(z);
		return 2;
	}
	r = gzip_decompress(z, (size_t)zn, want_len, &out, &got);
	free(z);
	if (r || got != want_len) {
		snprintf(why, wn, "damaged: %s", r == -2 ? "longer than announced" : r ? "not a valid gzip stream"
			 : "shorter than announced");
		free(out);
		return 2;
	}
	if (crc32_update(0, out, got) != want_crc) {
		snprintf(why, wn, "damaged: CRC-32 %08x, %08x announced", crc32_update(0, out, got), want_crc);
		free(out);
		return 2;
	}
	*json = (char *)out;
	return 0;
}

/* Find the last block in buf: the compact one (format=gzip+base64) or the JSON as it is
 * (before 2026-12-06).  0 ok (doc set), 1 none, 2 damaged (why set). */
int extract_doc(char *buf, size_t len, struct json **doc, char *why, size_t wn)
{
	char *begin = NULL, *p = buf, *body, *end, *json = NULL;
	unsigned long long want_len, gzlen = 0;
	unsigned want_crc;
	int compact, r = 0;
	size_t n;
	char err[256];
	while ((p = strstr(p, RESULT_BEGIN))) {
		begin = p;
		p += strlen(RESULT_BEGIN);
	}
	if (!begin) {
		snprintf(why, wn, "no result block (no '%s' line)", RESULT_BEGIN);
		return 1;
	}
	body = begin + strlen(RESULT_BEGIN);
	n = clean(body, len - (size_t)(body - buf));
	body[n] = 0;
	if (*body == '\n')
		body++;
	compact = !strncmp(body, "format=gzip+base64 ", 19);
	if (compact ? sscanf(body, "format=gzip+base64 bytes=%llu crc32=%8x gzip=%llu", &want_len, &want_crc,
			     &gzlen) != 3 || want_len > (1u << 30)
		    : sscanf(body, "bytes=%llu crc32=%8x", &want_len, &want_crc) != 2) {
		snprintf(why, wn, "damaged: the line after '%s' is not '%s'", RESULT_BEGIN,
			 compact ? "format=gzip+base64 bytes=N crc32=X gzip=Z" : "bytes=N crc32=X");
		return 2;
	}
	body = strchr(body, '\n');
	if (!body) {
		snprintf(why, wn, "truncated: the log ends inside the block header");
		return 2;
	}
	body++;
	end = strstr(body, "\n" RESULT_END);
	if (!end) {
		if (compact)
			snprintf(why, wn, "truncated: no '%s' line; about %zu of %llu gzip bytes present", RESULT_END,
				 strlen(body) / 77 * 57, gzlen);
		else
			snprintf(why, wn, "truncated: no '%s' line; %zu of %llu bytes present", RESULT_END,
				 strlen(body), want_len);
		return 2;
	}
	end++;   /* the document ends with its newline */
	if (compact) {
		r = compact_body(body, end, (size_t)want_len, want_crc, (size_t)gzlen, &json, why, wn);
		if (r)
			return r;
		body = json;
		end = json + want_len;
	} else if ((unsigned long long)(end - body) != want_len) {
		snprintf(why, wn, "damaged: %zu bytes between the markers, %llu announced",
			 (size_t)(end - body), want_len);
		return 2;
	} else if (crc32_update(0, body, (size_t)(end - body)) != want_crc) {
		snprintf(why, wn, "damaged: CRC-32 %08x, %08x announced",
			 crc32_update(0, body, (size_t)(end - body)), want_crc);
		return 2;
	}
	*doc = json_parse(body, (size_t)(end - body), err, sizeof err);
	free(json);
	if (!*doc) {
		snprintf(why, wn, "damaged: not JSON (%s)", err);
		return 2;
	}
	return 0;
}

static int extract_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	char *const *argv = a->pos, *buf, why[300];
	size_t len;
	struct json *doc = NULL;
	int r;
	buf = read_file(argv[0], (size_t)1 << 30, &len);
	if (!buf) {
		errmsg("extract: %s:", argv[0]);
		return EXIT_USAGE;
	}
	r = extract_doc(buf, len, &doc, why, sizeof why);
	free(buf);
	if (r) {
		errmsg("extract: %s: %s", argv[0], why);
		return r == 1 ? EXIT_FAIL : EXIT_USAGE;
	}
	json_print(stdout, doc, 2);
	json_free(doc);
	return EXIT_OK;
}

const struct command extract_command = {
	.name = "extract",
	.summary = "the result document from a console log",
	.usage = "CONSOLE.LOG",
	.help = "Print the last result document found in a console log (checked against its length and "
		"CRC-32).",
	.pos_min = 1,
	.pos_max = 1,
	.main = extract_main,
};
