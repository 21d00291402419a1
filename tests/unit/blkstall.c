/* Stalled disks: /sys/block/NAME/stat lines of every kernel era parsed (completions and
 * I/Os in flight); a disk with I/O in flight and no completion for the time asked is
 * named, one still completing or idle is not; a stuck disk's partitions are stuck too,
 * a longer name that only begins the same is not. */
#include "blkstall.h"
#include "unit.h"

#include <string.h>

int main(void)
{
	struct blkstall s = { 0 };
	uint64_t done;
	unsigned inflight;
	char out[256];

	/* 4.18-: 11 fields; 5.5+: 17 (discards and flushes count as completions) */
	CHECK(!blkstall_parse("  100 0 800 10 50 0 400 5 2 15 15", &done, &inflight) && done == 150 &&
	      inflight == 2, "11 fields: %llu %u", (unsigned long long)done, inflight);
	CHECK(!blkstall_parse("100 0 800 10 50 0 400 5 0 15 15 7 0 56 1 3 1", &done, &inflight) &&
	      done == 160 && inflight == 0, "17 fields: %llu %u", (unsigned long long)done, inflight);
	CHECK(blkstall_parse("1 2 3", &done, &inflight) == -1, "short line refused");
	CHECK(blkstall_parse("garbage", &done, &inflight) == -1, "garbage refused");

	s.n = 3;
	strcpy(s.d[0].name, "vda");   /* stalled since 1 s */
	s.d[0].inflight = 1;
	s.d[0].since = 1;
	strcpy(s.d[1].name, "vdb");   /* busy, completing (its since moves) */
	s.d[1].inflight = 32;
	s.d[1].since = 10;
	strcpy(s.d[2].name, "vdc");   /* idle */
	s.d[2].since = 0;
	CHECK(blkstall_describe(&s, 11, 5, out, sizeof out) == 1 &&
	      !strcmp(out, "vda: 1 I/O in flight, none completed for 10 s"), "describe: %s", out);
	CHECK(blkstall_describe(&s, 5, 5, out, sizeof out) == 0 && !out[0], "not yet: %s", out);
	s.d[1].since = 2;
	CHECK(blkstall_describe(&s, 11, 5, out, sizeof out) == 2 &&
	      !strcmp(out, "vda: 1 I/O in flight, none completed for 10 s; vdb: 32 I/Os in flight, none completed for 9 s"),
	      "two: %s", out);

	/* the two stalled ones marked; then they are no longer any test's stall */
	blkstall_mark_stalled(&s, 11, 5);
	CHECK(blkstall_stuck("vda") && blkstall_stuck("vdb") && !blkstall_stuck("vdc"), "marked: vda, vdb");
	CHECK(blkstall_describe(&s, 11, 5, out, sizeof out) == 0, "after marking: %s", out);
	blkstall_mark("nvme0n1");
	CHECK(blkstall_stuck("vda") && blkstall_stuck("/dev/vda") && blkstall_stuck("vda1") && blkstall_stuck("vda12"),
	      "vda and its partitions");
	CHECK(!blkstall_stuck("vdab") && !blkstall_stuck("vdc") && !blkstall_stuck("vd"), "not vdab, vdc, vd");
	CHECK(blkstall_stuck("nvme0n1") && blkstall_stuck("nvme0n1p3"), "nvme0n1 and its partitions");
	CHECK(!blkstall_stuck("nvme0n10") && !blkstall_stuck("nvme0n1x"), "not nvme0n10");
	return unit_done();
}
