/* assay report [-o FILE] [NAME=]RESULT...: one self-contained HTML page (no script, no
 * font, no request: charts are inline SVG drawn here, report/svg.c).  One result: the
 * verdict and failed rules, the machine, the headline figures, and charts of what the
 * engines measured (disk latency tails, per-second IOPS, latency-within shares; CPU by
 * threads and per thread; memory latency by working set and STREAM; network intervals;
 * health's temperatures).  Several, the answer first: verdicts, the machines side by side,
 * the figures with the best of each row marked (or "within noise"), a bar chart a
 * category, and the series they share as small multiples (a chart a job, a line a run). */
#include "cli/command.h"
#include "compare.h"
#include "report.h"
#include "svg.h"

#include "json.h"
#include "msg.h"
#include "opt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXPTS 4096

/* a chart's series with storage for their points */
struct plot {
	struct series s[16];
	double x[16][128], y[16][128];
	char names[16][80];
	int ns;
};

static struct series *plot_add(struct plot *p, const char *name)
{
	struct series *s;
	if (p->ns >= 16)
		return NULL;
	s = &p->s[p->ns];
	snprintf(p->names[p->ns], sizeof p->names[0], "%s", name);
	s->name = p->names[p->ns];
	s->x = p->x[p->ns];
	s->y = p->y[p->ns];
	s->n = 0;
	p->ns++;
	return s;
}

static void plot_point(struct plot *p, struct series *s, double x, double y)
{
	int i = (int)(s - p->s);
	if (s->n < 128) {
		p->x[i][s->n] = x;
		p->y[i][s->n] = y;
		s->n++;
	}
}

/* a chart when there is something to draw, with the page's next id */
static void chart_lines(FILE *f, int *nid, const struct plot *p, const char *title, const char *xl, const char *yl,
			int logx, int logy)
{
	char id[32];
	if (!p->ns)
		return;
	snprintf(id, sizeof id, "c%d", (*nid)++);
	svg_lines(f, id, title, xl, yl, p->s, p->ns, logx, logy);
}

static void chart_bars(FILE *f, int *nid, const char *title, const char *gl, const char *yl, const char *const *groups,
		       int ng, const struct bars *s, int ns)
{
	char id[32];
	snprintf(id, sizeof id, "c%d", (*nid)++);
	svg_bars(f, id, title, gl, yl, groups, ng, s, ns);
}

static void h2(FILE *f, const char *t)
{
	fputs("<h2>", f);
	html_escape(f, t);
	fputs("</h2>\n", f);
}

/* --- disk --- */

/* "share of I/Os slower than x" (x in us): from the histogram's bins when the result has
 * them (json+), thinned where the curve barely moves; else from the percentiles */
static void tail_curve(struct plot *lat, struct series *s, const struct json *clat)
{
	const struct json *bins = json_get(clat, "bins"), *pct = json_get(clat, "percentile");
	double total = 0, below = 0, last_x = 0, last_y = 2;
	if (!bins || !bins->n) {
		for (const struct json *p = pct ? pct->child : NULL; p; p = p->next)
			plot_point(lat, s, p->num / 1000, 1 - atof(p->key) / 100);
		return;
	}
	for (const struct json *b = bins->child; b; b = b->next)
		total += b->num;
	for (const struct json *b = bins->child; b && total > 0; b = b->next) {
		double x = atof(b->key) / 1000, y;
		below += b->num;
		y = (total - below) / total;
		if (y <= 0)
			y = 0.5 / total;   /* the slowest I/O: below every other point */
		if (!b->next || y <= last_y * 0.8 || x >= last_x * 1.3) {
			plot_point(lat, s, x, y);
			last_x = x, last_y = y;
		}
	}
}
/* a job and a direction in a legend: "qd1 read", but "seq.read" alone (its name says it) */
static void job_dir(char *b, size_t n, const char *job, const char *dir)
{
	size_t jl = strlen(job), dl = strlen(dir);
	if (!strcmp(job, dir) || (jl > dl && job[jl - dl - 1] == '.' && !strcmp(job + jl - dl, dir)))
		snprintf(b, n, "%s", job);
	else
		snprintf(b, n, "%s %s", job, dir);
}

/* a disk test's latency-within shares: a bar group a job and direction */
struct within {
	double v[16][6];
	struct bars b[16];
	char name[16][80];
	int n;
};

/* a disk test's series, added to lat (latency tail), ps (IOPS per second, blocks under
 * 128 KiB), bw (MB/s per second, 128 KiB and up): one a job and direction, named by
 * pre (the test, "" for none) and the job; its latency-within shares into w when w */
static void disk_collect(const struct json *test, const char *pre, struct plot *lat, struct plot *ps, struct plot *bw,
			 struct within *w)
{
	static const char *const th[] = { "100us", "250us", "500us", "1ms", "10ms", "100ms" };
	const struct json *jobs = json_path(test, "result.jobs");
	char jd[96], name[128];
	for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next) {
		for (int d = 0; d < 2; d++) {
			const char *dir = d ? "write" : "read";
			const struct json *io = json_get(j, dir), *pct = json_path(io, "clat_ns.percentile"),
					  *samp = json_path(j, "assay.samples"), *wj = json_path(j, "assay.within");
			struct series *s;
			int big;
			if (!io || json_get_num(io, "total_ios", 0) <= 0)
				continue;
			job_dir(jd, sizeof jd, json_get_str(j, "jobname", "?"), dir);
			snprintf(name, sizeof name, "%s%s%s", pre, *pre ? " " : "", jd);
			if ((json_path(io, "clat_ns.bins") || pct) && (s = plot_add(lat, name)))
				tail_curve(lat, s, json_get(io, "clat_ns"));
			big = json_get_num(io, "bw_bytes", 0) >= 131072 * json_get_num(io, "iops", 1);
			samp = json_get(json_get(samp, dir), big ? "bw_bytes" : "iops");
			if (samp && samp->n > 1 && (s = plot_add(big ? bw : ps, name))) {
				double iv = json_get_num(json_path(j, "assay.samples"), "interval_ms", 1000) / 1000;
				int k = 1;
				for (const struct json *v = samp->child; v; v = v->next, k++)
					plot_point(big ? bw : ps, s, k * iv, big ? v->num / 1e6 : v->num);
			}
			if (w && (wj = json_get(wj, dir)) && w->n < 16) {
				for (int t = 0; t < 6; t++)
					w->v[w->n][t] = json_get_num(wj, th[t], NAN) * 100;
				snprintf(w->name[w->n], sizeof w->name[0], "%s", name);
				w->b[w->n] = (struct bars){ w->name[w->n], w->v[w->n], NULL, NULL };
				w->n++;
			}
		}
	}
}

static void disk_charts(FILE *f, const struct json *test, int *nid)
{
	static const char *const thl[] = { "<=100 us", "<=250 us", "<=500 us", "<=1 ms", "<=10 ms", "<=100 ms" };
	static struct plot lat, ps, bw;
	static struct within w;
	lat.ns = ps.ns = bw.ns = w.n = 0;
	disk_collect(test, "", &lat, &ps, &bw, &w);
	chart_lines(f, nid, &lat, "Disk latency: share of I/Os slower than x", "completion latency (us)",
		    "share of I/Os slower", 1, 1);
	chart_lines(f, nid, &ps, "Disk IOPS per second over each job", "time (s)", "IOPS", 0, 0);
	chart_lines(f, nid, &bw, "Disk bandwidth per second over each job", "time (s)", "MB/s", 0, 0);
	if (w.n)
		chart_bars(f, nid, "Disk I/Os completed within a latency", "latency", "share of I/Os (%)", thl, 6, w.b, w.n);
}

/* --- CPU, memory, network, health --- */
static void cpu_charts(FILE *f, const struct json *tests, int *nid)
{
	const char *groups[8];
	double ev[8], pt[64];
	const char *ptg[64];
	char ptn[64][16], id[32];
	int ng = 0, np = 0;
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const struct json *r = json_get(t, "result"), *per;
		if (strcmp(json_get_str(t, "engine", ""), "cpu") || !r || ng >= 8)
			continue;
		groups[ng] = json_get_str(t, "name", "?");
		ev[ng++] = json_get_num(r, "events_per_second", NAN);
		per = json_get(r, "per_thread_events");
		if (per && per->n > 1 && !np)
			for (const struct json *v = per->child; v && np < 64; v = v->next, np++) {
				snprintf(ptn[np], sizeof ptn[0], "thread %d", np);
				ptg[np] = ptn[np];
				pt[np] = v->num;
			}
	}
	if (ng) {
		struct bars b = { "events/s", ev, NULL, NULL };
		snprintf(id, sizeof id, "c%d", (*nid)++);
		svg_bars(f, id, "CPU: prime events per second by thread count", "test", "events/s", groups, ng, &b, 1);
	}
	if (np) {
		struct bars b = { "events", pt, NULL, NULL };
		snprintf(id, sizeof id, "c%d", (*nid)++);
		svg_bars(f, id, "CPU: events per thread (fairness)", "thread", "events", ptg, np, &b, 1);
	}
}

/* a working set's key ("16k", "1m") in KiB */
static double size_of(const char *s)
{
	unsigned long long b;
	return parse_size(s, &b) ? NAN : (double)b / 1024;
}

/* the memory tests' series: ns per load by working-set size, one a test, into lat */
static void mem_collect(const struct json *tests, struct plot *lat)
{
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const struct json *l = json_path(t, "result.latency.ns_per_load");
		struct series *s;
		if (!strcmp(json_get_str(t, "engine", ""), "mem") && l && l->n &&
		    (s = plot_add(lat, json_get_str(t, "name", "mem"))))
			for (const struct json *p = l->child; p; p = p->next)
				plot_point(lat, s, size_of(p->key), p->num);
	}
}

static void mem_charts(FILE *f, const struct json *tests, int *nid)
{
	static struct plot lat;
	static const char *const kinds[] = { "copy", "scale", "add", "triad", "memcpy" };
	double v[8][5];
	struct bars b[8];
	int nb = 0;
	lat.ns = 0;
	mem_collect(tests, &lat);
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const struct json *st = json_path(t, "result.stream.mb_per_sec");
		if (strcmp(json_get_str(t, "engine", ""), "mem") || !st || nb >= 8)
			continue;
		for (int k = 0; k < 5; k++)
			v[nb][k] = json_get_num(st, kinds[k], NAN);
		b[nb] = (struct bars){ json_get_str(t, "name", "mem"), v[nb], NULL, NULL };
		nb++;
	}
	chart_lines(f, nid, &lat, "Memory latency by working-set size", "working set (KiB)", "ns per load", 1, 0);
	if (nb)
		chart_bars(f, nid, "Memory bandwidth (STREAM)", "kernel", "MB/s", kinds, 5, b, nb);
}

/* with parallel streams (iperf3's intervals[].streams[]): a line per stream */
static void streams(struct plot *p, const struct json *t, const struct json *iv)
{
	const struct json *first = json_get(iv->child, "streams");
	char name[96];
	int k = 0;
	if (!first || first->n < 2)
		return;
	for (const struct json *st = first->child; st; st = st->next, k++) {
		struct series *s;
		snprintf(name, sizeof name, "%s stream %d", json_get_str(t, "name", "net"), k + 1);
		if (!(s = plot_add(p, name)))
			return;
		for (const struct json *i = iv->child; i; i = i->next) {
			const struct json *e = json_get(i, "streams") ? json_get(i, "streams")->child : NULL;
			for (int m = 0; e && m < k; m++)
				e = e->next;
			if (e)
				plot_point(p, s, json_get_num(e, "end", 0), json_get_num(e, "bits_per_second", 0) / 1e9);
		}
	}
}

/* the network tests' throughput per interval, a series a test (and a stream, when
 * with_streams and the test had several), into p */
static void net_collect(const struct json *tests, struct plot *p, int with_streams)
{
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const struct json *iv = json_path(t, "result.intervals");
		struct series *s;
		if (strcmp(json_get_str(t, "engine", ""), "net") || !iv || !iv->n || !(s = plot_add(p, json_get_str(t, "name", "net"))))
			continue;
		for (const struct json *i = iv->child; i; i = i->next)
			plot_point(p, s, json_get_num(json_get(i, "sum"), "end", 0),
				   json_get_num(json_get(i, "sum"), "bits_per_second", 0) / 1e9);
		if (with_streams)
			streams(p, t, iv);
	}
}

static void net_charts(FILE *f, const struct json *tests, int *nid)
{
	static struct plot p;
	p.ns = 0;
	net_collect(tests, &p, 1);
	chart_lines(f, nid, &p, "Network throughput per interval", "time (s)", "Gbit/s", 0, 0);
}

/* doc.health.series ({t_s, temp_c, throttle_events} every 10 s): the hottest sensor and
 * the throttle count over the run; doc.burnin.rounds: each test's hottest per round */
static void health_charts(FILE *f, const struct json *doc, int *nid)
{
	static struct plot temp, thr, rounds;
	const struct json *ser = json_path(doc, "health.series"), *br = json_path(doc, "burnin.rounds");
	struct series *st = NULL, *sth = NULL;
	temp.ns = thr.ns = rounds.ns = 0;
	for (const struct json *e = ser ? ser->child : NULL; e; e = e->next) {
		double t = json_get_num(e, "t_s", NAN) / 60;
		if (json_get(e, "temp_c") && (st || (st = plot_add(&temp, "hottest sensor"))))
			plot_point(&temp, st, t, json_get_num(e, "temp_c", NAN));
		if (json_get(e, "throttle_events") && (sth || (sth = plot_add(&thr, "throttle events"))))
			plot_point(&thr, sth, t, json_get_num(e, "throttle_events", NAN));
	}
	for (const struct json *r = br ? br->child : NULL; r; r = r->next)
		for (const struct json *t = json_get(r, "tests") ? json_get(r, "tests")->child : NULL; t; t = t->next) {
			const char *name = json_get_str(t, "name", "?");
			struct series *s = NULL;
			if (!json_get(t, "temp_max_c"))
				continue;
			for (int i = 0; i < rounds.ns && !s; i++)
				if (!strcmp(rounds.names[i], name))
					s = &rounds.s[i];
			if (s || (s = plot_add(&rounds, name)))
				plot_point(&rounds, s, json_get_num(r, "round", 0), json_get_num(t, "temp_max_c", NAN));
		}
	chart_lines(f, nid, &temp, "Temperature over the run", "time (min)", "hottest sensor (C)", 0, 0);
	chart_lines(f, nid, &thr, "CPU thermal throttling over the run", "time (min)", "throttle events (count)", 0, 0);
	chart_lines(f, nid, &rounds, "Burn-in: hottest temperature of each test per round", "round",
		    "hottest sensor (C)", 0, 0);
}

static void machine_line(FILE *f, const struct json *doc)
{
	const struct json *m = json_get(doc, "machine");
	fputs("<p class=\"machine\">", f);
	html_escape(f, json_path(m, "cpu.model") ? json_path(m, "cpu.model")->str : "?");
	fprintf(f, ", %.0f CPUs, %.1f GiB, kernel ", json_path(m, "cpu.online") ? json_path(m, "cpu.online")->num : 0,
		json_get_num(json_get(m, "memory"), "total_bytes", 0) / 1073741824.0);
	html_escape(f, json_path(m, "kernel.release") ? json_path(m, "kernel.release")->str : "?");
	fputs(", machine ", f);
	html_escape(f, json_get_str(m, "id", "?"));
	fputs(", started ", f);
	html_escape(f, json_get_str(doc, "started_utc", "?"));
	fputs(", suite ", f);
	html_escape(f, json_get_str(json_get(doc, "options"), "suite", "?"));
	fputs("</p>\n", f);
}

/* the colour a status or verdict is shown in: good (ok, PASS), unsure (INCONCLUSIVE), bad */
static const char *word_class(const char *w)
{
	return !strcmp(w, "ok") || !strcmp(w, "PASS") ? "good" : !strcmp(w, "INCONCLUSIVE") ? "unsure" : "bad";
}

/* what the checks covered (memtest's patterns and bytes, the burn-in's rounds, a scan) */
static void coverage(FILE *f, const struct json *doc)
{
	const struct json *sum = json_get(doc, "summary");
	int any = 0;
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
		if (!json_get(r, "coverage"))
			continue;
		fputs(any++ ? "; " : "<p class=\"coverage\">Coverage: ", f);
		html_escape(f, json_get_str(r, "name", "?"));
		fputs(": ", f);
		html_escape(f, json_get_str(json_get(r, "coverage"), "what", "?"));
	}
	if (any)
		fputs("</p>\n", f);
}

static void verdict(FILE *f, const struct json *doc)
{
	const struct json *c = json_get(doc, "certify"), *rules = json_get(c, "rules");
	const char *v = json_get_str(c, "verdict", NULL);
	fprintf(f, "<p class=\"verdict\">Run status: <b class=\"%s\">", word_class(json_get_str(doc, "status", "?")));
	html_escape(f, json_get_str(doc, "status", "?"));
	fputs("</b>", f);
	if (c) {
		fputs("; certify ", f);
		html_escape(f, json_get_str(c, "profile", "?"));
		fprintf(f, ": <b class=\"%s\">", word_class(v ? v : "error"));
		html_escape(f, v ? v : json_get_str(c, "error", "error"));
		fputs("</b>", f);
	}
	fputs("</p>\n", f);
	coverage(f, doc);
	if (!rules || json_get_num(c, "failed", 0) + json_get_num(c, "inconclusive", 0) <= 0)
		return;
	fputs("<ul class=\"failed\">", f);
	for (const struct json *r = rules->child; r; r = r->next) {
		char b[32];
		if (!strcmp(json_get_str(r, "result", ""), "PASS") || !strcmp(json_get_str(r, "result", ""), "N/A"))
			continue;
		fputs("<li>", f);
		if (strcmp(json_get_str(r, "result", ""), "FAIL")) {   /* NOT MEASURED, INCONCLUSIVE */
			html_escape(f, json_get_str(r, "result", ""));
			fputs(": ", f);
		}
		html_escape(f, json_get_str(r, "rule", ""));
		if (json_get(r, "measured") && json_get(r, "measured")->type == J_NUM) {
			figure_num(b, sizeof b, json_get_num(r, "measured", 0));
			fprintf(f, ": measured %s ", b);
			html_escape(f, json_get_str(r, "unit", ""));
		}
		if (json_get(r, "detail") || json_get(r, "why")) {
			fputs(" (", f);
			html_escape(f, json_get_str(r, "detail", json_get_str(r, "why", "")));
			fputs(")", f);
		}
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

static void figure_table(FILE *f, const struct json *doc)
{
	const struct json *sum = json_get(doc, "summary");
	char b[40];
	int ci = 0;   /* the interval's column only when some figure has one (repeats) */
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next)
		ci |= json_get(r, "ci95_low") != NULL;
	fprintf(f, "<table class=\"figures\"><thead><tr><th>figure</th><th>value</th><th>unit</th>%s</tr></thead>"
		"<tbody>\n", ci ? "<th>95% CI</th>" : "");
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
		const struct json *v = json_get(r, "value");
		const char *name = json_get_str(r, "name", "?");
		if (!v || v->type != J_NUM)
			continue;
		fprintf(f, "<tr%s><td>", figure_headline(name, doc) ? " class=\"headline\"" : "");
		html_escape(f, name);
		figure_num(b, sizeof b, v->num);
		fprintf(f, "</td><td>%s</td><td>", b);
		html_escape(f, json_get_str(r, "unit", ""));
		fputs(ci ? "</td><td>" : "", f);
		if (json_get(r, "ci95_low")) {
			char hi[40];
			figure_num(b, sizeof b, json_get_num(r, "ci95_low", 0));
			figure_num(hi, sizeof hi, json_get_num(r, "ci95_high", 0));
			fprintf(f, "%s to %s", b, hi);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void page_start(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
	html_escape(f, title);
	fputs("</title>\n<meta name=\"viewport\" content=\"width=device-width\">\n<style>\n"
	      "body{font-family:sans-serif;max-width:1000px;margin:1em auto;padding:0 1em;color:#111}\n"
	      "table{border-collapse:collapse;margin:.5em 0;font-size:13px}td,th{border:1px solid #bbb;padding:2px 6px;"
	      "text-align:right}td:first-child,th:first-child{text-align:left}\n"
	      "tr.headline td{font-weight:bold}.good{color:#060}.bad{color:#a00}.unsure{color:#8a5a00}\n"
	      "td.best{font-weight:bold;background:#e6f4e6}td.noise{background:#f4f4e0}\n"
	      "figure{margin:1em 0;break-inside:avoid}svg{max-width:100%;height:auto}\n"
	      "figcaption table.data{font-size:11px}figcaption{max-height:14em;overflow:auto}\n"
	      ".multiples{display:flex;flex-wrap:wrap;gap:0 16px}.multiples figure{width:470px;margin:.5em 0}\n"
	      "summary{font-size:11px;color:#555}\n"
	      "@media print{figcaption{max-height:none}}\n</style></head><body>\n<h1>", f);
	html_escape(f, title);
	fputs("</h1>\n", f);
}

static void one_machine(FILE *f, const struct json *doc)
{
	const struct json *tests = json_get(doc, "tests");
	int nid = 0;
	machine_line(f, doc);
	verdict(f, doc);
	h2(f, "Figures");
	figure_table(f, doc);
	h2(f, "Charts");
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next)
		if (!strcmp(json_get_str(t, "engine", ""), "disk"))
			disk_charts(f, t, &nid);
	cpu_charts(f, tests, &nid);
	mem_charts(f, tests, &nid);
	net_charts(f, tests, &nid);
	health_charts(f, doc, &nid);
	if (!nid)
		fputs("<p>No test of this run has a chart.</p>\n", f);
}

/* several runs, the answer first: each run's status and certify verdict, with the rules
 * that failed or could not tell */
static void verdicts(FILE *f, const struct run *runs, int nr)
{
	fputs("<table class=\"verdicts\"><thead><tr><th>run</th><th>status</th><th>verdict</th><th>what failed</th>"
	      "</tr></thead><tbody>\n", f);
	for (int i = 0; i < nr; i++) {
		const struct json *d = runs[i].doc, *c = json_get(d, "certify"), *rules = json_get(c, "rules");
		const char *st = json_get_str(d, "status", "?"), *v = json_get_str(c, "verdict", c ? "error" : "-");
		int any = 0;
		fputs("<tr><td>", f);
		html_escape(f, runs[i].label);
		fprintf(f, "</td><td class=\"%s\">", word_class(st));
		html_escape(f, st);
		fprintf(f, "</td><td class=\"%s\">", c ? word_class(v) : "");
		html_escape(f, c ? v : "not certified");
		fputs("</td><td>", f);
		for (const struct json *r = rules ? rules->child : NULL; r; r = r->next) {
			const char *res = json_get_str(r, "result", "");
			if (!strcmp(res, "PASS") || !strcmp(res, "N/A"))
				continue;
			fputs(any++ ? "; " : "", f);
			html_escape(f, json_get_str(r, "rule", "?"));
			if (strcmp(res, "FAIL")) {
				fputs(" (", f);
				html_escape(f, res);
				fputs(")", f);
			}
		}
		for (const struct json *t = json_get(d, "tests") ? json_get(d, "tests")->child : NULL; t; t = t->next)
			if (!strcmp(json_get_str(t, "status", ""), "failed")) {
				fputs(any++ ? "; " : "", f);
				fputs("test ", f);
				html_escape(f, json_get_str(t, "name", "?"));
				fputs(" failed", f);
			}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* the machines side by side: what the figures were measured on */
static void machines(FILE *f, const struct run *runs, int nr)
{
	static const char *const rows[] = { "CPU", "vCPUs", "memory", "disks", "kernel", "hypervisor", "steal (max)" };
	fputs("<table class=\"machines\"><thead><tr><th>machine</th>", f);
	for (int i = 0; i < nr; i++) {
		fputs("<th>", f);
		html_escape(f, runs[i].label);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
		fprintf(f, "<tr><td>%s</td>", rows[k]);
		for (int i = 0; i < nr; i++) {
			const struct json *m = json_get(runs[i].doc, "machine"), *v = NULL, *st;
			char b[200] = "-";
			size_t l = 0;
			switch (k) {
			case 0: v = json_path(m, "cpu.model"); break;
			case 1: v = json_path(m, "cpu.online"); break;
			case 2:
				if (json_path(m, "memory.total_bytes"))
					snprintf(b, sizeof b, "%.1f GiB", json_path(m, "memory.total_bytes")->num / 1073741824);
				break;
			case 3:
				for (const struct json *d = json_get(m, "disks") ? json_get(m, "disks")->child : NULL; d && l < 150;
				     d = d->next) {
					char gb[32];
					figure_num(gb, sizeof gb, json_get_num(d, "size_bytes", 0) / 1e9);
					l += (size_t)snprintf(b + l, sizeof b - l, "%s%s %s GB", l ? ", " : "",
							      json_get_str(d, "name", "?"), gb);
				}
				break;
			case 4: v = json_path(m, "kernel.release"); break;
			case 5:
				snprintf(b, sizeof b, "%s", json_get_str(m, "hypervisor", "bare metal"));
				break;
			case 6:
				if ((st = figure_find(runs[i].doc, "steal.max")))
					snprintf(b, sizeof b, "%.1f%%", json_get_num(st, "value", 0));
				break;
			}
			if (v && v->type == J_STR)
				snprintf(b, sizeof b, "%s", v->str);
			else if (v && v->type == J_NUM)
				figure_num(b, sizeof b, v->num);
			fputs("<td>", f);
			html_escape(f, b);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* compare's table: headline figures by category, the clear best marked, "~" within the
 * noise; the winner of each category under it */
static void compare_table(FILE *f, const struct run *runs, int nr, const struct row *rows, int nrows, double noise)
{
	char b[32], d[16];
	fputs("<table class=\"compare\"><thead><tr><th>figure</th><th>unit</th>", f);
	for (int i = 0; i < nr; i++) {
		fputs("<th>", f);
		html_escape(f, runs[i].label);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (int k = 0; k < nrows; k++) {
		if (!k || rows[k].cat != rows[k - 1].cat) {
			fprintf(f, "<tr class=\"cat\"><th colspan=\"%d\">", nr + 2);
			html_escape(f, category_title(rows[k].cat));
			fputs("</th></tr>\n", f);
		}
		fputs("<tr><td>", f);
		html_escape(f, rows[k].name);
		fputs("</td><td>", f);
		html_escape(f, rows[k].unit);
		fputs("</td>", f);
		for (int i = 0; i < nr; i++) {
			value_cell(b, sizeof b, rows[k].v[i]);
			diff_cell(d, sizeof d, &rows[k], i, noise);
			fprintf(f, "<td%s>%s%s%s%s</td>", rows[k].best == i ? " class=\"best\"" : rows[k].tie[i] ? " class=\"noise\"" : "",
				b, rows[k].best == i ? " (best)" : "", d[0] ? " " : "", d);
		}
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody></table>\n<p class=\"key\">(best): clearly best, beyond the noise between runs (each "
		"figure's repeats, else its kind's floor: docs/results.md); +N%%: against ");
	html_escape(f, runs[0].label);
	fputs("; ~: within the noise.</p>\n<ul class=\"winners\">", f);
	for (int k = 0; k < nrows;) {
		int cat = rows[k].cat, won, total, tie, w = category_winner(rows, nrows, &k, nr, &won, &total, &tie);
		fputs("<li>", f);
		html_escape(f, category_title(cat));
		fputs(": ", f);
		if (w < 0) {
			fputs(tie ? "no clear winner (a tie)" : "no clear winner (every difference within the noise)", f);
		} else {
			html_escape(f, runs[w].label);
			fprintf(f, " (best in %d of %d rows)", won, total);
		}
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

/* a row's bar for each run: its share of the row's best (inverted where lower is better),
 * and the value as measured; 0 when the row has nothing to draw (all zero, as steal, or none) */
static int category_row(const struct row *r, int nr, double *rel, char (*txt)[48])
{
	double best = NAN;
	for (int i = 0; i < nr; i++)
		if (isfinite(r->v[i]) && r->v[i] > 0)
			best = !isfinite(best) ? r->v[i] : r->better == LOWER_BETTER ? fmin(best, r->v[i]) : fmax(best, r->v[i]);
	if (!isfinite(best))
		return 0;
	for (int i = 0; i < nr; i++) {
		double v = r->v[i];
		rel[i] = !isfinite(v) ? NAN : v <= 0 ? (r->better == LOWER_BETTER ? 1 : 0)
			 : r->better == LOWER_BETTER ? best / v : v / best;
		figure_num(txt[i], sizeof txt[0], v);
		snprintf(txt[i] + strlen(txt[i]), sizeof txt[0] - strlen(txt[i]), " %s%s", r->unit,
			 r->best == i ? " (best)" : "");
	}
	return 1;
}

/* a chart a category: its headline figures, a bar a run, each bar its share of the
 * figure's best: one scale for figures of any unit */
static void category_charts(FILE *f, const struct run *runs, int nr, const struct row *rows, int nrows)
{
	const char *names[MAX_RUNS];
	const char **groups = calloc((size_t)nrows, sizeof *groups), **text = calloc((size_t)nrows * (size_t)nr, sizeof *text);
	char (*gname)[96] = calloc((size_t)nrows, sizeof *gname), (*txt)[48] = calloc((size_t)nrows * (size_t)nr, sizeof *txt);
	double *rel = calloc((size_t)nrows * (size_t)nr, sizeof *rel);
	for (int i = 0; i < nr; i++)
		names[i] = runs[i].label;
	for (int k = 0, nid = 0, e; groups && text && gname && txt && rel && k < nrows; k = e) {
		char id[32], title[160];
		int ng = 0;
		for (e = k; e < nrows && rows[e].cat == rows[k].cat; e++) {
			if (!category_row(&rows[e], nr, rel + ng * nr, txt + ng * nr))
				continue;
			snprintf(gname[ng], sizeof gname[0], "%s (%s)", rows[e].name, rows[e].unit);
			groups[ng] = gname[ng];
			for (int i = 0; i < nr; i++)
				text[ng * nr + i] = txt[ng * nr + i];
			ng++;
		}
		if (!ng)
			continue;
		snprintf(id, sizeof id, "k%d", nid++);
		snprintf(title, sizeof title, "%s: each bar its share of the best run's (longer is better)",
			 category_title(rows[k].cat));
		svg_hbars(f, id, title, groups, ng, names, nr, rel, text);
	}
	free(groups);
	free(text);
	free(gname);
	free(txt);
	free(rel);
}

/* the series the runs compared have in common, as small multiples: a small chart a job
 * (or test) and kind, a line a run */
enum { S_LAT, S_IOPS, S_BW, S_MEM, S_NET, S_KINDS };
static const struct {
	const char *title, *xl, *yl;
	int logx, logy;
} series_kinds[S_KINDS] = {
	[S_LAT] = { "Latency tail", "completion latency (us)", "share of I/Os slower", 1, 1 },
	[S_IOPS] = { "IOPS per second", "time (s)", "IOPS", 0, 0 },
	[S_BW] = { "MB/s per second", "time (s)", "MB/s", 0, 0 },
	[S_MEM] = { "Memory latency", "working set (KiB)", "ns per load", 1, 0 },
	[S_NET] = { "Throughput", "time (s)", "Gbit/s", 0, 0 },
};

struct run_plots {
	struct plot k[S_KINDS];
};

static void run_plots(const struct json *doc, struct run_plots *p)
{
	const struct json *tests = json_get(doc, "tests");
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next)
		if (!strcmp(json_get_str(t, "engine", ""), "disk")) {
			const char *n = json_get_str(t, "name", "disk");
			disk_collect(t, strcmp(n, "disk") ? n : "", &p->k[S_LAT], &p->k[S_IOPS], &p->k[S_BW], NULL);
		}
	mem_collect(tests, &p->k[S_MEM]);
	net_collect(tests, &p->k[S_NET], 0);
}

static const struct series *series_named(const struct plot *p, const char *name)
{
	for (int i = 0; i < p->ns; i++)
		if (!strcmp(p->names[i], name))
			return &p->s[i];
	return NULL;
}

/* the chart of one series name of kind k: a line a run that has it */
static void multiple(FILE *f, int *nid, const struct run *runs, int nr, const struct run_plots *rp, int k,
		     const char *name, struct plot *m)
{
	char title[200];
	m->ns = 0;
	for (int j = 0; j < nr; j++) {
		const struct series *src = series_named(&rp[j].k[k], name);
		struct series *s;
		if (src && (s = plot_add(m, runs[j].label)))
			for (int p = 0; p < src->n; p++)
				plot_point(m, s, src->x[p], src->y[p]);
	}
	snprintf(title, sizeof title, "%s: %s", series_kinds[k].title, name);
	chart_lines(f, nid, m, title, series_kinds[k].xl, series_kinds[k].yl, series_kinds[k].logx, series_kinds[k].logy);
}

static void multiples(FILE *f, const struct run *runs, int nr)
{
	struct run_plots *rp = calloc((size_t)nr, sizeof *rp);
	struct plot *m = calloc(1, sizeof *m);
	int nid = 0;
	if (!rp || !m)
		goto out;
	for (int i = 0; i < nr; i++)
		run_plots(runs[i].doc, &rp[i]);
	svg_small(1);
	for (int k = 0; k < S_KINDS; k++)
		for (int i = 0; i < nr; i++)
			for (int s = 0; s < rp[i].k[k].ns; s++) {
				const char *name = rp[i].k[k].names[s];
				int seen = series_named(&rp[i].k[k], name) != &rp[i].k[k].s[s];
				for (int j = 0; j < i && !seen; j++)
					seen = series_named(&rp[j].k[k], name) != NULL;
				if (seen)
					continue;
				if (!nid)
					fputs("<h2>Series</h2>\n<div class=\"multiples\">\n", f);
				multiple(f, &nid, runs, nr, rp, k, name, m);
			}
	svg_small(0);
	if (nid)
		fputs("</div>\n", f);
out:
	free(rp);
	free(m);
}

/* several runs: the answer first (verdicts), the machines, the figures compared, a chart a
 * category */
static void several(FILE *f, const struct run *runs, int nr, const struct row *rows, int nrows, double noise)
{
	h2(f, "Verdicts");
	verdicts(f, runs, nr);
	h2(f, "Machines");
	machines(f, runs, nr);
	h2(f, "Figures");
	compare_table(f, runs, nr, rows, nrows, noise);
	h2(f, "Charts");
	category_charts(f, runs, nr, rows, nrows);
	multiples(f, runs, nr);
}

/* one page: one run in full, or several compared */
void report_html(const struct run *runs, int nr, double noise, FILE *f)
{
	char title[200];
	if (nr == 1) {
		snprintf(title, sizeof title, "assay report: %s", runs[0].label);
		page_start(f, title);
		one_machine(f, runs[0].doc);
	} else {
		struct row *rows = calloc(MAX_ROWS, sizeof *rows);
		snprintf(title, sizeof title, "assay report: %d runs compared", nr);
		page_start(f, title);
		if (rows)
			several(f, runs, nr, rows, compare_rows(rows, runs, nr, 0, noise), noise);
		else
			fputs("<p>out of memory</p>\n", f);
		free(rows);
	}
	fputs("<p class=\"foot\">Made by assay " ASSAY_VERSION " (docs/results.md, \"HTML report\"). Every chart's "
	      "numbers are in a table: under it, or for runs compared the table of figures.</p>\n</body></html>\n", f);
}

struct report_cfg {
	const char *out;
	double noise;
};

static const struct opt report_opts[] = {
	{ "output", 'o', OPT_STR, offsetof(struct report_cfg, out), "report.html", 0, 0, "FILE",
	  "where the page goes (-: standard output)", 0 },
	{ "noise", 0, OPT_FLOAT, offsetof(struct report_cfg, noise), "0", 0, 100, NULL,
	  "each figure's noise between runs, percent (0: its own: its repeats, else its kind's default, "
	  "docs/results.md); a value is best only beyond it", 0 },
	OPT_END,
};

static int report_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct report_cfg c = *(const struct report_cfg *)cfg;
	char **pos = (char **)a->pos, tmp[1100];
	struct run runs[MAX_RUNS];
	int npos = a->npos, rc = EXIT_OK;
	FILE *f;
	if (compare_load(runs, pos, npos, "report"))
		return EXIT_USAGE;
	snprintf(tmp, sizeof tmp, "%s.tmp", c.out);
	f = strcmp(c.out, "-") ? fopen(tmp, "w") : stdout;
	if (!f) {
		errmsg("report: -o %s: %s", c.out, strerror(errno));
		rc = EXIT_SYS;
	} else {
		report_html(runs, npos, c.noise, f);
		if (f == stdout ? fflush(f) != 0 : (ferror(f) | fclose(f)) || rename(tmp, c.out)) {
			errmsg("report: -o %s: %s", c.out, strerror(errno));
			if (f != stdout)
				unlink(tmp);
			rc = EXIT_SYS;
		}
	}
	compare_free(runs, npos);
	return rc;
}

const struct command report_command = {
	.name = "report",
	.summary = "one HTML page with charts of one result, or several compared",
	.usage = "[-o FILE] RESULT...",
	.help = "Write one self-contained HTML page (no script, no font, no request; charts are inline SVG\n"
		"with their numbers beneath).  One result: verdict, machine, figures, and charts of disk\n"
		"latency, IOPS per second, CPU, memory, network and temperatures.  Several ([NAME=]FILE):\n"
		"compare's table with the clear best marked and a bar chart per headline figure.",
	.opts = report_opts,
	.cfg_size = sizeof(struct report_cfg),
	.pos_min = 1,
	.pos_max = MAX_RUNS,
	.missing = "give one or more results ([NAME=]FILE: a result, a console log or an engine's -J output)",
	.main = report_main,
};
