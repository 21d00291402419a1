/* The results inbox (inbox.c): how results get home from the image to the system that
 * kexec'd it, with no filesystem driver in the image.  `assay kexec --results-to=DIR`
 * writes DIR/assay-inbox (4 MiB of blocks, each marked with a nonce and its index),
 * syncs it, maps its blocks on the disk (FIEMAP; FIBMAP on vfat), checks the mapping by reading them
 * back raw, and passes the map on the image's command line (assay.results=inbox:...).
 * The image writes its result files into exactly those blocks, after checking each one
 * still holds its mark; back on the system, `assay show DIR` unpacks them into
 * DIR/<date>-<machine>.json and .txt. */
#ifndef ASSAY_INBOX_H
#define ASSAY_INBOX_H

#include <stddef.h>

struct json;

#define INBOX_NAME "assay-inbox"
#define INBOX_SIZE (4u << 20)
#define INBOX_BLOCK 4096u
#define INBOX_MAX_EXTENTS 16

struct inbox_map {
	char nonce[17];               /* 16 hex digits */
	unsigned long long disk_size; /* bytes of the whole disk holding it */
	int n;
	struct {
		unsigned long long physical, len;   /* bytes on the whole disk, in file order */
	} ext[INBOX_MAX_EXTENTS];
	char disk[64];                /* its name on the system that made it (vda) */
	char fstype[16];
	char mountpoint[256];         /* where its filesystem is mounted (remounted read-only before the jump) */
};

/* kexec's side: make DIR/assay-inbox on a filesystem the image can write raw (refused
 * with the reason otherwise: copy-on-write, network, in memory, device-mapper, RAID;
 * a loop device only when allow_loop); an earlier inbox's results are unpacked first.
 * 0, or -1 with a one-line reason. */
int inbox_prepare(const char *dir, int allow_loop, struct inbox_map *m, char *err, size_t n);
/* the map as assay.results' value: inbox:NONCE:DISKSIZE:PHYS+LEN,... */
void inbox_spec(const struct inbox_map *m, char *out, size_t n);
/* the map back from such a value; 0, or -1 with the reason */
int inbox_parse(const char *spec, struct inbox_map *m, char *err, size_t n);
/* the image's side: the result files (<base>.json, <base>.txt) into the inbox the spec
 * maps, each block checked first; where says which disk and directory.  0, or -1. */
int inbox_store(const char *spec, const struct json *doc, const char *txt, size_t txtlen, char *where,
		size_t wn, char *err, size_t n);
/* would a test writing to a disk of this size touch the inbox?  (destroy is refused there) */
int inbox_on_disk(const char *spec, unsigned long long disk_size);
/* show's side: DIR/assay-inbox's files written into DIR and the inbox removed.  1 with
 * the names in msg, 0 nothing to unpack (msg says why when there was an inbox), -1
 * damaged (the inbox is left as it is; msg says what). */
int inbox_unpack(const char *dir, char *msg, size_t n);

#endif
