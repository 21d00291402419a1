/* Figure rows: made, found, valued, their units converted (result.h). */
#include "result.h"

#include "json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct json *figure_add(struct json *sum, const char *name, double value, const char *unit, enum better b)
{
	struct json *row = json_push(sum, json_obj());
	json_add_str(row, "name", name);
	json_add_num(row, "value", value);
	json_add_str(row, "unit", unit);
	json_add_str(row, "better", b == LOWER_BETTER ? "lower" : "higher");
	return row;
}

void figure_ci(struct json *row, const struct json *stats, double scale)
{
	if (!stats || json_get_num(stats, "n", 0) < 2 || !json_get(stats, "ci95_low"))
		return;
	json_add_num(row, "ci95_low", json_get_num(stats, "ci95_low", 0) * scale);
	json_add_num(row, "ci95_high", json_get_num(stats, "ci95_high", 0) * scale);
	if (json_get(stats, "values")) {   /* the repeats themselves, for the noise model */
		struct json *arr = json_add_arr(row, "samples");
		for (const struct json *v = json_get(stats, "values")->child; v; v = v->next)
			json_push(arr, json_num(v->num * scale));
		json_add_str(row, "sample_kind", "repeats");
	}
}

enum better figure_better(const struct json *row)
{
	static const char *const lower_units[] = { "us", "ms", "ns", "s", "%", "errors", NULL };
	static const char *const lower_names[] = { "retransmits", "lost", "errors", "steal", NULL };
	const char *b = json_get_str(row, "better", NULL), *unit = json_get_str(row, "unit", ""),
		   *name = json_get_str(row, "name", ""), *last = strrchr(name, '.');
	if (b)
		return strcmp(b, "lower") ? HIGHER_BETTER : LOWER_BETTER;
	for (int i = 0; lower_units[i]; i++)
		if (!strcmp(unit, lower_units[i]))
			return LOWER_BETTER;
	for (int i = 0; lower_names[i]; i++)
		if (strstr(name, lower_names[i]) || (last && !strcmp(last + 1, lower_names[i])))
			return LOWER_BETTER;
	return HIGHER_BETTER;
}

const struct json *figure_find(const struct json *doc, const char *name)
{
	const struct json *sum = json_get(doc, "summary");
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next)
		if (!strcmp(json_get_str(r, "name", ""), name))
			return r;
	return NULL;
}

/* machine.*: what the machine is (inventory), from the document's machine section */
static int machine_figure(const struct json *doc, const char *name, double *v, const char **unit)
{
	const struct json *m = json_get(doc, "machine"), *arr;
	char sub[96];
	int k = 0;
	if (!m || strncmp(name, "machine.", 8))
		return -1;
	name += 8;
	if (!strcmp(name, "cpus") && json_path(m, "cpu.online")) {
		*v = json_get_num(m, "cpu.online", 0);
		*unit = "count";
	} else if (!strcmp(name, "memory_bytes") && json_path(m, "memory.total_bytes")) {
		*v = json_get_num(m, "memory.total_bytes", 0);
		*unit = "bytes";
	} else if ((!strcmp(name, "disks") || !strcmp(name, "nics")) && (arr = json_get(m, name))) {
		for (const struct json *e = arr->child; e; e = e->next)
			k += strcmp(json_get_str(e, "name", ""), "lo") != 0;
		*v = k;
		*unit = "count";
	} else if (sscanf(name, "disk.%95[^.].size_bytes%n", sub, &k) == 1 && !name[k]) {
		for (const struct json *e = (arr = json_get(m, "disks")) ? arr->child : NULL; e; e = e->next)
			if (!strcmp(json_get_str(e, "name", ""), sub)) {
				*v = json_get_num(e, "size_bytes", 0);
				*unit = "bytes";
				return 0;
			}
		return -1;
	} else if (sscanf(name, "nic.%95[^.].speed_mbps%n", sub, &k) == 1 && !name[k]) {
		for (const struct json *e = (arr = json_get(m, "nics")) ? arr->child : NULL; e; e = e->next)
			if (!strcmp(json_get_str(e, "name", ""), sub) && json_get(e, "speed_mbps")) {
				*v = json_get_num(e, "speed_mbps", 0);
				*unit = "Mbit/s";
				return 0;
			}
		return -1;
	} else {
		return -1;
	}
	return 0;
}

int figure_value(const struct json *doc, const char *name, double *v, const char **unit, enum better *b)
{
	const struct json *r = figure_find(doc, name);
	if (r) {
		*v = json_get_num(r, "value", NAN);
		*unit = json_get_str(r, "unit", "");
		*b = figure_better(r);
		return 0;
	}
	*b = HIGHER_BETTER;
	return machine_figure(doc, name, v, unit);
}

static const struct unit {
	const char *name;
	const char *base;   /* the figure unit it converts to */
	double mult;        /* value in base = value * mult */
} units[] = {
	{ "MB/s", "MB/s", 1 }, { "B/s", "MB/s", 1e-6 }, { "kB/s", "MB/s", 1e-3 }, { "KB/s", "MB/s", 1e-3 },
	{ "GB/s", "MB/s", 1e3 }, { "KiB/s", "MB/s", 1024 / 1e6 }, { "MiB/s", "MB/s", 1048576 / 1e6 },
	{ "GiB/s", "MB/s", 1073741824 / 1e6 },
	{ "MiB/s", "MiB/s", 1 }, { "GiB/s", "MiB/s", 1024 }, { "MB/s", "MiB/s", 1e6 / 1048576 },
	{ "us", "us", 1 }, { "ns", "us", 1e-3 }, { "ms", "us", 1e3 }, { "s", "us", 1e6 },
	{ "ms", "ms", 1 }, { "us", "ms", 1e-3 }, { "ns", "ms", 1e-6 }, { "s", "ms", 1e3 },
	{ "ns", "ns", 1 }, { "us", "ns", 1e3 }, { "ms", "ns", 1e6 },
	{ "%", "%", 1 },
	{ "IOPS", "IOPS", 1 }, { "kIOPS", "IOPS", 1e3 },
	{ "events/s", "events/s", 1 },
	{ "Gbit/s", "Gbit/s", 1 }, { "Mbit/s", "Gbit/s", 1e-3 },
	{ "Mbit/s", "Mbit/s", 1 }, { "Gbit/s", "Mbit/s", 1e3 },
	{ "qps", "qps", 1 },
	{ "errors", "errors", 1 },
	{ "count", "count", 1 }, { "x", "x", 1 }, { "C", "C", 1 },
	{ "bytes", "bytes", 1 }, { "B", "bytes", 1 }, { "kB", "bytes", 1e3 }, { "KB", "bytes", 1e3 },
	{ "MB", "bytes", 1e6 }, { "GB", "bytes", 1e9 }, { "TB", "bytes", 1e12 }, { "KiB", "bytes", 1024 },
	{ "MiB", "bytes", 1048576 }, { "GiB", "bytes", 1073741824.0 }, { "TiB", "bytes", 1099511627776.0 },
};

void figure_num(char *b, size_t n, double v)
{
	double a = fabs(v);
	if (!isfinite(v)) {
		snprintf(b, n, "-");
	} else if (a >= 1000 || (a == floor(a) && a < 1e15)) {
		/* whole: thousands apart (14,710); an integer as an integer */
		char d[32];
		int l = snprintf(d, sizeof d, "%.0f", a);
		size_t o = 0;
		if (v < 0 && o + 1 < n)
			b[o++] = '-';
		for (int i = 0; i < l && o + 2 < n; i++) {
			b[o++] = d[i];
			if ((l - i - 1) % 3 == 0 && i + 1 < l)
				b[o++] = ',';
		}
		b[o < n ? o : n - 1] = 0;
	} else {
		/* three significant digits, never an exponent */
		int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 2 - (int)floor(log10(a));
		snprintf(b, n, "%.*f", decimals > 12 ? 12 : decimals, v);
	}
}

int unit_known(const char *unit)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(units[i].name, unit))
			return 1;
	return 0;
}

void units_list(char *out, size_t n)
{
	size_t l = 0;
	out[0] = 0;
	for (size_t i = 0; i < sizeof units / sizeof units[0] && l < n; i++) {
		int seen = 0;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(units[k].name, units[i].name);
		if (!seen)
			l += (size_t)snprintf(out + l, n - l, "%s%s", l ? " " : "", units[i].name);
	}
}

int unit_convert(const char *from, const char *to, double *mult)
{
	if (!from || !*from || !strcmp(from, to)) {
		*mult = 1;
		return 0;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(units[i].name, from) && !strcmp(units[i].base, to)) {
			*mult = units[i].mult;
			return 0;
		}
	return -1;
}

int unit_lower_is_better(const char *unit)
{
	return !strcmp(unit, "us") || !strcmp(unit, "ms") || !strcmp(unit, "ns") ||
	       !strcmp(unit, "s") || !strcmp(unit, "%") || !strcmp(unit, "errors");
}

