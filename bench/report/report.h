/* What reads and writes result documents (docs/results.md): loading one back (a JSON file,
 * a console log's block, an engine's own -J output), the console table and block, the last
 * screen, and the ways results leave: OpenMetrics, pushes, MAAS.  The document's model
 * (figure rows, units, names) is result/result.h. */
#ifndef ASSAY_REPORT_H
#define ASSAY_REPORT_H

#include "result/result.h"

#include <stddef.h>
#include <stdio.h>

struct json;

/* ---- reading (load.c, extract.c) ---- */
/* A result document from a JSON file or a console log (the block is extracted).
 * NULL with "PATH: reason" in err. */
struct json *doc_load(const char *path, char *err, size_t n);
/* a column title: the file's name without directories and .json */
void doc_label(const char *path, char *out, size_t n);
/* the last result block in a console log (modified in place): 0 ok, 1 none, 2 damaged or
 * truncated, with the reason in why */
int extract_doc(char *buf, size_t len, struct json **doc, char *why, size_t wn);

/* ---- writing (report.c, screen.c) ---- */
/* The human summary table. */
void report_table(const struct json *doc, FILE *f);
/* The document between marker lines: BEGIN line, "bytes=N crc32=X" line, JSON, END. */
void report_block(const struct json *doc, FILE *f);
/* the run's last screen (screen.c): verdict, headline figures, steal (over steal_limit
 * percent: the figures are suspect), tests not ok, where the results went (from: the
 * file they were read from, NULL: what the document says), and next (what happens now,
 * NULL: nothing to say); at most ~20 lines of 79 columns */
void report_screen(const struct json *doc, const char *next, const char *from, double steal_limit, FILE *f);

/* ---- leaving (push.c, openmetrics.c, maas.c, export.c) ---- */
/* --push: each URL of the comma list sent the results (report/push.c); doc.push says
 * what happened; the number that failed */
struct push_opts {
	const char *ca;         /* --push-ca: a PEM bundle (file:NAME in the image: on the partition) */
	const char *pin;        /* --push-pin: sha256:HEX of the server's certificate */
	int insecure;           /* --push-insecure */
	double timeout;         /* --push-timeout: seconds an attempt may take (0: 10) */
};
int report_push(const char *urls, const struct push_opts *o, struct json *doc);
/* every URL of the comma list one report_push can send to (checked before a run, not
 * after it); 0, or -1 with "URL: why" */
int report_push_check(const char *urls, char *err, size_t n);
/* every metric family with its type, labels and meaning, a markdown table (docs/fleet.md) */
void report_metrics_markdown(FILE *f);
/* the summary as OpenMetrics text (report/openmetrics.c), ending with # EOF */
void report_openmetrics(const struct json *doc, FILE *f);
/* the OpenMetrics text of doc written to PATH.prom atomically; 0, or -1 with the reason */
int export_textfile(const char *path, const struct json *doc, char *err, size_t n);
/* the result as MAAS's testing-script results YAML (report/maas.c); the status alone
 * (passed, degraded, failed) and why in `why` */
void report_maas(const struct json *doc, FILE *f);
const char *report_maas_status(const struct json *doc, char *why, size_t n);

#endif
