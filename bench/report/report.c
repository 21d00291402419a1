#include "report.h"
#include "base64.h"
#include "gzip.h"
#include "crc32.h"
#include "engine.h"
#include "health/health.h"
#include "suite.h"
#include "json.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

struct json *report_figure(struct json *sum, const char *name, double value, const char *unit, enum better b)
{
	struct json *row = json_push(sum, json_obj());
	json_add_str(row, "name", name);
	json_add_num(row, "value", value);
	json_add_str(row, "unit", unit);
	json_add_str(row, "better", b == LOWER_BETTER ? "lower" : "higher");
	return row;
}

void report_ci(struct json *row, const struct json *stats, double scale)
{
	if (!stats || json_get_num(stats, "n", 0) < 2 || !json_get(stats, "ci95_low"))
		return;
	json_add_num(row, "ci95_low", json_get_num(stats, "ci95_low", 0) * scale);
	json_add_num(row, "ci95_high", json_get_num(stats, "ci95_high", 0) * scale);
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

/* steal.max and steal.mean over every test's steal: the engines' figures and the run's
 * own measure of each test (tests[].steal_pct) */
static void steal_figures(const struct json *doc, struct json *sum)
{
	const struct json *tests = json_get(doc, "tests");
	double mx = -1, total = 0;
	int n = 0;
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next)
		if (json_get(t, "steal_pct") && !strcmp(json_get_str(t, "status", ""), "ok")) {
			double v = json_get_num(t, "steal_pct", 0);
			mx = v > mx ? v : mx;
			total += v;
			n++;
		}
	for (const struct json *r = sum->child; r; r = r->next) {
		const char *name = json_get_str(r, "name", "");
		if (strstr(name, ".steal") || !strncmp(name, "cpu.steal.", 10)) {
			double v = json_get_num(r, "value", 0);
			mx = v > mx ? v : mx;
			total += v;
			n++;
		}
	}
	if (n) {
		report_figure(sum, "steal.max", mx, "%", LOWER_BETTER);
		report_figure(sum, "steal.mean", total / n, "%", LOWER_BETTER);
	}
}

static double sum_value(const struct json *sum, const char *name, double dflt)
{
	for (const struct json *r = sum->child; r; r = r->next)
		if (!strcmp(json_get_str(r, "name", ""), name))
			return json_get_num(r, "value", dflt);
	return dflt;
}

/* cpu.scaling: all CPUs' events/s over one thread's (the multi-core scaling) */
static void scaling_figure(struct json *sum)
{
	double one = sum_value(sum, "cpu.events_per_sec.1t", 0);
	double all = sum_value(sum, "cpu.events_per_sec.all", 0);
	if (one > 0 && all > 0)
		report_figure(sum, "cpu.scaling", all / one, "x", HIGHER_BETTER);
}

void report_summary(struct json *doc)
{
	struct json *sum = json_add_arr(doc, "summary");
	const struct json *tests = json_get(doc, "tests");
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const struct engine *e = engine_find(json_get_str(t, "engine", ""));
		const struct json *res = json_get(t, "result");
		/* a failed test's figures only when it says they stand (memtest's errors) */
		if (!e || !res || (strcmp(json_get_str(t, "status", ""), "ok") &&
				   !(json_get(res, "figures_valid") && json_get(res, "figures_valid")->b)))
			continue;
		if (e->figures)
			e->figures(res, json_get_str(t, "name", "?"), sum);
	}
	steal_figures(doc, sum);
	scaling_figure(sum);
	health_figures(doc, sum);
	burnin_figures(doc, sum);
}

#define STEAL_TITLE "Steal (noisy neighbours)"

/* the engine whose figure this is: the one named by its first word (disk.vdb.qd1... is
 * disk's), NULL for the run's own (steal.*) */
const struct engine *figure_engine(const char *name)
{
	char first[32];
	size_t l = strcspn(name, ".");
	if (l >= sizeof first)
		return NULL;
	snprintf(first, sizeof first, "%.*s", (int)l, name);
	return engine_find(first);
}

/* the heading a figure goes under: its engine's title, or Steal */
static const char *family(const char *name)
{
	const struct engine *e = figure_engine(name);
	if (e && e->title)
		return e->title;
	return !strncmp(name, "steal.", 6) ? STEAL_TITLE : !strncmp(name, "health.", 7) ? "Health" : "Other";
}

/* the k-th heading of the table: the engines' in the registry's order, then steal, then
 * anything else; NULL past the last */
static const char *heading(int k)
{
	int n = 0;
	while (engines[n])
		n++;
	return k < n ? engines[k]->title : k == n ? STEAL_TITLE : k == n + 1 ? "Health" : k == n + 2 ? "Other" : NULL;
}

/* "machine: MODEL, N CPUs, HYPERVISOR, idle DRIVER/GOVERNOR (halt poll N ns), clocksource
 * SRC": what the figures below depend on beyond the hardware (docs/results.md) */
static void machine_line(const struct json *doc, FILE *f)
{
	const struct json *m = json_get(doc, "machine"), *idle;
	const char *hv;
	if (!m)
		return;
	hv = json_get_str(m, "hypervisor", NULL);
	fprintf(f, "machine: %s, %.0f CPUs, %s", json_get_str(m, "cpu.model", "unknown CPU"),
		json_get_num(m, "cpu.online", 0), hv ? hv : "bare metal");
	if ((idle = json_path(m, "cpu.idle"))) {
		fprintf(f, ", idle %s/%s", json_get_str(idle, "driver", "?"), json_get_str(idle, "governor", "?"));
		if (json_get(idle, "halt_poll_ns"))
			fprintf(f, " (halt poll %.0f ns)", json_get_num(idle, "halt_poll_ns", 0));
	}
	if (json_path(m, "kernel.clocksource"))
		fprintf(f, ", clocksource %s", json_get_str(m, "kernel.clocksource", "?"));
	fputc('\n', f);
}

/* One row per figure, grouped as the classic VPS write-ups are: CPU, memory, disk
 * (seq MB/s, IOPS and latency percentiles by queue depth), network, DNS. */
void report_table(const struct json *doc, FILE *f)
{
	const struct json *sum = json_get(doc, "summary");
	const struct json *tests = json_get(doc, "tests");
	const char *last = NULL;
	fprintf(f, "== summary (assay %s, %s suite) ==\n", json_get_str(doc, "assay_version", "?"),
		json_get_str(doc, "options.suite", "?"));
	machine_line(doc, f);
	for (int k = 0; heading(k); k++)
		for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
			const char *name = json_get_str(r, "name", "?"), *fam = family(name);
			double v = json_get_num(r, "value", 0);
			if (strcmp(fam, heading(k)))
				continue;
			if (!last || strcmp(last, fam)) {
				fprintf(f, "%s%s\n", last ? "\n" : "", fam);
				last = fam;
			}
			fprintf(f, "  %-40s %14.*f  %s\n", name, fabs(v) >= 1000 ? 0 : 2, v,
				json_get_str(r, "unit", ""));
		}
	if (last)
		fputc('\n', f);
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next)
		if (strcmp(json_get_str(t, "status", ""), "ok"))
			fprintf(f, "%-42s %14s  %s\n", json_get_str(t, "name", "?"), json_get_str(t, "status", "?"),
				json_get_str(t, "why", ""));
	fprintf(f, "status: %s\n", json_get_str(doc, "status", "?"));
}

/* The document, compact: its JSON (no indentation) gzipped and in base64 lines, its
 * length and CRC-32 (of the JSON) and the gzip's length on the line after BEGIN: ~8x
 * fewer console lines than the pretty JSON.  Out of memory: the JSON as it is, the
 * block format extract also reads. */
void report_block(const struct json *doc, FILE *f)
{
	size_t len, zn;
	char *s = json_to_string(doc, 0, &len);
	unsigned char *z = NULL;
	if (!s)
		return;
	if (gzip_compress(s, len, &z, &zn)) {
		fprintf(f, "%s\nbytes=%zu crc32=%08x\n", REPORT_BEGIN, len, crc32_update(0, s, len));
		fwrite(s, 1, len, f);
	} else {
		fprintf(f, "%s\nformat=gzip+base64 bytes=%zu crc32=%08x gzip=%zu\n", REPORT_BEGIN, len,
			crc32_update(0, s, len), zn);
		base64_write(f, z, zn, 76);
	}
	fprintf(f, "%s\n", REPORT_END);
	free(z);
	free(s);
}
