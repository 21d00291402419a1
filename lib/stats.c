#include "stats.h"
#include "json.h"

#include <math.h>

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
