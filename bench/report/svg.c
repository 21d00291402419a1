/* Charts as inline SVG for the HTML report (report/html.c): line charts (linear or log
 * axes) and grouped bar charts with 95% CI whiskers.  Every chart has a title, axis
 * labels with units, and is followed by its numbers in a table (readable without colour,
 * printable); the page needs no script to show them. */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 640
#define H 300
#define L 70    /* left margin: y tick labels */
#define R 150   /* right margin: the legend */
#define T 34
#define B 46

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
				       "#8c564b", "#e377c2" };
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
		double span = hi - (lo > 0 ? 0 : lo), step;
		a->lo = lo > 0 ? 0 : lo;
		if (span <= 0)
			span = 1;
		step = pow(10, floor(log10(span)));
		a->hi = a->lo + ceil(span / step * 1.05) * step;
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
	fprintf(f, "</title><rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
		"<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", W, H, L);
	html_escape(f, title);
	fprintf(f, "</text><text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">", L + (W - L - R) / 2, H - 8);
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

static void legend(FILE *f, int i, const char *name, int line)
{
	int y = T + 8 + i * 16;
	if (line)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\" "
			"stroke-dasharray=\"%s\"/>", W - R + 8, W - R + 30, y, y, colours[i % NCOL], dashes[i % 6]);
	else
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"20\" height=\"10\" fill=\"%s\"/>", W - R + 8, y - 5,
			colours[i % NCOL]);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", W - R + 34, y + 4);
	html_escape(f, name);
	fputs("</text>", f);
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
		legend(f, i, s[i].name, 1);
	}
	fputs("</svg>\n<figcaption><table class=\"data\"><thead><tr>", f);
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
	fputs("</tbody></table></figcaption></figure>\n", f);
}

void svg_bars(FILE *f, const char *id, const char *title, const char *yl, const char *const *groups, int ng,
	      const struct bars *s, int ns)
{
	double hi = 0;
	struct axis ay, ax = { 0, 1, 0 };
	char b[32], lo_s[32], hi_s[32];
	double gw, bw;
	for (int i = 0; i < ns; i++)
		for (int g = 0; g < ng; g++)
			if (isfinite(s[i].v[g]))
				hi = fmax(hi, fmax(s[i].v[g], s[i].ci_hi ? s[i].ci_hi[g] : 0));
	if (hi <= 0)
		hi = 1;
	axis_fit(&ay, 0, hi, 0);
	frame(f, id, title, "", yl, &ax, &ay, 0);
	gw = (double)(W - L - R) / ng;
	bw = gw * 0.8 / ns;
	for (int g = 0; g < ng; g++) {
		if (ng > 1 || ns == 1) {
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
		legend(f, i, s[i].name, 0);
	fputs("</svg>\n<figcaption><table class=\"data\"><thead><tr><th></th>", f);
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
