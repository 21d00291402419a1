/* A job's files and devices (fio's filesetup.c): targets probed, test files laid out or
 * extended as fio does, zones, the extent each thread's I/O covers. */
#include "plan.h"
#include "ioengine.h"
#include "json.h"
#include "msg.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* what was done to a file, where fio says it: stdout in normal output, nothing in JSON or
 * terse output (stderr is for warnings and errors: scripts take output there as failure) */
void disk_note(const struct disk_cfg *c, const char *fmt, ...)
{
	unsigned fmts = c->common.formats ? (unsigned)c->common.formats : FMT_BIT(c->common.format);
	va_list ap;
	if (!(fmts & FMT_BIT(FORMAT_NORMAL)))
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* "Nz", fio's N zones: 1 and N, else 0 */
static int zone_count_str(const char *v, unsigned long long *nz)
{
	size_t l = v ? strlen(v) : 0;
	char *e;
	if (l < 2 || v[l - 1] != 'z' || !isdigit((unsigned char)*v))
		return 0;
	errno = 0;
	*nz = strtoull(v, &e, 10);
	return !errno && e == v + l - 1;
}

/* fio's sizes in zones (--size=4z, --offset, --io_size, --offset_increment, --zoneskip):
 * into bytes, in a copy of the job's options, once its target (and so the zones) is known:
 * --zonemode=zbd's (the device's own zones, or --zonesize) or strided ones (--zonesize);
 * 0 (cz unused when none is given in zones), or -1 with why */
int zones_in_bytes(const struct disk_cfg *c, const struct blkdev *d, struct disk_cfg *cz,
			  char sbuf[32], char obuf[32], char *err, size_t n)
{
	static const char *const names[] = { "io_size", "offset_increment", "zoneskip" };
	unsigned long long *vals[] = { &cz->o.io_size, &cz->o.offset_increment, &cz->o.zoneskip };
	unsigned long long nz;
	int any = zone_count_str(c->o.size, &nz) || zone_count_str(c->o.offset_s, &nz);
	uint64_t zs = d->zoned[0] && (c->o.zonemode == 2 || (!GIVEN(c, "zonemode") && !c->o.zonesize)) ? d->zone_size
												     : c->o.zonesize;
	*cz = *c;
	for (int i = 0; i < 3; i++)
		any |= (*vals[i] & OPT_ZONE_COUNT) != 0;
	if (!any)
		return 0;
	for (int i = 0; i < 5; i++) {
		const char *name = i < 3 ? names[i] : i == 3 ? "size" : "offset", *v = i == 3 ? c->o.size : c->o.offset_s;
		char given[32];
		if (i < 3 && !(*vals[i] & OPT_ZONE_COUNT))
			continue;
		if (i < 3) {
			nz = *vals[i] & ~OPT_ZONE_COUNT;
			snprintf(given, sizeof given, "%lluz", nz);
		} else if (!zone_count_str(v, &nz)) {
			continue;
		} else {
			snprintf(given, sizeof given, "%s", v);
		}
		if (!zs) {
			snprintf(err, n, "--%s=%s: zones of what size? give --zonemode=zbd on a zoned device, or --zonesize",
				 name, given);
			return -1;
		}
		if (!nz || nz > (1ull << 62) / zs) {
			snprintf(err, n, "--%s=%s: %s", name, given, nz ? "beyond any device" : "no zones");
			return -1;
		}
		if (i < 3) {
			*vals[i] = nz * zs;
		} else {
			char *b = i == 3 ? sbuf : obuf;
			snprintf(b, 32, "%llu", nz * zs);
			*(i == 3 ? &cz->o.size : &cz->o.offset_s) = b;
		}
	}
	return 1;
}

/* fio lays out a test file that does not exist yet: a path (with a '/', never under /dev)
 * and a --size in bytes make one of --offset + --size bytes of random data (its share of
 * them, one of nshare files of a job), which stays; a --offset=N% of it is of the empty
 * file, 0 (fio's).  A regular file that exists but ends before --offset + --size is
 * extended with random data as fio does -- only with --mode=destroy, as it changes the
 * file (its bytes up to its old end stay).  --create_on_open=1: a new file is made empty
 * (fio's, which makes it when the job opens it), a write job extending it.  1 when made,
 * 2 when extended, 3 when made empty, 0 when there is nothing to make, -1 on failure (err
 * says why). */
int lay_out_file(const struct disk_cfg *c, const struct disk_cfg *run, const char *fn, int nshare, struct blkdev *dry, uint64_t *was,
			uint64_t *planned, char *err, size_t n)
{
	unsigned long long size;
	struct stat st;
	char *buf;
	uint64_t from = 0, to, done = 0;
	int fd, e = 0, exists;
	uint64_t offset;
	struct disk_cfg cz;
	char zsize[32], zoff[32];
	const struct blkdev none = { 0 };
	int zr = fn ? zones_in_bytes(c, &none, &cz, zsize, zoff, err, n) : 0;
	if (zr > 0)
		c = &cz;    /* --size=4z --zonesize=1m: of those zones */
	if (!fn || !strchr(fn, '/') || !strncmp(fn, "/dev/", 5))
		return 0;
	exists = !stat(fn, &st);
	if (exists ? !S_ISREG(st.st_mode) || (c->o.mode != MODE_DESTROY && !FIO_FILES(c)) : errno != ENOENT)
		return 0;
	if (zr < 0)
		return -1;
	if (!c->o.size || parse_size_fio(c->o.size, JOB_SIZES(c), &size) || !size)
		return 0;
	*was = from = exists ? (uint64_t)st.st_size : 0;
	if (parse_offset(c->o.offset_s, JOB_SIZES(c), from, 0, &offset, err, n))
		return -1;
	size /= (unsigned)nshare;
	*planned = to = offset + size;
	if (exists && from >= to)
		return 0;
	if (exists) {
		/* what the destroy checks would refuse is not touched: they say why, later */
		struct blkdev *cur = malloc(sizeof *cur);
		int keep = !cur || blkdev_probe(fn, cur, err, n) ||
			(!c->o.force && (!cur->signature_checked || cur->partitions || cur->signature[0])) ||
			(c->o.expect_size && c->o.expect_size != cur->size);
		free(cur);
		if (keep)
			return 0;
	}
	if (!exists && !c->o.allow_file_create) {
		snprintf(err, n, "%s does not exist, and --allow_file_create=0", fn);
		return -1;
	}
	if (dry && exists)
		return 2;    /* --parse-only: the file as it is (probed), as long as it would be */
	if (dry) {
		/* --parse-only: the file it would be */
		memset(dry, 0, sizeof *dry);
		snprintf(dry->path, sizeof dry->path, "%s", fn);
		snprintf(dry->name, sizeof dry->name, "%s", fn);
		dry->is_file = 1;
		dry->size = to;
		dry->lbs = 512;
		dry->pbs = 4096;
		return c->o.create_on_open ? 3 : 1;
	}
	if (!exists && c->o.create_on_open) {
		fd = open(fn, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0) {
			snprintf(err, n, "cannot create %s: %s", fn, strerror(errno));
			return -1;
		}
		close(fd);
		disk_note(run, "disk: made %s empty (--create_on_open=1: not laid out; reads of it fail, writes extend it; it "
		     "stays)", fn);
		return 3;
	}
	fd = open(fn, exists ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, n, exists ? "cannot open %s to extend it: %s" : "cannot create %s: %s", fn, strerror(errno));
		return -1;
	}
	buf = malloc(1 << 20);
	for (uint64_t k = from >> 20; buf && from + done < to && !e; k++) {
		uint64_t left = to - from - done;
		size_t len = left < (1u << 20) ? (size_t)left : (1u << 20);
		ssize_t w;
		fill_buffer(buf, len, (uint64_t)c->o.randseed * 977 + k, 0, 512);
		w = pwrite(fd, buf, len, (off_t)(from + done));
		if (w < 0)
			e = errno;
		else
			done += (uint64_t)w;
	}
	if (!buf)
		e = ENOMEM;
	if (!e && fsync(fd))
		e = errno;
	if (e && exists && ftruncate(fd, (off_t)from))
		warn("disk: %s: could not cut it back to its %llu bytes: %s", fn, (unsigned long long)from,
		     strerror(errno));
	free(buf);
	close(fd);
	if (e) {
		if (!exists)
			unlink(fn);
		snprintf(err, n, "cannot %s %s (%llu bytes): %s", exists ? "extend" : "lay out", fn,
			 (unsigned long long)to, strerror(e));
		return -1;
	}
	if (exists)
		disk_note(run, "disk: extended %s from %llu to %llu bytes with random data, as fio does (--offset + --size "
		     "beyond its end)", fn, (unsigned long long)from, (unsigned long long)to);
	else
		disk_note(run, "disk: laid out %s: %llu bytes of random data (%s)", fn, (unsigned long long)to,
		     c->o.unlink ? "--unlink removes it at the end" : "it stays: delete it when done");
	return exists ? 2 : 1;
}

/* fio's unlink: the test files go when the run ends (regular files, never a device) */
void unlink_targets(const struct plan *p)
{
	for (int i = 0; i < p->ntg && !p->c->o.parse_only; i++)
		if (p->tg[i].unlink && p->tg[i].dev.is_file && unlink(p->tg[i].filename) && errno != ENOENT)
			warn("disk: --unlink: %s: %s", p->tg[i].filename, strerror(errno));
}

/* "device": the (first job's) device; "devices": every one, when the jobs name several */
void add_devices(struct json *as, const struct plan *p)
{
	json_add(as, "device", blkdev_json(&p->tg[0].dev));
	if (p->ntg > 1) {
		struct json *a = json_add_arr(as, "devices");
		for (int i = 0; i < p->ntg; i++)
			json_push(a, blkdev_json(&p->tg[i].dev));
	}
}

/* the same file or device (by the kernel's identity, whatever the names) */
int same_target(const char *a, const char *b)
{
	struct stat x, y;
	if (stat(a, &x) || stat(b, &y) || (x.st_mode & S_IFMT) != (y.st_mode & S_IFMT))
		return 0;
	return S_ISBLK(x.st_mode) ? x.st_rdev == y.st_rdev : x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* fio's a:b: a --filename with ':' that does not exist is a list of files; how many names
 * (1: a name) */
int name_count(const char *fn)
{
	int k = 1;
	if (!strchr(fn, ':') || !access(fn, F_OK))
		return 1;
	for (const char *q = fn; (q = strchr(q, ':')); q++)
		k++;
	return k;
}

/* One file of the job (fn): its target, probed once however many jobs name it (a file laid
 * out first when it is to be made, one of nshare of the job's); its index, or -1 with why */
static int plan_file(struct plan *p, const struct disk_cfg *c, const char *fn, int nshare, char *err, size_t n)
{
	int t;
	for (t = 0; t < p->ntg; t++)
		if (!strcmp(p->tg[t].filename, fn))
			return t;
	/* a name not seen: the file laid out, the device probed, then one of those already
	 * named under another name, or a new one */
	struct blkdev d;
	uint64_t was = 0, planned = 0;
	/* --parse-only, and the null engine (which moves no data: fio's touches no file), make
	 * no file: lay_out_file says what it would be */
	int dry = p->c->o.parse_only || (ioengines[c->o.ioengine]->flags & IOE_NODATA);
	int made = lay_out_file(c, p->c, fn, nshare, dry ? &d : NULL, &was, &planned, err, n);
	int absent = dry && (made == 1 || made == 3);
	if (made < 0)
		return -1;
	if (!absent && blkdev_probe(fn, &d, err, n)) {
		size_t l = strlen(err);
		if (errno == ENOENT && strncmp(fn, "/dev/", 5) && !c->o.size && l < n)
			snprintf(err + l, n - l, " (a new file is laid out with --size, as fio's)");
		return -1;
	}
	if (made >= 2)   /* extended (or would be), or made empty: as long as planned */
		d.size = planned;
	for (t = 0; t < p->ntg; t++)
		if (same_target(p->tg[t].dev.path, d.path))
			return t;
	if (t == MAX_TARGETS) {
		snprintf(err, n, "--filename=%s: more than %d devices or files in one run", fn, MAX_TARGETS);
		return -1;
	}
	memset(&p->tg[t], 0, sizeof p->tg[t]);
	p->tg[t].excl_fd = -1;
	p->tg[t].filename = fn;
	p->tg[t].dev = d;
	p->tg[t].pct_of = made ? was : d.size;
	p->tg[t].absent = absent && !p->c->o.parse_only;
	p->tg[t].made = made == 1 || made == 3;
	return p->ntg++;
}

/* are the job's targets all regular files fio would write as they are: made by this run
 * (or a null engine's, never made), or holding no filesystem or partition table? */
int plain_files(const struct plan *p, const struct job *j)
{
	for (int k = 0; k < j->nftg; k++) {
		const struct target *t = &p->tg[j->ftg[k]];
		if (!t->dev.is_file || (!t->made && !t->absent &&
					(!t->dev.signature_checked || t->dev.signature[0] || t->dev.partitions)))
			return 0;
	}
	return j->nftg > 0;
}

/* The job's targets: its --filename, or the run's; fio's a:b (a name with ':' that does
 * not exist) names several files, each its own; 0, or -1 with why */
int plan_target(struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *fn = c->o.filename ? c->o.filename : p->c->o.filename;
	if (!fn || !*fn) {
		snprintf(err, n, !fn ? "job '%s' has no --filename, and there is none for every job: name its device "
				       "(e.g. --filename=/dev/vdb); --list shows the disks found"
				     : "job '%s': --filename is empty", j->name);
		return -1;
	}
	j->nftg = 0;
	j->per_thread = c->o.per_thread_files;
	if (name_count(fn) > 1) {
		/* each thread's files share its --size */
		int nshare = name_count(fn) / (j->per_thread ? (int)c->o.numjobs : 1);
		for (const char *a = fn, *e; ; a = e + 1) {
			size_t l = strcspn(a, ":"), used = p->names_used;
			e = a + l;
			if (!l || j->nftg == (j->per_thread ? MAX_JOB_FILES : MAX_FILES) || used + l + 1 > sizeof p->names) {
				snprintf(err, n, !l ? "--filename=%s: an empty name in the list" :
					 j->nftg == (j->per_thread ? MAX_JOB_FILES : MAX_FILES) ?
					 "--filename=%s: more than %d files in one job" :
					 "--filename=%s: the lists of files of the run's jobs are too long together", fn,
					 j->per_thread ? MAX_JOB_FILES : MAX_FILES);
				return -1;
			}
			memcpy(p->names + used, a, l);
			p->names[used + l] = 0;
			p->names_used += l + 1;
			if ((j->ftg[j->nftg] = plan_file(p, c, p->names + used, nshare, err, n)) < 0)
				return -1;
			j->nftg++;
			if (!*e)
				break;
		}
		for (int k = 0; k < j->nftg; k++)
			for (int i = 0; i < k; i++)
				if (j->ftg[i] == j->ftg[k]) {
					snprintf(err, n, "--filename=%s: %s and %s are the same device or file", fn,
						 p->tg[j->ftg[i]].filename, p->tg[j->ftg[k]].filename);
					return -1;
				}
	} else if ((j->ftg[j->nftg++] = plan_file(p, c, fn, 1, err, n)) < 0)
		return -1;
	j->nfiles = j->per_thread ? j->nftg / (int)c->o.numjobs : j->nftg;
	j->tg = j->ftg[0];
	for (int k = 0; k < j->nftg; k++)
		p->tg[j->ftg[k]].unlink |= c->o.unlink;
	return 0;
}

/* fio's zonemode=zbd: the zones a zoned device has, or --zonesize ones on any other; a
 * job that writes does so in whole zones (its offset rounded up to a zone's start, its
 * size down to a zone's end, as fio's); 0, or -1 with why */
static int parse_zbd(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n)
{
	uint64_t zs = d->zoned[0] ? d->zone_size : c->o.zonesize, end;
	const char *with = c->o.zonerange || c->o.zoneskip ? "--zonerange/--zoneskip (strided zones)" :
			   j->nfiles > 1 ? "several files" : j->o.verify_only ? "--verify_only" :
			   j->verify && !rw_modifies(j->rw) ? "--verify on a read job" :
			   j->rw >= RW_TRIMWRITE ? "trimwrite" : c->o.read_iolog ? "--read_iolog" : d->is_null ? d->path :
			   NULL;
	if (with) {
		snprintf(err, n, "--zonemode=zbd with %s: not here", with);
		return -1;
	}
	if (d->zoned[0] && c->o.zonesize && c->o.zonesize != d->zone_size) {
		snprintf(err, n, "--zonesize=%llu: %s's zones are of %llu bytes", c->o.zonesize, d->path,
			 (unsigned long long)d->zone_size);
		return -1;
	}
	if (!zs) {
		snprintf(err, n, "--zonemode=zbd: %s is not a zoned device: give --zonesize (the zones kept here)",
			 d->path);
		return -1;
	}
	if (rw_trims(j->rw) && (j->bs != zs || j->var_bs)) {
		snprintf(err, n, "--zonemode=zbd: a trim resets a zone: --bs is to be the zone size (%llu; fio's rule)",
			 (unsigned long long)zs);
		return -1;
	}
	if (j->bs_max > zs) {
		snprintf(err, n, "--zonemode=zbd: an I/O of %llu bytes is longer than a zone (%llu)",
			 (unsigned long long)j->bs_max, (unsigned long long)zs);
		return -1;
	}
	if (zs % 512) {
		snprintf(err, n, "--zonesize=%llu: a multiple of 512", (unsigned long long)zs);
		return -1;
	}
	if (zs > d->size) {   /* fio's: each thread fails setting up its zones, the other jobs run */
		snprintf(j->setup_err, sizeof j->setup_err, "--zonemode=zbd: %s (%llu bytes) is smaller than one zone "
			 "(--zonesize=%llu)", d->path, (unsigned long long)d->size, (unsigned long long)zs);
		return 0;
	}
	if (!d->zoned[0] && (c->o.zonecapacity > zs || c->o.zonecapacity % 512)) {
		snprintf(err, n, "--zonecapacity=%llu: at most --zonesize=%llu, a multiple of 512", c->o.zonecapacity,
			 (unsigned long long)zs);
		return -1;
	}
	if ((j->verify || !rw_is_random(j->rw)) && (zs % j->bs || (!d->zoned[0] && c->o.zonecapacity % j->bs))) {
		/* (a sequential job's offsets are on the --bs grid here) */
		snprintf(err, n, "--zonemode=zbd%s: the zones' size and capacity are to be multiples of --bs=%llu%s",
			 j->verify ? " --verify" : ", sequential", (unsigned long long)j->bs, j->verify ? " (fio's rule)" : "");
		return -1;
	}
	if (rw_modifies(j->rw) && !strcmp(d->zoned, "host-managed") && (!j->o.direct || JOB_ENGINE_HAS(j, IOE_MAPS))) {
		snprintf(err, n, "--zonemode=zbd: writes to host-managed %s need --direct=1 (buffered ones reach it "
			 "out of order; fio's rule)%s", d->path,
			 JOB_ENGINE_HAS(j, IOE_MAPS) ? ", and --ioengine=mmap writes through the page cache" : "");
		return -1;
	}
	if (rw_modifies(j->rw)) {
		if (j->offset_inc % zs) {
			snprintf(err, n, "--offset_increment=%llu: whole zones (of %llu bytes) with --zonemode=zbd",
				 (unsigned long long)j->offset_inc, (unsigned long long)zs);
			return -1;
		}
		uint64_t o0 = j->offset;
		end = (j->offset + j->size) / zs * zs;
		j->offset = (j->offset + zs - 1) / zs * zs;
		if (end <= j->offset) {
			snprintf(err, n, "--zonemode=zbd: the region (--offset, --size) holds no whole zone of %llu bytes",
				 (unsigned long long)zs);
			return -1;
		}
		if (end - j->offset != j->size || j->offset != o0)
			warn("disk: %s: --zonemode=zbd: its region is whole zones: %llu bytes from %llu (fio's rounding)",
			     j->name, (unsigned long long)(end - j->offset), (unsigned long long)j->offset);
		j->size = end - j->offset;
	}
	j->zbd = 1;
	j->zbd_zone = zs;
	j->zbd_cap = d->zoned[0] ? 0 : c->o.zonecapacity;
	if (j->o.job_max_open_zones && !j->o.max_open_zones && !(!strcmp(d->zoned, "host-managed") &&
							       d->max_open_zones > 0 && !j->o.ignore_zone_limits)) {
		snprintf(err, n, "--job_max_open_zones: needs a limit for the device (--max_open_zones; fio's rule)");
		return -1;
	}
	return 0;
}

/* fio's zonemode=strided (zonesize given: strided): zonesize bytes done in a zone of
 * zonerange (default zonesize) from the region's start, then zonerange + zoneskip on to
 * the next (after the device's end, the region's start again: fio's, whose zones go past
 * --size, the bytes done); 0, or -1 with why */
static int parse_zbd(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n);

int parse_zones(const struct disk_cfg *c, const struct blkdev *d, struct job *j, char *err, size_t n)
{
	const char *with;
	if (c->o.zonemode == 2)
		return parse_zbd(c, d, j, err, n);
	if (!GIVEN(c, "zonemode") && !strcmp(d->zoned, "host-managed") && c->o.mode == MODE_DESTROY &&
	    rw_modifies(j->rw) && !c->o.zonesize) {
		/* a job writing to a host-managed zoned device in destroy mode (a profile's, in
		 * the image): at the write pointers, as the device takes writes; one that cannot
		 * (buffered, verify, trims) is skipped with the reason */
		char why[240];
		struct job t = *j;
		if (!parse_zbd(c, d, &t, why, sizeof why))
			*j = t;
		return 0;
	}
	for (const char *const *o = (const char *const[]){ "zonecapacity", "read_beyond_wp", "max_open_zones",
							    "job_max_open_zones", "ignore_zone_limits",
							    "zone_reset_threshold", "zone_reset_frequency", NULL }; *o; o++)
		if (GIVEN(c, *o)) {
			snprintf(err, n, "--%s: for --zonemode=zbd", *o);
			return -1;
		}
	if (!c->o.zonesize) {
		if (c->o.zonemode || c->o.zonerange || c->o.zoneskip) {
			snprintf(err, n, "--%s: strided zones need --zonesize", c->o.zonemode ? "zonemode=strided" :
				 c->o.zonerange ? "zonerange" : "zoneskip");
			return -1;
		}
		return 0;
	}
	if (GIVEN(c, "zonemode") && !c->o.zonemode) {
		snprintf(err, n, "--zonemode=none and --zonesize: give --zonemode=strided (as fio)");
		return -1;
	}
	j->zone_size = c->o.zonesize;
	j->zone_range = c->o.zonerange ? c->o.zonerange : c->o.zonesize;
	j->zone_skip = c->o.zoneskip;
	j->stride_end = d->size;
	if (j->zone_size % j->bs || j->zone_range % j->bs || j->zone_skip % j->bs) {
		snprintf(err, n, "--zonesize, --zonerange, --zoneskip: multiples of --bs=%llu", (unsigned long long)j->bs);
		return -1;
	}
	with = j->var_bs ? "--bssplit/--bsrange" : j->nfiles > 1 ? "several files" : j->seq_hole || j->rand_run > 1 ?
	       "an offset modifier" : j->dist != DIST_RANDOM ? "--random_distribution" : j->o.pct_seq[0] || j->o.pct_seq[1] ||
	       j->o.pct_seq[2] ? "--percentage_random" : j->o.ba ? "--blockalign" : c->o.read_iolog ? "--read_iolog" :
	       j->o.verify_only ? "--verify_only (the zones' blocks are not re-derived)" :
	       j->verify && j->o.numjobs > 1 && !j->per_thread ? "--verify and --numjobs (the threads' zones would cross)" :
	       d->is_null ? d->path : NULL;
	if (with) {
		snprintf(err, n, "strided zones (--zonesize) with %s: not here", with);
		return -1;
	}
	return 0;
}

/* fio's file_service_type: roundrobin[:N], sequential, random[:N]; 0, or -1 with why */
int parse_fst(const char *v, struct job *j, char *err, size_t n)
{
	static const char *const names[] = { "roundrobin", "sequential", "random" };
	size_t l = strcspn(v, ":");
	j->fst_n = 1;
	for (j->fst = 0; j->fst < 3; j->fst++)
		if (strlen(names[j->fst]) == l && !strncmp(v, names[j->fst], l))
			break;
	if (j->fst == 3 || (v[l] && j->fst == FST_SEQ)) {
		snprintf(err, n, "--file_service_type=%s: roundrobin[:N], sequential or random[:N] (fio's zipf, pareto, "
			 "normal and gauss are not here)", v);
		return -1;
	}
	if (v[l]) {
		char *end;
		long long x = strtoll(v + l + 1, &end, 10);
		if (*end || end == v + l + 1 || x < 1 || x > 1000000) {
			snprintf(err, n, "--file_service_type=%s: N is a count of I/Os, 1 to 1000000", v);
			return -1;
		}
		j->fst_n = (int)x;
	}
	return 0;
}

/* fio's a:b: each file's region from --offset (--offset=N%: N% of that file, as fio's),
 * --size shared out among them (fio's: a size in bytes is the job's), else each one's own
 * to its end (--size=N% of each, a profile's cap on each); the job's size their sum; 0,
 * or -1 with why */
int files_extent(const struct plan *p, const struct disk_cfg *c, struct job *j, uint64_t cap, char *err,
			size_t n)
{
	size_t l = c->o.size ? strlen(c->o.size) : 0;
	int shared = l && c->o.size[l - 1] != '%' && !c->o.fill_device;
	unsigned long long total = 0;
	if (shared && (parse_size_fio(c->o.size, JOB_SIZES(c), &total) || total / (uint64_t)j->nfiles / j->bs == 0)) {
		snprintf(err, n, "--size=%s: %s", c->o.size, total ? "less than one --bs block for each of the job's files" :
			 "not a size; accepted: bytes with k/m/g/t suffix, or N%");
		return -1;
	}
	j->size = 0;
	for (int k = 0; k < j->nftg; k++) {   /* (fio's JOB.N.F: each thread's files as the first's) */
		const struct blkdev *d = &p->tg[j->ftg[k]].dev;
		uint64_t per = total / (uint64_t)j->nfiles / j->bs * j->bs, own, off = j->offset;
		if (d->is_null) {
			snprintf(err, n, "--filename: %s in a list of files: give it a job of its own", d->path);
			return -1;
		}
		if (parse_offset(c->o.offset_s, JOB_SIZES(c), p->tg[j->ftg[k]].pct_of, c->o.offset_align ? c->o.offset_align : j->bs, &off,
				 err, n))
			return -1;
		if (k >= j->nfiles && off != j->foff[k % j->nfiles]) {
			snprintf(err, n, "--offset=%s: %s's region would start at %llu, thread 1's %s's at %llu: each "
				 "thread's files as big", c->o.offset_s, d->path, (unsigned long long)off,
				 p->tg[j->ftg[k % j->nfiles]].dev.path, (unsigned long long)j->foff[k % j->nfiles]);
			return -1;
		}
		if (k < j->nfiles)
			j->foff[k] = off;
		if (j->o.direct && (j->bs_max % d->lbs || j->bs % d->lbs || off % d->lbs)) {
			snprintf(err, n, "--direct=1: --bs and --offset are to be multiples of %s's logical block size (%u)",
				 d->path, d->lbs);
			return -1;
		}
		if (shared && (off >= d->size || per > d->size - off)) {
			snprintf(err, n, "--size=%s: %llu bytes of it (the job's files' share) from offset %llu go beyond "
				 "the end of %s (%llu bytes)%s", c->o.size, (unsigned long long)per, (unsigned long long)off,
				 d->path, (unsigned long long)d->size, extend_hint(c, d));
			return -1;
		}
		if (shared)
			own = per;
		else if (region(c, d, off, cap, j->bs, &own, err, n))
			return -1;
		if (k < j->nfiles) {
			j->fsize[k] = own;
			j->size += own;
		} else if (own < j->fsize[k % j->nfiles]) {
			snprintf(err, n, "%s: %llu bytes from --offset, thread 1's %s has %llu: each thread's files as big",
				 d->path, (unsigned long long)own, p->tg[j->ftg[k % j->nfiles]].dev.path,
				 (unsigned long long)j->fsize[k % j->nfiles]);
			return -1;
		}
	}
	return 0;
}

/* fio's dedupe_mode=working_set: the deduplicated writes each repeat one of the working
 * set's blocks (--dedupe_working_set_percentage of the region, in --bs blocks), page i's
 * data drawn from its own seed: the job's (the job index in it), or with dedupe_global one
 * for all such jobs; 0, or -1 with why */
int dedupe_working_set(const struct disk_cfg *c, struct job *j, int index, char *err, size_t n)
{
	if (c->o.dedupe_ws_pct + c->o.dedupe_pct > 100) {
		/* fio's: the working set's blocks are unique ones */
		snprintf(err, n, "--dedupe_percentage=%lld with --dedupe_working_set_percentage=%lld: more than 100%% "
			 "(the working set's blocks are unique ones; fio's rule)", c->o.dedupe_pct, c->o.dedupe_ws_pct);
		return -1;
	}
	j->dedupe_ws = j->size * (uint64_t)c->o.dedupe_ws_pct / 100 / j->bs;
	if (!j->dedupe_ws) {
		snprintf(err, n, "--dedupe_working_set_percentage=%lld: not one --bs block of the region (%llu bytes)",
			 c->o.dedupe_ws_pct, (unsigned long long)j->size);
		return -1;
	}
	j->dedupe_seed = c->o.dedupe_global ? 0x6a09e667f3bcc908ull : (j->randseed * 131 + 7) ^ ((uint64_t)(index + 1) << 40);
	return 0;
}
