#include "report.h"
#include "base64.h"
#include "gzip.h"
#include "crc32.h"
#include "engine/engine.h"

#include "json.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

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
	for (int k = 0; figure_heading(k); k++)
		for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
			const char *name = json_get_str(r, "name", "?"), *fam = figure_family(name);
			double v = json_get_num(r, "value", 0);
			if (strcmp(fam, figure_heading(k)))
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
		fprintf(f, "%s\nbytes=%zu crc32=%08x\n", RESULT_BEGIN, len, crc32_update(0, s, len));
		fwrite(s, 1, len, f);
	} else {
		fprintf(f, "%s\nformat=gzip+base64 bytes=%zu crc32=%08x gzip=%zu\n", RESULT_BEGIN, len,
			crc32_update(0, s, len), zn);
		base64_write(f, z, zn, 76);
	}
	fprintf(f, "%s\n", RESULT_END);
	free(z);
	free(s);
}
