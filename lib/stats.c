#include "stats.h"
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double t95(int df)
{
	static const double t[] = {
		0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	if (df < 1)
		return NAN;
	if (df <= 30)
		return t[df];
	if (df <= 40)
		return 2.021;
	if (df <= 60)
		return 2.000;
	if (df <= 120)
		return 1.980;
	return 1.960;
}

void stats_summarize(const double *v, int n, struct summary *s)
{
	double sum = 0, ss = 0, half;
	s->n = n;
	s->mean = s->stddev = s->min = s->max = 0;
	s->ci95_low = s->ci95_high = NAN;
	if (n <= 0)
		return;
	s->min = s->max = v[0];
	for (int i = 0; i < n; i++) {
		sum += v[i];
		s->min = fmin(s->min, v[i]);
		s->max = fmax(s->max, v[i]);
	}
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	if (n > 1) {
		s->stddev = sqrt(ss / (n - 1));
		half = t95(n - 1) * s->stddev / sqrt((double)n);
		s->ci95_low = s->mean - half;
		s->ci95_high = s->mean + half;
	}
}

struct json *stats_json(const double *v, int n)
{
	struct summary s;
	struct json *o = json_obj(), *a;
	stats_summarize(v, n, &s);
	json_add_int(o, "n", n);
	json_add_num(o, "mean", s.mean);
	json_add_num(o, "stddev", s.stddev);
	json_add_num(o, "ci95_low", s.ci95_low);
	json_add_num(o, "ci95_high", s.ci95_high);
	json_add_num(o, "min", s.min);
	json_add_num(o, "max", s.max);
	a = json_add_arr(o, "values");
	for (int i = 0; i < n; i++)
		json_push(a, json_num(v[i]));
	return o;
}

/* the regularized incomplete beta function I_x(a, b), by its continued fraction (the modified
 * Lentz method), on the side where it converges fast */
static double ibeta(double x, double a, double b)
{
	double front, c = 1, d, f, tiny = 1e-300;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - ibeta(1 - x, b, a);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)) / a;
	d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	f = d;
	for (int m = 1; m <= 300; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = !odd ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
					  : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
			d = 1 + num * d;
			d = fabs(d) < tiny ? tiny : d;
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			d = 1 / d;
			f *= c * d;
		}
		if (fabs(c * d - 1) < 1e-12)
			break;
	}
	return front * f;
}

double t_sf(double t, double df)
{
	double p;
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(df))
		return 0.5 * erfc(t / sqrt(2));
	p = 0.5 * ibeta(df / (df + t * t), df / 2, 0.5);
	return t >= 0 ? p : 1 - p;
}

double t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;
	if (!(p > 0 && p < 1) || isnan(df) || df <= 0)
		return NAN;
	for (int i = 0; i < 200; i++) {   /* t_sf falls as t grows */
		double mid = (lo + hi) / 2;
		if (t_sf(mid, df) > 1 - p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double stats_median(const double *v, int n)
{
	double *c, m;
	if (n <= 0 || !(c = malloc((size_t)n * sizeof *c)))
		return NAN;
	memcpy(c, v, (size_t)n * sizeof *c);
	qsort(c, (size_t)n, sizeof *c, cmp_d);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}
