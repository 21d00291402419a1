/* One noise model for compare, report and certify (result.h, docs/results.md "Noise"):
 * how much a figure moves between runs of the same machine, as the standard deviation of
 * its natural log (0.05: about 5%).  From the figure's own samples when it has two or
 * more (the repeats of a run, or the runs of a baseline), never below a floor by the
 * figure's kind: the spread between boots of one image measured over 20 boots on this
 * project's emulated CI machine (bench/gate-check).  Repeats share a boot, and a few runs
 * made one after another share the machine's load of that hour: both undercut the spread
 * a later run meets (docs/notes/2026-12-07-gate.md). */
#include "result.h"

#include "json.h"
#include "stats.h"

#include <math.h>
#include <string.h>

/* the floors: the spread (sd of the log) between the same image's boots under QEMU/TCG on
 * a shared 2-core host, the larger of two sessions of 20 boots, one on a quiet machine and
 * one beside the machine's other work (docs/notes/2026-12-07-gate.md), rounded up; the
 * percent is exp(sd) - 1 as measured.  Network and DNS not measured there: a guess. */
static const struct kind {
	const char *what;         /* a pattern of names (names.c) */
	double sigma;
} kinds[] = {
	{ "cpu.latency_p95.*", 0.70 },            /* 28%, loaded 101% */
	{ "cpu.*.*", 0.35 },                      /* events/s 13-22%, loaded 27-40% */
	{ "cpu.*", 0.35 },                        /* scaling 19%, loaded 25% */
	{ "mem.latency_ns.*", 0.72 },             /* 3% in a cache, up to 73% at 2m; loaded 103% */
	{ "mem.mib_per_sec.*", 0.32 },            /* sysbench write 17-25%, loaded 33-36% */
	{ "mem.*.*", 0.22 },                      /* STREAM 11-17%, loaded 12-23% */
	{ "memtest.*", 0.32 },                    /* as the write (not measured apart) */
	{ "disk.[*].*.[*].clat.p99", 1.00 },      /* a tail: 37-52%, loaded 79-170% */
	{ "disk.[*].*.*.*.clat.p99", 1.00 },
	{ "disk.[*].*.[*].clat.p50", 0.40 },      /* 11-23%, loaded 11-48% */
	{ "disk.[*].*.*.*.clat.p50", 0.40 },
	{ "disk.[*].seq.[*].{bw,iops}", 0.52 },   /* sequential 23%, loaded 67% */
	{ "disk.[*].*.[*].{bw,iops}", 0.32 },     /* QD1, QD8 11-12%, loaded 36-37% */
	{ "net.*.*", 0.30 },
	{ "net.*.*.*", 0.30 },
	{ "net.*.*.*.*", 0.30 },
	{ "dns.*", 0.30 },
	{ NULL, 0.30 },                           /* anything else */
};

/* how well a floor is known: measured over 20 boots */
#define FLOOR_DF 19

double noise_default(const char *name, const char *unit)
{
	if (unit && (!strcmp(unit, "count") || !strcmp(unit, "errors")))
		return 0;   /* counted, not measured: any change is real */
	for (const struct kind *k = kinds; k->what; k++)
		if (figure_pattern_match(k->what, name))
			return k->sigma;
	return kinds[sizeof kinds / sizeof kinds[0] - 1].sigma;
}

int figure_samples(const struct json *row, double *v, int max)
{
	const struct json *s = json_get(row, "samples");
	int n = 0;
	for (const struct json *e = s ? s->child : NULL; e && n < max; e = e->next)
		if (e->type == J_NUM && e->num > 0)
			v[n++] = e->num;
	if (!n && json_get(row, "value") && json_get_num(row, "value", 0) > 0 && max > 0)
		v[n++] = json_get_num(row, "value", 0);
	return n;
}

/* the standard deviation of the logs of n positive values */
static double log_sd(const double *v, int n)
{
	double m = 0, ss = 0;
	for (int i = 0; i < n; i++)
		m += log(v[i]);
	m /= n;
	for (int i = 0; i < n; i++)
		ss += (log(v[i]) - m) * (log(v[i]) - m);
	return n > 1 ? sqrt(ss / (n - 1)) : NAN;
}

void figure_noise(const struct json *row, double noise_pct, struct noise *out)
{
	double v[256], dflt;
	const char *name = json_get_str(row, "name", ""), *kind = json_get_str(row, "sample_kind", "repeats");
	int n = figure_samples(row, v, 256);
	dflt = noise_pct > 0 ? log1p(noise_pct / 100) : noise_default(name, json_get_str(row, "unit", ""));
	*out = (struct noise){ dflt, noise_pct > 0 ? INFINITY : FLOOR_DF, n, 1, "default", NAN };
	if (n >= 2) {
		int runs = !strcmp(kind, "runs");
		out->measured = log_sd(v, n);
		out->runs = runs ? n : 1;
		if (out->measured > dflt) {
			out->sigma = out->measured;
			out->df = n - 1;
			out->from = runs ? "runs" : "repeats";
		}
	}
}

double figure_level(const struct json *row)
{
	double v[256];
	int n = figure_samples(row, v, 256);
	if (n < 2)
		return json_get_num(row, "value", NAN);
	double m = 0;
	for (int i = 0; i < n; i++)
		m += log(v[i]);
	return exp(m / n);
}

void noise_diff(const struct json *a, const struct json *b, double noise_pct, struct diff *d)
{
	struct noise na, nb;
	double s, df;
	figure_noise(a, noise_pct, &na);
	figure_noise(b, noise_pct, &nb);
	{   /* the larger of their noises (each at least its kind's floor) */
		const struct noise *m = na.sigma >= nb.sigma ? &na : &nb;
		s = m->sigma;
		df = m->df;
	}
	d->log_ratio = log(figure_level(a) / figure_level(b));
	d->sigma = s;
	d->df = df;
	d->se = s * sqrt(1.0 / na.runs + 1.0 / nb.runs);
	d->t = d->se > 0 ? d->log_ratio / d->se : d->log_ratio > 0 ? INFINITY : d->log_ratio < 0 ? -INFINITY : 0;
	d->p_above = isfinite(d->t) ? t_sf(d->t, df) : d->t > 0 ? 0 : 1;
	d->from = na.sigma >= nb.sigma ? na.from : nb.from;
	/* what the runs of a baseline measured, when below the floor: said beside it */
	d->measured = !isnan(na.measured) && na.runs > 1 ? na.measured : !isnan(nb.measured) && nb.runs > 1 ? nb.measured
		      : NAN;
}
