/* The noise model and certify's gate on worked numbers: Student's t's tail against its
 * tables, the median, a figure's noise from its samples never below its kind's floor (CPU:
 * 0.35 of its log, known from 20 boots: 19 degrees of freedom), and the gate's three
 * verdicts with Holm's step-down over several figures. */
#include "json.h"
#include "report/gate.h"
#include "result/result.h"
#include "stats.h"
#include "unit.h"

#include <math.h>
#include <string.h>

/* a summary row: name, unit, better, and samples (n values; kind "runs" or "repeats") */
static struct json *row(const char *name, const char *unit, const char *better, const double *v, int n,
			const char *kind)
{
	struct json *r = json_obj(), *s;
	json_add_str(r, "name", name);
	json_add_num(r, "value", stats_median(v, n));
	json_add_str(r, "unit", unit);
	json_add_str(r, "better", better);
	if (n > 1) {
		s = json_add_arr(r, "samples");
		for (int i = 0; i < n; i++)
			json_push(s, json_num(v[i]));
		json_add_str(r, "sample_kind", kind);
	}
	return r;
}

static int decide(struct json *now, struct json *then, double limit, int *fail, int *unsure)
{
	struct gate *g = calloc(1, sizeof *g);
	struct json *o = json_obj();
	int v;
	*fail = *unsure = 0;
	gate_add(g, o, json_get_str(now, "name", "?"), now, then, 1, limit, 0);
	gate_decide(g, NULL, fail, unsure);
	v = g->it[0].verdict;
	json_free(o);
	free(g);
	return v;
}

int main(void)
{
	/* t's upper tail: the tables' two-sided 5% values give 0.025 */
	CHECK(fabs(t_sf(12.706, 1) - 0.025) < 1e-4, "t(1) 12.706: %g", t_sf(12.706, 1));
	CHECK(fabs(t_sf(2.776, 4) - 0.025) < 1e-4, "t(4) 2.776: %g", t_sf(2.776, 4));
	CHECK(fabs(t_sf(2.042, 30) - 0.025) < 1e-4, "t(30) 2.042: %g", t_sf(2.042, 30));
	CHECK(fabs(t_sf(1.96, INFINITY) - 0.025) < 1e-4, "normal 1.96: %g", t_sf(1.96, INFINITY));
	CHECK(fabs(t_sf(0, 3) - 0.5) < 1e-12 && fabs(t_sf(-2.776, 4) - 0.975) < 1e-4, "t's middle and left");
	CHECK(fabs(t_quantile(0.975, 4) - 2.776) < 1e-3 && fabs(t_quantile(0.995, 2) - 9.925) < 1e-3,
	      "quantiles: %g %g", t_quantile(0.975, 4), t_quantile(0.995, 2));
	{
		double v[] = { 5, 1, 4, 2, 3 }, w[] = { 4, 1, 3, 2 };
		CHECK(stats_median(v, 5) == 3 && stats_median(w, 4) == 2.5 && isnan(stats_median(v, 0)), "medians");
	}
	{
		/* noise: the kind's floor, samples above it (repeats or runs) taken as they are */
		double one[] = { 1000 }, tight[] = { 1000, 1001, 999 }, wide[] = { 500, 1000, 1700 };
		struct noise nz;
		struct json *r = row("cpu.events_per_sec.1t", "events/s", "higher", one, 1, "repeats");
		figure_noise(r, 0, &nz);
		CHECK(!strcmp(nz.from, "default") && nz.sigma == noise_default("cpu.events_per_sec.1t", "events/s") &&
		      nz.df == 19, "one value: the floor (%s %g)", nz.from, nz.sigma);
		json_free(r);
		r = row("cpu.events_per_sec.1t", "events/s", "higher", tight, 3, "repeats");
		figure_noise(r, 0, &nz);
		CHECK(!strcmp(nz.from, "default"), "tight repeats do not undercut the default: %s", nz.from);
		json_free(r);
		r = row("cpu.events_per_sec.1t", "events/s", "higher", wide, 3, "repeats");
		figure_noise(r, 0, &nz);
		CHECK(!strcmp(nz.from, "repeats") && nz.df == 2 && nz.sigma > 0.5, "wide repeats: %s %g", nz.from, nz.sigma);
		json_free(r);
		r = row("cpu.events_per_sec.1t", "events/s", "higher", tight, 3, "runs");
		figure_noise(r, 0, &nz);
		CHECK(!strcmp(nz.from, "default") && nz.runs == 3 && nz.measured < 0.01 &&
		      nz.sigma == noise_default("cpu.events_per_sec.1t", "events/s"),
		      "tight runs: the floor (%s %g, measured %g)", nz.from, nz.sigma, nz.measured);
		json_free(r);
		r = row("cpu.events_per_sec.1t", "events/s", "higher", wide, 3, "runs");
		figure_noise(r, 0, &nz);
		CHECK(!strcmp(nz.from, "runs") && nz.runs == 3 && nz.df == 2, "wide runs: %s %g", nz.from, nz.sigma);
		json_free(r);
		r = row("cpu.events_per_sec.1t", "events/s", "higher", tight, 3, "runs");
		figure_noise(r, 2, &nz);
		CHECK(!strcmp(nz.from, "default") && fabs(nz.sigma - log(1.02)) < 1e-12, "--noise 2: %g", nz.sigma);
		json_free(r);
		CHECK(noise_default("disk.scan.errors", "errors") == 0 && noise_default("disk.vdb.qd1.read.clat.p99", "us") >
		      noise_default("disk.qd1.read.iops", "IOPS"), "kinds: counts exact, tails noisier");
	}
	{
		/* the gate: a baseline of 5 runs spread ~1% (the floor, 0.35, stands); a run at a
		 * quarter of its speed fails, 5% slower passes (within the limit), 30% slower is
		 * inconclusive (within the floor), and half against a spread of ~40% too */
		double base[] = { 1000, 1010, 990, 1005, 995 }, noisy[] = { 1000, 1600, 600, 1300, 700 };
		double slow[] = { 250 }, same[] = { 950 }, bit[] = { 700 }, half[] = { 500 };
		int fail, unsure;
		struct json *b = row("cpu.events_per_sec.1t", "events/s", "higher", base, 5, "runs");
		struct json *bn = row("cpu.events_per_sec.1t", "events/s", "higher", noisy, 5, "runs");
		struct json *s = row("cpu.events_per_sec.1t", "events/s", "higher", slow, 1, "repeats");
		struct json *m = row("cpu.events_per_sec.1t", "events/s", "higher", same, 1, "repeats");
		struct json *bb = row("cpu.events_per_sec.1t", "events/s", "higher", bit, 1, "repeats");
		struct json *h = row("cpu.events_per_sec.1t", "events/s", "higher", half, 1, "repeats");
		CHECK(decide(s, b, 10, &fail, &unsure) == GATE_FAIL && fail == 1, "a quarter, quiet baseline: FAIL");
		CHECK(decide(m, b, 10, &fail, &unsure) == GATE_PASS && !fail && !unsure, "5%% slower: PASS");
		CHECK(decide(bb, b, 10, &fail, &unsure) == GATE_INCONCLUSIVE && unsure == 1, "30%% slower: INCONCLUSIVE");
		CHECK(decide(h, bn, 10, &fail, &unsure) == GATE_INCONCLUSIVE && unsure == 1, "half, noisy baseline: INCONCLUSIVE");
		json_free(bb);
		json_free(h);
		/* lower is better: a latency 20x up beyond its floor (a tail's: 1.0) fails */
		double lb[] = { 100, 101, 99 }, lnow[] = { 2000 };
		struct json *l1 = row("disk.qd1.read.clat.p99", "us", "lower", lb, 3, "runs");
		struct json *l2 = row("disk.qd1.read.clat.p99", "us", "lower", lnow, 1, "repeats");
		CHECK(decide(l2, l1, 10, &fail, &unsure) == GATE_FAIL, "latency 20x: FAIL");
		CHECK(decide(l1, l2, 10, &fail, &unsure) == GATE_PASS, "latency a twentieth: PASS");
		/* one run against one: the kinds' floors decide (CPU a quarter: beyond 0.35 x sqrt 2) */
		struct json *b1 = row("cpu.events_per_sec.1t", "events/s", "higher", base, 1, "repeats");
		CHECK(decide(s, b1, 10, &fail, &unsure) == GATE_FAIL, "one against one, a quarter of the CPU: FAIL");
		json_free(b), json_free(bn), json_free(s), json_free(m), json_free(l1), json_free(l2), json_free(b1);
	}
	{
		/* Holm: ten figures each a little beyond the limit at p near 0.02 are not all
		 * significant together; one far beyond is */
		struct gate *g = calloc(1, sizeof *g);
		double base[] = { 1000, 1050, 950 }, bit[] = { 411 }, far[] = { 100 };
		struct json *b = row("cpu.events_per_sec.1t", "events/s", "higher", base, 3, "runs");
		struct json *o = json_obj();
		int fail = 0, unsure = 0;
		for (int i = 0; i < 10; i++) {
			struct json *r = row("cpu.events_per_sec.1t", "events/s", "higher", bit, 1, "repeats");
			gate_add(g, o, "cpu.events_per_sec.1t", r, b, 1, 10, 0);
			json_free(r);
		}
		{
			struct json *r = row("cpu.events_per_sec.1t", "events/s", "higher", far, 1, "repeats");
			gate_add(g, o, "cpu.events_per_sec.1t", r, b, 1, 10, 0);
			json_free(r);
		}
		CHECK(g->it[0].p > 0.005 && g->it[0].p < 0.05, "a little beyond: p %g", g->it[0].p);
		gate_decide(g, NULL, &fail, &unsure);
		CHECK(fail == 1 && unsure == 10 && g->it[10].verdict == GATE_FAIL, "Holm: %d failed, %d inconclusive", fail,
		      unsure);
		json_free(b);
		json_free(o);
		free(g);
	}
	return unit_done();
}
