/* assay baseline OUT RESULT...: several runs of the same machine and settings made one
 * baseline for certify's gate (gate.c): each figure's value is the median of the runs',
 * its samples the runs' own levels (sample_kind "runs"), so their spread, the noise
 * between runs on that machine, is measured rather than assumed (docs/results.md). */
#include "baseline.h"

#include "cli/command.h"
#include "json.h"
#include "msg.h"
#include "report.h"
#include "results.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BASE 64

/* one figure over the runs that have it: a row in the first run's unit */
static struct json *merged_row(const struct json *first, struct json *const *docs, int n)
{
	const char *name = json_get_str(first, "name", ""), *unit = json_get_str(first, "unit", "");
	struct json *row = json_obj(), *arr;
	double v[MAX_BASE];
	int k = 0;
	for (int i = 0; i < n; i++) {
		const struct json *r = figure_find(docs[i], name);
		double mult = 1, lv;
		if (!r || unit_convert(json_get_str(r, "unit", ""), unit, &mult))
			continue;
		lv = figure_level(r) * mult;
		if (isfinite(lv))
			v[k++] = lv;
	}
	json_add_str(row, "name", name);
	json_add_num(row, "value", stats_median(v, k));
	json_add_str(row, "unit", unit);
	json_add_str(row, "better", figure_better(first) == LOWER_BETTER ? "lower" : "higher");
	arr = json_add_arr(row, "samples");
	for (int i = 0; i < k; i++)
		json_push(arr, json_num(v[i]));
	json_add_str(row, "sample_kind", "runs");
	return row;
}

struct json *baseline_merge(struct json *const *docs, int n, char *const *paths)
{
	struct json *b, *sum, *meta, *files;
	if (n == 1)
		return json_copy(docs[0]);   /* one run: its own repeats, if any, are its samples */
	b = json_obj();
	json_add_int(b, "schema_version", RESULT_SCHEMA_VERSION);
	json_add_str(b, "assay_version", json_get_str(docs[0], "assay_version", "?"));
	json_add_str(b, "started_utc", json_get_str(docs[0], "started_utc", "?"));
	json_add_str(b, "status", "ok");
	meta = json_add_obj(b, "baseline");
	json_add_int(meta, "runs", n);
	files = json_add_arr(meta, "from");
	for (int i = 0; i < n; i++) {
		struct json *f = json_push(files, json_obj());
		json_add_str(f, "file", paths[i]);
		json_add_str(f, "started_utc", json_get_str(docs[i], "started_utc", "?"));
	}
	if (json_get(docs[0], "machine"))
		json_add(b, "machine", json_copy(json_get(docs[0], "machine")));
	if (json_get(docs[0], "options"))
		json_add(b, "options", json_copy(json_get(docs[0], "options")));
	sum = json_add_arr(b, "summary");
	for (int i = 0; i < n; i++)
		for (const struct json *r = json_get(docs[i], "summary") ? json_get(docs[i], "summary")->child : NULL; r;
		     r = r->next) {
			int seen = 0;
			for (const struct json *s = sum->child; s && !seen; s = s->next)
				seen = !strcmp(json_get_str(s, "name", ""), json_get_str(r, "name", "?"));
			if (!seen)
				json_push(sum, merged_row(r, docs, n));
		}
	return b;
}

struct json *baseline_load(char *const *paths, int n, char *err, size_t en)
{
	struct json *docs[MAX_BASE] = { 0 }, *b;
	if (n > MAX_BASE) {
		snprintf(err, en, "more than %d runs", MAX_BASE);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		if (!(docs[i] = doc_load(paths[i], err, en))) {
			while (i--)
				json_free(docs[i]);
			return NULL;
		}
	b = baseline_merge(docs, n, paths);
	for (int i = 0; i < n; i++)
		json_free(docs[i]);
	return b;
}

/* the figures that move most between the runs, for the user to see what the gate will
 * call noise */
static void noisiest(const struct json *b, FILE *f)
{
	const struct json *top[3] = { 0 };
	double ts[3] = { 0 };
	for (const struct json *r = json_get(b, "summary")->child; r; r = r->next) {
		struct noise nz;
		if (!figure_headline(json_get_str(r, "name", ""), b))
			continue;
		figure_noise(r, 0, &nz);
		for (int k = 0; k < 3; k++)
			if (!top[k] || nz.sigma > ts[k]) {
				for (int j = 2; j > k; j--)
					top[j] = top[j - 1], ts[j] = ts[j - 1];
				top[k] = r;
				ts[k] = nz.sigma;
				break;
			}
	}
	for (int k = 0; k < 3 && top[k]; k++)
		fprintf(f, "  %-40s moves %.0f%% between runs\n", json_get_str(top[k], "name", "?"),
			100 * (exp(ts[k]) - 1));
}

static int baseline_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	char err[600], *tmp;
	const char *out = a->pos[0];
	struct json *b = baseline_load((char **)a->pos + 1, a->npos - 1, err, sizeof err);
	FILE *f;
	size_t len;
	int rc = EXIT_OK;
	if (!b) {
		errmsg("baseline: %s", err);
		return EXIT_USAGE;
	}
	tmp = malloc(strlen(out) + 8);
	sprintf(tmp, "%s.tmp", out);
	if (!(f = fopen(tmp, "w"))) {
		errmsg("baseline: %s:", out);
		rc = EXIT_USAGE;
	} else {
		char *s = json_to_string(b, 2, &len);
		if (!s || fwrite(s, 1, len, f) != len || fputc('\n', f) == EOF || fclose(f) || rename(tmp, out)) {
			errmsg("baseline: %s: %s", out, strerror(errno ? errno : EIO));
			unlink(tmp);
			rc = EXIT_SYS;
		}
		free(s);
	}
	if (!rc) {
		printf("%s: a baseline of %d run%s, %zu figures\n", out, a->npos - 1, a->npos > 2 ? "s" : "",
		       json_get(b, "summary")->n);
		if (a->npos > 2)
			noisiest(b, stdout);
		else
			printf("  one run: the gate uses its repeats, or each kind's default noise "
			       "(docs/results.md); more runs measure it\n");
	}
	free(tmp);
	json_free(b);
	return rc;
}

const struct command baseline_command = {
	.name = "baseline",
	.summary = "several runs made one baseline for certify's regression gate",
	.usage = "OUT.json RESULT...",
	.help = "Make one baseline of several runs of the same machine and settings (JSON results or\n"
		"console logs): each figure's value is the median of the runs', and its samples the runs'\n"
		"own, so the gate (certify --baseline OUT.json --max-regression 10%) knows how much each\n"
		"figure moves between runs on that machine.  Three runs or more; five are better.",
	.pos_min = 2,
	.pos_max = MAX_BASE + 1,
	.missing = "give the baseline file to write and the runs: assay baseline OUT.json R1.json R2.json R3.json",
	.main = baseline_main,
};
