/* EDAC's corrected and uncorrected memory errors per controller and DIMM, from sysfs
 * (edac.h). */
#include "edac.h"

#include "fileio.h"
#include "json.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the DIMMs (or, on older drivers, csrow channels) of one memory controller */
static void edac_dimms(const char *mc, struct json *arr)
{
	struct dirent **ents;
	int n = scandir(mc, &ents, NULL, dir_by_version);
	for (int i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;
		char dir[1024], label[128] = "", p[1100];
		if (name_numbered(d, "dimm") || name_numbered(d, "rank")) {
			struct json *o;
			snprintf(dir, sizeof dir, "%s/%s", mc, d);
			snprintf(p, sizeof p, "%s/dimm_label", dir);
			if (read_line(p, label, sizeof label))
				label[0] = 0;
			o = json_push(arr, json_obj());
			json_add_str(o, "name", d);
			json_add_str(o, "label", label);
			json_add_int(o, "ce", read_num_in(dir, "dimm_ce_count"));
			json_add_int(o, "ue", read_num_in(dir, "dimm_ue_count"));
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
}

void edac_snapshot(struct json *snap)
{
	char root[512];
	struct dirent **ents;
	struct json *e = json_add_obj(snap, "edac"), *mcs = NULL;
	long long ce = 0, ue = 0;
	int n;
	sys_path(root, sizeof root, "/sys/devices/system/edac/mc");
	n = scandir(root, &ents, NULL, dir_by_version);
	for (int i = 0; i < n; i++) {
		char dir[1024], name[128] = "";
		struct json *o;
		long long c, u;
		if (!name_numbered(ents[i]->d_name, "mc")) {
			free(ents[i]);
			continue;
		}
		snprintf(dir, sizeof dir, "%s/%s", root, ents[i]->d_name);
		if (!mcs)
			mcs = json_add_obj(e, "controllers");
		o = json_add_obj(mcs, ents[i]->d_name);
		snprintf(name, sizeof name, "%s/mc_name", dir);
		if (!read_line(name, name, sizeof name))
			json_add_str(o, "driver", name);
		c = read_num_in(dir, "ce_count");
		u = read_num_in(dir, "ue_count");
		json_add_int(o, "ce", c);
		json_add_int(o, "ue", u);
		json_add_int(o, "ce_noinfo", read_num_in(dir, "ce_noinfo_count"));
		json_add_int(o, "ue_noinfo", read_num_in(dir, "ue_noinfo_count"));
		edac_dimms(dir, json_add_arr(o, "dimms"));
		ce += c > 0 ? c : 0;
		ue += u > 0 ? u : 0;
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	json_add_bool(e, "available", mcs != NULL);
	json_add_int(e, "ce", ce);
	json_add_int(e, "ue", ue);
}

void edac_grown(const struct json *a, const struct json *b,
		       void (*fn)(const char *mc, const struct json *dimm, double ce, double ue, void *arg), void *arg)
{
	const struct json *mcs = json_path(b, "edac.controllers");
	for (const struct json *mc = mcs ? mcs->child : NULL; mc; mc = mc->next) {
		const struct json *old = json_get(json_path(a, "edac.controllers"), mc->key);
		const struct json *od = json_get(old, "dimms") ? json_get(old, "dimms")->child : NULL;
		for (const struct json *d = json_get(mc, "dimms") ? json_get(mc, "dimms")->child : NULL; d;
		     d = d->next, od = od ? od->next : NULL) {
			double ce = json_get_num(d, "ce", 0) - json_get_num(od, "ce", 0);
			double ue = json_get_num(d, "ue", 0) - json_get_num(od, "ue", 0);
			if (ce > 0 || ue > 0)
				fn(mc->key, d, ce, ue, arg);
		}
	}
}
