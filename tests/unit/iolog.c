/* fio's I/O logs with --log_avg_msec windows, fed completions at known times: each whole
 * window's rate counts exactly the I/Os that completed in it (the partial last one none,
 * as fio), the latencies' lines are each window's mean (or maximum with log_max_value)
 * and the last, partial window has them too; a window without I/O logs nothing; verify's
 * reads count in the latencies, not the rates; per I/O, one line each with fio's values.
 * host/disk-logs.sh checks the same logs from real runs, where the times are the machine's. */
#include "disk/iolog.h"
#include "unit.h"

#include <stdint.h>
#include <string.h>

#define MS 1000000ull
#define T0 (5000 * MS)       /* measuring's start: the times are from it */

/* the lines of one log kind, joined by '|' */
static const char *print(const struct iolog *l, int kind)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	if (!f)
		return "";
	CHECK(iolog_print(l, kind, f) == 0, "print %d", kind);
	fclose(f);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = '|';
	return buf;
}

static void windows(void)
{
	struct iolog_cfg c = { .avg_ms = 200 };
	struct iolog l = { 0 };
	c.prefix[IOLOG_IOPS] = c.prefix[IOLOG_BW] = c.prefix[IOLOG_LAT] = "w";
	iolog_init(&l, &c, 1u << 0 | 1u << 1, 1 << 20);
	CHECK(l.on, "a log");
	iolog_start(&l, T0);
	/* window 1 (0-200 ms): 3 reads, clat 10, 20, 30 us, slat 1 us; 1 write of 8 KiB */
	for (int i = 0; i < 3; i++)
		iolog_io(&l, 0, 4096ull * i, 4096, 1000, 10000ull * (i + 1), T0 + (50 + i) * MS,
			 IOLOG_F_RATE | IOLOG_F_SLAT);
	iolog_io(&l, 1, 0, 8192, 1000, 40000, T0 + 100 * MS, IOLOG_F_RATE | IOLOG_F_SLAT);
	/* window 2 (200-400): none; window 3 (400-600): 2 reads at its edges, one a verify
	 * read (no rate, psync: no slat) */
	iolog_io(&l, 0, 0, 4096, 2000, 50000, T0 + 400 * MS, IOLOG_F_RATE | IOLOG_F_SLAT);
	iolog_io(&l, 0, 0, 4096, 0, 70000, T0 + 599 * MS, 0);
	/* the partial window (600-700): one read, then measuring ends at 700 ms */
	iolog_io(&l, 0, 0, 4096, 1000, 90000, T0 + 650 * MS, IOLOG_F_RATE | IOLOG_F_SLAT);
	iolog_end(&l, T0 + 700 * MS);

	/* rates: whole windows with I/O that way only; IOPS over the window, KiB/s */
	CHECK(!strcmp(print(&l, LOGF_IOPS), "200, 15, 0, 0, 0|200, 5, 1, 0, 0|600, 5, 0, 0, 0|"),
	      "iops: %s", print(&l, LOGF_IOPS));
	CHECK(!strcmp(print(&l, LOGF_BW), "200, 60, 0, 0, 0|200, 40, 1, 0, 0|600, 20, 0, 0, 0|"),
	      "bw: %s", print(&l, LOGF_BW));
	/* latencies: each window's mean, the verify read's in clat but not slat, the last
	 * partial window (ending at 700) too */
	CHECK(!strcmp(print(&l, LOGF_CLAT),
		      "200, 20000, 0, 0, 0|200, 40000, 1, 0, 0|600, 60000, 0, 0, 0|700, 90000, 0, 0, 0|"),
	      "clat: %s", print(&l, LOGF_CLAT));
	CHECK(!strcmp(print(&l, LOGF_SLAT),
		      "200, 1000, 0, 0, 0|200, 1000, 1, 0, 0|600, 2000, 0, 0, 0|700, 1000, 0, 0, 0|"),
	      "slat: %s", print(&l, LOGF_SLAT));
	CHECK(!strcmp(print(&l, LOGF_LAT),
		      "200, 21000, 0, 0, 0|200, 41000, 1, 0, 0|600, 61000, 0, 0, 0|700, 91000, 0, 0, 0|"),
	      "lat: %s", print(&l, LOGF_LAT));
	iolog_free(&l);

	/* log_max_value: each window's largest */
	c.max_value = 1;
	iolog_init(&l, &c, 1u << 0, 1 << 20);
	iolog_start(&l, T0);
	iolog_io(&l, 0, 0, 4096, 1000, 10000, T0 + 10 * MS, IOLOG_F_RATE | IOLOG_F_SLAT);
	iolog_io(&l, 0, 0, 4096, 3000, 30000, T0 + 20 * MS, IOLOG_F_RATE | IOLOG_F_SLAT);
	iolog_io(&l, 0, 0, 4096, 2000, 20000, T0 + 30 * MS, IOLOG_F_RATE | IOLOG_F_SLAT);
	iolog_end(&l, T0 + 200 * MS);
	CHECK(!strcmp(print(&l, LOGF_CLAT), "200, 30000, 0, 0, 0|"), "max clat: %s", print(&l, LOGF_CLAT));
	CHECK(!strcmp(print(&l, LOGF_LAT), "200, 33000, 0, 0, 0|"), "max lat: %s", print(&l, LOGF_LAT));
	iolog_free(&l);

	/* measuring started again (a ramp's end): what came before is gone */
	c.max_value = 0;
	iolog_init(&l, &c, 1u << 0, 1 << 20);
	iolog_start(&l, T0);
	iolog_io(&l, 0, 0, 4096, 0, 10000, T0 + 300 * MS, IOLOG_F_RATE);
	iolog_start(&l, T0 + 1000 * MS);
	iolog_io(&l, 0, 0, 4096, 0, 10000, T0 + 1100 * MS, IOLOG_F_RATE);
	iolog_end(&l, T0 + 1200 * MS);
	CHECK(!strcmp(print(&l, LOGF_IOPS), "200, 5, 0, 0, 0|"), "restart: %s", print(&l, LOGF_IOPS));
	iolog_free(&l);
}

static void per_io(void)
{
	struct iolog_cfg c = { .offset = 1 };
	struct iolog l = { 0 };
	c.prefix[IOLOG_BW] = c.prefix[IOLOG_LAT] = "x";
	iolog_init(&l, &c, 1u << 1, 1 << 20);
	iolog_start(&l, T0);
	iolog_io(&l, 1, 8192, 4096, 500, 4096000, T0 + 3 * MS, IOLOG_F_RATE | IOLOG_F_SLAT);
	iolog_io(&l, 1, 0, 4096, 0, 2048000, T0 + 7 * MS, IOLOG_F_RATE);      /* psync: no slat */
	iolog_end(&l, T0 + 8 * MS);
	/* bw: bytes x 10^6 / clat ns; the offset column */
	CHECK(!strcmp(print(&l, LOGF_BW), "3, 1000, 1, 4096, 8192, 0|7, 2000, 1, 4096, 0, 0|"),
	      "bw: %s", print(&l, LOGF_BW));
	CHECK(!strcmp(print(&l, LOGF_SLAT), "3, 500, 1, 4096, 8192, 0|"), "slat: %s", print(&l, LOGF_SLAT));
	CHECK(!strcmp(print(&l, LOGF_LAT), "3, 4096500, 1, 4096, 8192, 0|7, 2048000, 1, 4096, 0, 0|"),
	      "lat: %s", print(&l, LOGF_LAT));
	iolog_free(&l);

	/* the byte cap: the log stops there and says so */
	iolog_init(&l, &c, 1u << 1, 100);
	iolog_start(&l, T0);
	for (int i = 0; i < 10; i++)
		iolog_io(&l, 1, 0, 4096, 0, 1000, T0 + i * MS, IOLOG_F_RATE);
	CHECK(l.truncated && l.n < 10, "cap: %llu entries, truncated %d", (unsigned long long)l.n, l.truncated);
	iolog_free(&l);
}

int main(void)
{
	windows();
	per_io();
	return unit_done();
}
