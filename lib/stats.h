/* Statistics across repeats: mean, sample stddev and the 95% confidence interval of
 * the mean (Student's t). */
#ifndef ASSAY_STATS_H
#define ASSAY_STATS_H

struct json;

struct summary {
	int n;
	double mean, stddev, ci95_low, ci95_high, min, max;
};

void stats_summarize(const double *v, int n, struct summary *s);
/* {n, mean, stddev, ci95_low, ci95_high, min, max, values[]} */
struct json *stats_json(const double *v, int n);
/* two-sided 95% critical value of Student's t with df degrees of freedom */
double t95(int df);

/* Student's t with df degrees of freedom (INFINITY: the normal distribution): P(T > t),
 * and the t with P(T <= t) = p */
double t_sf(double t, double df);
double t_quantile(double p, double df);
/* the median of n values (NAN for none) */
double stats_median(const double *v, int n);

#endif
