/* A result's figures as Prometheus text (the exposition format 0.0.4 that the Pushgateway,
 * node_exporter's textfile collector and promtool read, with OpenMetrics' `# UNIT` and
 * `# EOF` lines, comments to them): each summary figure a sample of a family named after
 * it, in base units (seconds, bytes, ratios, celsius) with `# TYPE` and `# HELP`; what a
 * figure is about goes in labels (the disk and its model and serial, the profile, the
 * threads) and every sample carries the machine's and the run's (docs/results.md
 * "OpenMetrics").  Health's absolute counts are counters, named ..._total. */
#include "report.h"
#include "report.h"

#include "json.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct om_unit {
	const char *unit, *base;
	double mult;
} om_units[] = {
	{ "MB/s", "bytes_per_second", 1e6 }, { "MiB/s", "bytes_per_second", 1048576 },
	{ "Gbit/s", "bytes_per_second", 1.25e8 }, { "Mbit/s", "bytes_per_second", 1.25e5 },
	{ "us", "seconds", 1e-6 }, { "ms", "seconds", 1e-3 }, { "ns", "seconds", 1e-9 }, { "s", "seconds", 1 },
	{ "%", "ratio", 0.01 }, { "x", "ratio", 1 }, { "C", "celsius", 1 }, { "bytes", "bytes", 1 },
};

/* health figures that only grow: OpenMetrics counters (the name gets _total) */
static int is_counter(const char *name)
{
	static const char *const c[] = { "media_errors", "num_err_log_entries", "unsafe_shutdowns", "reallocated_sectors",
					 "pending_sectors", "offline_uncorrectable", "crc_errors", "error_count",
					 "throttle_events", NULL };
	const char *last = strrchr(name, '.');
	if (strncmp(name, "health.", 7) || !last)
		return 0;
	if (!strcmp(name, "health.edac.ce") || !strcmp(name, "health.edac.ue"))
		return 1;
	for (int i = 0; c[i]; i++)
		if (!strcmp(last + 1, c[i]))
			return 1;
	return 0;
}

struct sample {
	char family[160];
	char labels[600];
	const char *unit, *help, *type;
	double value;
};

static void label(char *out, size_t n, const char *key, const char *val)
{
	size_t l = strlen(out);
	if (!val || !*val || l + 8 >= n)
		return;
	l += (size_t)snprintf(out + l, n - l, "%s%s=\"", l ? "," : "", key);
	for (const char *p = val; *p && l + 4 < n; p++) {
		if (*p == '\\' || *p == '"' || *p == '\n')
			out[l++] = '\\';
		out[l++] = *p == '\n' ? 'n' : *p;
	}
	snprintf(out + l, n - l, "\"");
}

/* words into a metric name part: letters, digits, '_'; "per_sec" spelt out (the
 * conventions want no abbreviated units) */
static void name_part(char *out, size_t n, const char *s, size_t len)
{
	size_t l = strlen(out);
	char *p;
	for (size_t i = 0; i < len && l + 1 < n; i++)
		out[l++] = isalnum((unsigned char)s[i]) ? (char)tolower((unsigned char)s[i]) : '_';
	out[l] = 0;
	if ((p = strstr(out, "per_sec")) && strncmp(p, "per_second", 10) && strlen(out) + 4 < n) {
		memmove(p + 10, p + 7, strlen(p + 7) + 1);
		memcpy(p, "per_second", 10);
	}
}

/* the disk test a figure comes from ("disk" or "disk.NAME") and its device's facts */
static const struct json *disk_of(const struct json *doc, const char *fig, const char **rest)
{
	const struct json *tests = json_get(doc, "tests"), *best = NULL;
	size_t bl = 0;
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const char *nm = json_get_str(t, "name", "");
		size_t l = strlen(nm);
		if (strcmp(json_get_str(t, "engine", ""), "disk") || strncmp(fig, nm, l) || fig[l] != '.')
			continue;
		if (l > bl)
			best = t, bl = l;
	}
	*rest = fig + (best ? bl + 1 : 5);
	return best;
}

static void disk_labels(const struct json *doc, const struct json *test, char *lab, size_t n)
{
	const struct json *args = json_get(test, "args"), *disks = json_path(doc, "machine.disks");
	const char *dev = NULL;
	for (const struct json *a = args ? args->child : NULL; a; a = a->next)
		if (a->type == J_STR && !strncmp(a->str, "--filename=", 11))
			dev = a->str + 11;
	label(lab, n, "device", dev);
	for (const struct json *d = disks ? disks->child : NULL; dev && d; d = d->next) {
		const char *nm = json_get_str(d, "name", "");
		size_t dl = strlen(dev), nl = strlen(nm);
		if (nl && dl >= nl && !strcmp(dev + dl - nl, nm) && (dl == nl || dev[dl - nl - 1] == '/')) {
			label(lab, n, "model", json_get_str(d, "model", NULL));
			label(lab, n, "serial", json_get_str(d, "serial", NULL));
		}
	}
}

/* the family and labels of figure `fig`: disk figures by profile, direction and device;
 * per-thread-count ones by threads; health's by device */
static void shape(const struct json *doc, const char *fig, struct sample *s)
{
	const char *rest, *last = strrchr(fig, '.');
	size_t fl = strcspn(fig, ".");
	snprintf(s->family, sizeof s->family, "assay_");
	if (!strncmp(fig, "disk.", 5)) {
		const struct json *t = disk_of(doc, fig, &rest);
		static const char *const metrics[] = { "clat.p50", "clat.p99", "bw", "iops", "errors", "steal", NULL };
		const char *m = NULL;
		char *dir = NULL;
		size_t pl = strcspn(rest, ".");
		for (int i = 0; metrics[i] && !m; i++) {
			size_t ml = strlen(metrics[i]), rl = strlen(rest);
			if (rl > ml && !strcmp(rest + rl - ml, metrics[i]) && rest[rl - ml - 1] == '.')
				m = rest + rl - ml;
		}
		if (!m)
			m = strrchr(rest, '.') ? strrchr(rest, '.') + 1 : rest;
		name_part(s->family, sizeof s->family, "disk_", 5);
		name_part(s->family, sizeof s->family, m, strlen(m));
		{
			char prof[64], job[96] = "";
			snprintf(prof, sizeof prof, "%.*s", (int)pl, rest);
			label(s->labels, sizeof s->labels, "profile", prof);
			if (m > rest + pl + 1) {
				/* between the profile and the metric: the job's own words, then its direction */
				snprintf(job, sizeof job, "%.*s", (int)(m - 1 - rest), rest);
				dir = strrchr(job, '.') ? strrchr(job, '.') + 1 : NULL;
				if (dir && (!strcmp(dir, "read") || !strcmp(dir, "write") || !strcmp(dir, "trim"))) {
					label(s->labels, sizeof s->labels, "direction", dir);
					dir[-1] = 0;
				}
				if (strcmp(job, prof))      /* a profile of several jobs: which */
					label(s->labels, sizeof s->labels, "job", job);
			}
		}
		if (t)
			disk_labels(doc, t, s->labels, sizeof s->labels);
		return;
	}
	if ((!strncmp(fig, "cpu.", 4) || !strncmp(fig, "mem.", 4)) && last &&
	    (!strcmp(last + 1, "1t") || !strcmp(last + 1, "all"))) {
		name_part(s->family, sizeof s->family, fig, (size_t)(last - fig));
		label(s->labels, sizeof s->labels, "threads", !strcmp(last + 1, "1t") ? "1" : "all");
		return;
	}
	if (!strncmp(fig, "mem.latency_ns.", 15)) {
		name_part(s->family, sizeof s->family, "mem_latency", 11);
		label(s->labels, sizeof s->labels, "working_set", fig + 15);
		return;
	}
	if (!strncmp(fig, "health.", 7)) {
		const char *dev = fig + 7;
		size_t dl = strcspn(dev, ".");
		static const char *const own[] = { "disks", "edac", "cpu", "temp", "kernel_errors", "mce", NULL };
		int is_dev = 1;
		for (int i = 0; own[i]; i++)
			is_dev &= !(strlen(own[i]) == dl && !strncmp(own[i], dev, dl));
		if (is_dev && dev[dl]) {
			char d[64];
			snprintf(d, sizeof d, "%.*s", (int)dl, dev);
			name_part(s->family, sizeof s->family, "health_", 7);
			name_part(s->family, sizeof s->family, dev + dl + 1, strlen(dev + dl + 1));
			label(s->labels, sizeof s->labels, "device", d);
			return;
		}
	}
	name_part(s->family, sizeof s->family, fig, fl);
	name_part(s->family, sizeof s->family, fig + fl, strlen(fig + fl));
}

static int by_family(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	int c = strcmp(x->family, y->family);
	return c ? c : (x < y ? -1 : x > y);
}

/* labels every sample carries: the machine and the run */
static void common_labels(const struct json *doc, char *out, size_t n)
{
	const struct json *m = json_get(doc, "machine"), *nics = json_get(m, "nics");
	char run[96];
	out[0] = 0;
	label(out, n, "machine", json_get_str(m, "id", NULL));
	label(out, n, "hostname", json_get_str(m, "hostname", NULL));
	label(out, n, "product", json_path(doc, "machine.dmi.product_name") ? json_path(doc, "machine.dmi.product_name")->str : NULL);
	label(out, n, "product_serial", json_path(doc, "machine.dmi.product_serial") ? json_path(doc, "machine.dmi.product_serial")->str : NULL);
	label(out, n, "mac", nics && nics->child ? json_get_str(nics->child, "mac", NULL) : NULL);
	snprintf(run, sizeof run, "%s-%s", json_get_str(doc, "started_utc", "?"), json_get_str(m, "id", "?"));
	label(out, n, "run", run);
	label(out, n, "suite", json_get_str(json_get(doc, "options"), "suite", NULL));
}

/* the certify verdict, and each rule's (those not applicable left out): what a fleet
 * alerts on */
static void verdict_metrics(const struct json *doc, const char *common, FILE *f)
{
	const struct json *c = json_get(doc, "certify"), *rules = json_get(c, "rules");
	char lab[1200] = "";
	if (!c || !json_get(c, "verdict"))
		return;
	label(lab, sizeof lab, "profile", json_get_str(c, "profile", ""));
	fprintf(f, "# TYPE assay_certify_pass gauge\n# HELP assay_certify_pass 1 when the run's certify verdict is "
		   "PASS, 0 for FAIL or INCONCLUSIVE (docs/results.md)\n");
	fprintf(f, "assay_certify_pass{%s,%s} %d\n", common, lab, !strcmp(json_get_str(c, "verdict", ""), "PASS"));
	fprintf(f, "# TYPE assay_rule_pass gauge\n# HELP assay_rule_pass 1 when the certify rule passed, 0 when it "
		   "failed, was not measured or could not tell (docs/results.md)\n");
	for (const struct json *r = rules ? rules->child : NULL; r; r = r->next) {
		const char *res = json_get_str(r, "result", "");
		char rl[1500];
		if (!strcmp(res, "N/A"))
			continue;
		snprintf(rl, sizeof rl, "%s", lab);
		label(rl, sizeof rl, "rule", json_get_str(r, "rule", "?"));
		fprintf(f, "assay_rule_pass{%s,%s} %d\n", common, rl, !strcmp(res, "PASS"));
	}
}

void report_openmetrics(const struct json *doc, FILE *f)
{
	const struct json *sum = json_get(doc, "summary");
	struct sample *s = calloc(sum ? sum->n + 1 : 1, sizeof *s);
	char common[800];
	size_t n = 0;
	if (!s)
		return;
	common_labels(doc, common, sizeof common);
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
		const char *name = json_get_str(r, "name", ""), *unit = json_get_str(r, "unit", "");
		double v = json_get_num(r, "value", NAN);
		struct sample *x = &s[n];
		if (!isfinite(v))
			continue;
		memset(x, 0, sizeof *x);
		shape(doc, name, x);
		x->value = v;
		x->unit = "";
		for (size_t i = 0; i < sizeof om_units / sizeof om_units[0]; i++)
			if (!strcmp(om_units[i].unit, unit)) {
				x->unit = om_units[i].base;
				x->value = v * om_units[i].mult;
			}
		if (x->unit[0] && (strlen(x->family) < strlen(x->unit) ||
				   strcmp(x->family + strlen(x->family) - strlen(x->unit), x->unit)))
			snprintf(x->family + strlen(x->family), sizeof x->family - strlen(x->family), "_%s", x->unit);
		x->type = is_counter(name) ? "counter" : "gauge";
		/* the name the TYPE line gives is the samples' (the text format 0.0.4 that the
		 * Pushgateway, node_exporter and promtool read) */
		if (is_counter(name))
			snprintf(x->family + strlen(x->family), sizeof x->family - strlen(x->family), "_total");
		x->help = name;
		n++;
	}
	qsort(s, n, sizeof *s, by_family);
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(s[i].family, s[i - 1].family)) {
			fprintf(f, "# TYPE %s %s\n", s[i].family, s[i].type);
			if (s[i].unit[0])
				fprintf(f, "# UNIT %s %s\n", s[i].family, s[i].unit);
			fprintf(f, "# HELP %s assay's figure %s%s (docs/results.md)\n", s[i].family,
				s[i].labels[0] ? "such as " : "", s[i].help);
		}
		fprintf(f, "%s{%s%s%s} %.15g\n", s[i].family, common, s[i].labels[0] ? "," : "", s[i].labels, s[i].value);
	}
	verdict_metrics(doc, common, f);
	fprintf(f, "# EOF\n");
	free(s);
}
