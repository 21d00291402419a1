/* assay run --suite=burnin (assay.suite=burnin assay.burnin=8h): a time-bounded loop that
 * stresses and checks at once.  Each round is the burn-in plan: the CPU tests (every
 * pass's answer verified), the memory test (a slice of time), the disks (a write pass
 * verified by CRC-32C on the disks --destroy names, a read-only surface scan on the
 * others), the network when a peer is given.  Health is watched throughout (child.c);
 * after each round the results so far are written where --results says, so a crash or a
 * power cut keeps what was done.  The loop ends after the round running at the deadline. */
#include "run_int.h"

#include "clock.h"
#include "json.h"
#include "msg.h"
#include "result/result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* a round's entry for doc.burnin.rounds: each test's status and what went wrong */
static struct json *round_entry(int round, double t_s, const struct json *tests, int *failed)
{
	struct json *r = json_obj(), *arr;
	json_add_int(r, "round", round);
	json_add_num(r, "started_s", t_s);
	arr = json_add_arr(r, "tests");
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		struct json *o = json_push(arr, json_obj());
		const char *st = json_get_str(t, "status", "?");
		json_add_str(o, "name", json_get_str(t, "name", "?"));
		json_add_str(o, "status", st);
		json_add_num(o, "elapsed_s", json_get_num(t, "elapsed_s", 0));
		if (json_get(t, "why"))
			json_add_str(o, "why", json_get_str(t, "why", ""));
		if (json_path(t, "health.temp_max_c"))
			json_add_num(o, "temp_max_c", json_path(t, "health.temp_max_c")->num);
		*failed += !strcmp(st, "failed");
	}
	return r;
}

/* each test's latest entry: the round's entries in place of the same tests' earlier ones */
static void keep_latest(struct json **latest, const struct json *round)
{
	struct json *next = json_arr();
	for (const struct json *t = (*latest)->child; t; t = t->next) {
		const struct json *newer = NULL;
		for (const struct json *r = round->child; r && !newer; r = r->next)
			if (!strcmp(json_get_str(r, "name", ""), json_get_str(t, "name", "")))
				newer = r;
		json_push(next, json_copy(newer ? newer : t));
	}
	for (const struct json *r = round->child; r; r = r->next) {   /* tests not seen before */
		int seen = 0;
		for (const struct json *t = (*latest)->child; t && !seen; t = t->next)
			seen = !strcmp(json_get_str(r, "name", ""), json_get_str(t, "name", ""));
		if (!seen)
			json_push(next, json_copy(r));
	}
	json_free(*latest);
	*latest = next;
}

int burnin_loop(const struct run_cfg *c, const struct run_plan *plan, struct json *doc, struct json **tests,
		FILE *txt, struct health_run *health)
{
	struct json *b = json_add_obj(doc, "burnin"), *rounds;
	double t0 = now_s(), deadline = t0 + c->burnin, last_write = t0;
	int round = 0, complete = 0, failed = 0, failed_last = 0;
	json_add_num(b, "asked_s", c->burnin);
	rounds = json_add_arr(b, "rounds");
	/* rounds while the length lasts: no test starts after it, the one running then ends */
	while (round == 0 || now_s() < deadline) {
		struct json *ts = json_arr();
		double left = deadline - now_s();
		round++;
		fprintf(stderr, "burn-in: round %d, %.0f s done, %.0f s left\n", round, now_s() - t0, left > 0 ? left : 0);
		run_tests(c, plan, ts, txt, health, 0, deadline);
		complete += (int)ts->n == plan->n;
		json_push(rounds, round_entry(round, now_s() - t0, ts, &failed));
		keep_latest(tests, ts);
		json_free(ts);
		/* the results so far, every few minutes (and after the first round) */
		if (strcmp(c->results, "none") && (round == 1 || now_s() - last_write >= 300) && now_s() < deadline) {
			run_store_interim(c, doc, *tests);
			last_write = now_s();
		}
	}
	for (const struct json *t = (*tests)->child; t; t = t->next)
		failed_last += !strcmp(json_get_str(t, "status", ""), "failed");
	json_add_int(b, "rounds_done", round);
	json_add_int(b, "rounds_complete", complete);
	json_add_num(b, "duration_s", now_s() - t0);
	json_add_int(b, "failed_tests", failed);
	fprintf(stderr, "burn-in: %d rounds (%d whole) in %.0f s, %d failed tests\n", round, complete, now_s() - t0,
		failed);
	return failed_last;
}

/* burnin.rounds, burnin.failed_tests (every round's, not only the last's) */
static void burnin_figures(const struct json *doc, struct json *sum)
{
	const struct json *b = json_get(doc, "burnin");
	struct json *row;
	char detail[400] = "";
	if (!b)
		return;
	figure_add(sum, "burnin.rounds", json_get_num(b, "rounds_done", 0), "count", HIGHER_BETTER);
	for (const struct json *r = json_get(b, "rounds") ? json_get(b, "rounds")->child : NULL; r; r = r->next)
		for (const struct json *t = json_get(r, "tests") ? json_get(r, "tests")->child : NULL; t; t = t->next)
			if (!strcmp(json_get_str(t, "status", ""), "failed") && strlen(detail) < 300)
				snprintf(detail + strlen(detail), sizeof detail - strlen(detail), "%sround %.0f %s: %.60s",
					 detail[0] ? "; " : "", json_get_num(r, "round", 0), json_get_str(t, "name", "?"),
					 json_get_str(t, "why", ""));
	row = figure_add(sum, "burnin.failed_tests", json_get_num(b, "failed_tests", 0), "count", LOWER_BETTER);
	if (detail[0])
		json_add_str(row, "detail", detail);
	{
		/* no failure counts for a burn-in only over one whole round of every test */
		struct json *cv = json_add_obj(row, "coverage");
		char what[120];
		snprintf(what, sizeof what, "%.0f rounds, %.0f whole, in %.0f of %.0f s", json_get_num(b, "rounds_done", 0),
			 json_get_num(b, "rounds_complete", 0), json_get_num(b, "duration_s", 0), json_get_num(b, "asked_s", 0));
		json_add_bool(cv, "complete", json_get_num(b, "rounds_complete", 0) >= 1);
		json_add_str(cv, "what", what);
	}
}

static const char *const burnin_names[] = { "burnin.{rounds,failed_tests}", NULL };

/* the registry's row: the burn-in's figures are the document's, not one test's */
const struct doc_figures burnin_doc_figures = { "burnin", NULL, burnin_names, burnin_figures };
