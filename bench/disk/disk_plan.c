/* assay run's disk tests: one per disk found (or named with --disks), each the suite's
 * profiles in the mode asked; destroy only on the disks --destroy names by serial or size. */
#include "disk.h"
#include "blkdev.h"
#include "engine/plan.h"
#include "msg.h"
#include "plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const mode_names[] = { "readonly", "rewrite", "destroy" };

/* "vdb:serial=S[:force]" or "vdb:size=N[:force]" for this disk: 1 and the engine's
 * identity arguments, 0 when not named, -1 on a malformed entry */
static int destroy_entry(const char *list, const char *disk, char *a1, size_t n1, int *force,
			 char *err, size_t errn)
{
	size_t dl = strlen(disk);
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t pl = comma ? (size_t)(comma - p) : strlen(p);
		char e[256], *colon, *id, *f;
		snprintf(e, sizeof e, "%.*s", (int)pl, p);
		colon = strchr(e, ':');
		if (!colon || (strncmp(colon + 1, "serial=", 7) && strncmp(colon + 1, "size=", 5))) {
			snprintf(err, errn, "destroy=%s: entry '%s' is not NAME:serial=S or NAME:size=BYTES",
				 list, e);
			return -1;
		}
		*colon = 0;
		id = colon + 1;
		f = strchr(id, ':');
		if (f) {
			*f++ = 0;
			if (strcmp(f, "force")) {
				snprintf(err, errn, "destroy=%s: '%s' after the identity: only ':force' is accepted",
					 list, f);
				return -1;
			}
		}
		if (strlen(e) == dl && !strcmp(e, disk)) {
			*force = f != NULL;
			if (!strncmp(id, "serial=", 7))
				snprintf(a1, n1, "--expect-serial=%s", id + 7);
			else
				snprintf(a1, n1, "--expect-size=%s", id + 5);
			return 1;
		}
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

#define AUTO_MAX 5   /* the suite's --repeat=auto: at most this many passes */
/* the passes an auto repeat is planned at: 3 when every job's IOPS settles at once, up
 * to AUTO_MAX; 4 measured typical under QEMU (docs/notes/2026-12-07-gate.md, the plans) */
#define AUTO_EXPECTED 4

/* "--repeat=auto --repeat-max=5" as argv words (split in place); how many */
static int split_rep(char *rep, char **argv)
{
	char *sp = strchr(rep, ' ');
	argv[0] = rep;
	if (!sp)
		return 1;
	*sp = 0;
	argv[1] = sp + 1;
	return 2;
}

/* the suite's profiles (or --disk-profile's) and those the certify rules' figures need */
static void plan_profiles(const struct plan_req *c, char *out, size_t n)
{
	const char *base = c->disk_profiles;
	size_t l = (size_t)snprintf(out, n, "%s", base);
	for (const char *w = c->rules_need; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) {
		char one[64];
		snprintf(one, sizeof one, "%.*s", (int)strcspn(w, ","), w);
		if (list_has(base, one) || (list_has(base, "all") && !find_profile(one, strlen(one))->explicit_only))
			continue;
		info("disk: adding the profile %s: the certify rules need its figures", one);
		l += (size_t)snprintf(out + l, n > l ? n - l : 0, ",%s", one);
	}
}

int disk_check_list(const char *list, char *err, size_t n)
{
	if (!strcmp(list, "all") || !strcmp(list, "none"))
		return 0;
	for (const char *w = list; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) {
		char one[256], sys[320];
		struct stat st;
		snprintf(one, sizeof one, "%.*s", (int)strcspn(w, ","), w);
		if (one[0] == '/') {
			if (stat(one, &st) || (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))) {
				snprintf(err, n, "disks=%s: %s: %s", list, one,
					 errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a file or a block device");
				return -1;
			}
			continue;
		}
		snprintf(sys, sizeof sys, "/sys/class/block/%s", one);
		if (!one[0] || strchr(one, '/') || stat(sys, &st)) {
			snprintf(err, n, "disks=%s: no disk named '%s' (the names are /sys/class/block's: vda, "
				 "nvme0n1; a file or device: its path)", list, one);
			return -1;
		}
	}
	return 0;
}

/* --disks' paths (a file, or a device by path): a test each, after the named disks */
static int plan_paths(struct run_plan *p, const struct plan_req *c, char *const *common, int nc, int added,
		      double expect)
{
	for (const char *w = c->disks; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) {
		char path[256], name[48], file[300], *argv[12];
		const char *base;
		int argc = 0;
		if (*w != '/')
			continue;
		snprintf(path, sizeof path, "%.*s", (int)strcspn(w, ","), w);
		base = strrchr(path, '/') + 1;
		snprintf(name, sizeof name, added ? "disk.%.40s" : "disk", base);
		for (char *q = name + 5; *q; q++)
			if (!isalnum((unsigned char)*q) && *q != '-' && *q != '_')
				*q = '_';
		snprintf(file, sizeof file, "--filename=%s", path);
		argv[argc++] = file;
		for (int i = 0; i < nc; i++)
			argv[argc++] = common[i];
		plan_add(p, name, "disk", argc, argv, expect);
		added++;
	}
	return added;
}

void disk_plan(struct run_plan *p, const struct plan_req *c)
{
	struct blkdev *list;
	char profs[200], prof[256], rt[64], rep[64], sched[256];
	int n, added = 0, repeat, nrep;
	char *repw[2] = { NULL, NULL };
	if (!plan_wants(c, "disk") || !strcmp(c->disks, "none"))
		return;
	n = blkdev_list(&list, strcmp(c->disks, "all") != 0);  /* loop, ram...: only when named */
	plan_profiles(c, profs, sizeof profs);
	snprintf(prof, sizeof prof, "--profile=%s", profs);
	snprintf(rt, sizeof rt, "--runtime=%g", c->disk_time);
	repeat = c->disk_repeat;
	if (repeat)
		snprintf(rep, sizeof rep, "--repeat=%d", repeat);
	else
		snprintf(rep, sizeof rep, "--repeat=auto --repeat-max=%d", AUTO_MAX);
	nrep = repeat == 1 ? 0 : split_rep(rep, repw);
	snprintf(sched, sizeof sched, "--ioscheduler=%s", c->disk_sched ? c->disk_sched : "");
	for (int i = 0; i < n; i++) {
		const struct blkdev *d = &list[i];
		char name[48], file[300], mode[32], ident[200] = "", err[300];
		char *argv[12];
		int argc = 0, force = 0, m = c->mode;
		if (!in_list(c->disks, d->name))
			continue;
		if (!strcmp(d->signature, "vfat") && !strcmp(d->label, "ASSAY"))
			continue;   /* the results disk */
		if (m == MODE_DESTROY && c->inbox_disk_size && c->inbox_disk_size == d->size) {
			info("disk %s: it holds the results inbox (assay kexec --results-to): measured read-only",
			     d->name);
			m = MODE_READONLY;
		}
		if (m == MODE_DESTROY) {
			int r = c->destroy ? destroy_entry(c->destroy, d->name, ident, sizeof ident, &force,
							   err, sizeof err) : 0;
			if (r < 0) {
				warn("%s", err);
				r = 0;
			}
			if (r == 0) {
				info("disk %s: not named in --destroy (assay.destroy): measured read-only", d->name);
				m = MODE_READONLY;
			}
		}
		snprintf(name, sizeof name, added ? "disk.%s" : "disk", d->name);
		snprintf(file, sizeof file, "--filename=%s", d->path);
		snprintf(mode, sizeof mode, "--mode=%s", mode_names[m]);
		argv[argc++] = file;
		argv[argc++] = prof;
		argv[argc++] = rt;
		argv[argc++] = mode;
		for (int k = 0; k < nrep; k++)
			argv[argc++] = repw[k];
		if (ident[0])
			argv[argc++] = ident;
		if (force)
			argv[argc++] = "--force";
		if (c->disk_sched)
			argv[argc++] = sched;
		argv[argc++] = "--eta=never";     /* the suite's own progress line is on the terminal */
		plan_add(p, name, "disk", argc, argv,
			 disk_profiles_estimate(profs, c->disk_time, c->mode != MODE_READONLY) * (repeat ? repeat : AUTO_EXPECTED));
		added++;
	}
	free(list);
	{
		/* paths: a file (any mode; destroy writes only the file), a device by path
		 * (read-only or rewrite: destroy needs it by name in --destroy) */
		char mode[32], *common[8];
		int nc = 0, m = c->mode;
		for (const char *w = c->disks; m == MODE_DESTROY && *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) {
			struct stat st;
			char path[256];
			snprintf(path, sizeof path, "%.*s", (int)strcspn(w, ","), w);
			if (*w == '/' && !stat(path, &st) && S_ISBLK(st.st_mode)) {
				info("disk %s: a device by path is not written by --mode=destroy (name it in --disks and "
				     "--destroy): measured read-only", path);
				m = MODE_READONLY;
			}
		}
		snprintf(mode, sizeof mode, "--mode=%s", mode_names[m]);
		common[nc++] = prof;
		common[nc++] = rt;
		common[nc++] = mode;
		for (int k = 0; k < nrep; k++)
			common[nc++] = repw[k];
		if (c->disk_sched)
			common[nc++] = sched;
		common[nc++] = "--eta=never";
		added = plan_paths(p, c, common, nc, added,
				   disk_profiles_estimate(profs, c->disk_time, c->mode != MODE_READONLY) * (repeat ? repeat : AUTO_EXPECTED));
	}
	if (!added) {
		plan_skip(plan_add(p, "disk", "disk", 0, NULL, 0), "no disk to measure (found %d; --disks=%s)", n,
			  c->disks);
	}
}

