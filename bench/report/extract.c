/* assay extract LOG: the result document from a console log.  The block sits between
 * REPORT_BEGIN and REPORT_END, its length and CRC-32 on the line after BEGIN.  A serial
 * console adds \r; kernel messages ("[   12.345678] ...") may land between or inside its
 * lines: they are cut out and the checksum decides.  A block without its end marker, or
 * shorter than announced, is reported as truncated. */
#include "commands.h"
#include "crc32.h"
#include "certify.h"
#include "figures.h"
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

/* Find the last block in buf.  0 ok (doc set), 1 none, 2 damaged (why set). */
int extract_doc(char *buf, size_t len, struct json **doc, char *why, size_t wn)
{
	char *begin = NULL, *p = buf, *body, *end;
	unsigned long long want_len;
	unsigned want_crc;
	size_t n;
	char err[256];
	while ((p = strstr(p, REPORT_BEGIN))) {
		begin = p;
		p += strlen(REPORT_BEGIN);
	}
	if (!begin) {
		snprintf(why, wn, "no result block (no '%s' line)", REPORT_BEGIN);
		return 1;
	}
	body = begin + strlen(REPORT_BEGIN);
	n = clean(body, len - (size_t)(body - buf));
	body[n] = 0;
	if (*body == '\n')
		body++;
	if (sscanf(body, "bytes=%llu crc32=%8x", &want_len, &want_crc) != 2) {
		snprintf(why, wn, "damaged: the line after '%s' is not 'bytes=N crc32=X'", REPORT_BEGIN);
		return 2;
	}
	body = strchr(body, '\n');
	if (!body) {
		snprintf(why, wn, "truncated: the log ends inside the block header");
		return 2;
	}
	body++;
	end = strstr(body, "\n" REPORT_END);
	if (!end) {
		snprintf(why, wn, "truncated: no '%s' line; %zu of %llu bytes present", REPORT_END,
			 strlen(body), want_len);
		return 2;
	}
	end++;   /* the document ends with its newline */
	if ((unsigned long long)(end - body) != want_len) {
		snprintf(why, wn, "damaged: %zu bytes between the markers, %llu announced",
			 (size_t)(end - body), want_len);
		return 2;
	}
	if (crc32_update(0, body, (size_t)(end - body)) != want_crc) {
		snprintf(why, wn, "damaged: CRC-32 %08x, %08x announced",
			 crc32_update(0, body, (size_t)(end - body)), want_crc);
		return 2;
	}
	*doc = json_parse(body, (size_t)(end - body), err, sizeof err);
	if (!*doc) {
		snprintf(why, wn, "damaged: not JSON (%s)", err);
		return 2;
	}
	return 0;
}

int cmd_extract(int argc, char **argv)
{
	char *buf, why[300];
	size_t len;
	struct json *doc = NULL;
	int r;
	if (argc != 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
		fprintf(argc == 1 ? stdout : stderr,
			"usage: assay extract CONSOLE.LOG\nPrint the last result document found in a console "
			"log (serial capture), checked against its length and CRC-32.\n");
		return argc == 1 ? EXIT_OK : EXIT_USAGE;
	}
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
