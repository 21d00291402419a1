/* The run's last screen: what a person reads on an 80x25 console (a provider's web
 * console, a VGA screen) once the run is over: the verdict, the headline figures with
 * their units, steal, the tests that did not pass, where the results went and what
 * happens next.  At most ~20 lines of at most 79 columns, printed after the result block
 * so that nothing scrolls it away. */
#include "report.h"
#include "report.h"
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 79
#define INDENT 10

/* a value in 3-4 significant digits, never an exponent */
static void fmt_value(double v, char *out, size_t n)
{
	double a = fabs(v);
	snprintf(out, n, a >= 100 || a == 0 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", v);
}

struct line {
	FILE *f;
	char buf[WIDTH + 2];
	int len;
	int lines;
};

static void line_flush(struct line *l)
{
	if (l->len) {
		fprintf(l->f, "%s\n", l->buf);
		l->lines++;
	}
	l->len = 0;
	l->buf[0] = 0;
}

/* a new line with its heading in the first INDENT columns */
static void line_start(struct line *l, const char *head)
{
	line_flush(l);
	l->len = snprintf(l->buf, sizeof l->buf, "%-*.*s", INDENT, INDENT - 1, head);
}

/* a new line under the heading, for what follows */
static void line_more(struct line *l)
{
	line_flush(l);
	l->len = snprintf(l->buf, sizeof l->buf, "%*s", INDENT, "");
}

/* one "label value unit" item, wrapped under the heading when the line is full; an item
 * longer than a line goes on over the next ones, broken between words */
static void line_item(struct line *l, const char *item)
{
	int first = l->len <= INDENT, need = (int)strlen(item) + (first ? 0 : 2);
	if (!first && l->len + need > WIDTH) {
		line_more(l);
		first = 1;
	}
	if (!first)
		l->len += snprintf(l->buf + l->len, sizeof l->buf - (size_t)l->len, ", ");
	for (;;) {
		int room = WIDTH - l->len, take = (int)strlen(item);
		if (take > room) {   /* the last blank that fits, else (one long word) cut there */
			take = room;
			while (take > 0 && item[take] != ' ')
				take--;
			if (take == 0)
				take = room;
		}
		l->len += snprintf(l->buf + l->len, sizeof l->buf - (size_t)l->len, "%.*s", take, item);
		item += take;
		item += strspn(item, " ");
		if (!*item)
			break;
		line_more(l);
	}
}

/* the heading a figure goes under: its engine's title, the disk's name after it */
static void heading(const char *name, const struct json *tests, char *out, size_t n)
{
	const char *dot = strchr(name, '.');
	size_t fl = dot ? (size_t)(dot - name) : strlen(name);
	if (!strncmp(name, "disk.", 5)) {
		/* disk.NAME.PROFILE...: a second disk's figures carry its name */
		const char *w = name + 5;
		size_t wl = strcspn(w, ".");
		static const char *const profs[] = { "seq", "qd1", "qd8", "randrw64", "randwrite4", "randread16x4",
						     "latency", NULL };
		int is_prof = 0;
		for (int i = 0; profs[i]; i++)
			is_prof |= strlen(profs[i]) == wl && !strncmp(profs[i], w, wl);
		if (!is_prof) {
			snprintf(out, n, "disk %.*s", (int)wl, w);
			return;
		}
		/* the first disk's test is "disk": its name from the test's --filename */
		snprintf(out, n, "disk");
		for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
			const struct json *args = json_get(t, "args");
			if (strcmp(json_get_str(t, "name", ""), "disk"))
				continue;
			for (const struct json *a = args ? args->child : NULL; a; a = a->next)
				if (a->type == J_STR && !strncmp(a->str, "--filename=", 11)) {
					const char *base = strrchr(a->str, '/');
					snprintf(out, n, "disk %.20s", base ? base + 1 : a->str + 11);
				}
		}
		return;
	}
	snprintf(out, n, "%.*s", (int)fl, name);
	if (!strcmp(out, "mem"))
		snprintf(out, n, "memory");
	else if (!strcmp(out, "net"))
		snprintf(out, n, "network");
}

/* the headline figures, a line (or two) per heading, in the headline order */
static void figures(struct line *l, const struct json *doc, double steal_limit)
{
	const struct json *sum = json_get(doc, "summary");
	char cur[40] = "";
	for (int rank = 1; *figure_headline_label(rank); rank++)
		for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
			const char *name = json_get_str(r, "name", ""), *unit;
			char head[40], val[32], item[80];
			double v = json_get_num(r, "value", NAN);
			if (figure_headline(name, doc) != rank || !isfinite(v))
				continue;
			heading(name, json_get(doc, "tests"), head, sizeof head);
			if (strcmp(head, cur)) {
				line_start(l, head);
				snprintf(cur, sizeof cur, "%s", head);
			}
			fmt_value(v, val, sizeof val);
			unit = json_get_str(r, "unit", "");
			snprintf(item, sizeof item, "%s %s%s%s", figure_headline_label(rank), val,
				 !strcmp(unit, "%") || !strcmp(unit, "x") ? "" : " ", unit);
			if (!strcmp(name, "steal.max") && v > steal_limit)
				snprintf(item + strlen(item), sizeof item - strlen(item),
					 ": over %g%%, the figures are suspect", steal_limit);
			line_item(l, item);
		}
}

/* the verdict of certify, with the first failed rules */
static void verdict(struct line *l, const struct json *doc)
{
	const struct json *c = json_get(doc, "certify"), *rules = json_get(c, "rules");
	char item[120];
	if (!c)
		return;
	line_start(l, "verdict");
	if (json_get(c, "error")) {
		snprintf(item, sizeof item, "bad rules: %s", json_get_str(c, "error", ""));
		line_item(l, item);
		return;
	}
	snprintf(item, sizeof item, "%s (%s: %.0f of %.0f rules failed)", json_get_str(c, "verdict", "?"),
		 json_get_str(c, "profile", "?"), json_get_num(c, "failed", 0), json_get_num(c, "rules_total", 0));
	line_item(l, item);
	for (const struct json *r = rules ? rules->child : NULL; r; r = r->next)
		if (!strcmp(json_get_str(r, "result", ""), "NOT MEASURED")) {
			snprintf(item, sizeof item, "%s (NOT MEASURED)", json_get_str(r, "rule", "?"));
			line_item(l, item);
		} else if (!strcmp(json_get_str(r, "result", ""), "FAIL")) {
			/* the device, DIMM or kernel line a health rule concerns, on its own line */
			if (json_get(r, "detail")) {
				line_start(l, "");
				snprintf(item, sizeof item, "FAIL %s: %s", json_get_str(r, "rule", "?"),
					 json_get_str(r, "detail", ""));
				line_item(l, item);
			} else {
				line_item(l, json_get_str(r, "rule", "?"));
			}
		}
}

/* what the checks covered: each figure's coverage (memtest's patterns and bytes, the
 * burn-in's rounds) */
static void coverage(struct line *l, const struct json *doc)
{
	const struct json *sum = json_get(doc, "summary");
	char item[200];
	int started = 0;
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next)
		if (json_get(r, "coverage")) {
			if (!started++)
				line_start(l, "coverage");
			snprintf(item, sizeof item, "%.*s: %s", (int)strcspn(json_get_str(r, "name", "?"), "."),
				 json_get_str(r, "name", "?"), json_get_str(json_get(r, "coverage"), "what", "?"));
			line_item(l, item);
		}
}

/* the tests that did not pass, each with its reason */
static void tests(struct line *l, const struct json *doc)
{
	const struct json *ts = json_get(doc, "tests");
	int ok = 0, n = 0;
	char item[400];
	for (const struct json *t = ts ? ts->child : NULL; t; t = t->next, n++)
		ok += !strcmp(json_get_str(t, "status", ""), "ok");
	line_start(l, "tests");
	snprintf(item, sizeof item, "%d of %d ok in %.0f s", ok, n, json_get_num(doc, "duration_s", 0));
	line_item(l, item);
	for (const struct json *t = ts ? ts->child : NULL; t; t = t->next)
		if (strcmp(json_get_str(t, "status", ""), "ok")) {
			snprintf(item, sizeof item, "%s %s: %s", json_get_str(t, "name", "?"),
				 json_get_str(t, "status", "?"), json_get_str(t, "why", ""));
			line_item(l, item);
		}
}

void report_screen(const struct json *doc, const char *next, const char *from, double steal_limit, FILE *f)
{
	struct line l = { .f = f };
	const struct json *res = json_get(doc, "results");
	char item[300], mach[64];
	fprintf(f, "\n");
	machine_label(doc, mach, sizeof mach);
	snprintf(item, sizeof item, "==== assay %s, %s suite, %s ", json_get_str(doc, "assay_version", "?"),
		 json_get_str(json_get(doc, "options"), "suite", "?"), mach);
	fprintf(f, "%.*s%.*s\n", WIDTH, item, (int)(WIDTH > strlen(item) ? WIDTH - strlen(item) : 0),
		"===============================================================================");
	verdict(&l, doc);
	figures(&l, doc, steal_limit);
	coverage(&l, doc);
	tests(&l, doc);
	line_start(&l, "results");
	if (from)
		snprintf(item, sizeof item, "%s", from);
	else if (json_get(res, "written"))
		snprintf(item, sizeof item, "%s", json_get_str(res, "written", ""));
	else if (json_get(res, "error")) {
		/* the error up to its parenthesis, without the space before it */
		const char *e = json_get_str(res, "error", "");
		int el = (int)strcspn(e, "(");
		while (el > 0 && e[el - 1] == ' ')
			el--;
		snprintf(item, sizeof item, "in the block above (%.*s)", el, e);
	} else {
		snprintf(item, sizeof item, "in the block above (assay extract CONSOLE.LOG)");
	}
	line_item(&l, item);
	if (next) {
		line_start(&l, "next");
		line_item(&l, next);
	}
	line_flush(&l);
}
