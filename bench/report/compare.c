/* assay compare A.json B.json ...: the "server tasting" table.  Rows are figures, columns
 * runs; the best value of each row is marked with '*'. */
#include "commands.h"
#include "figures.h"
#include "certify.h"
#include "json.h"
#include "msg.h"
#include "opt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 32
#define MAX_ROWS 1024

enum { FMT_TEXT, FMT_MARKDOWN, FMT_CSV, FMT_JSON };

struct cmp_cfg {
	int format;
};

const struct opt compare_opts[] = {
	{ "format", 0, OPT_ENUM, offsetof(struct cmp_cfg, format), "text", 0, 0, "text|markdown|csv|json",
	  "table format", 0 },
	{ "output-format", 0, OPT_ENUM, offsetof(struct cmp_cfg, format), "text", 0, 0, "text|markdown|csv|json",
	  "same as --format", OPT_HIDDEN },
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "format=json", "same as --format=json", OPT_NOARG },
	OPT_END,
};

static void cell(char *b, size_t n, const struct json *row)
{
	double v = json_get_num(row, "value", NAN), sd = json_get_num(row, "stddev", NAN);
	const char *f = fabs(v) >= 100 ? "%.0f" : fabs(v) >= 10 ? "%.1f" : "%.2f";
	int l = snprintf(b, n, f, v);
	if (isfinite(sd) && l > 0 && (size_t)l < n)
		snprintf(b + l, n - (size_t)l, fabs(sd) >= 10 ? " +-%.0f" : " +-%.2f", sd);
}

/* what each run was measured on, above the figures: rows of text, no best; in -J,
 * machines[] {cpu, cpus, memory_bytes, hypervisor, halt_poll_ns, kernel} */
enum { M_TEXT, M_INT, M_GIB };
static const struct {
	const char *row, *unit, *key, *path;
	int kind;
} mach_rows[] = {
	{ "machine.cpu", "", "cpu", "cpu.model", M_TEXT },
	{ "machine.cpus", "", "cpus", "cpu.online", M_INT },
	{ "machine.memory", "GiB", "memory_bytes", "memory.total_bytes", M_GIB },
	{ "machine.hypervisor", "", "hypervisor", "hypervisor", M_TEXT },   /* null: bare metal */
	{ "machine.halt_poll", "ns", "halt_poll_ns", "cpu.idle.halt_poll_ns", M_INT },
	{ "machine.kernel", "", "kernel", "kernel.release", M_TEXT },
};
#define M_N (int)(sizeof mach_rows / sizeof mach_rows[0])

static const struct json *mach_value(const struct json *doc, int k)
{
	const struct json *m = json_get(doc, "machine");
	return m ? json_path(m, mach_rows[k].path) : NULL;
}

/* the cell of row k for one result ("" when the result does not say) */
static void mach_cell(char *b, size_t n, const struct json *doc, int k)
{
	const struct json *v = mach_value(doc, k);
	b[0] = 0;
	if (v && v->type == J_NUM)
		snprintf(b, n, mach_rows[k].kind == M_GIB ? "%.1f" : "%.0f",
			 mach_rows[k].kind == M_GIB ? v->num / (1024.0 * 1024 * 1024) : v->num);
	else if (v && v->type == J_STR)
		snprintf(b, n, "%s", v->str);
	else if (v && v->type == J_NULL && !strcmp(mach_rows[k].key, "hypervisor"))
		snprintf(b, n, "bare metal");
	for (char *p = b; *p; p++)   /* a table row stays one line */
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* the CSV field, quoted when it holds a comma or a quote (quotes doubled) */
static void csv_field(const char *b)
{
	putchar(',');
	if (!strpbrk(b, ",\"")) {
		fputs(b, stdout);
		return;
	}
	putchar('"');
	for (const char *p = b; *p; p++)
		printf(*p == '"' ? "\"\"" : "%c", *p);
	putchar('"');
}

/* -J: {"runs": [labels], "machines": [...], "rows": [{figure, unit, values: [v|null],
 * best: index|null}]} */
static void compare_json(struct json *const *docs, char (*labels)[64], int npos, const char *const *rows,
			 int nrows)
{
	struct json *o = json_obj(), *runs = json_add_arr(o, "runs"), *rws = json_add_arr(o, "rows");
	struct json *ms = json_add_arr(o, "machines");
	for (int i = 0; i < npos; i++) {
		struct json *mo = json_push(ms, json_obj());
		json_push(runs, json_str(labels[i]));
		for (int k = 0; k < M_N; k++) {
			const struct json *v = mach_value(docs[i], k);
			json_add(mo, mach_rows[k].key, v && v->type == J_STR ? json_str(v->str)
						 : v && v->type == J_NUM ? json_num(v->num) : json_null());
		}
	}
	for (int r = 0; r < nrows; r++) {
		struct json *row = json_push(rws, json_obj()), *vals;
		const char *unit = "";
		int best = -1;
		double bv = NAN;
		for (int i = 0; i < npos; i++)
			if (figure_find(docs[i], rows[r]))
				unit = json_get_str(figure_find(docs[i], rows[r]), "unit", "");
		json_add_str(row, "figure", rows[r]);
		json_add_str(row, "unit", unit);
		vals = json_add_arr(row, "values");
		for (int i = 0; i < npos; i++) {
			const struct json *f = figure_find(docs[i], rows[r]);
			double v = f ? json_get_num(f, "value", NAN) : NAN;
			json_push(vals, f ? json_num(v) : json_null());
			if (isfinite(v) && (!isfinite(bv) || (unit_lower_is_better(unit) ? v < bv : v > bv))) {
				bv = v;
				best = i;
			}
		}
		if (best >= 0 && npos > 1)
			json_add_int(row, "best", best);
		else
			json_add(row, "best", json_null());
	}
	json_print(stdout, o, 2);
	json_free(o);
}

/* the first cells of a row: its name and unit */
static void row_head(int format, const char *name, const char *unit)
{
	if (format == FMT_CSV)
		printf("%s,%s", name, unit);
	else if (format == FMT_MARKDOWN)
		printf("| %s | %s |", name, unit);
	else
		printf("%-34s %-9s", name, unit);
}

/* the machine rows (what each run was measured on), where any result says */
static void machine_rows(int format, struct json *const *docs, int npos)
{
	for (int k = 0; k < M_N; k++) {
		int any = 0;
		char b[128];
		for (int i = 0; i < npos && !any; i++) {
			mach_cell(b, sizeof b, docs[i], k);
			any = b[0] != 0;
		}
		if (!any)
			continue;   /* no result says: no row */
		row_head(format, mach_rows[k].row, mach_rows[k].unit);
		for (int i = 0; i < npos; i++) {
			mach_cell(b, sizeof b, docs[i], k);
			if (format == FMT_CSV) {
				csv_field(b);
			} else if (format == FMT_MARKDOWN) {
				for (char *p = b; *p; p++)
					if (*p == '|')
						*p = '/';
				printf(" %s |", b[0] ? b : "-");
			} else {
				printf(" %17.17s ", b[0] ? b : "-");
			}
		}
		putchar('\n');
	}
}

static void figure_row(int format, struct json *const *docs, int npos, const char *row)
{
	const char *unit = NULL;
	double best = NAN;
	int lower;
	for (int i = 0; i < npos; i++) {
		const struct json *f = figure_find(docs[i], row);
		if (f && !unit)
			unit = json_get_str(f, "unit", "");
	}
	lower = unit_lower_is_better(unit ? unit : "");
	for (int i = 0; i < npos; i++) {
		const struct json *f = figure_find(docs[i], row);
		double v = f ? json_get_num(f, "value", NAN) : NAN;
		if (isfinite(v) && (!isfinite(best) || (lower ? v < best : v > best)))
			best = v;
	}
	row_head(format, row, unit ? unit : "");
	for (int i = 0; i < npos; i++) {
		const struct json *f = figure_find(docs[i], row);
		char b[64] = "-";
		double v = f ? json_get_num(f, "value", NAN) : NAN;
		int is_best = npos > 1 && isfinite(v) && v == best;
		if (f)
			cell(b, sizeof b, f);
		if (format == FMT_CSV)
			printf(",%s", f ? b : "");
		else if (format == FMT_MARKDOWN)
			printf(is_best ? " **%s** |" : " %s |", b);
		else
			printf(" %17s%s", b, is_best ? "*" : " ");
	}
	putchar('\n');
}

/* text, markdown or CSV: a header, the machine rows, a row per figure */
static void compare_table(int format, struct json *const *docs, char (*labels)[64], int npos,
			  const char *const *rows, int nrows)
{
	if (format == FMT_CSV) {
		printf("figure,unit");
		for (int i = 0; i < npos; i++)
			printf(",%s", labels[i]);
		putchar('\n');
	} else if (format == FMT_MARKDOWN) {
		printf("| figure | unit |");
		for (int i = 0; i < npos; i++)
			printf(" %s |", labels[i]);
		printf("\n|---|---|");
		for (int i = 0; i < npos; i++)
			printf("---:|");
		putchar('\n');
	} else {
		printf("%-34s %-9s", "figure", "unit");
		for (int i = 0; i < npos; i++)
			printf(" %18.18s", labels[i]);
		putchar('\n');
	}
	machine_rows(format, docs, npos);
	for (int r = 0; r < nrows; r++)
		figure_row(format, docs, npos, rows[r]);
	if (format == FMT_TEXT && npos > 1)
		printf("* best in the row (lower is better for us, ms, %%; higher for the rest)\n");
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_cfg c;
	char *pos[MAX_RUNS + 1], err[512], labels[MAX_RUNS][64];
	const char *rows[MAX_ROWS];
	struct json *docs[MAX_RUNS];
	int npos = 0, nrows = 0;

	opt_defaults(compare_opts, &c);
	if (opt_parse(compare_opts, &c, argc, argv, pos, &npos, MAX_RUNS))
		return EXIT_USAGE;
	if (npos < 1) {
		errmsg("compare: give at least one result file");
		return EXIT_USAGE;
	}
	for (int i = 0; i < npos; i++) {
		docs[i] = doc_load(pos[i], err, sizeof err);
		if (!docs[i]) {
			errmsg("compare: %s", err);
			for (int k = 0; k < i; k++)
				json_free(docs[k]);
			return EXIT_USAGE;
		}
		doc_label(pos[i], labels[i], sizeof labels[i]);
	}
	/* rows: every figure, in order of first appearance */
	for (int i = 0; i < npos; i++) {
		const struct json *sum = json_get(docs[i], "summary");
		for (const struct json *r = sum->child; r && nrows < MAX_ROWS; r = r->next) {
			const char *name = json_get_str(r, "name", NULL);
			int seen = 0;
			if (!name)
				continue;
			for (int k = 0; k < nrows && !seen; k++)
				seen = !strcmp(rows[k], name);
			if (!seen)
				rows[nrows++] = name;
		}
	}
	if (c.format == FMT_JSON)
		compare_json(docs, labels, npos, rows, nrows);
	else
		compare_table(c.format, docs, labels, npos, rows, nrows);
	for (int i = 0; i < npos; i++)
		json_free(docs[i]);
	return EXIT_OK;
}
