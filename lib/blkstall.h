/* Disks that stop answering: while a test runs, each whole disk's completed I/O count and
 * I/Os in flight (/sys/block/NAME/stat) are sampled; a disk with I/Os in flight and no
 * completion since some time is stalled.  The suite names such disks when a test's
 * watchdog ends it, and skips later tests on a disk whose test could not be ended. */
#ifndef ASSAY_BLKSTALL_H
#define ASSAY_BLKSTALL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blkstuck.h"

#define BLKSTALL_MAX 64   /* disks watched */

struct blkstall {
	int n;
	struct blkstall_disk {
		char name[32];
		uint64_t done;          /* reads + writes + discards + flushes completed */
		unsigned inflight;
		double since;           /* last completion seen (or nothing in flight) */
	} d[BLKSTALL_MAX];
};

/* a sample at time now (seconds, any clock); the first one starts the watch */
void blkstall_tick(struct blkstall *s, double now);
/* parse one stat line (the kernel's Documentation/block/stat.rst fields): 0, or -1 */
int blkstall_parse(const char *line, uint64_t *done, unsigned *inflight);
/* the disks with I/Os in flight and no completion for at least min_s (not those already
 * stuck), as "vda: 1 I/O in flight, none completed for 9 s" joined by "; " (out "" when
 * none); their count */
int blkstall_describe(const struct blkstall *s, double now, double min_s, char *out, size_t n);
/* the same disks marked stuck (blkstall_mark) */
void blkstall_mark_stalled(const struct blkstall *s, double now, double min_s);

#endif
