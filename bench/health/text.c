/* The health section as text (a run's .txt, `assay health`), and the command. */
#include "health.h"

#include "cli/command.h"
#include "json.h"
#include "msg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void nvme_text(const char *name, const struct json *c, FILE *f)
{
	const struct json *s = json_get(c, "smart");
	fprintf(f, "  %-8s %s (serial %s, firmware %s)\n", name, json_get_str(c, "model", "?"), json_get_str(c, "serial", "?"),
		json_get_str(c, "firmware", "?"));
	if (json_get(c, "error") || !s || json_get(s, "error")) {
		fprintf(f, "           not read: %s\n", json_get_str(c, "error", json_get_str(s, "error", "no SMART log")));
		return;
	}
	fprintf(f, "           critical warning 0x%x, %.0f C, spare %.0f%% (threshold %.0f%%), used %.0f%%\n",
		(unsigned)json_get_num(s, "critical_warning", 0), json_get_num(s, "temperature_c", 0),
		json_get_num(s, "avail_spare", 0), json_get_num(s, "spare_thresh", 0), json_get_num(s, "percent_used", 0));
	fprintf(f, "           media errors %.0f, error log entries %.0f, power-on %.0f h, unsafe shutdowns %.0f\n",
		json_get_num(s, "media_errors", 0), json_get_num(s, "num_err_log_entries", 0),
		json_get_num(s, "power_on_hours", 0), json_get_num(s, "unsafe_shutdowns", 0));
	if (json_get(c, "self_test"))
		fprintf(f, "           self-tests: %.0f failed\n", json_get_num(json_get(c, "self_test"), "failed", 0));
}

static void ata_text(const char *name, const struct json *c, FILE *f)
{
	const struct json *p = json_get(c, "smart_passed"), *t = json_path(c, "attributes.table");
	fprintf(f, "  %-8s %s %s (serial %s, firmware %s)\n", name, json_get_str(c, "transport", "?"),
		json_get_str(c, "model", ""), json_get_str(c, "serial", "?"), json_get_str(c, "firmware", "?"));
	if (json_get(c, "error")) {
		fprintf(f, "           not read: %s\n", json_get_str(c, "error", ""));
		return;
	}
	fprintf(f, "           SMART %s", !p ? "status unknown" : p->b ? "passed" : "FAILED");
	if (json_get(c, "attributes"))
		fprintf(f, ", %.0f attributes failing now", json_get_num(json_get(c, "attributes"), "failing_now", 0));
	if (json_get(c, "error_log"))
		fprintf(f, ", %.0f logged errors", json_get_num(json_get(c, "error_log"), "count", 0));
	fprintf(f, "\n");
	for (const struct json *e = t ? t->child : NULL; e; e = e->next) {
		int id = (int)json_get_num(e, "id", 0);
		if (id == 5 || id == 9 || id == 187 || id == 194 || id == 197 || id == 198 || id == 199 ||
		    json_get(e, "when_failed"))
			fprintf(f, "           %3d %-24s value %3.0f worst %3.0f thresh %3.0f raw %.0f%s\n", id,
				json_get_str(e, "name", "?"), json_get_num(e, "value", 0), json_get_num(e, "worst", 0),
				json_get_num(e, "thresh", 0), json_get_num(e, "raw", 0),
				json_get(e, "when_failed") ? "  FAILING" : "");
	}
}

static void snapshot_text(const struct json *s, FILE *f)
{
	const struct json *c, *e = json_get(s, "edac"), *hw = json_get(s, "hwmon");
	fprintf(f, "Disks\n");
	if (!json_get(s, "nvme") && !json_get(s, "ata"))
		fprintf(f, "  none with a health log (NVMe, SATA, SAS); virtio disks have none\n");
	for (c = json_get(s, "nvme") ? json_get(s, "nvme")->child : NULL; c; c = c->next)
		nvme_text(c->key, c, f);
	for (c = json_get(s, "ata") ? json_get(s, "ata")->child : NULL; c; c = c->next)
		ata_text(c->key, c, f);
	fprintf(f, "Memory\n");
	if (!json_get(e, "available") || !json_get(e, "available")->b)
		fprintf(f, "  EDAC: no memory controller driver loaded: ECC errors are not counted\n");
	else
		for (c = json_get(e, "controllers")->child; c; c = c->next) {
			fprintf(f, "  %-8s %s: %.0f corrected, %.0f uncorrected\n", c->key, json_get_str(c, "driver", "?"),
				json_get_num(c, "ce", 0), json_get_num(c, "ue", 0));
			for (const struct json *d = json_get(c, "dimms") ? json_get(c, "dimms")->child : NULL; d; d = d->next)
				fprintf(f, "           %-8s %-32s %.0f CE, %.0f UE\n", json_get_str(d, "name", "?"),
					json_get_str(d, "label", ""), json_get_num(d, "ce", 0), json_get_num(d, "ue", 0));
		}
	fprintf(f, "CPU\n");
	if (json_path(s, "cpu.throttle_available") && json_path(s, "cpu.throttle_available")->b)
		fprintf(f, "  thermal throttling: %.0f core, %.0f package events\n",
			json_get_num(json_get(s, "cpu"), "core_throttle_events", 0),
			json_get_num(json_get(s, "cpu"), "package_throttle_events", 0));
	else
		fprintf(f, "  thermal throttling: not counted here (no thermal_throttle in sysfs)\n");
	if (json_get_num(json_get(s, "mce"), "polls", -1) < 0)
		fprintf(f, "  machine checks: not counted (this kernel has no machine-check support)\n");
	else
		fprintf(f, "  machine checks: %.0f exceptions, %.0f polls\n", json_get_num(json_get(s, "mce"), "exceptions", 0),
			json_get_num(json_get(s, "mce"), "polls", 0));
	fprintf(f, "Temperatures\n");
	if (!hw || !hw->child)
		fprintf(f, "  no hwmon sensor\n");
	for (c = hw ? hw->child : NULL; c; c = c->next)
		fprintf(f, "  %-12s %-20s %5.1f C\n", json_get_str(c, "chip", "?"), json_get_str(c, "label", "?"),
			json_get_num(c, "temp_c", 0));
}

void health_text(const struct json *h, FILE *f)
{
	const struct json *ev = json_get(h, "kernel_events"), *end = json_get(h, "end");
	snapshot_text(end ? end : h, f);
	if (!end)
		return;
	if (json_get(h, "temp_max_c"))
		fprintf(f, "  hottest during the run: %.1f C (%s)\n", json_get_num(h, "temp_max_c", 0),
			json_get_str(h, "temp_max_sensor", ""));
	fprintf(f, "Kernel log during the run\n");
	if (!json_get(h, "kernel_log_read") || !json_get(h, "kernel_log_read")->b)
		fprintf(f, "  not read (/dev/kmsg)\n");
	else if (!ev || !ev->child)
		fprintf(f, "  no error lines\n");
	for (const struct json *e = ev ? ev->child : NULL; e; e = e->next)
		fprintf(f, "  [%9.3f] %-7s %-14s %s\n", json_get_num(e, "t_s", 0), json_get_str(e, "class", "?"),
			json_get_str(e, "test", "?"), json_get_str(e, "line", ""));
}

static const struct opt health_opts[] = {
	{ "json", 'J', OPT_BOOL, 0, "0", 0, 0, NULL, "print the snapshot as JSON", OPT_NOARG },
	OPT_END,
};

static int health_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	int json = *(int *)cfg;
	struct json *s;
	s = health_snapshot();
	if (json)
		json_print(stdout, s, 2);
	else
		health_text(s, stdout);
	json_free(s);
	return EXIT_OK;
}

const struct command health_command = {
	.name = "health",
	.summary = "the hardware's own health now: disks' SMART, ECC, throttling, temperatures",
	.usage = "[-J]",
	.help = "Print what the hardware says of itself: NVMe SMART/health and error logs, ATA SMART\n"
		"attributes and logs, EDAC error counts per DIMM, thermal throttling, machine checks and\n"
		"hwmon temperatures.  assay run reads the same before and after its tests (docs/health.md).",
	.opts = health_opts,
	.cfg_size = sizeof(int),
	.main = health_main,
};
