/* Health the kernel counts in sysfs and procfs: EDAC's corrected/uncorrected errors per
 * memory controller and DIMM (with its label), thermal-throttle events per CPU and
 * package, machine-check exceptions and polls (/proc/interrupts), hwmon temperatures.
 * Every path goes through health_path so the tests read fixture trees (ASSAY_SYSROOT). */
#include "health.h"

#include "fileio.h"
#include "json.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void health_path(char *out, size_t n, const char *path)
{
	const char *root = getenv("ASSAY_SYSROOT");
	snprintf(out, n, "%s%s", root ? root : "", path);
}

void health_add_devstr(struct json *o, const char *key, char *s, int l)
{
	for (int i = 0; i < l; i++)
		if ((unsigned char)s[i] < 32 || (unsigned char)s[i] > 126)
			s[i] = '?';
	s[l] = 0;
	while (l && s[l - 1] == ' ')
		s[--l] = 0;
	json_add_str(o, key, s + strspn(s, " "));
}

double health_ata_raw(const struct json *disk, int id)
{
	const struct json *t = json_path(disk, "attributes.table");
	for (const struct json *e = t ? t->child : NULL; e; e = e->next)
		if ((int)json_get_num(e, "id", -1) == id)
			return json_get_num(e, "raw", NAN);
	return NAN;
}

int health_by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

uint64_t health_le(const uint8_t *b, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* a counter at DIR/NAME: its value, or -1 */
static long long counter(const char *dir, const char *name)
{
	char p[1024];
	long long v;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return read_num(p, &v) ? -1 : v;
}

static int prefixed(const char *name, const char *pre)
{
	size_t l = strlen(pre);
	return !strncmp(name, pre, l) && name[l] >= '0' && name[l] <= '9';
}

/* the DIMMs (or, on older drivers, csrow channels) of one memory controller */
static void edac_dimms(const char *mc, struct json *arr)
{
	struct dirent **ents;
	int n = scandir(mc, &ents, NULL, health_by_name);
	for (int i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;
		char dir[1024], label[128] = "", p[1100];
		if (prefixed(d, "dimm") || prefixed(d, "rank")) {
			struct json *o;
			snprintf(dir, sizeof dir, "%s/%s", mc, d);
			snprintf(p, sizeof p, "%s/dimm_label", dir);
			if (read_line(p, label, sizeof label))
				label[0] = 0;
			o = json_push(arr, json_obj());
			json_add_str(o, "name", d);
			json_add_str(o, "label", label);
			json_add_int(o, "ce", counter(dir, "dimm_ce_count"));
			json_add_int(o, "ue", counter(dir, "dimm_ue_count"));
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
}

void health_edac(struct json *snap)
{
	char root[512];
	struct dirent **ents;
	struct json *e = json_add_obj(snap, "edac"), *mcs = NULL;
	long long ce = 0, ue = 0;
	int n;
	health_path(root, sizeof root, "/sys/devices/system/edac/mc");
	n = scandir(root, &ents, NULL, health_by_name);
	for (int i = 0; i < n; i++) {
		char dir[1024], name[128] = "";
		struct json *o;
		long long c, u;
		if (!prefixed(ents[i]->d_name, "mc")) {
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
		c = counter(dir, "ce_count");
		u = counter(dir, "ue_count");
		json_add_int(o, "ce", c);
		json_add_int(o, "ue", u);
		json_add_int(o, "ce_noinfo", counter(dir, "ce_noinfo_count"));
		json_add_int(o, "ue_noinfo", counter(dir, "ue_noinfo_count"));
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

void health_edac_grown(const struct json *a, const struct json *b,
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

/* /proc/interrupts' row NAME (MCE, MCP, TRM): the sum over CPUs, or -1 */
static long long irq_row(const char *text, const char *name)
{
	char key[16];
	const char *p;
	long long sum = 0;
	snprintf(key, sizeof key, "%s:", name);
	for (p = text; (p = strstr(p, key)); p++) {
		if (p != text && p[-1] != ' ' && p[-1] != '\n')
			continue;
		p += strlen(key);
		for (;;) {
			char *end;
			long long v = strtoll(p, &end, 10);
			if (end == p)
				return sum;
			sum += v;
			p = end;
		}
	}
	return -1;
}

void health_cpu(struct json *snap)
{
	char root[512], *irq;
	struct dirent **ents;
	struct json *c = json_add_obj(snap, "cpu"), *pkgs = json_obj();
	long long core = 0, pkg = 0;
	int n, have = 0;
	health_path(root, sizeof root, "/sys/devices/system/cpu");
	n = scandir(root, &ents, NULL, health_by_name);
	for (int i = 0; i < n; i++) {
		char dir[1024], p[1100], id[32];
		long long v;
		if (prefixed(ents[i]->d_name, "cpu")) {
			snprintf(dir, sizeof dir, "%s/%s/thermal_throttle", root, ents[i]->d_name);
			if ((v = counter(dir, "core_throttle_count")) >= 0) {
				have = 1;
				core += v;
			}
			/* the package's count is seen from each of its CPUs: once per package */
			snprintf(p, sizeof p, "%s/%s/topology/physical_package_id", root, ents[i]->d_name);
			if ((v = counter(dir, "package_throttle_count")) >= 0 && !read_line(p, id, sizeof id) &&
			    !json_get(pkgs, id)) {
				json_add_int(pkgs, id, v);
				pkg += v;
			}
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	json_free(pkgs);
	json_add_bool(c, "throttle_available", have);
	json_add_int(c, "core_throttle_events", core);
	json_add_int(c, "package_throttle_events", pkg);
	json_add_int(c, "throttle_events", core + pkg);
	health_path(root, sizeof root, "/proc/interrupts");
	irq = read_file(root, 1 << 20, NULL);
	{
		struct json *m = json_add_obj(snap, "mce");
		json_add_int(m, "exceptions", irq ? irq_row(irq, "MCE") : -1);
		json_add_int(m, "polls", irq ? irq_row(irq, "MCP") : -1);
		json_add_int(m, "thermal_interrupts", irq ? irq_row(irq, "TRM") : -1);
	}
	free(irq);
}

/* each temperature sensor of each hwmon chip; fn(chip, label, celsius, crit, arg) */
static void hwmon_each(void (*fn)(const char *, const char *, double, double, void *), void *arg)
{
	char root[512];
	struct dirent **ents;
	int n;
	health_path(root, sizeof root, "/sys/class/hwmon");
	n = scandir(root, &ents, NULL, health_by_name);
	for (int i = 0; i < n; i++) {
		char dir[1024], p[1200], chip[64] = "?";
		if (!prefixed(ents[i]->d_name, "hwmon")) {
			free(ents[i]);
			continue;
		}
		snprintf(dir, sizeof dir, "%s/%s", root, ents[i]->d_name);
		snprintf(p, sizeof p, "%s/name", dir);
		if (read_line(p, chip, sizeof chip))
			snprintf(chip, sizeof chip, "%s", ents[i]->d_name);
		for (int s = 1; s <= 64; s++) {
			char label[64], key[32];
			long long v, crit;
			snprintf(key, sizeof key, "temp%d_input", s);
			if ((v = counter(dir, key)) == -1)
				continue;
			snprintf(p, sizeof p, "%s/temp%d_label", dir, s);
			if (read_line(p, label, sizeof label))
				snprintf(label, sizeof label, "temp%d", s);
			snprintf(key, sizeof key, "temp%d_crit", s);
			crit = counter(dir, key);
			fn(chip, label, (double)v / 1000, crit > 0 ? (double)crit / 1000 : NAN, arg);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
}

static void hwmon_push(const char *chip, const char *label, double c, double crit, void *arg)
{
	struct json *o = json_push(arg, json_obj());
	json_add_str(o, "chip", chip);
	json_add_str(o, "label", label);
	json_add_num(o, "temp_c", c);
	if (!isnan(crit))
		json_add_num(o, "crit_c", crit);
}

void health_hwmon(struct json *snap)
{
	hwmon_each(hwmon_push, json_add_arr(snap, "hwmon"));
}

struct hot {
	double max;
	char *who;
	size_t n;
};

static void hottest(const char *chip, const char *label, double c, double crit, void *arg)
{
	struct hot *h = arg;
	/* a sensor that reads nonsense (disconnected: -128, 0, 127.x) is left out */
	if (c <= -40 || c >= 150)
		return;
	if (isnan(h->max) || c > h->max) {
		h->max = c;
		snprintf(h->who, h->n, "%s/%s", chip, label);
	}
}

double health_temp_max(char *who, size_t n)
{
	struct hot h = { NAN, who, n };
	if (n)
		who[0] = 0;
	hwmon_each(hottest, &h);
	return h.max;
}
