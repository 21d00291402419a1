/* Block devices: discovery under /sys/block, identity (model, serial, size, geometry),
 * and what they hold (partitions, filesystem signatures, mounts, holders) -- the facts
 * the safety rules need before anything is written. */
#ifndef ASSAY_BLKDEV_H
#define ASSAY_BLKDEV_H

#include <stddef.h>
#include <stdint.h>

struct json;

struct blkdev {
	char name[64];          /* vda; for a regular file, its path */
	char path[256];         /* /dev/vda or the file */
	int is_file;            /* a regular file, not a block device */
	int is_null;            /* /dev/null or /dev/zero (fio's char device targets): no size, no data */
	char model[128], vendor[64], serial[128];
	uint64_t size;          /* bytes */
	unsigned lbs, pbs;      /* logical / physical block size */
	int rotational;         /* -1 unknown */
	int nr_requests;        /* block layer queue depth, -1 unknown */
	int queue_depth;        /* device queue depth (SCSI/SATA), -1 unknown */
	char scheduler[32];
	long long discard_max;  /* queue/discard_max_bytes: 0 no discard (trim), -1 unknown */
	long long discard_gran; /* queue/discard_granularity, -1 unknown */
	char write_cache[16];   /* queue/write_cache: "write back" or "write through" */
	char zoned[16];         /* queue/zoned: "host-managed", "host-aware" or "" (none) */
	uint64_t zone_size;     /* bytes (queue/chunk_sectors of a zoned device), 0 unknown */
	long long nr_zones, max_open_zones, max_active_zones;   /* queue/..., -1 unknown; 0 no limit */
	int readonly;           /* the kernel says read-only */
	int removable;
	int is_virtual;         /* loop, ram, zram, dm, md, nbd... */
	int partitions;         /* number of partitions */
	int holders;            /* dm/md devices stacked on it or its partitions */
	char mounted[512];      /* "" or where it (or a partition) is mounted / swap */
	char signature[64];     /* "gpt", "mbr", "ext4", "xfs", ... or "" (none found) */
	char label[32];         /* the volume label, for vfat */
	int signature_checked;  /* the device could be read for the signature check */
};

/* loop, ram, zram, dm, md, nbd, nullb, sr, fd: not a disk of the machine (virtdev.c) */
int blkdev_is_virtual(const char *name);

/* Identity and state of NAME (vda, /dev/vda, or a regular file path).  Reads the first
 * sectors for signatures when readable.  0, or -1 with a one-line reason in err. */
int blkdev_probe(const char *name, struct blkdev *d, char *err, size_t errlen);
/* Every whole disk under /sys/block, sorted by name; virtual ones (loop, ram, zram,
 * dm, md, nbd) only when include_virtual.  Returns the count; *out is malloc'd. */
int blkdev_list(struct blkdev **out, int include_virtual);
/* Filesystem / partition-table signature in the first 68 KiB read from fd; the volume
 * label too when it is FAT (label may be NULL).  -1 when the read did not end within
 * BLKSTALL_READ_S (a disk that does not answer; out ""), else 0. */
int blkdev_signature(int fd, uint64_t size, char *out, size_t n, char *label, size_t ln);
struct json *blkdev_json(const struct blkdev *d);
/* the I/O scheduler d's queue uses now (queue/scheduler's bracketed one), "" unknown */
void blkdev_scheduler(const struct blkdev *d, char *out, size_t n);

/* the fields of a /sys/block/NAME/stat line (the kernel's Documentation/block/stat.rst):
 * read I/Os, merges, sectors, ticks; write the same; in_flight, io_ticks, time_in_queue;
 * discard I/Os, merges, sectors, ticks (4.18+); flush I/Os, ticks (5.5+).  How many were
 * read (v's others 0); fewer than BLKSTAT_MIN is not a stat line */
#define BLKSTAT_FIELDS 17
#define BLKSTAT_MIN 11
int blkdev_stat_fields(const char *line, unsigned long long v[BLKSTAT_FIELDS]);

#endif
