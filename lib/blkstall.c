/* Disks that stop answering: see blkstall.h. */
#include "blkstall.h"

#include "blkdev.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int blkstall_parse(const char *line, uint64_t *done, unsigned *inflight)
{
	unsigned long long v[BLKSTAT_FIELDS];
	if (blkdev_stat_fields(line, v) < BLKSTAT_MIN)
		return -1;
	*done = v[0] + v[4] + v[11] + v[15];   /* reads, writes, discards, flushes */
	*inflight = v[8] > 1000000 ? 1000000 : (unsigned)v[8];
	return 0;
}

static struct blkstall_disk *find(struct blkstall *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->d[i].name, name))
			return &s->d[i];
	if (s->n == BLKSTALL_MAX || strlen(name) >= sizeof s->d[0].name)
		return NULL;
	memset(&s->d[s->n], 0, sizeof s->d[0]);
	strcpy(s->d[s->n].name, name);
	s->d[s->n].since = -1;
	return &s->d[s->n++];
}

void blkstall_tick(struct blkstall *s, double now)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	while (dir && (e = readdir(dir))) {
		char path[300], line[512];
		struct blkstall_disk *d;
		uint64_t done;
		unsigned inflight;
		FILE *f;
		int ok;
		if (e->d_name[0] == '.' || blkdev_is_virtual(e->d_name))
			continue;
		snprintf(path, sizeof path, "/sys/block/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		ok = fgets(line, sizeof line, f) && !blkstall_parse(line, &done, &inflight);
		fclose(f);
		if (!ok || !(d = find(s, e->d_name)))
			continue;
		if (d->since < 0 || done != d->done || !inflight)
			d->since = now;
		d->done = done;
		d->inflight = inflight;
	}
	if (dir)
		closedir(dir);
}

/* with I/O in flight and no completion for min_s, and not already stuck (a stuck disk's
 * reads, left behind, are no one test's) */
static int stalled(const struct blkstall_disk *d, double now, double min_s)
{
	return d->inflight && d->since >= 0 && now - d->since >= min_s && !blkstall_stuck(d->name);
}

int blkstall_describe(const struct blkstall *s, double now, double min_s, char *out, size_t n)
{
	size_t o = 0;
	int c = 0;
	if (n)
		out[0] = 0;
	for (int i = 0; i < s->n; i++) {
		const struct blkstall_disk *d = &s->d[i];
		if (!stalled(d, now, min_s))
			continue;
		if (o < n)
			o += (size_t)snprintf(out + o, n - o, "%s%s: %u I/O%s in flight, none completed for %.0f s",
					      c ? "; " : "", d->name, d->inflight, d->inflight == 1 ? "" : "s",
					      now - d->since);
		c++;
	}
	return c;
}

void blkstall_mark_stalled(const struct blkstall *s, double now, double min_s)
{
	int mark[BLKSTALL_MAX] = { 0 };
	for (int i = 0; i < s->n; i++)      /* decided before any is marked */
		mark[i] = stalled(&s->d[i], now, min_s);
	for (int i = 0; i < s->n; i++)
		if (mark[i])
			blkstall_mark(s->d[i].name);
}
