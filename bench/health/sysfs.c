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

uint64_t health_le(const uint8_t *b, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
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
	sys_path(root, sizeof root, "/sys/devices/system/cpu");
	n = scandir(root, &ents, NULL, dir_by_version);
	for (int i = 0; i < n; i++) {
		char dir[1024], p[1100], id[32];
		long long v;
		if (name_numbered(ents[i]->d_name, "cpu")) {
			snprintf(dir, sizeof dir, "%s/%s/thermal_throttle", root, ents[i]->d_name);
			if ((v = read_num_in(dir, "core_throttle_count")) >= 0) {
				have = 1;
				core += v;
			}
			/* the package's count is seen from each of its CPUs: once per package */
			snprintf(p, sizeof p, "%s/%s/topology/physical_package_id", root, ents[i]->d_name);
			if ((v = read_num_in(dir, "package_throttle_count")) >= 0 && !read_line(p, id, sizeof id) &&
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
	sys_path(root, sizeof root, "/proc/interrupts");
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
	sys_path(root, sizeof root, "/sys/class/hwmon");
	n = scandir(root, &ents, NULL, dir_by_version);
	for (int i = 0; i < n; i++) {
		char dir[1024], p[1200], chip[64] = "?";
		if (!name_numbered(ents[i]->d_name, "hwmon")) {
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
			if ((v = read_num_in(dir, key)) == -1)
				continue;
			snprintf(p, sizeof p, "%s/temp%d_label", dir, s);
			if (read_line(p, label, sizeof label))
				snprintf(label, sizeof label, "temp%d", s);
			snprintf(key, sizeof key, "temp%d_crit", s);
			crit = read_num_in(dir, key);
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
