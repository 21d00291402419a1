/* The result document's readers and writers: summary figures, the console table and
 * the JSON block between marker lines (docs/results.md). */
#ifndef ASSAY_REPORT_H
#define ASSAY_REPORT_H

#include <stdio.h>

struct json;

#define REPORT_SCHEMA_VERSION 1
#define REPORT_BEGIN "-----BEGIN ASSAY RESULT-----"
#define REPORT_END   "-----END ASSAY RESULT-----"

/* Adds doc.summary: [{name, value, unit}] from every ok test's engine figures. */
void report_summary(struct json *doc);
/* which way a figure is better (declared with it: the summary row's "better") */
enum better { HIGHER_BETTER, LOWER_BETTER };
/* One row of doc.summary: {name, value, unit, better} */
/* --push: each URL of the comma list sent the results (report/push.c); doc.push says
 * what happened; the number that failed */
struct push_opts {
	const char *ca;         /* --push-ca: a PEM bundle (file:NAME in the image: on the partition) */
	const char *pin;        /* --push-pin: sha256:HEX of the server's certificate */
	int insecure;           /* --push-insecure */
	double timeout;         /* --push-timeout: seconds an attempt may take (0: 10) */
};
int report_push(const char *urls, const struct push_opts *o, struct json *doc);
/* the summary as OpenMetrics text (report/openmetrics.c), ending with # EOF */
void report_openmetrics(const struct json *doc, FILE *f);
/* the result as MAAS's testing-script results YAML (report/maas.c); the status alone
 * (passed, degraded, failed) and why in `why` */
void report_maas(const struct json *doc, FILE *f);
const char *report_maas_status(const struct json *doc, char *why, size_t n);
struct json *report_figure(struct json *sum, const char *name, double value, const char *unit, enum better b);
/* a row's 95% confidence interval over repeats ("ci95_low", "ci95_high"), from a stats
 * object's (stats_json) times scale */
void report_ci(struct json *row, const struct json *stats, double scale);
/* which way a summary row is better: its "better", or for documents before it, by its
 * unit and name (time, %, errors, lost, retransmits: lower) */
enum better figure_better(const struct json *row);
/* the engine a summary figure's name belongs to (NULL: the run's own, steal.*) */
struct engine;
const struct engine *figure_engine(const char *name);
/* The human summary table. */
void report_table(const struct json *doc, FILE *f);
/* The document between marker lines: BEGIN line, "bytes=N crc32=X" line, JSON, END. */
void report_block(const struct json *doc, FILE *f);
/* the run's last screen (screen.c): verdict, headline figures, steal (over steal_limit
 * percent: the figures are suspect), tests not ok, where the results went (from: the
 * file they were read from, NULL: what the document says), and next (what happens now,
 * NULL: nothing to say); at most ~20 lines of 79 columns */
void report_screen(const struct json *doc, const char *next, const char *from, double steal_limit, FILE *f);

#endif
