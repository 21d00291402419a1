/* Charts as inline SVG for the HTML report (report/html.c): line charts (linear or log
 * axes) and grouped bar charts with 95% CI whiskers.  Every chart has a title, axis
 * labels with units, and is followed by its numbers in a table (readable without colour,
 * printable); the page needs no script to show them. */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the chart's size and right margin (the legend): variables, smaller for small multiples */
static int W = 640, H = 300, R = 150, small;
#define L 70    /* left margin: y tick labels */
#define T 34
#define B 46

/* Okabe and Ito's palette: told apart by colour-blind readers too (and the dash patterns,
 * the labels on the bars, in print) */
void svg_small(int on)
{
	small = on;
	W = on ? 470 : 640;
	H = on ? 250 : 300;
	R = on ? 120 : 150;
}

static const char *const colours[] = { "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
				       "#000000", "#f0e442" };
#define NCOL (sizeof colours / sizeof colours[0])
/* dash patterns: the series are told apart in print without colour */
static const char *const dashes[] = { "", "6,3", "2,2", "8,3,2,3", "1,3", "10,4" };

void html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* a number as people read it: 3 significant digits, k/M/G beyond 10^4 */
void svg_num(char *b, size_t n, double v)
{
	double a = fabs(v);
	if (!isfinite(v))
		snprintf(b, n, "-");
	else if (a >= 1e10)
		snprintf(b, n, "%.3gG", v / 1e9);
	else if (a >= 1e7)
		snprintf(b, n, "%.3gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(b, n, "%.3gk", v / 1e3);
	else if (a >= 1e3)
		snprintf(b, n, "%.0f", v);
	else
		snprintf(b, n, "%.3g", v);
}

/* a number in a chart's table: as measured, 6 significant digits */
static void cell_num(char *b, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.6g", v);
}

struct axis {
	double lo, hi;
	int log;
};

static double pos(const struct axis *a, double v, double from, double to)
{
	double x = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : (v - a->lo) / (a->hi - a->lo);
	return from + (to - from) * x;
}

static void axis_fit(struct axis *a, double lo, double hi, int log)
{
	a->log = log;
	if (log) {
		a->lo = pow(10, floor(log10(lo > 0 ? lo : 1e-9)));
		a->hi = pow(10, ceil(log10(hi > 0 ? hi : 1)));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
	} else {
		/* the top a round number just past the data: steps of 1, 2, 2.5 or 5 times a
		 * power of ten, never more than half again the data (100% stays 100%) */
		static const double nice[] = { 1, 2, 2.5, 5, 10 };
		double span = hi - (lo > 0 ? 0 : lo), p, top = 0;
		a->lo = lo > 0 ? 0 : lo;
		if (span <= 0)
			span = 1;
		p = pow(10, floor(log10(span)));
		for (int i = 0; i < 5 && !top; i++)
			if (nice[i] * p >= span * 0.999)
				top = nice[i] * p;
		a->hi = a->lo + top;
	}
}

/* the ticks of an axis: decades on a log one, 5 steps on a linear one */
static int ticks(const struct axis *a, double *t, int max)
{
	int n = 0;
	if (a->log) {
		for (double v = a->lo; v <= a->hi * 1.0001 && n < max; v *= 10)
			t[n++] = v;
	} else {
		for (int i = 0; i <= 5 && n < max; i++)
			t[n++] = a->lo + (a->hi - a->lo) * i / 5;
	}
	return n;
}

/* a label in at most maxw px: past it (at an estimated 0.6 em a character) squeezed to fit
 * with textLength, never cut (the full text stays readable, selectable, in the DOM) */
static void text_fit(FILE *f, double x, double y, int fs, const char *anchor, double maxw, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\"", x, y, fs);
	if (anchor)
		fprintf(f, " text-anchor=\"%s\"", anchor);
	if (0.6 * fs * (double)strlen(s) > maxw)
		fprintf(f, " textLength=\"%.0f\" lengthAdjust=\"spacingAndGlyphs\"", maxw);
	fputs(">", f);
	html_escape(f, s);
	fputs("</text>", f);
}

static void frame(FILE *f, const char *id, const char *title, const char *xl, const char *yl, const struct axis *ax,
		  const struct axis *ay, int xticks)
{
	double t[32];
	int n;
	char b[32];
	fprintf(f, "<figure id=\"%s\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"", id, W, H, W, H);
	html_escape(f, title);
	fputs("\"><title>", f);
	html_escape(f, title);
	fprintf(f, "</title><rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>", W, H);
	text_fit(f, small ? 8 : L, 20, 15, NULL, W - (small ? 8 : L) - 8, title);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">", L + (W - L - R) / 2, H - 8);
	html_escape(f, xl);
	fprintf(f, "</text><text x=\"14\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">",
		T + (H - T - B) / 2, T + (H - T - B) / 2);
	html_escape(f, yl);
	fputs("</text>", f);
	n = ticks(ay, t, 32);
	for (int i = 0; i < n; i++) {
		double y = pos(ay, t[i], H - B, T);
		svg_num(b, sizeof b, t[i]);
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
			"font-size=\"11\" text-anchor=\"end\">%s</text>", L, W - R, y, y, L - 4, y + 4, b);
	}
	if (xticks) {
		n = ticks(ax, t, 32);
		for (int i = 0; i < n; i++) {
			double x = pos(ax, t[i], L, W - R);
			svg_num(b, sizeof b, t[i]);
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/><text x=\"%.1f\" "
				"y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>", x, x, T, H - B, x, H - B + 14, b);
		}
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>", L, T, W - L - R,
		H - T - B);
}

/* series i of ns in the legend, right of the plot: a line of 16 px each, 12 px (9 px
 * text) past 13 series; past what the plot's height holds, the last slot says how many
 * more the table under the chart has */
static void legend(FILE *f, int i, int ns, const char *name, int line)
{
	int step = ns > 13 ? 12 : 16, fit = (H - B - T - 8) / step + 1, y = T + 8 + i * step;
	char more[48];
	if (ns > fit && i >= fit - 1) {
		if (i == fit - 1) {
			snprintf(more, sizeof more, "+%d more: the table", ns - i);
			text_fit(f, W - R + 8, y + 4, 11, NULL, R - 12, more);
		}
		return;
	}
	if (line)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\" "
			"stroke-dasharray=\"%s\"/>", W - R + 8, W - R + 30, y, y, colours[i % NCOL], dashes[i % 6]);
	else
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"20\" height=\"%d\" fill=\"%s\"/>", W - R + 8, y - step / 3,
			step * 5 / 8, colours[i % NCOL]);
	text_fit(f, W - R + 34, y + 4, ns > 13 ? 9 : 11, NULL, R - 38, name);
}

void svg_lines(FILE *f, const char *id, const char *title, const char *xl, const char *yl, const struct series *s,
	       int ns, int logx, int logy)
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	struct axis ax, ay;
	char b[32];
	int rows = 0;
	for (int i = 0; i < ns; i++)
		for (int k = 0; k < s[i].n; k++) {
			if ((logx && s[i].x[k] <= 0) || (logy && s[i].y[k] <= 0))
				continue;
			xlo = fmin(xlo, s[i].x[k]), xhi = fmax(xhi, s[i].x[k]);
			ylo = fmin(ylo, s[i].y[k]), yhi = fmax(yhi, s[i].y[k]);
			rows = s[i].n > rows ? s[i].n : rows;
		}
	if (!isfinite(xlo) || !isfinite(ylo))
		return;
	axis_fit(&ax, xlo, xhi, logx);
	if (!logx) {
		ax.lo = xlo;
		ax.hi = xhi > xlo ? xhi : xlo + 1;
	}
	axis_fit(&ay, ylo, yhi, logy);
	frame(f, id, title, xl, yl, &ax, &ay, 1);
	for (int i = 0; i < ns; i++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"",
			colours[i % NCOL], dashes[i % 6]);
		for (int k = 0; k < s[i].n; k++)
			if ((!logx || s[i].x[k] > 0) && (!logy || s[i].y[k] > 0))
				fprintf(f, "%.1f,%.1f ", pos(&ax, s[i].x[k], L, W - R), pos(&ay, s[i].y[k], H - B, T));
		fputs("\"/>", f);
		legend(f, i, ns, s[i].name, 1);
	}
	fprintf(f, "</svg>\n<figcaption>%s<table class=\"data\"><thead><tr>", small ? "<details><summary>numbers</summary>" : "");
	for (int i = 0; i < ns; i++) {
		fputs("<th>", f);
		html_escape(f, xl);
		fputs("</th><th>", f);
		html_escape(f, s[i].name);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (int k = 0; k < rows; k++) {
		fputs("<tr>", f);
		for (int i = 0; i < ns; i++) {
			if (k < s[i].n) {
				cell_num(b, sizeof b, s[i].x[k]);
				fprintf(f, "<td>%s</td>", b);
				cell_num(b, sizeof b, s[i].y[k]);
				fprintf(f, "<td>%s</td>", b);
			} else {
				fputs("<td></td><td></td>", f);
			}
		}
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody></table>%s</figcaption></figure>\n", small ? "</details>" : "");
}

void svg_bars(FILE *f, const char *id, const char *title, const char *gl, const char *yl, const char *const *groups,
	      int ng, const struct bars *s, int ns)
{
	double hi = 0;
	struct axis ay, ax = { 0, 1, 0 };
	char b[32], lo_s[32], hi_s[32];
	double gw, bw, wide = 0;
	int every;
	for (int i = 0; i < ns; i++)
		for (int g = 0; g < ng; g++)
			if (isfinite(s[i].v[g]))
				hi = fmax(hi, fmax(s[i].v[g], s[i].ci_hi ? s[i].ci_hi[g] : 0));
	if (hi <= 0)
		return;   /* all zero or none: no chart to draw (its numbers are in the figures) */
	axis_fit(&ay, 0, hi, 0);
	frame(f, id, title, gl, yl, &ax, &ay, 0);
	gw = (double)(W - L - R) / ng;
	bw = gw * 0.8 / ns;
	/* many groups (a thread each on a big machine): a label every `every` groups, so that
	 * no two overlap (about 6.5 px a character at 11 px) */
	for (int g = 0; g < ng; g++)
		wide = fmax(wide, 6.5 * (double)strlen(groups[g]) + 6);
	every = (int)ceil(wide / gw);
	for (int g = 0; g < ng; g++) {
		if ((ng > 1 || ns == 1) && g % every == 0) {
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">", L + gw * (g + 0.5),
				H - B + 14);
			html_escape(f, groups[g]);
			fputs("</text>", f);
		}
		for (int i = 0; i < ns; i++) {
			double v = s[i].v[g], x = L + gw * g + gw * 0.1 + bw * i, y;
			if (ng == 1 && ns > 1) {   /* the runs compared: each named under its bar */
				fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">", x + bw * 0.45,
					H - B + 14 + (i % 2) * 12);   /* every other one lower: long names do not collide */
				html_escape(f, s[i].name);
				fputs(isfinite(v) ? "</text>" : " (none)</text>", f);
			}
			if (!isfinite(v))
				continue;
			y = pos(&ay, v, H - B, T);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>", x, y, bw * 0.9,
				H - B - y, colours[i % NCOL]);
			if (s[i].ci_lo && s[i].ci_hi && isfinite(s[i].ci_lo[g]) && isfinite(s[i].ci_hi[g])) {
				double cx = x + bw * 0.45, y1 = pos(&ay, s[i].ci_lo[g], H - B, T),
				       y2 = pos(&ay, s[i].ci_hi[g], H - B, T);
				fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"#000\"/>", cx, y1, y2,
					cx - 4, y1, cx - 4, y2);
			}
		}
	}
	for (int i = 0; i < ns && ns > 1 && ng > 1; i++)
		legend(f, i, ns, s[i].name, 0);
	fputs("</svg>\n<figcaption><table class=\"data\"><thead><tr><th>", f);
	html_escape(f, gl);
	fputs("</th>", f);
	for (int i = 0; i < ns; i++) {
		fputs("<th>", f);
		html_escape(f, s[i].name);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (int g = 0; g < ng; g++) {
		fputs("<tr><th>", f);
		html_escape(f, groups[g]);
		fputs("</th>", f);
		for (int i = 0; i < ns; i++) {
			cell_num(b, sizeof b, s[i].v[g]);
			if (s[i].ci_lo && isfinite(s[i].ci_lo[g]) && isfinite(s[i].ci_hi[g])) {
				cell_num(lo_s, sizeof lo_s, s[i].ci_lo[g]);
				cell_num(hi_s, sizeof hi_s, s[i].ci_hi[g]);
				fprintf(f, "<td>%s [%s-%s]</td>", b, lo_s, hi_s);
			} else {
				fprintf(f, "<td>%s</td>", b);
			}
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></figcaption></figure>\n", f);
}

/* Horizontal grouped bars, one group a figure, one bar a run, all on one scale: each bar's
 * length its share of the group's best (rel, 0-1: a comparison of figures of different
 * units), the value as measured written after it; the runs in a legend under the title,
 * in their bars' order; its numbers are the page's table of figures.  A group's label on
 * the left, on two lines (the figure, its unit) when one would not fit. */
#define HW 960
#define HL 300    /* the groups' labels */
#define HR 160    /* room after the longest bar for its value */
#define HB 12     /* a bar */
#define HG 8      /* between groups */

/* the legend's rows: the runs side by side, wrapped at the chart's width; drawn when f */
static int hbars_legend(FILE *f, const char *const *runs, int nr, int y)
{
	int x = 8, rows = 1;
	for (int i = 0; i < nr; i++) {
		double w = 26 + 6.6 * (double)strlen(runs[i]) + 16;
		if (x > 8 && x + w > HW - 8)
			x = 8, rows++, y += 16;
		if (w > HW - 16)
			w = HW - 16;
		if (f) {
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"20\" height=\"10\" fill=\"%s\"/>", x, y - 9,
				colours[i % NCOL]);
			text_fit(f, x + 26, y, 11, NULL, w - 42, runs[i]);
		}
		x += (int)w;
	}
	return rows;
}

/* a group's label too long for one line (split into the figure and its unit), and its height */
static int hbars_split(const char *group)
{
	return 0.6 * 12 * (double)strlen(group) > HL - 12 && strstr(group, " (");
}

static int hbars_height(const char *group, int nr)
{
	int min = hbars_split(group) ? 30 : 16;
	return nr * (HB + 2) > min ? nr * (HB + 2) : min;
}

void svg_hbars(FILE *f, const char *id, const char *title, const char *const *groups, int ng, const char *const *runs,
	       int nr, const double *rel, const char *const *text)
{
	int legend_rows = hbars_legend(NULL, runs, nr, 0), y0 = T + legend_rows * 16 + 4, h = y0 + 8, y = y0;
	double span = HW - HL - HR;
	for (int g = 0; g < ng; g++)
		h += hbars_height(groups[g], nr) + HG;
	fprintf(f, "<figure id=\"%s\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"", id, HW, h, HW, h);
	html_escape(f, title);
	fputs("\"><title>", f);
	html_escape(f, title);
	fprintf(f, "</title><rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>", HW, h);
	text_fit(f, 8, 20, 15, NULL, HW - 16, title);
	hbars_legend(f, runs, nr, T + 10);
	for (int k = 0; k <= 4; k++)   /* 0, 25, 50, 75, 100% of the best */
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", HL + span * k / 4,
			HL + span * k / 4, y0 - 4, h - 6);
	for (int g = 0; g < ng; g++) {
		int gh = hbars_height(groups[g], nr), gy = y + gh / 2;
		if (hbars_split(groups[g])) {   /* the figure, then its unit under it */
			char name[200];
			const char *u = strrchr(groups[g], '(');
			snprintf(name, sizeof name, "%.*s", (int)(u - groups[g] - 1), groups[g]);
			text_fit(f, HL - 6, gy - 2, 12, "end", HL - 12, name);
			text_fit(f, HL - 6, gy + 12, 12, "end", HL - 12, u);
		} else {
			text_fit(f, HL - 6, gy + 4, 12, "end", HL - 12, groups[g]);
		}
		for (int i = 0, by = y + (gh - nr * (HB + 2)) / 2; i < nr; i++, by += HB + 2) {
			double r = rel[g * nr + i], len = isfinite(r) ? span * (r < 0 ? 0 : r > 1 ? 1 : r) : 0;
			if (isfinite(r))
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", HL, by,
					len > 1 ? len : 1, HB, colours[i % NCOL]);
			text_fit(f, HL + len + 4, by + HB - 3, 11, NULL, HW - (HL + len + 4) - 4,
				 isfinite(r) ? text[g * nr + i] : "not measured");
		}
		y += gh + HG;
	}
	fputs("</svg></figure>\n", f);   /* (its numbers: the page's table of figures) */
}
