/* The histogram follows fio's scheme; percentiles agree with a brute-force sort within
 * the bucket error; mean/stddev/merge agree with direct computation. */
#include "hist.h"
#include "unit.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(void)
{
	static struct hist h, a, b;
	enum { N = 200000 };
	static uint64_t v[N];
	double sum = 0, mean, var = 0;

	/* fio's index function: exact below 128, then 64 buckets per power of two */
	CHECK(hist_idx(0) == 0, "idx(0)");
	CHECK(hist_idx(127) == 127, "idx(127)=%u", hist_idx(127));
	CHECK(hist_idx(128) == 128, "idx(128)=%u", hist_idx(128));
	CHECK(hist_idx(255) == 191, "idx(255)=%u", hist_idx(255));
	CHECK(hist_idx(256) == 192, "idx(256)=%u", hist_idx(256));
	CHECK(hist_idx(UINT64_MAX) == HIST_NR - 1, "idx(max)");
	CHECK(HIST_NR == 1856, "1856 buckets");
	CHECK(hist_val(100) == 100, "val(100)");
	CHECK(hist_val(128) == 129, "val(128)=%llu (midpoint of 128..129)", (unsigned long long)hist_val(128));
	for (uint64_t x = 1; x < (1ull << 34); x = x * 3 + 7) {
		uint64_t m = hist_val(hist_idx(x));
		CHECK(fabs((double)m - (double)x) <= (double)x / 64.0 + 1, "val(idx(%llu))=%llu",
		      (unsigned long long)x, (unsigned long long)m);
	}

	/* percentiles vs sort: log-uniform latencies from 1 us to 100 ms */
	hist_init(&h);
	hist_init(&a);
	hist_init(&b);
	for (int i = 0; i < N; i++) {
		double e = 3 + 5 * (double)(next() % 1000000) / 1e6;
		v[i] = (uint64_t)pow(10, e);
		hist_add(&h, v[i]);
		hist_add(i % 3 ? &a : &b, v[i]);
		sum += (double)v[i];
	}
	qsort(v, N, sizeof v[0], cmp);
	mean = sum / N;
	for (int i = 0; i < N; i++)
		var += ((double)v[i] - mean) * ((double)v[i] - mean);
	var /= N - 1;
	for (int i = 0; i < HIST_NPCT; i++) {
		double p = hist_default_pcts[i];
		size_t rank = (size_t)ceil(p / 100.0 * N);
		uint64_t exact = v[rank ? rank - 1 : 0], got = hist_percentile(&h, p);
		CHECK(fabs((double)got - (double)exact) <= (double)exact / 64.0 + 1,
		      "p%g: hist %llu vs sorted %llu", p, (unsigned long long)got,
		      (unsigned long long)exact);
	}
	CHECK(h.m.n == N, "n");
	CHECK(h.m.min == v[0] && h.m.max == v[N - 1], "min/max");
	CHECK(fabs(h.m.mean - mean) < 1e-6 * mean, "mean %f vs %f", h.m.mean, mean);
	CHECK(fabs(moments_stddev(&h.m) - sqrt(var)) < 1e-6 * sqrt(var), "stddev %f vs %f",
	      moments_stddev(&h.m), sqrt(var));
	/* within-threshold counts and fio's latency distribution are exact */
	for (int t = 0; t < HIST_NTHRESH; t++) {
		uint64_t c = 0;
		for (int i = 0; i < N; i++)
			c += v[i] < hist_thresh_ns[t];
		CHECK(hist_below(&h, hist_thresh_ns[t]) == c, "within %llu ns: %llu vs %llu",
		      (unsigned long long)hist_thresh_ns[t],
		      (unsigned long long)hist_below(&h, hist_thresh_ns[t]), (unsigned long long)c);
	}
	for (int k = 0; k < HIST_NLAT; k++) {
		uint64_t lo = k ? hist_lat_edge_ns[k - 1] : 0, c = 0;
		for (int i = 0; i < N; i++)
			c += v[i] >= lo && (k == HIST_NLAT - 1 || v[i] < hist_lat_edge_ns[k]);
		CHECK(h.lat[k] == c, "latency bucket %d: %llu vs %llu", k, (unsigned long long)h.lat[k],
		      (unsigned long long)c);
	}
	/* the edges themselves: a value on an edge belongs to the bucket above it */
	{
		struct hist e;
		hist_init(&e);
		for (int k = 0; k < HIST_NLAT - 1; k++) {
			hist_add(&e, hist_lat_edge_ns[k] - 1);
			hist_add(&e, hist_lat_edge_ns[k]);
		}
		for (int k = 0; k < HIST_NLAT; k++)
			CHECK(e.lat[k] == (k == 0 || k == HIST_NLAT - 1 ? 1u : 2u), "edge bucket %d holds %llu",
			      k, (unsigned long long)e.lat[k]);
	}
	/* merging two halves gives the same as one histogram */
	hist_merge(&a, &b);
	CHECK(a.m.n == h.m.n && a.m.min == h.m.min && a.m.max == h.m.max, "merge n/min/max");
	CHECK(fabs(a.m.mean - h.m.mean) < 1e-6 * h.m.mean, "merge mean");
	CHECK(fabs(moments_stddev(&a.m) - moments_stddev(&h.m)) < 1e-6 * moments_stddev(&h.m), "merge stddev");
	CHECK(!memcmp(a.bins, h.bins, sizeof a.bins), "merge bins");
	CHECK(hist_percentile(&a, 99) == hist_percentile(&h, 99), "merge p99");
	/* empty */
	hist_init(&h);
	CHECK(hist_percentile(&h, 50) == 0 && moments_stddev(&h.m) == 0, "empty histogram");
	return unit_done();
}
