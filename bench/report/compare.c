/* assay compare [NAME=]RESULT...: the "server tasting" table.  Columns are runs (named, or
 * a short label of the machine), rows the figures a person compares (--all: every one),
 * grouped by category in a fixed order; each cell the value and its difference from the
 * first column; the best of a row marked only when it is clear of the others by more than
 * the noise (the repeats' confidence intervals, else --noise percent); a winner per
 * category. */
#include "cli/command.h"
#include "report.h"
#include "engine/engine.h"
#include "json.h"
#include "msg.h"
#include "opt.h"
#include "report.h"
#include "compare.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FMT_TEXT, FMT_MARKDOWN, FMT_CSV, FMT_JSON };

struct cmp_cfg {
	int format;
	int all;
	double noise;
};

static const struct opt compare_opts[] = {
	{ "format", 0, OPT_ENUM, offsetof(struct cmp_cfg, format), "text", 0, 0, "text|markdown|csv|json",
	  "table format (markdown: pasteable in a forum post)", 0 },
	{ "output-format", 0, OPT_ENUM, offsetof(struct cmp_cfg, format), "text", 0, 0, "text|markdown|csv|json",
	  "same as --format", OPT_HIDDEN },
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "format=json", "same as --format=json", OPT_NOARG },
	{ "all", 'a', OPT_BOOL, offsetof(struct cmp_cfg, all), "0", 0, 0, NULL,
	  "every figure, not only the ~20 a person compares", OPT_NOARG },
	{ "noise", 0, OPT_FLOAT, offsetof(struct cmp_cfg, noise), "0", 0, 100, NULL,
	  "each figure's noise between runs, percent (0: its own: its repeats, else its kind's default, "
	  "docs/results.md); a value is best only beyond it", 0 },
	OPT_END,
};

/* ---- labels ---- */

/* the runs' labels: NAME= as given, else the machine's (the file's name when the document
 * says nothing of its machine); the same label twice gets #2, #3 */
static void label_runs(struct run *runs, int nr, char *const *given, const char *const *paths)
{
	for (int i = 0; i < nr; i++) {
		if (given[i])
			snprintf(runs[i].label, sizeof runs[i].label, "%s", given[i]);
		else if (json_path(runs[i].doc, "machine.cpu.model"))
			machine_label(runs[i].doc, runs[i].label, sizeof runs[i].label);
		else
			doc_label(paths[i], runs[i].label, sizeof runs[i].label);
	}
	for (int i = 1; i < nr; i++) {
		int same = 1;
		for (int k = 0; k < i; k++)
			same += !strncmp(runs[k].label, runs[i].label, strcspn(runs[k].label, "#"));
		if (same > 1) {
			size_t l = strlen(runs[i].label);
			snprintf(runs[i].label + (l > 58 ? 58 : l), 6, "#%d", same);
		}
	}
}

/* the runs named on a command line ([NAME=]FILE each) loaded and labelled; 0, or -1 after
 * a one-line error naming the file (nothing left to free) */
int compare_load(struct run *runs, char **pos, int npos, const char *who)
{
	char err[512], *given[MAX_RUNS];
	const char *paths[MAX_RUNS];
	for (int i = 0; i < npos && i < MAX_RUNS; i++) {
		char *eq = strchr(pos[i], '=');
		given[i] = NULL;
		paths[i] = pos[i];
		if (eq && eq > pos[i] && !memchr(pos[i], '/', (size_t)(eq - pos[i])) && eq - pos[i] < 40) {   /* NAME=FILE */
			*eq = 0;
			given[i] = pos[i];
			paths[i] = eq + 1;
		}
		runs[i].doc = doc_load(paths[i], err, sizeof err);
		if (!runs[i].doc) {
			errmsg("%s: %s", who, err);
			compare_free(runs, i);
			return -1;
		}
	}
	label_runs(runs, npos, given, paths);
	return 0;
}

void compare_free(struct run *runs, int nr)
{
	for (int i = 0; i < nr; i++)
		json_free(runs[i].doc);
}

/* ---- rows ---- */

/* the heading a figure goes under, as an index: the engines', steal, machine */
static int category(const char *name)
{
	const struct engine *e = figure_engine(name);
	int i = 0;
	for (; engines[i]; i++)
		if (engines[i] == e)
			return i;
	return !strncmp(name, "steal.", 6) ? i : i + 1;
}

const char *category_title(int cat)
{
	int i = 0;
	for (; engines[i]; i++)
		if (i == cat)
			return engines[i]->title;
	return cat == i ? "Steal" : "Other";
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->cat != y->cat)
		return x->cat - y->cat;
	if (x->rank != y->rank)   /* headline figures first, in their order */
		return (x->rank ? x->rank : 1000) - (y->rank ? y->rank : 1000);
	return strcmp(x->name, y->name);
}

/* does a beat b beyond the noise?  The noise model's two-sided test at 5% (result/noise.c:
 * the runs' repeats, else each kind's default; pct > 0 in its place); a row in other units
 * than the first's: by more than pct percent (5 without) */
static int clearly_better(const struct row *r, int a, int b, double pct)
{
	double va = r->v[a], vb = r->v[b];
	int lower = r->better == LOWER_BETTER;
	struct diff d;
	if (!isfinite(vb))
		return 1;
	if ((lower ? va >= vb : va <= vb))
		return 0;
	if (!r->src[a] || !r->src[b] || !(va > 0 && vb > 0))
		return fabs(va - vb) > (pct > 0 ? pct : 5) / 100 * fmax(fabs(va), fabs(vb));
	noise_diff(r->src[a], r->src[b], pct, &d);
	return fmin(d.p_above, 1 - d.p_above) * 2 < 0.05;
}

/* the best of a row when it beats every other value by more than the noise */
static void row_best(struct row *r, int nr, double pct)
{
	int best = -1, present = 0;
	for (int i = 0; i < nr; i++) {
		if (!isfinite(r->v[i]))
			continue;
		present++;
		if (best < 0 || (r->better == LOWER_BETTER ? r->v[i] < r->v[best] : r->v[i] > r->v[best]))
			best = i;
	}
	r->best = -1;
	if (present < 2)
		return;   /* one value: nothing to beat */
	for (int i = 0; i < nr; i++)
		r->tie[i] = i != best && isfinite(r->v[i]) && !clearly_better(r, best, i, pct);
	for (int i = 0; i < nr; i++)
		if (r->tie[i])
			return;   /* within the noise of another: no clear best */
	r->best = best;
}

int compare_rows(struct row *rows, const struct run *runs, int nr, int all, double noise)
{
	int n = 0;
	for (int i = 0; i < nr; i++) {
		const struct json *sum = json_get(runs[i].doc, "summary");
		for (const struct json *s = sum ? sum->child : NULL; s && n < MAX_ROWS; s = s->next) {
			const char *name = json_get_str(s, "name", NULL);
			int seen = 0, rank;
			if (!name)
				continue;
			for (int k = 0; k < n && !seen; k++)
				seen = !strcmp(rows[k].name, name);
			rank = figure_headline(name, runs[i].doc);
			if (seen || (!all && !rank))
				continue;
			rows[n] = (struct row){ .name = name, .unit = json_get_str(s, "unit", ""), .cat = category(name),
						.rank = rank, .better = figure_better(s) };
			n++;
		}
	}
	for (int k = 0; k < n; k++) {
		for (int i = 0; i < nr; i++) {
			const struct json *f = figure_find(runs[i].doc, rows[k].name);
			double mult = 1;
			const char *u = f ? json_get_str(f, "unit", "") : "";
			if (f && unit_convert(u, rows[k].unit, &mult))
				f = NULL;   /* a unit that does not convert: not the same figure */
			rows[k].src[i] = f && mult == 1 ? f : NULL;
			rows[k].v[i] = f ? json_get_num(f, "value", NAN) * mult : NAN;
			rows[k].lo[i] = f && json_get(f, "ci95_low") ? json_get_num(f, "ci95_low", 0) * mult : NAN;
			rows[k].hi[i] = f && json_get(f, "ci95_high") ? json_get_num(f, "ci95_high", 0) * mult : NAN;
		}
		row_best(&rows[k], nr, noise);
	}
	qsort(rows, (size_t)n, sizeof *rows, row_cmp);
	return n;
}

/* ---- cells ---- */

void value_cell(char *b, size_t n, double v)
{
	figure_num(b, n, v);
}

/* the difference from the first column: "+12%", "~+2%" within the noise, "5.8x" for twice
 * or more */
void diff_cell(char *b, size_t n, const struct row *r, int i, double pct)
{
	double v0 = r->v[0], v = r->v[i], d;
	int noise;
	b[0] = 0;
	if (i == 0 || !isfinite(v) || !isfinite(v0) || v0 == 0)
		return;
	d = 100 * (v - v0) / fabs(v0);
	noise = !clearly_better(r, i, 0, pct) && !clearly_better(r, 0, i, pct);
	if (d >= 100 && v0 > 0)   /* twice or more: a ratio reads better than +481% */
		snprintf(b, n, "%s%.*fx", noise ? "~" : "", v / v0 >= 10 ? 0 : 1, v / v0);
	else
		snprintf(b, n, "%s%+.0f%%", noise ? "~" : "", d);
}

/* the winner of the category starting at row *k (moved past it): the run with the most
 * rows it is clearly best in, or -1 (none: every difference within the noise; a tie) */
int category_winner(const struct row *rows, int nrows, int *k, int nr, int *won, int *total, int *tie)
{
	int cat = rows[*k].cat, wins[MAX_RUNS] = { 0 }, best = -1;
	*total = *tie = 0;
	for (; *k < nrows && rows[*k].cat == cat; (*k)++) {
		*total += isfinite(rows[*k].v[0]) || nr > 1;
		if (rows[*k].best >= 0)
			wins[rows[*k].best]++;
	}
	for (int i = 0; i < nr; i++)
		if (wins[i] && (best < 0 || wins[i] > wins[best]))
			best = i, *tie = 0;
		else if (best >= 0 && wins[i] == wins[best])
			*tie = 1;
	*won = best >= 0 ? wins[best] : 0;
	return *tie ? -1 : best;
}

static void winners(const struct row *rows, int nrows, const struct run *runs, int nr, FILE *f, int fmt,
		    struct json *arr)
{
	for (int k = 0; k < nrows;) {
		int cat = rows[k].cat, won, total, tie, best = category_winner(rows, nrows, &k, nr, &won, &total, &tie);
		if (arr) {
			struct json *o = json_push(arr, json_obj());
			json_add_str(o, "category", category_title(cat));
			if (best >= 0)
				json_add_str(o, "winner", runs[best].label);
			else
				json_add(o, "winner", json_null());
			json_add_int(o, "rows_won", won);
			json_add_int(o, "rows", total);
			continue;
		}
		if (best < 0)
			fprintf(f, "%s%s: no clear winner%s\n", fmt == FMT_MARKDOWN ? "- " : "", category_title(cat),
				tie ? " (a tie)" : " (every difference within the noise)");
		else
			fprintf(f, "%s%s: %s (best in %d of %d rows)\n", fmt == FMT_MARKDOWN ? "- " : "", category_title(cat),
				runs[best].label, won, total);
	}
}

/* ---- formats ---- */

static void print_csv(const struct row *rows, int nrows, const struct run *runs, int nr)
{
	printf("category,figure,unit,better");
	for (int i = 0; i < nr; i++)
		printf(",%s", runs[i].label);
	putchar('\n');
	for (int k = 0; k < nrows; k++) {
		printf("%s,%s,%s,%s", category_title(rows[k].cat), rows[k].name, rows[k].unit,
		       rows[k].better == LOWER_BETTER ? "lower" : "higher");
		for (int i = 0; i < nr; i++) {
			if (isfinite(rows[k].v[i]))
				printf(",%.6g", rows[k].v[i]);
			else
				printf(",");
		}
		putchar('\n');
	}
}

static void print_json(const struct row *rows, int nrows, const struct run *runs, int nr)
{
	struct json *o = json_obj(), *rs = json_add_arr(o, "runs"), *arr = json_add_arr(o, "rows");
	for (int i = 0; i < nr; i++) {
		struct json *r = json_push(rs, json_obj());
		json_add_str(r, "label", runs[i].label);
		json_add(r, "machine", json_get(runs[i].doc, "machine") ? json_copy(json_get(runs[i].doc, "machine"))
									 : json_null());
	}
	for (int k = 0; k < nrows; k++) {
		struct json *r = json_push(arr, json_obj()), *vals, *diff;
		json_add_str(r, "category", category_title(rows[k].cat));
		json_add_str(r, "figure", rows[k].name);
		json_add_str(r, "unit", rows[k].unit);
		json_add_str(r, "better", rows[k].better == LOWER_BETTER ? "lower" : "higher");
		vals = json_add_arr(r, "values");
		diff = json_add_arr(r, "diff_pct");
		for (int i = 0; i < nr; i++) {
			double v = rows[k].v[i], v0 = rows[k].v[0];
			json_push(vals, isfinite(v) ? json_num(v) : json_null());
			json_push(diff, isfinite(v) && isfinite(v0) && v0 ? json_num(100 * (v - v0) / fabs(v0)) : json_null());
		}
		if (rows[k].best >= 0)
			json_add_int(r, "best", rows[k].best);
		else
			json_add(r, "best", json_null());
	}
	winners(rows, nrows, runs, nr, NULL, FMT_JSON, json_add_arr(o, "winners"));
	json_print(stdout, o, 2);
	json_free(o);
}

/* what each run was measured on, above the figures */
static void machine_rows(const struct run *runs, int nr, int md)
{
	static const struct { const char *row, *path; int gib; } mr[] = {
		{ "cpu", "cpu.model", 0 }, { "vCPUs", "cpu.online", 0 }, { "memory (GiB)", "memory.total_bytes", 1 },
		{ "hypervisor", "hypervisor", 0 }, { "halt poll (ns)", "cpu.idle.halt_poll_ns", 0 },
		{ "kernel", "kernel.release", 0 },
	};
	int any = 0;
	for (int i = 0; i < nr; i++)
		any |= json_path(runs[i].doc, "machine.cpu") != NULL;
	if (!any)
		return;
	if (md) {
		printf("| machine |");
		for (int i = 0; i < nr; i++)
			printf(" %s |", runs[i].label);
		printf("\n|---|");
		for (int i = 0; i < nr; i++)
			printf("---|");
		putchar('\n');
	} else {
		printf("%-43s", "Machine");
		for (int i = 0; i < nr; i++)
			printf(" %24.24s", runs[i].label);
		putchar('\n');
	}
	for (size_t k = 0; k < sizeof mr / sizeof mr[0]; k++) {
		printf(md ? "| %s |" : "  %-41s", mr[k].row);
		for (int i = 0; i < nr; i++) {
			const struct json *m = json_get(runs[i].doc, "machine"), *v = m ? json_path(m, mr[k].path) : NULL;
			char b[64] = "-";
			if (v && v->type == J_NUM)
				snprintf(b, sizeof b, mr[k].gib ? "%.1f" : "%.0f", mr[k].gib ? v->num / 1073741824.0 : v->num);
			else if (v && v->type == J_STR && !md && !strcmp(mr[k].path, "cpu.model"))
				short_cpu(v->str, b, sizeof b);   /* a column of 24: the model in a few words */
			else if (v && v->type == J_STR)
				snprintf(b, sizeof b, "%s", v->str);
			else if (v && v->type == J_NULL)
				snprintf(b, sizeof b, "bare metal");
			for (char *p = b; *p; p++)   /* a table row stays one line */
				if ((unsigned char)*p < 0x20 || *p == 0x7f || (md && *p == '|'))
					*p = '?';
			printf(md ? " %s |" : " %24.24s", b);
		}
		putchar('\n');
	}
	putchar('\n');
}

/* text and markdown: a heading per category, value and difference per run */
static void print_table(const struct row *rows, int nrows, const struct run *runs, int nr, const struct cmp_cfg *c)
{
	int md = c->format == FMT_MARKDOWN;
	machine_rows(runs, nr, md);
	for (int k = 0; k < nrows; k++) {
		if (!k || rows[k].cat != rows[k - 1].cat) {
			if (md) {
				printf("%s| %s | unit |", k ? "\n" : "", category_title(rows[k].cat));
				for (int i = 0; i < nr; i++)
					printf(" %s |", runs[i].label);
				printf("\n|---|---|");
				for (int i = 0; i < nr; i++)
					printf("---:|");
				putchar('\n');
			} else {
				printf("%s%-34s %-8s", k ? "\n" : "", category_title(rows[k].cat), "unit");
				for (int i = 0; i < nr; i++)
					printf(" %24.24s", runs[i].label);
				putchar('\n');
			}
		}
		printf(md ? "| %s | %s |" : "  %-32s %-8s", rows[k].name, rows[k].unit);
		for (int i = 0; i < nr; i++) {
			char v[32], d[16], cell[64];
			value_cell(v, sizeof v, rows[k].v[i]);
			diff_cell(d, sizeof d, &rows[k], i, c->noise);
			if (md)
				printf(rows[k].best == i ? " **%s** %s |" : " %s %s |", v, d);
			else {
				snprintf(cell, sizeof cell, "%s%s%s%s", v, rows[k].best == i ? "*" : "", d[0] ? " " : "", d);
				printf(" %24s", cell);
			}
		}
		putchar('\n');
	}
	if (nr > 1) {
		printf("\n");
		winners(rows, nrows, runs, nr, stdout, c->format, NULL);
		printf("%s%s clearly best (beyond the noise between runs: docs/results.md); +N%% against %s; "
		       "~: within the noise\n", md ? "\n" : "", md ? "**bold**:" : "*", runs[0].label);
	}
}

static int compare_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct cmp_cfg c = *(const struct cmp_cfg *)cfg;
	char **pos = (char **)a->pos;
	struct run runs[MAX_RUNS];
	struct row *rows;
	int npos = a->npos, nrows;

	if (compare_load(runs, pos, npos, "compare"))
		return EXIT_USAGE;
	if (!(rows = calloc(MAX_ROWS, sizeof *rows))) {
		errmsg("compare: out of memory");
		return EXIT_SYS;
	}
	nrows = compare_rows(rows, runs, npos, c.all, c.noise);
	if (c.format == FMT_JSON)
		print_json(rows, nrows, runs, npos);
	else if (c.format == FMT_CSV)
		print_csv(rows, nrows, runs, npos);
	else
		print_table(rows, nrows, runs, npos, &c);
	free(rows);
	compare_free(runs, npos);
	return EXIT_OK;
}

const struct command compare_command = {
	.name = "compare",
	.summary = "side-by-side table of several results",
	.usage = "[options] RESULT...",
	.help = "Side by side: one row per figure, one column per run (a JSON result, a console log, or an "
		"engine's -J output; NAME=FILE labels it); '*' marks a value clearly best, beyond the noise.",
	.opts = compare_opts,
	.cfg_size = sizeof(struct cmp_cfg),
	.pos_min = 1,
	.pos_max = MAX_RUNS,
	.missing = "give at least one result file ([NAME=]FILE)",
	.main = compare_main,
};
