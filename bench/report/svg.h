/* Inline SVG charts for the HTML report (report/svg.c), each followed by its numbers. */
#ifndef ASSAY_SVG_H
#define ASSAY_SVG_H

#include <stddef.h>
#include <stdio.h>

struct series {
	const char *name;
	const double *x, *y;
	int n;
};

struct bars {
	const char *name;
	const double *v;                /* one value a group (NaN: none) */
	const double *ci_lo, *ci_hi;    /* whiskers, or NULL */
};

/* text for HTML: < > & " escaped */
void html_escape(FILE *f, const char *s);
/* 3 significant digits, k/M/G past 10^4 */
void svg_num(char *b, size_t n, double v);
/* small multiples from now on (on) or full-size charts: 470 px wide, numbers folded */
void svg_small(int on);
/* a line chart of ns series; logx/logy: decades */
void svg_lines(FILE *f, const char *id, const char *title, const char *xl, const char *yl, const struct series *s,
	       int ns, int logx, int logy);
/* grouped bars: ng groups (x labels, their heading gl) of ns bars each; nothing drawn when
 * every value is zero or none */
void svg_bars(FILE *f, const char *id, const char *title, const char *gl, const char *yl, const char *const *groups,
	      int ng, const struct bars *s, int ns);

/* horizontal grouped bars: ng groups (a figure each) of nr bars (a run each), each of length
 * rel[g * nr + i] (0-1: its share of the group's best; NAN: none) labelled with the run and
 * text[g * nr + i] (the value as measured) */
void svg_hbars(FILE *f, const char *id, const char *title, const char *const *groups, int ng, const char *const *runs,
	       int nr, const double *rel, const char *const *text);

#endif
