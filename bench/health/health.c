/* A run's health: snapshots before and after the tests, what changed between them, the
 * kernel log's error lines and the hottest sensor per test, and the health.* figures
 * certify rules use.  `assay health` prints one snapshot. */
#include "health.h"

#include "cli/command.h"
#include "clock.h"
#include "fileio.h"
#include "edac.h"
#include "json.h"
#include "msg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the image's machine-check poll (the kernel's default: 300 s): a corrected error found
 * within 2 s is put to the test that was running */
#define MCE_POLL_S "2"

struct json *health_snapshot(void)
{
	struct json *s = json_obj();
	json_add_num(s, "t_s", now_s());
	health_nvme(s);
	health_ata(s);
	edac_snapshot(s);
	health_cpu(s);
	health_hwmon(s);
	return s;
}

struct health_run {
	struct kmsg_watch *kw;
	struct json *start, *events, *test_events;
	char test[64];
	double temp_max, test_temp_max, next_temp, next_series, t0, last_temp;
	struct json *series;       /* every 10 s: the hottest sensor, the throttle count */
	char temp_who[128], test_temp_who[128];
};

struct health_run *health_begin(void)
{
	struct health_run *h = calloc(1, sizeof *h);
	char p[512];
	if (!h)
		return NULL;
	/* corrected machine checks are found by the kernel's poll: every 2 s in the image */
	sys_path(p, sizeof p, "/sys/devices/system/machinecheck/machinecheck0/check_interval");
	if (getenv("ASSAY_IMAGE") && access(p, W_OK) == 0) {
		FILE *f = fopen(p, "w");
		if (f) {
			fputs(MCE_POLL_S "\n", f);
			fclose(f);
		}
	}
	h->kw = kmsg_open();
	h->start = health_snapshot();
	h->events = json_arr();
	h->series = json_arr();
	h->t0 = now_s();
	h->temp_max = h->test_temp_max = h->last_temp = NAN;
	snprintf(h->test, sizeof h->test, "before the tests");
	return h;
}

static void sample_temp(struct health_run *h)
{
	char who[128];
	double t = health_temp_max(who, sizeof who);
	h->last_temp = t;
	if (isnan(t))
		return;
	if (isnan(h->temp_max) || t > h->temp_max) {
		h->temp_max = t;
		snprintf(h->temp_who, sizeof h->temp_who, "%s", who);
	}
	if (isnan(h->test_temp_max) || t > h->test_temp_max) {
		h->test_temp_max = t;
		snprintf(h->test_temp_who, sizeof h->test_temp_who, "%s", who);
	}
}

/* the new kernel lines, each marked with the test that was running */
static void drain(struct health_run *h)
{
	struct json *last = h->events->last;
	kmsg_drain(h->kw, h->events);
	for (struct json *e = last ? last->next : h->events->child; e; e = e->next) {
		json_add_str(e, "test", h->test);
		if (h->test_events)
			json_push(h->test_events, json_copy(e));
	}
}

void health_tick(struct health_run *h)
{
	double now;
	if (!h)
		return;
	drain(h);
	now = now_s();
	if (now >= h->next_temp) {
		h->next_temp = now + 1;
		sample_temp(h);
	}
	if (now >= h->next_series && h->series->n < 5000) {
		struct json *cpu = json_obj(), *o;
		double t = h->last_temp;     /* sampled above, at most a second ago */
		h->next_series = now + 10;
		health_cpu(cpu);
		o = json_push(h->series, json_obj());
		json_add_num(o, "t_s", now - h->t0);
		if (!isnan(t))
			json_add_num(o, "temp_c", t);
		if (json_path(cpu, "cpu.throttle_available")->b)
			json_add_num(o, "throttle_events", json_path(cpu, "cpu.throttle_events")->num);
		json_free(cpu);
	}
}

void health_test_begin(struct health_run *h, const char *name)
{
	if (!h)
		return;
	drain(h);
	snprintf(h->test, sizeof h->test, "%s", name);
	h->test_events = json_arr();
	h->test_temp_max = NAN;
	h->next_temp = 0;
	health_tick(h);
}

void health_test_end(struct health_run *h, struct json *test)
{
	struct json *o;
	if (!h)
		return;
	if (!strcmp(json_get_str(test, "status", ""), "skipped")) {
		json_free(h->test_events);
		h->test_events = NULL;
		return;
	}
	health_tick(h);
	drain(h);
	o = json_add_obj(test, "health");
	if (!isnan(h->test_temp_max)) {
		json_add_num(o, "temp_max_c", h->test_temp_max);
		json_add_str(o, "temp_max_sensor", h->test_temp_who);
	}
	json_add(o, "kernel_events", h->test_events);
	h->test_events = NULL;
	snprintf(h->test, sizeof h->test, "between tests");
}

/* ---- deltas ---- */

static double num_at(const struct json *o, const char *path)
{
	const struct json *v = json_path(o, path);
	return v && v->type == J_NUM ? v->num : NAN;
}

static void delta_num(struct json *d, const char *key, const struct json *a, const struct json *b, const char *path)
{
	double x = num_at(a, path), y = num_at(b, path);
	if (isfinite(x) && isfinite(y) && x >= 0 && y >= 0)
		json_add_num(d, key, y - x);
}

static const struct { const char *key; int id; } ata_counters[] = {
	{ "reallocated_sectors", 5 }, { "pending_sectors", 197 }, { "offline_uncorrectable", 198 },
	{ "crc_errors", 199 }, { "reported_uncorrect", 187 }, { "command_timeouts", 188 },
};

static struct json *deltas(const struct json *a, const struct json *b)
{
	struct json *d = json_obj(), *disks = json_add_obj(d, "disks");
	const struct json *nv = json_get(b, "nvme"), *ad = json_get(b, "ata");
	for (const struct json *c = nv ? nv->child : NULL; c; c = c->next) {
		const struct json *old = json_get(json_get(a, "nvme"), c->key);
		struct json *o = json_add_obj(disks, c->key);
		static const char *const keys[] = { "media_errors", "num_err_log_entries", "unsafe_shutdowns",
						    "data_units_written", "data_units_read", "percent_used", NULL };
		for (int i = 0; keys[i]; i++) {
			char p[64];
			snprintf(p, sizeof p, "smart.%s", keys[i]);
			delta_num(o, keys[i], old, c, p);
		}
	}
	for (const struct json *c = ad ? ad->child : NULL; c; c = c->next) {
		const struct json *old = json_get(json_get(a, "ata"), c->key);
		struct json *o = json_add_obj(disks, c->key);
		for (size_t i = 0; i < sizeof ata_counters / sizeof ata_counters[0]; i++) {
			double x = health_ata_raw(old, ata_counters[i].id), y = health_ata_raw(c, ata_counters[i].id);
			if (isfinite(x) && isfinite(y))
				json_add_num(o, ata_counters[i].key, y - x);
		}
		delta_num(o, "error_count", old, c, "error_log.count");
	}
	delta_num(d, "edac_ce", a, b, "edac.ce");
	delta_num(d, "edac_ue", a, b, "edac.ue");
	delta_num(d, "throttle_events", a, b, "cpu.throttle_events");
	delta_num(d, "mce_exceptions", a, b, "mce.exceptions");
	return d;
}

void health_end(struct health_run *h, struct json *doc)
{
	struct json *o, *end;
	if (!h)
		return;
	snprintf(h->test, sizeof h->test, "after the tests");
	health_tick(h);
	end = health_snapshot();
	drain(h);
	o = json_add_obj(doc, "health");
	json_add_int(o, "schema", HEALTH_SCHEMA);
	json_add_bool(o, "kernel_log_read", h->kw != NULL);
	json_add(o, "delta", deltas(h->start, end));
	json_add(o, "start", h->start);
	json_add(o, "end", end);
	json_add(o, "kernel_events", h->events);
	json_add(o, "series", h->series);
	if (!isnan(h->temp_max)) {
		json_add_num(o, "temp_max_c", h->temp_max);
		json_add_str(o, "temp_max_sensor", h->temp_who);
	}
	kmsg_close(h->kw);
	free(h);
}
