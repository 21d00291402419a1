/* The hardware's own health (docs/health.md): NVMe SMART/health and error logs through the
 * kernel's admin passthrough, ATA SMART through SG_IO, EDAC error counts per memory
 * controller and DIMM, thermal-throttle counters, hwmon temperatures, machine checks, and
 * the kernel log's error lines attributed to the test that was running.  A run takes a
 * snapshot before its tests and after them; the differences are figures certify rules
 * use (health.nvme0.media_errors.delta == 0). */
#ifndef ASSAY_HEALTH_H
#define ASSAY_HEALTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json;

#define HEALTH_SCHEMA 1


/* ---- snapshots ---- */
/* everything readable now: {nvme:{}, ata:{}, edac:{}, cpu:{}, hwmon:[], mce:{}} */
struct json *health_snapshot(void);
void health_nvme(struct json *snap);                  /* nvme.c */
void health_ata(struct json *snap);                   /* ata.c */
void health_cpu(struct json *snap);                   /* sysfs.c: throttling, MCE counters */
void health_hwmon(struct json *snap);                 /* sysfs.c */
/* the hottest hwmon sensor now, degrees C (NAN: none), its "chip/label" in who */
double health_temp_max(char *who, size_t n);

/* n bytes of device data, little-endian (NVMe, ATA) */
uint64_t health_le(const uint8_t *b, int n);
/* a device's fixed-width text field (l bytes in s, which has room for one more): non-printing
 * bytes as '?', trailing and leading blanks off, into o as key */
void health_add_devstr(struct json *o, const char *key, char *s, int l);
/* an ATA attribute's raw value by id, from a snapshot's disk (NAN: not there) */
double health_ata_raw(const struct json *disk, int id);

/* ---- parsers of device data (fuzzed: tests/fuzz/health.c) ---- */
/* the NVMe SMART / Health Information log page (512 bytes) into o */
void nvme_smart_parse(const uint8_t *b, size_t len, struct json *o);
/* the NVMe error information log entries (64 bytes each): the ones in use into arr */
void nvme_errlog_parse(const uint8_t *b, size_t len, struct json *arr);
/* the NVMe device self-test log (564 bytes) into o */
void nvme_selftest_parse(const uint8_t *b, size_t len, struct json *o);
/* ATA SMART READ DATA and READ THRESHOLDS (512 bytes each; thr may be NULL) into o */
void ata_smart_parse(const uint8_t *data, const uint8_t *thr, struct json *o);
/* ATA SMART summary error log / self-test log (512 bytes each) into o */
void ata_errlog_parse(const uint8_t *b, struct json *o);
void ata_selftest_parse(const uint8_t *b, struct json *o);

/* ---- the kernel log ---- */
/* the class of a kernel log message that matters to a certifier (io, reset, timeout,
 * edac, mce, hung, oops, thermal), or NULL */
const char *kmsg_class(const char *msg);
/* one record ("PRIO,SEQ,USEC,FLAGS;MESSAGE", changed in place): pushed to events as
 * {class, t_s, level, line} when it matters; 1 when it did */
int kmsg_record(char *rec, struct json *events);
struct kmsg_watch;
/* start reading /dev/kmsg from now (NULL when it cannot be read: said in the result) */
struct kmsg_watch *kmsg_open(void);
/* the new lines that matter, each {class, line, t_s} pushed to events (may be NULL);
 * how many */
int kmsg_drain(struct kmsg_watch *w, struct json *events);
void kmsg_close(struct kmsg_watch *w);

/* ---- a run's watch: snapshots, the log, temperatures ---- */
struct health_run;
/* at the start of assay run (the image: shortens the machine-check poll) */
struct health_run *health_begin(void);
/* about once a second while test `name` runs */
void health_tick(struct health_run *h);
/* a test starts / ends: its entry gets {temp_max_c, kernel_events} */
void health_test_begin(struct health_run *h, const char *name);
void health_test_end(struct health_run *h, struct json *test);
/* at the end: doc.health {schema, start, end, delta, kernel_events, temp_max_c} */
void health_end(struct health_run *h, struct json *doc);
/* the text of a health section (a run's, or a snapshot) */
void health_text(const struct json *health, FILE *f);

#endif
