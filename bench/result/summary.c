/* doc.summary made from a run's tests (result.h): each ok test's engine's figures, the
 * run's own (steal, CPU scaling), and the registry's figures of the whole document. */
#include "result.h"

#include "engine/engine.h"
#include "json.h"
#include "stats.h"

#include <string.h>

/* steal.max and steal.mean over every test's steal: the engines' figures and the run's
 * own measure of each test (tests[].steal_pct) */
static void steal_figures(const struct json *doc, struct json *sum)
{
	const struct json *tests = json_get(doc, "tests");
	double mx = -1, total = 0;
	int n = 0;
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next)
		if (json_get(t, "steal_pct") && !strcmp(json_get_str(t, "status", ""), "ok")) {
			double v = json_get_num(t, "steal_pct", 0);
			mx = v > mx ? v : mx;
			total += v;
			n++;
		}
	for (const struct json *r = sum->child; r; r = r->next) {
		const char *name = json_get_str(r, "name", "");
		if (strstr(name, ".steal") || !strncmp(name, "cpu.steal.", 10)) {
			double v = json_get_num(r, "value", 0);
			mx = v > mx ? v : mx;
			total += v;
			n++;
		}
	}
	if (n) {
		figure_add(sum, "steal.max", mx, "%", LOWER_BETTER);
		figure_add(sum, "steal.mean", total / n, "%", LOWER_BETTER);
	}
}

static double sum_value(const struct json *sum, const char *name, double dflt)
{
	for (const struct json *r = sum->child; r; r = r->next)
		if (!strcmp(json_get_str(r, "name", ""), name))
			return json_get_num(r, "value", dflt);
	return dflt;
}

/* cpu.scaling: all CPUs' events/s over one thread's (the multi-core scaling) */
static void scaling_figure(struct json *sum)
{
	double one = sum_value(sum, "cpu.events_per_sec.1t", 0);
	double all = sum_value(sum, "cpu.events_per_sec.all", 0);
	if (one > 0 && all > 0)
		figure_add(sum, "cpu.scaling", all / one, "x", HIGHER_BETTER);
}

/* a row measured several times (a test's repeats, assay run --repeat): one row, its value
 * the median, its samples kept (sample_kind "repeats") with their 95% CI */
static struct json *merged(const struct json *first, const struct json *all)
{
	double v[256], sv[256];
	int n = 0;
	struct json *row = json_copy(first), *arr;
	struct summary st;
	const char *name = json_get_str(first, "name", "");
	for (const struct json *r = all->child; r && n < 256; r = r->next)
		if (!strcmp(json_get_str(r, "name", ""), name)) {
			int k = figure_samples(r, sv, 256 - n);
			memcpy(v + n, sv, (size_t)k * sizeof *v);
			n += k;
		}
	if (n < 2)
		return row;
	json_free(json_detach(row, "value"));
	json_free(json_detach(row, "samples"));
	json_free(json_detach(row, "ci95_low"));
	json_free(json_detach(row, "ci95_high"));
	json_add_num(row, "value", stats_median(v, n));
	stats_summarize(v, n, &st);
	json_add_num(row, "ci95_low", st.ci95_low);
	json_add_num(row, "ci95_high", st.ci95_high);
	arr = json_add_arr(row, "samples");
	for (int i = 0; i < n; i++)
		json_push(arr, json_num(v[i]));
	json_add_str(row, "sample_kind", "repeats");
	return row;
}

/* sum's rows, each name once: those measured more than once merged */
static void merge_repeats(struct json *doc, struct json *all)
{
	struct json *sum = json_add_arr(doc, "summary");
	for (const struct json *r = all->child; r; r = r->next) {
		const char *name = json_get_str(r, "name", "");
		int seen = 0, again = 0;
		for (const struct json *p = all->child; p != r && !seen; p = p->next)
			seen = !strcmp(json_get_str(p, "name", ""), name);
		for (const struct json *q = r->next; q && !again; q = q->next)
			again = !strcmp(json_get_str(q, "name", ""), name);
		if (!seen)
			json_push(sum, again ? merged(r, all) : json_copy(r));
	}
	json_free(all);
}

void result_summary(struct json *doc)
{
	struct json *sum = json_arr();
	const struct json *tests = json_get(doc, "tests");
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const struct engine *e = engine_find(json_get_str(t, "engine", ""));
		const struct json *res = json_get(t, "result");
		/* a failed test's figures only when it says they stand (memtest's errors) */
		if (!e || !res || (strcmp(json_get_str(t, "status", ""), "ok") &&
				   !(json_get(res, "figures_valid") && json_get(res, "figures_valid")->b)))
			continue;
		if (e->figures)
			e->figures(res, json_get_str(t, "name", "?"), sum);
	}
	steal_figures(doc, sum);
	scaling_figure(sum);
	for (int i = 0; doc_figures[i]; i++)
		doc_figures[i]->figures(doc, sum);
	merge_repeats(doc, sum);
}

