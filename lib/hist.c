#include "hist.h"

#include <math.h>
#include <string.h>

const uint64_t hist_lat_edge_ns[HIST_NLAT - 1] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
	2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000, 1000000,
	2000000, 4000000, 10000000, 20000000, 50000000, 100000000, 250000000, 500000000,
	750000000, 1000000000, 2000000000,
};

const uint64_t hist_thresh_ns[HIST_NTHRESH] = {
	100000, 250000, 500000, 1000000, 10000000, 100000000,
};

const double hist_default_pcts[HIST_NPCT] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
	h->m.min = UINT64_MAX;
}

unsigned hist_idx(uint64_t v)
{
	unsigned msb = v ? 63u - (unsigned)__builtin_clzll(v) : 0;
	unsigned eb, idx;
	if (msb <= HIST_BITS)
		return (unsigned)v;
	eb = msb - HIST_BITS;
	idx = ((eb + 1) << HIST_BITS) + (unsigned)((v >> eb) & (HIST_VAL - 1));
	return idx < HIST_NR - 1 ? idx : HIST_NR - 1;
}

uint64_t hist_val(unsigned idx)
{
	unsigned eb;
	uint64_t base, k;
	if (idx < (HIST_VAL << 1))
		return idx;
	eb = (idx >> HIST_BITS) - 1;
	base = 1ull << (eb + HIST_BITS);
	k = idx % HIST_VAL;
	return base + (uint64_t)((k + 0.5) * (double)(1ull << eb));
}

void moments_init(struct moments *m)
{
	memset(m, 0, sizeof *m);
	m->min = UINT64_MAX;
}

/* Chan et al.'s pairwise update */
void moments_merge(struct moments *d, const struct moments *s)
{
	uint64_t n;
	double delta;
	if (!s->n)
		return;
	n = d->n + s->n;
	delta = s->mean - d->mean;
	d->m2 += s->m2 + delta * delta * (double)d->n * (double)s->n / (double)n;
	d->mean += delta * (double)s->n / (double)n;
	d->n = n;
	if (s->min < d->min)
		d->min = s->min;
	if (s->max > d->max)
		d->max = s->max;
}

double moments_stddev(const struct moments *m)
{
	return m->n > 1 ? sqrt(m->m2 / (double)(m->n - 1)) : 0;
}

void hist_merge(struct hist *d, const struct hist *s)
{
	if (!s->m.n)
		return;
	moments_merge(&d->m, &s->m);
	for (int i = 0; i < HIST_NLAT; i++)
		d->lat[i] += s->lat[i];
	for (unsigned i = 0; i < HIST_NR; i++)
		d->bins[i] += s->bins[i];
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	long double want = (long double)p / 100.0L * (long double)h->m.n;
	uint64_t sum = 0;
	if (!h->m.n)
		return 0;
	for (unsigned i = 0; i < HIST_NR; i++) {
		sum += h->bins[i];
		if (h->bins[i] && (long double)sum >= want)
			return hist_val(i);
	}
	return hist_val(HIST_NR - 1);
}

uint64_t hist_below(const struct hist *h, uint64_t ns)
{
	uint64_t n = 0;
	for (int i = 0; i < HIST_NLAT - 1 && hist_lat_edge_ns[i] <= ns; i++)
		n += h->lat[i];
	return n;
}
