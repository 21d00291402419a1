/* Latency histogram with fio's log-linear scheme (stat.h: FIO_IO_U_PLAT_BITS 6,
 * FIO_IO_U_PLAT_VAL 64, FIO_IO_U_PLAT_GROUP_NR 29 -> 1856 buckets of nanoseconds,
 * relative error ~1/128), plus exact min/max/mean/stddev (Welford, as fio) and exact
 * counts at fixed thresholds ("share done within 250 us"). */
#ifndef ASSAY_HIST_H
#define ASSAY_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_BITS   6
#define HIST_VAL    (1u << HIST_BITS)
#define HIST_GROUPS 29
#define HIST_NR     (HIST_GROUPS * HIST_VAL)

/* fio's latency distribution, counted exactly: buckets with exclusive upper edges
 * 2 4 10 20 50 100 250 500 750 1000 ns, the same in us, then 2 4 10 20 50 100 250 500
 * 750 1000 2000 ms and one for 2000 ms and over (fio's io_u_lat_n/u/m) */
#define HIST_NLAT 32
extern const uint64_t hist_lat_edge_ns[HIST_NLAT - 1];

static inline unsigned hist_lat_idx(uint64_t v)
{
	unsigned lo = 0, hi = HIST_NLAT - 1;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (v < hist_lat_edge_ns[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* thresholds of the "done within" shares, in ns (each one of the edges above) */
#define HIST_NTHRESH 6
extern const uint64_t hist_thresh_ns[HIST_NTHRESH];

/* count, min, max, mean and variance of samples (Welford, as fio's add_stat_sample) */
struct moments {
	uint64_t n;
	uint64_t min, max;
	double mean, m2;
};

struct hist {
	struct moments m;
	uint64_t lat[HIST_NLAT];         /* fio's latency distribution */
	uint64_t bins[HIST_NR];
};

void moments_init(struct moments *m);
void moments_merge(struct moments *d, const struct moments *s);
double moments_stddev(const struct moments *m);  /* n-1 denominator; 0 when n < 2 */

static inline void moments_add(struct moments *m, uint64_t v)
{
	double d = (double)v - m->mean;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
	m->n++;
	m->mean += d / (double)m->n;
	m->m2 += d * ((double)v - m->mean);
}

/* fio's default percentile list */
#define HIST_NPCT 17
extern const double hist_default_pcts[HIST_NPCT];

void hist_init(struct hist *h);
unsigned hist_idx(uint64_t v);
uint64_t hist_val(unsigned idx);        /* bucket midpoint, as fio reports */

static inline void hist_add(struct hist *h, uint64_t v)
{
	moments_add(&h->m, v);
	h->lat[hist_lat_idx(v)]++;
	h->bins[hist_idx(v)]++;
}

/* samples under ns, exactly when ns is one of hist_lat_edge_ns */
uint64_t hist_below(const struct hist *h, uint64_t ns);

void hist_merge(struct hist *dst, const struct hist *src);
/* fio's rule: the first bucket where the running count >= p/100 * n */
uint64_t hist_percentile(const struct hist *h, double p);

#endif
