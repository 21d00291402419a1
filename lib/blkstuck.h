/* Disks that stopped answering, and reads that cannot hang on them: the stuck disks of
 * this run (marked by the suite's watchdog, blkstall.h) are not read again, and a read of
 * a disk that may not answer is given up after a time.  Below blkdev.c, which uses both. */
#ifndef ASSAY_BLKSTUCK_H
#define ASSAY_BLKSTUCK_H

#include <stddef.h>
#include <sys/types.h>

#define BLKSTUCK_MAX 64

/* pread that gives up after timeout_s: a child process reads; one still waiting then is
 * killed and left behind (a read of a disk that does not answer may never end) and -1 is
 * returned with errno ETIMEDOUT.  Else pread's result. */
#define BLKSTALL_READ_S 10
ssize_t blkstall_pread(int fd, void *buf, size_t n, off_t off, double timeout_s);

/* The disks whose I/O never completed (a test on them could not be ended): nothing more
 * reads them in this run (results partition search, signature probes).  Marked by the
 * suite; stuck() is true for such a disk and its partitions (vda1, nvme0n1p1). */
void blkstall_mark(const char *disk);
int blkstall_stuck(const char *name);

#endif
