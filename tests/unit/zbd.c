/* --zonemode=zbd's open-zone accounting with several threads: a zone counts in the
 * --job_max_open_zones of the thread that opened it until it closes, whichever thread's
 * write fills it; a thread whose zones the others filled opens new ones, it is not left at
 * its limit (host/disk-zbd.sh's 8 threads over 3 open zones once ended a job 202 writes
 * short that way). */
#include "disk/job.h"
#include "unit.h"

#include <string.h>

#define MiB (1024 * 1024ull)
#define BS 4096ull

static struct zbd *z;
static struct job j;

/* t writes at off: 1 and where the write went (*at), or zbd_adjust's 0/-1 */
static int adjust(struct zbd_thread *t, int inflight, uint64_t off, uint64_t *at)
{
	int ddir = DDIR_WRITE, errnum = 0;
	uint64_t len = BS;
	char err[256] = "";
	int rc = zbd_adjust(z, t, &j, -1, inflight, &ddir, &off, &len, &errnum, err, sizeof err);
	CHECK(!err[0], "zbd_adjust: %s", err);
	if (rc == 1) {
		CHECK(ddir == DDIR_WRITE && len == BS, "a write moved to a %d of %llu bytes", ddir, (unsigned long long)len);
		*at = off;
	}
	return rc;
}

/* t writes (and completes) until the zone at zstart is full */
static void fill(struct zbd_thread *t, uint64_t zstart)
{
	uint64_t at = 0;
	for (int n = 0; n < (int)(MiB / BS) * 2; n++) {
		if (adjust(t, 0, zstart, &at) != 1)
			break;
		if (at < zstart || at >= zstart + MiB)
			break;   /* the zone is full: the write went elsewhere */
		zbd_done(z, t, DDIR_WRITE, at, BS);
		if (at + BS == zstart + MiB)
			return;
	}
	CHECK(0, "the zone at %llu not filled", (unsigned long long)zstart);
}

int main(void)
{
	struct blkdev d;
	struct zbd_thread a, b;
	char err[256] = "";
	uint64_t at = 0;

	memset(&d, 0, sizeof d);
	strcpy(d.path, "zbd-unit");
	d.size = 8 * MiB;
	memset(&j, 0, sizeof j);
	j.rw = RW_RANDWRITE;
	j.bs = BS;
	j.size = d.size;
	j.zbd_zone = MiB;
	j.o.max_open_zones = 3;
	j.o.job_max_open_zones = 2;
	if (zbd_make(&z, -1, &d, &j, err, sizeof err))
		CHECK(0, "zbd_make: %s", err);
	if (!z)
		return unit_done();
	CHECK(!zbd_join(z, &a, &j, 0, d.size, -1, err, sizeof err), "join a: %s", err);
	CHECK(!zbd_join(z, &b, &j, 0, d.size, -1, err, sizeof err), "join b: %s", err);

	/* a opens zones 0 and 1: its limit */
	CHECK(adjust(&a, 0, 0, &at) == 1 && at == 0, "a's first write at %llu", (unsigned long long)at);
	zbd_done(z, &a, DDIR_WRITE, at, BS);
	CHECK(adjust(&a, 0, MiB, &at) == 1 && at == MiB, "a's second write at %llu", (unsigned long long)at);
	zbd_done(z, &a, DDIR_WRITE, at, BS);
	CHECK(a.nopen == 2 && b.nopen == 0, "opened: a %u, b %u", a.nopen, b.nopen);

	/* b's writes fill a's zone 0: it closes off a's count, b's stays 0 */
	fill(&b, 0);
	CHECK(a.nopen == 1 && b.nopen == 0, "zone 0 filled by b: a holds %u open, b %u (a's should be 1)", a.nopen,
	      b.nopen);

	/* so a opens a zone of its own again: its write at 4 MiB goes there */
	CHECK(adjust(&a, 0, 4 * MiB, &at) == 1 && at == 4 * MiB, "a's write at 4 MiB went to %llu", (unsigned long long)at);
	zbd_done(z, &a, DDIR_WRITE, at, BS);
	CHECK(a.nopen == 2, "a holds %u open", a.nopen);

	/* b fills both of a's: a holds none, and with no zone open and nothing in flight it
	 * still writes (it was told it was done when its count stayed at 2) */
	fill(&b, MiB);
	fill(&b, 4 * MiB);
	CHECK(a.nopen == 0 && b.nopen == 0, "all filled by b: a holds %u, b %u", a.nopen, b.nopen);
	CHECK(adjust(&a, 0, 6 * MiB, &at) == 1 && at == 6 * MiB, "a's write with no zone open went to %llu",
	      (unsigned long long)at);
	zbd_done(z, &a, DDIR_WRITE, at, BS);

	/* a leaves with zone 6 open: the zone stays for b to fill, counted to no one */
	zbd_leave(z, &a);
	fill(&b, 6 * MiB);
	CHECK(b.nopen == 0, "b holds %u open after filling the zone a left", b.nopen);
	/* and b still has its own two to open */
	CHECK(adjust(&b, 0, 2 * MiB, &at) == 1 && at == 2 * MiB, "b's write at 2 MiB went to %llu", (unsigned long long)at);
	zbd_done(z, &b, DDIR_WRITE, at, BS);
	CHECK(adjust(&b, 0, 3 * MiB, &at) == 1 && at == 3 * MiB, "b's write at 3 MiB went to %llu", (unsigned long long)at);
	zbd_done(z, &b, DDIR_WRITE, at, BS);
	CHECK(b.nopen == 2, "b holds %u open", b.nopen);
	zbd_leave(z, &b);
	zbd_free(z);
	return unit_done();
}
