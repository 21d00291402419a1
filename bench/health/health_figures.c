/* The health.* figures of a run (docs/results.md "Health"), each with the devices or DIMMs
 * it concerns in its row's "detail" (certify and the last screen name them), the text of
 * the health section, and `assay health`. */
#include "health.h"

#include "edac.h"
#include "json.h"
#include "msg.h"
#include "engine/engine.h"
#include "result/result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const health_figure_names[] = {
	"health.{kernel_errors,mce}",
	"health.edac.{ce,ue}.[delta]",
	"health.cpu.throttle_events.[delta]",
	"health.temp.max",
	"health.disks.{watched,warnings,new_errors,self_test_failures}",
	"health.*.{critical_warning,temperature,avail_spare,percent_used,media_errors,num_err_log_entries,"
	"unsafe_shutdowns,smart_failed,failing_attributes,reallocated_sectors,pending_sectors,offline_uncorrectable,"
	"crc_errors,error_count}.[delta]",
	NULL,
};

static void add(struct json *sum, const char *name, double v, const char *unit, const char *detail)
{
	struct json *r;
	if (!isfinite(v) || v < 0)
		return;
	r = figure_add(sum, name, v, unit, LOWER_BETTER);
	if (detail && detail[0])
		json_add_str(r, "detail", detail);
}

/* "name: what" appended to a detail list */
static void note(char *d, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(char *d, size_t n, const char *fmt, ...)
{
	size_t l = strlen(d);
	va_list ap;
	if (l + 8 >= n)
		return;
	if (l)
		l += (size_t)snprintf(d + l, n - l, "; ");
	va_start(ap, fmt);
	vsnprintf(d + l, n - l, fmt, ap);
	va_end(ap);
}

struct disks {
	int watched, warnings, self_test_failures;
	double new_errors;
	char warn[400], errs[400], st[300];
};

static void nvme_figures(const char *name, const struct json *c, const struct json *d, struct json *sum,
			 struct disks *ds)
{
	const struct json *s = json_get(c, "smart");
	static const struct { const char *key, *unit; } f[] = {
		{ "critical_warning", "count" }, { "avail_spare", "%" }, { "percent_used", "%" },
		{ "media_errors", "count" }, { "num_err_log_entries", "count" }, { "unsafe_shutdowns", "count" },
	};
	char fig[160];
	double cw, spare, thr, newe = 0;
	if (!s || json_get(s, "error"))
		return;
	ds->watched++;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		snprintf(fig, sizeof fig, "health.%s.%s", name, f[i].key);
		add(sum, fig, json_get_num(s, f[i].key, NAN), f[i].unit, name);
		if (json_get(d, f[i].key)) {
			snprintf(fig, sizeof fig, "health.%s.%s.delta", name, f[i].key);
			add(sum, fig, json_get_num(d, f[i].key, NAN), "count", name);
		}
	}
	snprintf(fig, sizeof fig, "health.%s.temperature", name);
	if (json_get_num(s, "temperature_k", 0) > 0)
		add(sum, fig, json_get_num(s, "temperature_c", NAN), "C", name);
	cw = json_get_num(s, "critical_warning", 0);
	spare = json_get_num(s, "avail_spare", 100);
	thr = json_get_num(s, "spare_thresh", 0);
	if (cw || spare < thr) {
		ds->warnings++;
		note(ds->warn, sizeof ds->warn, "%s: critical warning 0x%x, spare %.0f%% (threshold %.0f%%)", name,
		     (unsigned)cw, spare, thr);
	}
	newe += fmax(0, json_get_num(d, "media_errors", 0));
	if (newe)
		note(ds->errs, sizeof ds->errs, "%s: +%.0f media errors", name, newe);
	ds->new_errors += newe;
	if (json_get_num(json_get(c, "self_test"), "failed", 0) > 0) {
		ds->self_test_failures += (int)json_get_num(json_get(c, "self_test"), "failed", 0);
		note(ds->st, sizeof ds->st, "%s: %.0f failed self-tests", name, json_get_num(json_get(c, "self_test"), "failed", 0));
	}
}

static void ata_figures(const char *name, const struct json *c, const struct json *d, struct json *sum,
			struct disks *ds)
{
	static const struct { const char *key; int id; } f[] = {
		{ "reallocated_sectors", 5 }, { "pending_sectors", 197 }, { "offline_uncorrectable", 198 },
		{ "crc_errors", 199 },
	};
	const struct json *passed = json_get(c, "smart_passed");
	char fig[160];
	double failing = json_get_num(json_get(c, "attributes"), "failing_now", NAN), newe = 0;
	int bad;
	if (!passed && !json_get(c, "attributes"))
		return;
	ds->watched++;
	bad = (passed && passed->type == J_BOOL && !passed->b) || failing > 0;
	snprintf(fig, sizeof fig, "health.%s.smart_failed", name);
	if (passed && passed->type == J_BOOL)
		add(sum, fig, !passed->b, "count", name);
	snprintf(fig, sizeof fig, "health.%s.failing_attributes", name);
	add(sum, fig, failing, "count", name);
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		snprintf(fig, sizeof fig, "health.%s.%s", name, f[i].key);
		add(sum, fig, health_ata_raw(c, f[i].id), "count", name);
		if (json_get(d, f[i].key)) {
			snprintf(fig, sizeof fig, "health.%s.%s.delta", name, f[i].key);
			add(sum, fig, json_get_num(d, f[i].key, NAN), "count", name);
			newe += fmax(0, json_get_num(d, f[i].key, 0));
		}
	}
	snprintf(fig, sizeof fig, "health.%s.error_count", name);
	add(sum, fig, json_get_num(json_get(c, "error_log"), "count", NAN), "count", name);
	if (json_get(d, "error_count")) {
		snprintf(fig, sizeof fig, "health.%s.error_count.delta", name);
		add(sum, fig, json_get_num(d, "error_count", NAN), "count", name);
		newe += fmax(0, json_get_num(d, "error_count", 0));
	}
	snprintf(fig, sizeof fig, "health.%s.temperature", name);
	if (isfinite(health_ata_raw(c, 194)))
		add(sum, fig, (double)((long long)health_ata_raw(c, 194) & 0xff), "C", name);
	if (bad) {
		ds->warnings++;
		note(ds->warn, sizeof ds->warn, "%s: SMART %s, %.0f attributes failing", name,
		     passed && passed->type == J_BOOL && !passed->b ? "FAILED" : "passed", failing > 0 ? failing : 0);
	}
	if (newe)
		note(ds->errs, sizeof ds->errs, "%s: +%.0f (reallocated, pending, uncorrectable, CRC, logged errors)",
		     name, newe);
	ds->new_errors += newe;
	if (json_get_num(json_get(c, "self_test"), "failed", 0) > 0) {
		ds->self_test_failures += (int)json_get_num(json_get(c, "self_test"), "failed", 0);
		note(ds->st, sizeof ds->st, "%s: %.0f failed self-tests", name, json_get_num(json_get(c, "self_test"), "failed", 0));
	}
}

/* the DIMMs whose counts grew, with their labels */
struct dimm_note {
	char *out;
	size_t n;
	const char *sign;     /* "+" for a growth, "" for a count */
};

static void dimm_note(const char *mc, const struct json *d, double ce, double ue, void *arg)
{
	struct dimm_note *dn = arg;
	note(dn->out, dn->n, "%s/%s %s: %s%.0f CE, %s%.0f UE", mc, json_get_str(d, "name", "?"),
	     json_get_str(d, "label", ""), dn->sign, ce, dn->sign, ue);
}

/* the DIMMs with errors (a NULL) or whose counts grew from a to b, with their labels */
static void dimm_detail(const struct json *a, const struct json *b, char *out, size_t n)
{
	struct dimm_note dn = { out, n, a ? "+" : "" };
	out[0] = 0;
	edac_grown(a, b, dimm_note, &dn);
	if (!out[0] && json_path(b, "edac.controllers"))
		note(out, n, "no DIMM named by the driver");
}

static void kernel_figures(const struct json *h, struct json *sum)
{
	const struct json *ev = json_get(h, "kernel_events");
	char d[400] = "", m[400] = "";
	int n = 0, mce = 0, logged = 0;
	for (const struct json *e = ev ? ev->child : NULL; e; e = e->next) {
		const char *cls = json_get_str(e, "class", ""), *line = json_get_str(e, "line", "");
		n++;
		if (n <= 2)
			note(d, sizeof d, "%s during %s: %.80s", cls, json_get_str(e, "test", "?"), line);
		/* an event is the kernel's "Machine Check:" line (bank and status); where a
		 * consumer (mcelog) takes the details, its "events logged" line */
		if (!strcmp(cls, "mce") && strstr(line, "Machine Check:")) {
			if (!mce) {
				m[0] = 0;     /* the event's own line says more than "events logged" */
				note(m, sizeof m, "during %s: %.80s", json_get_str(e, "test", "?"), strstr(line, "CPU") ?
				     strstr(line, "CPU") : line);
			}
			mce++;
		} else if (!strcmp(cls, "mce") && strstr(line, "events logged")) {
			if (!logged && !m[0])
				note(m, sizeof m, "during %s: %.80s", json_get_str(e, "test", "?"), line);
			logged++;
		}
	}
	if (n > 2)
		note(d, sizeof d, "and %d more", n - 2);
	if (!mce)
		mce = logged;
	mce += (int)fmax(0, json_get_num(json_get(h, "delta"), "mce_exceptions", 0));
	if (json_get(h, "kernel_log_read") && json_get(h, "kernel_log_read")->b) {
		add(sum, "health.kernel_errors", n, "count", d);
		add(sum, "health.mce", mce, "count", m);
	}
}

static void health_figures(const struct json *doc, struct json *sum)
{
	const struct json *h = json_get(doc, "health"), *end = json_get(h, "end"), *start = json_get(h, "start");
	const struct json *delta = json_get(h, "delta"), *dd = json_get(delta, "disks"), *c;
	struct disks ds;
	char detail[500];
	if (!h || !end)
		return;
	memset(&ds, 0, sizeof ds);
	for (c = json_get(end, "nvme") ? json_get(end, "nvme")->child : NULL; c; c = c->next)
		nvme_figures(c->key, c, json_get(dd, c->key), sum, &ds);
	for (c = json_get(end, "ata") ? json_get(end, "ata")->child : NULL; c; c = c->next)
		ata_figures(c->key, c, json_get(dd, c->key), sum, &ds);
	add(sum, "health.disks.watched", ds.watched, "count", NULL);
	add(sum, "health.disks.warnings", ds.warnings, "count", ds.warn);
	add(sum, "health.disks.new_errors", ds.new_errors, "count", ds.errs);
	add(sum, "health.disks.self_test_failures", ds.self_test_failures, "count", ds.st);
	if (json_path(end, "edac.available") && json_path(end, "edac.available")->b) {
		dimm_detail(NULL, end, detail, sizeof detail);
		add(sum, "health.edac.ce", json_path(end, "edac.ce")->num, "count", detail);
		add(sum, "health.edac.ue", json_path(end, "edac.ue")->num, "count", detail);
		dimm_detail(start, end, detail, sizeof detail);
		add(sum, "health.edac.ce.delta", json_get_num(delta, "edac_ce", NAN), "count", detail);
		add(sum, "health.edac.ue.delta", json_get_num(delta, "edac_ue", NAN), "count", detail);
	}
	if (json_path(end, "cpu.throttle_available") && json_path(end, "cpu.throttle_available")->b) {
		add(sum, "health.cpu.throttle_events", json_path(end, "cpu.throttle_events")->num, "count", NULL);
		snprintf(detail, sizeof detail, "thermal throttling: %+.0f core, %+.0f package events",
			 json_path(end, "cpu.core_throttle_events")->num -
			 json_get_num(json_get(start, "cpu"), "core_throttle_events", 0),
			 json_path(end, "cpu.package_throttle_events")->num -
			 json_get_num(json_get(start, "cpu"), "package_throttle_events", 0));
		add(sum, "health.cpu.throttle_events.delta", json_get_num(delta, "throttle_events", NAN), "count", detail);
	}
	if (json_get(h, "temp_max_c"))
		add(sum, "health.temp.max", json_get_num(h, "temp_max_c", NAN), "C", json_get_str(h, "temp_max_sensor", ""));
	kernel_figures(h, sum);
}

/* the registry's row: health's figures come from the whole run (before and after) */
const struct doc_figures health_doc_figures = { "health", "Health", health_figure_names, health_figures };
