/* doc.summary made from a run's tests (result.h): each ok test's engine's figures, the
 * run's own (steal, CPU scaling), and the registry's figures of the whole document. */
#include "result.h"

#include "engine/engine.h"
#include "json.h"

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

void result_summary(struct json *doc)
{
	struct json *sum = json_add_arr(doc, "summary");
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
}

