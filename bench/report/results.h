/* The results partition (FAT, label ASSAY) and result files written atomically. */
#ifndef ASSAY_RESULTS_H
#define ASSAY_RESULTS_H

#include <stddef.h>

struct json;

#define RESULTS_LABEL "ASSAY"

/* the device holding the results filesystem, found by label; 0 or -1 */
int results_find(char *dev, size_t n);
/* <date>-<machine>: the result files' name without .json/.txt */
void results_base(const struct json *doc, char *out, size_t n);
/* dir/name written atomically (temp file, fsync, rename, fsync dir); 0, or -1 */
int results_write_file(const char *dir, const char *name, const char *data, size_t len, char *err, size_t n);
/* write <date>-<machine>.json, .txt and .html (the report) into dir (created if
 * missing), atomically; where gets what was written.  0, or -1 with a one-line reason
 * (the report alone not written: 0, the reason in where) */
int results_write_dir(const char *dir, const struct json *doc, const char *txt, size_t txtlen,
		      char *where, size_t wn, char *err, size_t n);
/* the one-run HTML report of doc (report/html.c) written atomically as dir/name; 0, or -1 */
int report_html_file(const char *dir, const char *name, const struct json *doc, char *err, size_t n);
/* find, mount, write into assay/, unmount */
int results_store(const struct json *doc, const char *txt, size_t txtlen, char *where, size_t wn,
		  char *err, size_t n);

/* a file of the results partition's root (the rules of assay.certify=file:NAME), read
 * with the partition mounted read-only, at most max bytes of text; NULL with err */
char *results_read(const char *name, size_t max, char *err, size_t n);

#endif
