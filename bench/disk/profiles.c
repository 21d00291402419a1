/* The disk profiles: named sets of fio options that measure what VPS write-ups measure
 * (dd's sequential MB/s, ioping's latency, fio's 4k at several queue depths), a surface
 * scan; how long a list of them takes. */
#include "plan.h"

#include "disk.h"
#include "opt.h"

#include <string.h>

#define PROFILE_TIME "--time_based=1 --runtime=10"
const struct profile profiles[] = {
	{ "seq", "1 MiB sequential write, buffered, fdatasync at the end counted (dd bs=1M "
		 "count=1024 conv=fdatasync), then 1 MiB O_DIRECT sequential read (dd iflag=direct)",
	  { { "write", "--rw=write --bs=1m --direct=0 --end_fsync=1 --end_fdatasync=1 --size_cap=1g", NULL },
	    { "read", "--rw=read --bs=1m --direct=1 --size_cap=1g", NULL } }, 0 },
	{ "qd1", "4k random read, iodepth 1, O_DIRECT",
	  { { "", "--rw=randread --bs=4k --iodepth=1 --direct=1 " PROFILE_TIME, NULL } }, 0 },
	{ "qd8", "4k random read, iodepth 8, O_DIRECT",
	  { { "", "--rw=randread --bs=4k --iodepth=8 --direct=1 " PROFILE_TIME, NULL } }, 0 },
	{ "randrw64", "4k random 75% read / 25% write, iodepth 64, O_DIRECT (Linode's support test)",
	  { { "", "--rw=randrw --rwmixread=75 --bs=4k --iodepth=64 --direct=1 " PROFILE_TIME, NULL } }, 0 },
	{ "randwrite4", "4k random write, iodepth 1, 4 jobs, O_DIRECT",
	  { { "", "--rw=randwrite --bs=4k --iodepth=1 --numjobs=4 --direct=1 " PROFILE_TIME, NULL } }, 0 },
	{ "randread16x4", "4k random read, iodepth 16, 4 jobs, O_DIRECT",
	  { { "", "--rw=randread --bs=4k --iodepth=16 --numjobs=4 --direct=1 " PROFILE_TIME, NULL } }, 0 },
	{ "latency", "ioping-style requests at QD1, first one not counted: 4k random uncached "
		     "(O_DIRECT), 4k cached (a 1 MiB region read through the page cache), 256k sequential",
	  { { "uncached", "--rw=randread --bs=4k --direct=1 --warmup_ios=1 " PROFILE_TIME, NULL },
	    { "cached", "--rw=read --bs=4k --direct=0 --size_cap=1m --warmup_ios=256 " PROFILE_TIME, NULL },
	    { "seq", "--rw=read --bs=256k --direct=1 --warmup_ios=1 " PROFILE_TIME, NULL } }, 0 },
	{ "scan", "a surface scan (badblocks' read test): the whole device read once, 1 MiB O_DIRECT "
		  "reads at iodepth 4, going on after read errors and listing them; as long as the disk "
		  "takes (not in 'all')",
	  { { "", "--rw=read --bs=1m --iodepth=4 --direct=1 --continue_on_error=read", NULL } }, 1 },
	{ "scanwrite", "a surface write test (badblocks -w, or -n in rewrite mode): the whole device "
		       "written once with 1 MiB O_DIRECT writes at iodepth 4, each block carrying a CRC-32C "
		       "header read back and checked when the pass ends (destroy mode; rewrite mode writes back "
		       "what it read, unchecked); going on after errors, listing them (not in 'all')",
	  { { "", "--rw=write --bs=1m --iodepth=4 --direct=1 --continue_on_error=all", "--verify=crc32c" } }, 1 },
};
const size_t nprofiles = sizeof profiles / sizeof profiles[0];

const struct profile *find_profile(const char *n, size_t l)
{
	for (size_t i = 0; i < NPROFILES; i++)
		if (strlen(profiles[i].name) == l && !strncmp(profiles[i].name, n, l))
			return &profiles[i];
	return NULL;
}

/* the profiles' names, the parts of a disk test a rule's figure can name (engine.h) */
const char *const *disk_parts(void)
{
	static const char *names[sizeof profiles / sizeof profiles[0] + 1];
	for (size_t i = 0; i < NPROFILES; i++)
		names[i] = profiles[i].name;
	return names;
}

double disk_profiles_estimate(const char *list, double runtime, int writes)
{
	double t = 0;
	for (size_t i = 0; i < NPROFILES; i++) {
		const struct profile *pr = &profiles[i];
		int jobs = 0;
		if (!list_has(list, pr->name) && !(list_has(list, "all") && !pr->explicit_only))
			continue;
		/* each job one runtime; a surface scan ends with the disk or at the runtime, and
		 * one that verifies reads it all back; a read-only run skips the jobs that write */
		for (int k = 0; k < 3 && pr->j[k].words; k++)
			if (writes || (!strstr(pr->j[k].words, "write") && !strstr(pr->j[k].words, "randrw")))
				jobs += 1 + (pr->j[k].destroy != NULL);
		t += jobs * runtime;
	}
	return t;
}
