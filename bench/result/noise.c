/* One noise model for compare, report and certify (result.h, docs/results.md "Noise"):
 * how much a figure moves between runs of the same machine, as the standard deviation of
 * its natural log (0.05: about 5%).  From the figure's own samples when it has two or
 * more (the repeats of a run, or the runs of a baseline), else a default by the figure's
 * kind, measured on this project's emulated CI machine (bench/gate-check).  A run's
 * repeats share its boot, so their spread is never taken as smaller than the kind's
 * default unless the samples are whole runs. */
#include "result.h"

#include "json.h"
#include "stats.h"

#include <math.h>
#include <string.h>

/* the defaults: the spread between boots of the same image under QEMU/TCG on a loaded
 * 2-core host (docs/notes/2026-12-07-gate.md), rounded up */
static const struct kind {
	const char *what;         /* a pattern of names (names.c) */
	double sigma;
} kinds[] = {
	{ "cpu.*.*", 0.06 },                      /* events/s, scaling */
	{ "cpu.*", 0.06 },
	{ "mem.latency_ns.*", 0.15 },
	{ "mem.*.*", 0.30 },                      /* sysbench write, STREAM: TCG's memory moves most */
	{ "memtest.*", 0.30 },
	{ "disk.[*].*.[*].clat.p99", 0.40 },      /* a tail: the noisiest figure */
	{ "disk.[*].*.[*].clat.p50", 0.20 },
	{ "disk.[*].*.*.*.clat.p50", 0.20 },
	{ "disk.[*].*.[*].{bw,iops}", 0.15 },
	{ "net.*.*", 0.25 },
	{ "net.*.*.*", 0.25 },
	{ "net.*.*.*.*", 0.25 },
	{ "dns.*", 0.20 },
	{ NULL, 0.20 },                           /* anything else */
};

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
	*out = (struct noise){ dflt, INFINITY, n, 1, "default" };
	if (n >= 2) {
		double s = log_sd(v, n);
		if (!strcmp(kind, "runs")) {   /* whole runs: their spread is the thing itself */
			*out = (struct noise){ s, n - 1, n, n, "runs" };
		} else if (s > dflt) {
			out->sigma = s;
			out->df = n - 1;
			out->from = "repeats";
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
	if (!strcmp(na.from, "runs") && !strcmp(nb.from, "runs")) {   /* pooled */
		s = sqrt(((na.n - 1) * na.sigma * na.sigma + (nb.n - 1) * nb.sigma * nb.sigma) / (na.n + nb.n - 2));
		df = na.n + nb.n - 2;
	} else if (!strcmp(na.from, "runs") || !strcmp(nb.from, "runs")) {
		const struct noise *r = !strcmp(na.from, "runs") ? &na : &nb;
		s = r->sigma;
		df = r->df;
	} else {   /* one run each: the larger of their noises */
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
	d->from = !strcmp(na.from, "runs") || !strcmp(nb.from, "runs") ? "runs"
		  : !strcmp(na.from, "repeats") || !strcmp(nb.from, "repeats") ? "repeats" : "default";
}
