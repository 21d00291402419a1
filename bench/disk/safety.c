/* Safety: which targets a job writes, whether the mode allows it (readonly, rewrite,
 * destroy with the device named), exclusive claims and the I/O scheduler. */
#include "plan.h"
#include "fileio.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* ---- safety ---- */

/* Marks the targets a job changes; how many there are */
/* The host-managed zoned device among the files job j writes to, or NULL: such a device
 * fails any write not at its zone's write pointer, so the job is skipped and the device
 * never claimed for it -- unless it writes there (--zonemode=zbd) in destroy mode (its
 * zone resets erase; a rewrite cannot write a zone's bytes back in place) */
const struct blkdev *zoned_refuses(const struct plan *p, const struct job *j)
{
	if (j->zbd && p->c->o.mode == MODE_DESTROY)
		return NULL;
	for (int k = 0; k < j->nftg && rw_modifies(j->rw) && !j->o.verify_only; k++)
		if (!strcmp(p->tg[j->ftg[k]].dev.zoned, "host-managed"))
			return &p->tg[j->ftg[k]].dev;
	return NULL;
}

int mark_writes(struct plan *p)
{
	int nw = 0;
	for (int i = 0; i < p->njobs; i++)
		for (int k = 0; k < p->jobs[i].nftg && !zoned_refuses(p, &p->jobs[i]); k++)
			p->tg[p->jobs[i].ftg[k]].writes |= rw_modifies(p->jobs[i].rw);
	for (int i = 0; i < p->ntg; i++)
		nw += p->tg[i].writes;
	return nw;
}

static int write_allowed_dev(const struct plan *p, const struct job *j, const struct blkdev *d, char *err, size_t n);

/* May job j write to its device (each of its files) in this mode?  0, or -1 with the reason. */
int write_allowed(const struct plan *p, const struct job *j, char *err, size_t n)
{
	for (int k = 0; k < j->nftg; k++)
		if (write_allowed_dev(p, j, &p->tg[j->ftg[k]].dev, err, n))
			return -1;
	return 0;
}

static int write_allowed_dev(const struct plan *p, const struct job *j, const struct blkdev *d, char *err, size_t n)
{
	const struct disk_cfg *c = p->c;
	const char *mode = c->o.mode == MODE_DESTROY ? "destroy" : "rewrite";
	if (d->is_null)
		return 0;        /* /dev/null, /dev/zero hold nothing */
	if (d->readonly) {
		snprintf(err, n, "refusing --mode=%s: %s is read-only", mode, d->path);
		return -1;
	}
	if (d->mounted[0]) {
		snprintf(err, n, "refusing --mode=%s: %s is %s", mode, d->path, d->mounted);
		return -1;
	}
	if (d->holders) {
		snprintf(err, n, "refusing --mode=%s: %s is in use by %d stacked device(s) (dm, md: see "
			 "/sys/block/%s/holders)", mode, d->path, d->holders, d->name);
		return -1;
	}
	if (j->o.expect_serial && strcmp(j->o.expect_serial, d->serial)) {
		snprintf(err, n, "refusing --mode=%s: %s has serial '%s', not '%s'", mode, d->path,
			 d->serial, j->o.expect_serial);
		return -1;
	}
	if (j->o.expect_size && j->o.expect_size != d->size) {
		snprintf(err, n, "refusing --mode=%s: %s has %llu bytes, not %llu", mode, d->path,
			 (unsigned long long)d->size, j->o.expect_size);
		return -1;
	}
	if (c->o.mode == MODE_DESTROY && !j->o.force) {
		if (!d->signature_checked) {
			snprintf(err, n, "refusing --mode=destroy: cannot read %s to check it holds no "
				 "partition table or filesystem", d->path);
			return -1;
		}
		if (d->partitions || d->signature[0]) {
			snprintf(err, n, "refusing --mode=destroy: %s holds %s%s%s; add --force to destroy it",
				 d->path, d->partitions ? "partitions" : "",
				 d->partitions && d->signature[0] ? " and " : "",
				 d->signature[0] ? d->signature : "");
			return -1;
		}
	}
	return 0;
}

/* fio's ioscheduler: write want to the device's queue/scheduler (one it offers); 0, or -1
 * with why */
int set_scheduler(const struct blkdev *d, const char *want, char *err, size_t n)
{
	char path[300], *list, *save = NULL, offers[256] = "";
	int found = 0, fd;
	size_t l = 0;
	if (d->is_file) {
		snprintf(err, n, "--ioscheduler=%s: %s is a file: name the device", want, d->path);
		return -1;
	}
	snprintf(path, sizeof path, "/sys/block/%s/queue/scheduler", d->name);
	if (!(list = read_file(path, 4096, NULL))) {
		snprintf(err, n, "--ioscheduler=%s: cannot read %s: %s", want, path, strerror(errno));
		return -1;
	}
	for (char *w = strtok_r(list, " []\n", &save); w; w = strtok_r(NULL, " []\n", &save)) {
		found |= !strcmp(w, want);
		l += (size_t)snprintf(offers + l, l < sizeof offers ? sizeof offers - l : 0, "%s%s", l ? ", " : "", w);
	}
	free(list);
	if (!found) {
		snprintf(err, n, "--ioscheduler=%s: %s offers %s", want, d->name, offers[0] ? offers : "none");
		return -1;
	}
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0 || write_all(fd, want, strlen(want))) {
		snprintf(err, n, "--ioscheduler=%s: cannot set it (%s): %s", want, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Before any write, a block device is claimed exclusively for the whole run (O_EXCL:
 * EBUSY when it is mounted or claimed by someone else), so nobody mounts it meanwhile and
 * the per-job opens need no claim of their own (a ring's teardown may drop its file
 * reference late).  Trims go through this descriptor: the kernel drops the range's cached
 * pages for the holder of the claim, where for anyone else, while the claim is held, it
 * can only try to invalidate them (EBUSY when another thread's buffered write left one
 * dirty: fio, claiming nothing, never sees that). */
int claim_device(const struct blkdev *d, char *err, size_t n)
{
	int fd = open(d->path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EBUSY)
			snprintf(err, n, "refusing to write: %s is in use (mounted, or claimed by "
				 "another program)", d->path);
		else
			snprintf(err, n, "cannot claim %s: %s", d->path, strerror(errno));
	}
	return fd;
}

/* the job's file k opened */
int open_target(const struct plan *p, const struct job *j, int k, int writing, char *err, size_t n)
{
	int flags = (writing ? O_RDWR | j->sync_flags : O_RDONLY) | O_CLOEXEC | (j->o.direct ? O_DIRECT : 0);
	const char *path = p->tg[j->ftg[k]].dev.path;
	int fd = p->tg[j->ftg[k]].absent ? open("/dev/null", O_RDWR | O_CLOEXEC) : open(path, flags);
	if (fd < 0) {
		int e = errno;
		if (e == EINVAL && j->o.direct)
			snprintf(err, n, "cannot open %s with O_DIRECT (--direct=1): not supported here", path);
		else
			snprintf(err, n, "cannot open %s: %s", path, strerror(e));
		errno = e;
	}
	return fd;
}
