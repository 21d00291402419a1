/* The comparison of several runs (report/compare.c): what `assay compare` prints and the
 * HTML report (report/html.c) draws, computed once. */
#ifndef ASSAY_COMPARE_H
#define ASSAY_COMPARE_H

#include "report.h"

#include <stddef.h>
#include <stdio.h>

#define MAX_RUNS 32
#define MAX_ROWS 1024

struct json;

struct run {
	struct json *doc;
	char label[64];
};

struct row {
	const char *name, *unit;
	int cat;                     /* the heading's index: engines in the registry's order, then the run's */
	int rank;                    /* headline rank (0: not a headline figure) */
	enum better better;
	double v[MAX_RUNS];          /* NAN: that run has no such figure */
	double lo[MAX_RUNS], hi[MAX_RUNS];   /* its 95% CI (NAN: no repeats) */
	const struct json *src[MAX_RUNS];    /* each run's summary row, in the same unit (NULL: none) */
	int best;                    /* the run clearly best, or -1 */
	int tie[MAX_RUNS];           /* within the noise of the best */
};

/* [NAME=]FILE words loaded and labelled (NAME, else the machine, else the file's name);
 * 0, or -1 after a one-line error starting with who */
int compare_load(struct run *runs, char **pos, int npos, const char *who);
void compare_free(struct run *runs, int nr);
/* the rows (all: every figure, else the headline ones) sorted by category, each with its
 * clear best (beyond the CIs, else noise percent); their number */
int compare_rows(struct row *rows, const struct run *runs, int nr, int all, double noise);
const char *category_title(int cat);
/* the winner of the category starting at row *k (moved past it), or -1 */
int category_winner(const struct row *rows, int nrows, int *k, int nr, int *won, int *total, int *tie);
/* "123", "12.3", "1.23"; "-" for none */
void value_cell(char *b, size_t n, double v);
/* the difference from the first run: "+12%", "~+2%" within the noise, "5.8x" for twice or
 * more, "" for the first */
void diff_cell(char *b, size_t n, const struct row *r, int i, double pct);

/* one HTML page (report/html.c): one run in full, or several compared */
void report_html(const struct run *runs, int nr, double noise, FILE *f);

#endif
