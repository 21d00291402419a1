/* The regression gate (certify --baseline, docs/results.md "The gate"): each figure of a
 * result against the baseline's, in the noise model (result/noise.c).  A figure regresses
 * when it is worse than its limit AND the worsening is beyond its noise: Student's t on
 * the log of the ratio, one-sided, the family's error held at 5% over every figure compared
 * (Holm's step-down).  Worse than the limit but within the noise: INCONCLUSIVE, never a
 * silent PASS nor a FAIL on noise. */
#include "gate.h"

#include "json.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GATE_ALPHA 0.05   /* the family's error: a false FAIL in at most 1 of 20 comparisons */

/* how much worse now is than then (percent; <= 0: as good or better) */
double gate_worse_pct(double now, double then, enum better b)
{
	if (!isfinite(now) || !isfinite(then) || then == 0)
		return NAN;
	return 100 * (b == LOWER_BETTER ? now - then : then - now) / fabs(then);
}

void gate_add(struct gate *g, struct json *o, const char *name, const struct json *now, const struct json *then,
	      double mult, double limit_pct, double noise_pct)
{
	struct gate_item *it;
	struct json *nowc, *thenc;
	struct diff d;
	enum better b = figure_better(now);
	double vnow = figure_level(now), vthen = figure_level(then) * mult;
	if (g->n >= GATE_MAX)
		return;
	it = &g->it[g->n++];
	memset(it, 0, sizeof *it);
	it->o = o;
	snprintf(it->name, sizeof it->name, "%s", name);
	snprintf(it->unit, sizeof it->unit, "%s", json_get_str(now, "unit", ""));
	it->now = vnow;
	it->then = vthen;
	it->limit = limit_pct;
	it->worse = gate_worse_pct(vnow, vthen, b);
	/* the baseline's row in the result's unit: its samples scaled, for the noise */
	thenc = json_copy(then);
	nowc = json_copy(now);
	if (mult != 1) {
		struct json *s = json_detach(thenc, "samples");
		struct json *arr = json_add_arr(thenc, "samples");
		for (const struct json *e = s ? s->child : NULL; e; e = e->next)
			json_push(arr, json_num(e->num * mult));
		json_free(s);
		json_free(json_detach(thenc, "value"));
		json_add_num(thenc, "value", json_get_num(then, "value", 0) * mult);
	}
	noise_diff(nowc, thenc, noise_pct, &d);
	json_free(nowc);
	json_free(thenc);
	it->sigma = d.sigma;
	it->from = d.from;
	it->measured = d.measured;
	/* the worsening's t: the log ratio, turned so that worse is positive */
	it->p = b == LOWER_BETTER ? d.p_above : isfinite(d.t) ? t_sf(-d.t, d.df) : d.t < 0 ? 0 : 1;
	if (!(vnow > 0 && vthen > 0) || d.se <= 0)
		it->p = it->worse > 0 ? 0 : 1;   /* a count, or zero: any worsening is real */
}

static int by_p(const void *a, const void *b)
{
	const struct gate_item *x = *(const struct gate_item *const *)a, *y = *(const struct gate_item *const *)b;
	return x->p < y->p ? -1 : x->p > y->p;
}

/* the noise in words: "moves 12% between runs (3 runs of the baseline)" */
static void noise_words(const struct gate_item *it, char *b, size_t n)
{
	double pct = 100 * (exp(it->sigma) - 1);
	if (!strcmp(it->from, "runs"))
		snprintf(b, n, "moves %.0f%% between the baseline's runs", pct);
	else if (!strcmp(it->from, "repeats"))
		snprintf(b, n, "moves %.0f%% between repeats", pct);
	else if (!isnan(it->measured))   /* a few runs in a row undercut what later runs meet */
		snprintf(b, n, "moves about %.0f%% between runs (its kind's floor; the baseline's runs: %.0f%%)", pct,
			 100 * (exp(it->measured) - 1));
	else
		snprintf(b, n, "moves about %.0f%% between runs (its kind's floor)", pct);
}

void gate_decide(struct gate *g, FILE *f, int *failed, int *inconclusive)
{
	struct gate_item *order[GATE_MAX];
	int significant = 1;
	for (int i = 0; i < g->n; i++)
		order[i] = &g->it[i];
	qsort(order, (size_t)g->n, sizeof *order, by_p);
	/* Holm: the k-th smallest p against alpha / (m - k), until one is not below */
	for (int k = 0; k < g->n; k++) {
		struct gate_item *it = order[k];
		significant = significant && it->p <= GATE_ALPHA / (g->n - k);
		it->verdict = !isfinite(it->worse) || it->worse <= it->limit ? GATE_PASS
			      : significant ? GATE_FAIL : GATE_INCONCLUSIVE;
	}
	for (int i = 0; i < g->n; i++) {
		struct gate_item *it = &g->it[i];
		char meas[300], nw[120], rule[200], then[40], now[40];
		const char *res = it->verdict == GATE_PASS ? "PASS" : it->verdict == GATE_FAIL ? "FAIL" : "INCONCLUSIVE";
		noise_words(it, nw, sizeof nw);
		snprintf(rule, sizeof rule, "regression %s <= %g%%", it->name, it->limit);
		figure_num(then, sizeof then, it->then);
		figure_num(now, sizeof now, it->now);
		snprintf(meas, sizeof meas, "%s -> %s %s (%s%.1f%%)", then, now, it->unit,
			 it->worse > 0 ? "worse " : "better ", fabs(isfinite(it->worse) ? it->worse : 0));
		json_add_str(it->o, "rule", rule);
		json_add_num(it->o, "measured", it->now);
		json_add_num(it->o, "baseline", it->then);
		json_add_str(it->o, "unit", it->unit);
		json_add_num(it->o, "worse_pct", isfinite(it->worse) ? it->worse : 0);
		json_add_num(it->o, "noise_pct", 100 * (exp(it->sigma) - 1));
		json_add_str(it->o, "noise_from", it->from);
		json_add_num(it->o, "p", it->p);
		json_add_str(it->o, "result", res);
		*failed += it->verdict == GATE_FAIL;
		*inconclusive += it->verdict == GATE_INCONCLUSIVE;
		if (!f)
			continue;
		if (it->verdict == GATE_INCONCLUSIVE)
			fprintf(f, "INCONCLUSIVE: %s %s: it %s; make the baseline of more runs (assay baseline) or "
				"give --repeat=5\n", it->name, meas, nw);
		else if (it->verdict == GATE_FAIL)
			fprintf(f, "FAIL  %-44s %s: beyond its noise (it %s; p=%.2g)\n", rule, meas, nw, it->p);
		else
			fprintf(f, "PASS  %-44s %s\n", rule, meas);
	}
}
