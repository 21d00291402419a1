/* The I/O generator: offsets aligned to bs and inside the region, sequential order,
 * size limits, rwmix ratio, and a fixed seed repeating the same sequence. */
#include "disk/job.h"
#include "unit.h"

#include <math.h>
#include <string.h>

static struct job mkjob(int rw, uint64_t bs, uint64_t offset, uint64_t size, int time_based, int mix)
{
	struct job j;
	memset(&j, 0, sizeof j);
	j.rw = rw;
	j.bs = bs;
	j.offset = offset;
	j.size = size;
	j.o.time_based = time_based;
	j.o.rwmixread = mix;
	j.randseed = 0x89;
	return j;
}

int main(void)
{
	struct iogen g, g2;
	int ddir, d2;
	uint64_t off, o2, n, len;

	/* random: aligned, in range, every block reachable, seed-determined */
	{
		struct job j = mkjob(RW_RANDREAD, 4096, 1 << 20, 64 << 20, 1, 0);
		static unsigned char hit[16384];
		uint64_t distinct = 0;
		iogen_init(&g, &j, 0);
		iogen_init(&g2, &j, 0);
		for (n = 0; n < 400000 && iogen_next(&g, &ddir, &off, &len); n++) {
			CHECK(off % 4096 == 0, "offset %llu not aligned", (unsigned long long)off);
			CHECK(off >= (1 << 20) && off + 4096 <= (1 << 20) + (64 << 20), "offset %llu out of range",
			      (unsigned long long)off);
			CHECK(ddir == DDIR_READ, "randread gave a write");
			iogen_next(&g2, &d2, &o2, &len);
			CHECK(o2 == off, "same seed, different sequence at %llu", (unsigned long long)n);
			if (!hit[(off - (1 << 20)) / 4096]++)
				distinct++;
			if (unit_failures > 5)
				return unit_done();
		}
		CHECK(n == 400000, "time_based random stopped early (%llu)", (unsigned long long)n);
		CHECK(distinct > 16384 * 0.99, "only %llu of 16384 blocks hit", (unsigned long long)distinct);
		iogen_init(&g2, &j, 1);
		iogen_init(&g, &j, 0);
		iogen_next(&g, &ddir, &off, &len);
		iogen_next(&g2, &d2, &o2, &len);
		CHECK(off != o2, "two threads with the same sequence");
	}
	/* size-based random: exactly size/bs I/Os */
	{
		struct job j = mkjob(RW_RANDWRITE, 8192, 0, 1 << 20, 0, 0);
		iogen_init(&g, &j, 0);
		for (n = 0; iogen_next(&g, &ddir, &off, &len); n++)
			CHECK(ddir == DDIR_WRITE, "randwrite gave a read");
		CHECK(n == 128, "size-based random: %llu I/Os, want 128", (unsigned long long)n);
	}
	/* fio's random map (the default): every block exactly once per pass, for any block
	 * count; the next pass is another order; --norandommap draws uniformly (repeats) */
	{
		static const uint64_t counts[] = { 1, 2, 3, 1000, 4097, 65536 };
		static unsigned char seen[65536];
		static uint64_t order[65536];
		for (int c = 0; c < 6; c++) {
			struct job j = mkjob(RW_RANDREAD, 4096, 0, counts[c] * 4096, 0, 0);
			uint64_t same = 0;
			memset(seen, 0, sizeof seen);
			iogen_init(&g, &j, 0);
			for (n = 0; iogen_next(&g, &ddir, &off, &len); n++) {
				CHECK(off / 4096 < counts[c] && !seen[off / 4096]++, "%llu blocks: block %llu twice or out "
				      "of range", (unsigned long long)counts[c], (unsigned long long)(off / 4096));
			}
			CHECK(n == counts[c], "%llu blocks: %llu I/Os", (unsigned long long)counts[c],
			      (unsigned long long)n);
			j.o.time_based = 1;
			iogen_init(&g, &j, 0);
			memset(seen, 0, sizeof seen);
			for (n = 0; n < 2 * counts[c]; n++) {
				iogen_next(&g, &ddir, &off, &len);
				seen[off / 4096]++;
				if (n < counts[c])
					order[n] = off;
				else
					same += off == order[n - counts[c]];
			}
			for (uint64_t b = 0; b < counts[c]; b++)
				CHECK(seen[b] == 2, "%llu blocks, two passes: block %llu seen %d times",
				      (unsigned long long)counts[c], (unsigned long long)b, seen[b]);
			CHECK(counts[c] < 1000 || same < counts[c] / 10, "%llu blocks: pass 2 repeats pass 1 at %llu "
			      "places", (unsigned long long)counts[c], (unsigned long long)same);
			if (unit_failures > 5)
				return unit_done();
		}
		{
			struct job j = mkjob(RW_RANDREAD, 4096, 0, 4096ull * 4096, 0, 0);
			uint64_t distinct = 0;
			j.o.norandommap = 1;
			memset(seen, 0, sizeof seen);
			iogen_init(&g, &j, 0);
			for (n = 0; iogen_next(&g, &ddir, &off, &len); n++)
				distinct += !seen[off / 4096]++;
			CHECK(n == 4096 && distinct < 4096 * 0.7, "norandommap: %llu distinct of %llu, want about 63%%",
			      (unsigned long long)distinct, (unsigned long long)n);
		}
	}
	/* sequential: in order, stops at the end; time_based wraps */
	{
		struct job j = mkjob(RW_READ, 1 << 20, 4 << 20, 8 << 20, 0, 0);
		iogen_init(&g, &j, 0);
		for (n = 0; iogen_next(&g, &ddir, &off, &len); n++)
			CHECK(off == (4 << 20) + n * (1 << 20), "seq offset %llu at %llu", (unsigned long long)off,
			      (unsigned long long)n);
		CHECK(n == 8, "seq: %llu I/Os, want 8", (unsigned long long)n);
		j.o.time_based = 1;
		iogen_init(&g, &j, 0);
		for (n = 0; n < 20; n++)
			iogen_next(&g, &ddir, &off, &len);
		CHECK(off == (4 << 20) + 3 * (1 << 20), "time_based seq wraps: %llu", (unsigned long long)off);
	}
	/* fio's loops: a size-based job goes over its region that many times -- sequential in
	 * order each time, random every block once per pass */
	{
		struct job j = mkjob(RW_READ, 1 << 20, 0, 8 << 20, 0, 0);
		static unsigned char seen[1000];
		j.o.loops = 3;
		iogen_init(&g, &j, 0);
		for (n = 0; iogen_next(&g, &ddir, &off, &len); n++)
			CHECK(off == (n % 8) * (1 << 20), "loops seq offset %llu at %llu", (unsigned long long)off,
			      (unsigned long long)n);
		CHECK(n == 24, "loops=3 seq: %llu I/Os, want 24", (unsigned long long)n);
		j = mkjob(RW_RANDREAD, 4096, 0, 1000 * 4096, 0, 0);
		j.o.loops = 3;
		iogen_init(&g, &j, 0);
		for (n = 0; iogen_next(&g, &ddir, &off, &len); n++) {
			seen[off / 4096]++;
			if (n % 1000 == 999)
				for (int b = 0; b < 1000; b++)
					CHECK(seen[b] == (n + 1) / 1000, "loops random: block %d seen %d times after %llu",
					      b, seen[b], (unsigned long long)n + 1);
		}
		CHECK(n == 3000, "loops=3 random: %llu I/Os, want 3000", (unsigned long long)n);
	}
	/* --bssplit: each size's share within 1% over 200k draws, offsets aligned to the
	 * smallest and every I/O inside the region; --bsrange: multiples of the smallest,
	 * both ends drawn; sequential: each I/O starts where the last ended, the pass's last
	 * one shortened to the region's end; size-based: exactly the region's bytes */
	{
		struct job j = mkjob(RW_RANDREAD, 4096, 1 << 20, 64 << 20, 1, 0);
		uint64_t cnt[3] = { 0 }, sizes[3] = { 4096, 65536, 1 << 20 };
		unsigned cum[3] = { 50, 80, 100 };
		j.var_bs = 1;
		j.nsplit[DDIR_READ] = 3;
		for (int i = 0; i < 3; i++)
			j.split_bs[DDIR_READ][i] = sizes[i], j.split_cum[DDIR_READ][i] = cum[i];
		iogen_init(&g, &j, 0);
		for (n = 0; n < 200000 && iogen_next(&g, &ddir, &off, &len); n++) {
			for (int i = 0; i < 3; i++)
				cnt[i] += len == sizes[i];
			CHECK(off % 4096 == 0 && off >= (1 << 20) && off + len <= (1 << 20) + (64 << 20),
			      "bssplit: %llu+%llu out of the region", (unsigned long long)off, (unsigned long long)len);
		}
		CHECK(fabs(cnt[0] / 2000.0 - 50) < 1 && fabs(cnt[1] / 2000.0 - 30) < 1 && fabs(cnt[2] / 2000.0 - 20) < 1,
		      "bssplit 50/30/20: %llu %llu %llu of 200000", (unsigned long long)cnt[0],
		      (unsigned long long)cnt[1], (unsigned long long)cnt[2]);
		j = mkjob(RW_RANDREAD, 4096, 0, 8 << 20, 1, 0);
		j.var_bs = 1;
		j.range_lo[DDIR_READ] = 8192;
		j.range_hi[DDIR_READ] = 65536;
		{
			int lo = 0, hi = 0;
			iogen_init(&g, &j, 0);
			for (n = 0; n < 20000 && iogen_next(&g, &ddir, &off, &len); n++) {
				CHECK(len % 4096 == 0 && len >= 8192 && len <= 65536, "bsrange: %llu", (unsigned long long)len);
				lo += len == 8192;
				hi += len == 65536;
			}
			CHECK(lo > 0 && hi > 0, "bsrange: ends drawn %d, %d times", lo, hi);
		}
		j = mkjob(RW_READ, 4096, 0, 1 << 20, 0, 0);
		j.var_bs = 1;
		j.nsplit[DDIR_READ] = 2;
		j.split_bs[DDIR_READ][0] = 4096, j.split_cum[DDIR_READ][0] = 50;
		j.split_bs[DDIR_READ][1] = 12288, j.split_cum[DDIR_READ][1] = 100;
		{
			uint64_t next = 0, bytes = 0;
			iogen_init(&g, &j, 0);
			for (n = 0; iogen_next(&g, &ddir, &off, &len); n++) {
				CHECK(off == next, "bssplit sequential: %llu after %llu", (unsigned long long)off,
				      (unsigned long long)next);
				next = off + len;
				bytes += len;
			}
			CHECK(bytes == 1 << 20 && next == 1 << 20, "bssplit size-based: %llu bytes, end %llu",
			      (unsigned long long)bytes, (unsigned long long)next);
		}
		j.rw = RW_RANDREAD;
		{
			uint64_t bytes = 0;
			iogen_init(&g, &j, 0);
			while (iogen_next(&g, &ddir, &off, &len)) {
				CHECK(off + len <= 1 << 20, "bssplit random: %llu+%llu", (unsigned long long)off,
				      (unsigned long long)len);
				bytes += len;
			}
			CHECK(bytes == 1 << 20, "bssplit random size-based: %llu bytes", (unsigned long long)bytes);
		}
	}
	/* rwmix: the read share within 1% over 200k draws */
	{
		int mixes[] = { 75, 50, 10, 0, 100 };
		for (int m = 0; m < 5; m++) {
			struct job j = mkjob(RW_RANDRW, 4096, 0, 1 << 30, 1, mixes[m]);
			uint64_t reads = 0;
			iogen_init(&g, &j, 0);
			for (n = 0; n < 200000; n++) {
				iogen_next(&g, &ddir, &off, &len);
				reads += ddir == DDIR_READ;
			}
			CHECK(fabs(100.0 * (double)reads / (double)n - mixes[m]) < 1.0, "rwmixread=%d: %.2f%% reads",
			      mixes[m], 100.0 * (double)reads / (double)n);
		}
	}
	/* trims: trim and randtrim give trims only; trimwrite and randtrimwrite a trim, then a
	 * write of the same block, each block of the region once, the size counted by writes */
	{
		int rws[] = { RW_TRIM, RW_RANDTRIM, RW_TRIMWRITE, RW_RANDTRIMWRITE };
		for (int k = 0; k < 4; k++) {
			struct job j = mkjob(rws[k], 4096, 8192, 1 << 20, 0, 0);
			static unsigned char seen[256];
			uint64_t trims = 0, writes = 0, last_trim = UINT64_MAX, prev = UINT64_MAX;
			int pairs = rws[k] == RW_TRIMWRITE || rws[k] == RW_RANDTRIMWRITE, random = k % 2, ordered = 1;
			memset(seen, 0, sizeof seen);
			iogen_init(&g, &j, 0);
			while (iogen_next(&g, &ddir, &off, &len)) {
				CHECK(off >= 8192 && off + len <= 8192 + (1 << 20) && len == 4096, "rw %d: %llu+%llu", rws[k],
				      (unsigned long long)off, (unsigned long long)len);
				if (ddir == DDIR_TRIM) {
					CHECK(!pairs || last_trim == UINT64_MAX, "rw %d: two trims in a row", rws[k]);
					trims++;
					seen[(off - 8192) / 4096]++;
					ordered &= prev == UINT64_MAX || off == prev + 4096;
					prev = off;
					last_trim = off;
				} else {
					CHECK(pairs && ddir == DDIR_WRITE && off == last_trim, "rw %d: a %d at %llu after the trim "
					      "at %llu", rws[k], ddir, (unsigned long long)off, (unsigned long long)last_trim);
					writes++;
					last_trim = UINT64_MAX;
				}
			}
			CHECK(trims == 256 && writes == (pairs ? 256u : 0u), "rw %d: %llu trims, %llu writes", rws[k],
			      (unsigned long long)trims, (unsigned long long)writes);
			for (int b = 0; b < 256; b++)
				CHECK(seen[b] == 1, "rw %d: block %d trimmed %d times", rws[k], b, seen[b]);
			CHECK(ordered == !random, "rw %d: sequential %d", rws[k], ordered);
		}
	}
	return unit_done();
}
