/* fio's zonemode=zbd: I/O on a zoned block device the way the device takes it.
 *
 * A host-managed zoned device (an SMR disk, an NVMe ZNS namespace) fails any write that is
 * not at its zone's write pointer.  Each write here goes to the write pointer of the zone
 * its offset falls in (or, with a limit on open zones, of one of the open ones); a zone
 * too full for it is reset first (BLKRESETZONE, once the thread's I/Os in flight are done,
 * as fio's).  Reads go below the write pointers, where there is data.  On any other device
 * or file the zones are --zonesize ones kept here, empty at the start, as fio's.  The
 * target's zones are shared by the jobs and threads on it (one mutex); a zone with a
 * thread's writes in flight is that thread's until they complete (fio's zone lock), so
 * writes to one zone reach the device in order.
 */
#include <errno.h>
#include <linux/blkzoned.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>

#include "job.h"
#include "json.h"

#define ZBD_MAX_OPEN 4096      /* fio's ZBD_MAX_OPEN_ZONES */

struct zone {
	uint64_t start, cap, wp;
	unsigned char seq;         /* has a write pointer: sequential writes required (or kept here) */
	unsigned char offline;     /* read-only or offline: not used (fio's) */
	unsigned char open;        /* in the open list */
	unsigned char reset;       /* --zone_reset_frequency chose it */
	unsigned inflight;         /* writes in flight, of owner */
	const struct zbd_thread *owner;
	struct zbd_thread *opener; /* whose --job_max_open_zones it counts in: the thread that
				    * opened it, not the one whose write fills it */
};

struct zbd {
	pthread_mutex_t mu;
	int real;                  /* the device's zones: resets are the device's */
	int model_hm;              /* host-managed */
	uint64_t zone_size;
	unsigned nr;
	struct zone *z;            /* nr + 1: the last a sentinel (its start, the end) */
	unsigned max_open, nopen;
	unsigned open[ZBD_MAX_OPEN];
	uint64_t data;             /* bytes below the write pointers (fio's sectors_with_data) */
	uint32_t write_cnt;        /* writes to the next --zone_reset_frequency reset */
	int one_write;             /* one write in flight per zone: nothing in the kernel keeps
				    * a zone's writes in order (see write_order) */
};

static unsigned zone_idx(const struct zbd *z, uint64_t off)
{
	uint64_t i = off / z->zone_size;
	return i < z->nr ? (unsigned)i : z->nr - 1;
}

static uint64_t cap_end(const struct zone *zn)
{
	return zn->start + zn->cap;
}

static int full(const struct zone *zn, uint64_t need)
{
	return zn->seq && zn->wp + need > cap_end(zn);
}

/* the zone is another thread's: its writes to it are in flight */
static int busy(const struct zone *zn, const struct zbd_thread *t)
{
	return zn->inflight && zn->owner != t;
}

/* room for the zones of size zs that cover the device, and the sentinel; 0, or -1 with why */
static int zones_alloc(struct zbd *z, const struct blkdev *d, uint64_t zs, char *err, size_t n)
{
	z->zone_size = zs;
	z->nr = (unsigned)((d->size + zs - 1) / zs);
	if (!(z->z = calloc((size_t)z->nr + 1, sizeof *z->z))) {
		snprintf(err, n, "out of memory for the %u zones of %s", z->nr, d->path);
		return -1;
	}
	return 0;
}

/* the device's zones, from BLKREPORTZONE; 0, or -1 with why */
static int report(struct zbd *z, int fd, const struct blkdev *d, char *err, size_t n)
{
	enum { BATCH = 4096 };
	struct blk_zone_report *h = malloc(sizeof *h + BATCH * sizeof(struct blk_zone));
	uint64_t sector = 0, end = d->size >> 9;
	unsigned got = 0;
	if (!h) {
		snprintf(err, n, "%s: out of memory for its zones", d->path);
		return -1;
	}
	while (sector < end) {
		memset(h, 0, sizeof *h);
		h->sector = sector;
		h->nr_zones = BATCH;
		if (ioctl(fd, BLKREPORTZONE, h) < 0 || !h->nr_zones) {
			snprintf(err, n, "--zonemode=zbd: reporting %s's zones (BLKREPORTZONE at sector %llu): %s", d->path,
				 (unsigned long long)sector, h->nr_zones ? strerror(errno) : "no zone there");
			free(h);
			return -1;
		}
		for (unsigned i = 0; i < h->nr_zones; i++) {
			const struct blk_zone *b = &h->zones[i];
			struct zone *zn;
			if (!z->z && zones_alloc(z, d, b->len << 9, err, n)) {
				free(h);
				return -1;
			}
			if (got == z->nr || b->start << 9 != (uint64_t)got * z->zone_size) {
				snprintf(err, n, "--zonemode=zbd: %s's zone report is not of zones of %llu bytes one after "
					 "another (zone %u at sector %llu)", d->path, (unsigned long long)z->zone_size, got,
					 (unsigned long long)b->start);
				free(h);
				return -1;
			}
			zn = &z->z[got++];
			zn->start = b->start << 9;
			zn->cap = (h->flags & BLK_ZONE_REP_CAPACITY ? b->capacity : b->len) << 9;
			zn->seq = b->type == BLK_ZONE_TYPE_SEQWRITE_REQ;
			zn->wp = b->cond == BLK_ZONE_COND_NOT_WP || b->cond == BLK_ZONE_COND_FULL ? zn->start + zn->cap
												 : b->wp << 9;
			if (b->cond == BLK_ZONE_COND_READONLY || b->cond == BLK_ZONE_COND_OFFLINE) {
				zn->offline = 1;
				zn->wp = zn->start;
			}
			/* open already: opened below (or reset when over the limit), as fio's */
			zn->open = b->cond == BLK_ZONE_COND_IMP_OPEN || b->cond == BLK_ZONE_COND_EXP_OPEN ? 2 : 0;
			sector = b->start + b->len;
		}
	}
	free(h);
	if (got != z->nr) {
		snprintf(err, n, "--zonemode=zbd: %s reports %u zones of %u", d->path, got, z->nr);
		return -1;
	}
	return 0;
}

/* Does the kernel keep a host-managed zone's writes in the order they were issued?  Since
 * Linux 6.10 the block layer does (zone write plugging), whatever the scheduler; before,
 * only mq-deadline did (its zone write lock), and under any other ("none" is what 6.1
 * gives an NVMe ZNS namespace; only SCSI SMR disks require mq-deadline) several writes in
 * flight to a zone can reach the device out of order, which refuses them (an I/O error at
 * QD > 1, seen with QEMU's NVMe ZNS).  Then we keep one write in flight per zone, as
 * mq-deadline does.  1: ordered; a scheduler not found (a partition): not */
static int write_order(const struct blkdev *d)
{
	struct utsname u;
	unsigned maj = 0, min = 0;
	char s[64];
	if (!uname(&u) && sscanf(u.release, "%u.%u", &maj, &min) == 2 && (maj > 6 || (maj == 6 && min >= 10)))
		return 1;
	blkdev_scheduler(d, s, sizeof s);
	return !strcmp(s, "mq-deadline");
}

int zbd_make(struct zbd **out, int fd, const struct blkdev *d, const struct job *j, char *err, size_t n)
{
	struct zbd *z = calloc(1, sizeof *z);
	if (!z) {
		snprintf(err, n, "out of memory for the zones of %s", d->path);
		return -1;
	}
	pthread_mutex_init(&z->mu, NULL);
	z->real = d->zoned[0] != 0;
	z->model_hm = !strcmp(d->zoned, "host-managed");
	if (z->real) {
		if (report(z, fd, d, err, n))
			goto fail;
		if (j->zbd_zone && j->zbd_zone != z->zone_size) {
			snprintf(err, n, "--zonesize=%llu: %s's zones are of %llu bytes", (unsigned long long)j->zbd_zone,
				 d->path, (unsigned long long)z->zone_size);
			goto fail;
		}
	} else {   /* fio's for a device that is not zoned: --zonesize zones, empty */
		if (zones_alloc(z, d, j->zbd_zone, err, n))
			goto fail;
		for (unsigned i = 0; i < z->nr; i++) {
			struct zone *zn = &z->z[i];
			zn->start = zn->wp = (uint64_t)i * z->zone_size;
			zn->cap = j->zbd_cap ? j->zbd_cap : z->zone_size;
			if (zn->start + zn->cap > d->size)
				zn->cap = d->size - zn->start;    /* the last, short one */
			zn->seq = 1;
		}
	}
	z->z[z->nr].start = (uint64_t)z->nr * z->zone_size;
	/* fio's max_open_zones: a host-managed device's own limit (unless ignored), the job's
	 * if lower; none: not tracked */
	z->max_open = j->o.max_open_zones;
	if (z->model_hm && !j->o.ignore_zone_limits && d->max_open_zones > 0) {
		if (!j->o.max_open_zones)
			z->max_open = (unsigned)d->max_open_zones;
		else if (j->o.max_open_zones > d->max_open_zones) {
			snprintf(err, n, "--max_open_zones=%lld: %s opens at most %lld zones at once", j->o.max_open_zones,
				 d->path, d->max_open_zones);
			goto fail;
		}
	}
	if (z->max_open > ZBD_MAX_OPEN) {
		snprintf(err, n, "--max_open_zones=%u: at most %d here (fio's)", z->max_open, ZBD_MAX_OPEN);
		goto fail;
	}
	for (unsigned i = 0; i < z->nr; i++)
		z->data += z->z[i].wp - z->z[i].start;
	z->write_cnt = UINT32_MAX;
	z->one_write = z->model_hm && !write_order(d);
	*out = z;
	return 0;
fail:
	zbd_free(z);
	return -1;
}

uint64_t zbd_size(const struct zbd *z)
{
	return z->zone_size;
}

void zbd_free(struct zbd *z)
{
	if (!z)
		return;
	pthread_mutex_destroy(&z->mu);
	free(z->z);
	free(z);
}

/* fio's zbd_open_zone: the zone is open (1), or now is (2; within the limits); 0: not.
 * With no limit, open zones are not tracked */
static int open_zone(struct zbd *z, struct zbd_thread *t, const struct job *j, struct zone *zn)
{
	if (zn->offline)
		return 0;
	if (j->verify && full(zn, j->bs))
		return 0;   /* fio's: a reset would lose data the read-back checks */
	if (!z->max_open)
		return 1;
	if (zn->open)  /* to be filled by the writes in flight: as a full one */
		return zn->wp < cap_end(zn);
	if ((j->o.job_max_open_zones && t->nopen >= j->o.job_max_open_zones) || z->nopen >= z->max_open)
		return 0;
	z->open[z->nopen++] = (unsigned)(zn - z->z);
	t->nopen++;
	zn->opener = t;
	zn->open = 1;
	return 2;
}

/* the zone closed: it leaves the open list and its opener's count (another thread's
 * write may fill it: counting it off the closer's left the opener at its limit for good,
 * its job ending early once no zone stayed open) */
static void close_zone(struct zbd *z, struct zone *zn)
{
	unsigned i = 0, idx = (unsigned)(zn - z->z);
	if (zn->open != 1)
		return;
	while (i < z->nopen && z->open[i] != idx)
		i++;
	if (i == z->nopen)
		return;
	memmove(z->open + i, z->open + i + 1, (z->nopen - i - 1) * sizeof *z->open);
	z->nopen--;
	if (zn->opener && zn->opener->nopen)
		zn->opener->nopen--;
	zn->opener = NULL;
	zn->open = 0;
}

/* the zone's write pointer back to its start: the device's, or ours; 0 or -errno */
static int reset_zone(struct zbd *z, struct zbd_thread *t, int fd, struct zone *zn)
{
	uint64_t data = zn->wp - zn->start;
	if (!data)
		return 0;
	if (z->model_hm) {
		struct blk_zone_range r = { zn->start >> 9, ((zn + 1)->start - zn->start) >> 9 };
		if (ioctl(fd, BLKRESETZONE, &r) < 0)
			return -errno;
	}
	z->data -= data;
	zn->wp = zn->start;
	t->resets++;
	return 0;
}

/* the thread's region's zones reset (and closed); 0, or -errno with why */
static int reset_region(struct zbd *z, struct zbd_thread *t, int fd, char *err, size_t n)
{
	int rc = 0;
	for (unsigned i = t->min_zone; i < t->max_zone && !rc; i++) {
		struct zone *zn = &z->z[i];
		if (!zn->seq)
			continue;
		close_zone(z, zn);
		if ((rc = reset_zone(z, t, fd, zn)))
			snprintf(err, n, "--zonemode=zbd --verify: resetting the zone at %llu: %s",
				 (unsigned long long)zn->start, strerror(-rc));
	}
	return rc;
}

int zbd_verify_pass(struct zbd *z, struct zbd_thread *t, int fd, char *err, size_t n)
{
	int rc;
	pthread_mutex_lock(&z->mu);
	rc = reset_region(z, t, fd, err, n);
	pthread_mutex_unlock(&z->mu);
	return rc ? -1 : 0;
}

uint64_t zbd_room(const struct zbd *z, const struct zbd_thread *t)
{
	uint64_t b = 0;
	for (unsigned i = t->min_zone; i < t->max_zone; i++)
		b += z->z[i].seq ? z->z[i].cap : z->z[i + 1].start - z->z[i].start;
	return b;
}

int zbd_join(struct zbd *z, struct zbd_thread *t, const struct job *j, uint64_t lo, uint64_t size, int fd,
	     char *err, size_t n)
{
	int rc = 0;
	memset(t, 0, sizeof *t);
	t->on = 1;
	t->min_zone = zone_idx(z, lo);
	t->max_zone = lo + size >= z->z[z->nr].start ? z->nr : zone_idx(z, lo + size);
	if (t->max_zone <= t->min_zone)
		t->max_zone = t->min_zone + 1;
	if (!rw_modifies(j->rw))
		return 0;
	pthread_mutex_lock(&z->mu);
	if (j->o.zrf > 0)   /* fio's zbd_file_reset: the count to the next reset starts again */
		z->write_cnt = (uint32_t)(1.0 / j->o.zrf);
	/* zones the device has open: ours now, those over the limits reset (fio's) */
	for (unsigned i = t->min_zone; i < t->max_zone && !rc; i++) {
		struct zone *zn = &z->z[i];
		if (zn->open != 2)
			continue;
		zn->open = 0;
		if (open_zone(z, t, j, zn))
			continue;
		if ((rc = reset_zone(z, t, fd, zn)))
			snprintf(err, n, "--zonemode=zbd: resetting the zone at %llu (over --max_open_zones=%u): %s",
				 (unsigned long long)zn->start, z->max_open, strerror(-rc));
	}
	/* then, with --verify, every zone reset and closed (fio's order: none stays open) */
	if (j->verify && !rc)
		rc = reset_region(z, t, fd, err, n);
	pthread_mutex_unlock(&z->mu);
	return rc ? -1 : 0;
}

void zbd_leave(struct zbd *z, struct zbd_thread *t)
{
	if (!t->on)
		return;
	pthread_mutex_lock(&z->mu);
	for (unsigned i = 0; i < z->nr; i++) {
		if (z->z[i].owner == t) {
			z->z[i].inflight = 0;
			z->z[i].owner = NULL;
		}
		if (z->z[i].opener == t)   /* open still, for the others to fill: counted to none */
			z->z[i].opener = NULL;
	}
	pthread_mutex_unlock(&z->mu);
	t->on = 0;
}

void zbd_done(struct zbd *z, struct zbd_thread *t, int ddir, uint64_t off, uint64_t len)
{
	struct zone *zn;
	if (ddir == DDIR_READ)
		return;
	pthread_mutex_lock(&z->mu);
	zn = &z->z[zone_idx(z, off)];
	if (zn->owner == t && zn->inflight && !--zn->inflight)
		zn->owner = NULL;
	if (zn->seq && ddir == DDIR_WRITE && off + len >= cap_end(zn))
		close_zone(z, zn);   /* full: fio's zbd_end_zone_io */
	pthread_mutex_unlock(&z->mu);
}

/* fio's zbd_find_zone: the next zone after zb with min bytes of data (random I/O: the
 * nearest, before or after), or NULL */
static struct zone *find_zone(struct zbd *z, const struct zbd_thread *t, int random, uint64_t min, struct zone *zb)
{
	struct zone *first = &z->z[t->min_zone], *last = &z->z[t->max_zone];
	for (struct zone *a = zb + 1, *b = zb - 1; a < last || b >= first; a++, b--) {
		if (a < last && !a->offline) {
			if (a->start + min <= a->wp)
				return a;
		} else if (!random) {
			break;
		}
		if (random && b >= first && !b->offline && b->start + min <= b->wp)
			return b;
	}
	return NULL;
}

/* fio's zbd_convert_to_open_zone: a write whose zone cannot be opened goes to an open one
 * with room, or a zone opened now; NULL with *wait when I/Os in flight (its own or other
 * threads') are to complete first (zones close as their writes fill them); *opened: the
 * zone was opened now */
static struct zone *to_open_zone(struct zbd *z, struct zbd_thread *t, const struct job *j, uint64_t off,
				 uint64_t lo, uint64_t size, int inflight, int *wait, int *opened)
{
	uint64_t min = j->bs;
	unsigned idx = zone_idx(z, off);
	struct zone *zn;
	int r;
	idx = idx < t->min_zone ? t->min_zone : idx >= t->max_zone ? t->max_zone - 1 : idx;
	if (z->max_open && z->nopen) {
		/* a quasi-random open zone of the thread's region (fio's pick_random_zone_idx) */
		unsigned k = (unsigned)((off - lo) * z->nopen / size), i;
		for (i = 0; i < z->nopen; i++, k++) {
			unsigned c = z->open[k % z->nopen];
			if (c >= t->min_zone && c < t->max_zone) {
				idx = c;
				break;
			}
		}
		if (i == z->nopen)
			return NULL;
		zn = &z->z[idx];
		if (zn->wp + min <= cap_end(zn))
			return zn;
	} else if (!z->max_open) {
		zn = &z->z[idx];
		if (!zn->offline && zn->wp + min <= cap_end(zn))
			return zn;
	}
	/* full: open another, the next ones first (fio's) */
	for (unsigned i = t->max_zone - t->min_zone; i > 0; i--) {
		idx = idx + 1 >= t->max_zone ? t->min_zone : idx + 1;
		zn = &z->z[idx];
		if (!zn->seq || zn->open)
			continue;
		if ((r = open_zone(z, t, j, zn))) {
			*opened = r == 2;
			return zn;
		}
	}
	/* or any open one the write fits in */
	for (unsigned i = 0; i < z->nopen; i++) {
		zn = &z->z[z->open[i]];
		if (z->open[i] >= t->min_zone && z->open[i] < t->max_zone && zn->wp + min <= cap_end(zn))
			return zn;
	}
	/* none: wait while writes of any thread are in flight in the region (zones close as
	 * their writes fill them: fio's any_io_in_flight), else the job is done */
	*wait = inflight > 0;
	for (unsigned i = t->min_zone; i < t->max_zone && !*wait; i++)
		*wait = z->z[i].inflight > 0;
	return NULL;
}

int zbd_adjust(struct zbd *z, struct zbd_thread *t, const struct job *j, int fd, int inflight, int *ddir,
	       uint64_t *off, uint64_t *len, int *errnum, char *err, size_t n)
{
	const uint64_t min = j->bs;
	const int random = rw_is_random(j->rw);
	const uint64_t lo = z->z[t->min_zone].start, size = z->z[t->max_zone].start - lo;
	struct zone *zb, *orig;
	uint64_t o = *off, l = *len, range;
	int rc = 1, wait = 0, opened = 0;
	pthread_mutex_lock(&z->mu);
	/* fio's zbd_adjust_ddir: a mixed job's first reads would find nothing: writes */
	if (*ddir == DDIR_READ && (j->rw == RW_RANDRW || j->rw == RW_READWRITE) && !z->data && !j->o.read_beyond_wp)
		*ddir = DDIR_WRITE;
	orig = zb = &z->z[zone_idx(z, o)];
	if (!zb->seq) {   /* a conventional zone: anything, a write not into a sequential one */
		const struct zone *next = zb + 1;
		if (*ddir != DDIR_WRITE || next == &z->z[z->nr] || !next->seq || o + l <= next->start)
			goto go;
		if (o + min > next->start) {
			o = zb->start + next->start - o;
			l = l < next->start - o ? l : next->start - o;
		} else {
			l = next->start - o;
		}
		l = l / min * min;
		goto go;
	}
	if (*ddir == DDIR_READ) {
		if (j->o.read_beyond_wp && !zb->offline)
			goto go;
		range = zb->offline ? 0 : zb->wp - zb->start;
		if (range < min || (!random && o + min > zb->wp)) {
			if (!(zb = find_zone(z, t, random, min, zb))) {
				rc = 0;   /* no data to read: the job is done (fio's) */
				goto out;
			}
			range = zb->wp - zb->start;
			if (!random)
				o = zb->start;
		}
		if (range <= l)
			o = zb->start;
		else if (random)
			o = zb->start + (o - orig->start) % (range - l) / min * min;
		if (zb->seq && l > zb->wp - o)
			l = (zb->wp - o) / min * min;
		goto go;
	}
	if (*ddir == DDIR_TRIM) {
		/* a trim resets its zone (zbd_trim); a random one goes to a zone with data, the
		 * nearest (fio's) */
		if (random && zb->wp == zb->start) {
			if (!(zb = find_zone(z, t, random, 1, zb))) {
				rc = 0;
				goto out;
			}
			o = zb->start;
		}
		if (busy(zb, t))
			goto wait;
		zb->inflight++;
		zb->owner = t;
		goto go;
	}
	if (l > z->zone_size) {
		*errnum = EINVAL;
		snprintf(err, n, "--zonemode=zbd: a write of %llu bytes is longer than a zone (%llu)",
			 (unsigned long long)l, (unsigned long long)z->zone_size);
		rc = 0;
		goto out;
	}
	if ((opened = open_zone(z, t, j, zb)))
		opened = opened == 2;
	else if (!(zb = to_open_zone(z, t, j, o, lo, size, inflight, &wait, &opened))) {
		rc = wait ? -1 : 0;   /* no zone to write in: the job is done (fio's) */
		goto out;
	}
	if (busy(zb, t) || (z->one_write && zb->inflight))
		goto wait;
	/* fio's zone_reset_threshold and zone_reset_frequency: with that share of the region
	 * written, every 1/frequency-th write resets its zone first */
	if (j->o.zrf > 0 && !j->verify && (double)z->data >= (double)size * j->o.zrt && !--z->write_cnt) {
		z->write_cnt = (uint32_t)(1.0 / j->o.zrf);
		zb->reset = 1;
	}
	if (zb->reset || full(zb, min)) {
		int e;
		if (inflight)     /* fio's: what is in flight completes before the reset */
			goto wait;
		zb->reset = 0;
		if ((e = reset_zone(z, t, fd, zb))) {
			*errnum = -e;
			snprintf(err, n, "--zonemode=zbd: resetting the zone at %llu (BLKRESETZONE): %s",
				 (unsigned long long)zb->start, strerror(-e));
			rc = 0;
			goto out;
		}
		if (zb->cap < min) {
			*errnum = EINVAL;
			snprintf(err, n, "--zonemode=zbd: the zone at %llu holds %llu bytes, less than --bs=%llu",
				 (unsigned long long)zb->start, (unsigned long long)zb->cap, (unsigned long long)min);
			rc = 0;
			goto out;
		}
	}
	o = zb->wp;     /* the write at the write pointer, as much of it as the zone takes */
	if (l > cap_end(zb) - o)
		l = (cap_end(zb) - o) / min * min;
	zb->wp = o + l;
	z->data += l;
	zb->inflight++;
	zb->owner = t;
go:
	*off = o;
	*len = l;
	goto out;
wait:   /* to come back to: a zone opened for it now is not held meanwhile */
	if (opened)
		close_zone(z, zb);
	rc = -1;
out:
	pthread_mutex_unlock(&z->mu);
	return rc;
}

long zbd_trim(struct zbd *z, struct zbd_thread *t, int fd, uint64_t off, uint64_t len)
{
	struct zone *zn;
	long r = (long)len;
	int e;
	pthread_mutex_lock(&z->mu);
	zn = &z->z[zone_idx(z, off)];
	if (!zn->seq)
		r = 0;
	else if (off != zn->start)
		r = -EINVAL;
	else if ((e = reset_zone(z, t, fd, zn)))
		r = e;
	pthread_mutex_unlock(&z->mu);
	return r;
}

uint64_t zbd_next_seq(const struct zbd *z, uint64_t pos)
{
	const struct zone *zn = &z->z[zone_idx(z, pos)];
	return zn->seq && pos >= cap_end(zn) && pos < (zn + 1)->start ? (zn + 1)->start : pos;
}

void zbd_describe(const struct zbd *z, struct json *o)
{
	json_add_int(o, "zone_bytes", (long long)z->zone_size);
	json_add_int(o, "zones", z->nr);
	json_add_str(o, "zones_of", z->real ? "device" : "zonesize");
	json_add_int(o, "max_open_zones", z->max_open);
	if (z->one_write)
		json_add_str(o, "one_write_per_zone", "the queue's scheduler is not mq-deadline and the kernel "
			     "is older than 6.10: nothing else keeps a zone's writes in order");
}
