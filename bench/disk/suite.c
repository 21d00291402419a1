/* assay run's disk tests: one per disk found (or named with --disks), each the suite's
 * profiles in the mode asked; destroy only on the disks --destroy names by serial or size. */
#include "disk.h"
#include "blkdev.h"
#include "msg.h"
#include "plan.h"
#include "suite.h"
#include "report/inbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mode_names[] = { "readonly", "rewrite", "destroy" };

int disk_profile_known(const char *name)
{
	return find_profile(name, strlen(name)) != NULL;
}

double disk_profiles_estimate(const char *list, double runtime)
{
	double t = 0;
	for (size_t i = 0; i < NPROFILES; i++) {
		const struct profile *pr = &profiles[i];
		int jobs = 0;
		if (!list_has(list, pr->name) && !(list_has(list, "all") && !pr->explicit_only))
			continue;
		/* each job one runtime; a surface scan ends with the disk or at the runtime, and
		 * one that verifies reads it all back */
		for (int k = 0; k < 3 && pr->j[k].words; k++)
			jobs += 1 + (pr->j[k].destroy != NULL);
		t += jobs * runtime;
	}
	return t;
}

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

/* the suite's profiles (or --disk-profile's) and those the certify rules' figures need */
static void plan_profiles(const struct run_cfg *c, char *out, size_t n)
{
	const char *base = c->disk_profile ? c->disk_profile : suite_def(c)->disk_profile;
	size_t l = (size_t)snprintf(out, n, "%s", base);
	for (const char *w = c->certify_disk; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) {
		char one[64];
		snprintf(one, sizeof one, "%.*s", (int)strcspn(w, ","), w);
		if (list_has(base, one) || (list_has(base, "all") && !find_profile(one, strlen(one))->explicit_only))
			continue;
		info("disk: adding the profile %s: the certify rules need its figures", one);
		l += (size_t)snprintf(out + l, n > l ? n - l : 0, ",%s", one);
	}
}

void disk_plan(struct run_plan *p, const struct run_cfg *c)
{
	const struct suite_def *sd = suite_def(c);
	struct blkdev *list;
	char profs[200], prof[256], rt[64], rep[32], sched[256];
	int n, added = 0;
	if (!suite_wants(c, "disk") || !strcmp(c->disks, "none"))
		return;
	n = blkdev_list(&list, strcmp(c->disks, "all") != 0);  /* loop, ram...: only when named */
	plan_profiles(c, profs, sizeof profs);
	snprintf(prof, sizeof prof, "--profile=%s", profs);
	snprintf(rt, sizeof rt, "--runtime=%g", suite_disk_time(c));
	snprintf(rep, sizeof rep, "--repeat=%d", sd->repeat);
	snprintf(sched, sizeof sched, "--ioscheduler=%s", c->disk_sched ? c->disk_sched : "");
	for (int i = 0; i < n; i++) {
		const struct blkdev *d = &list[i];
		char name[48], file[300], mode[32], ident[200] = "", err[300];
		char *argv[10];
		int argc = 0, force = 0, m = c->mode;
		if (!in_list(c->disks, d->name))
			continue;
		if (!strcmp(d->signature, "vfat") && !strcmp(d->label, "ASSAY"))
			continue;   /* the results disk */
		if (m == MODE_DESTROY && inbox_on_disk(c->results, d->size)) {
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
		if (sd->repeat > 1)
			argv[argc++] = rep;
		if (ident[0])
			argv[argc++] = ident;
		if (force)
			argv[argc++] = "--force";
		if (c->disk_sched)
			argv[argc++] = sched;
		argv[argc++] = "--eta=never";     /* the suite's own progress line is on the terminal */
		plan_add(p, name, "disk", argc, argv,
			 disk_profiles_estimate(profs, suite_disk_time(c)) * sd->repeat);
		added++;
	}
	free(list);
	if (!added) {
		plan_skip(plan_add(p, "disk", "disk", 0, NULL, 0), "no disk to measure (found %d; --disks=%s)", n,
			  c->disks);
	}
}

