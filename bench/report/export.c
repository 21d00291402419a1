/* assay export: a result document (a .json or a console log) in another format: OpenMetrics
 * text for Prometheus' tools, or the JSON itself; --textfile writes it for node_exporter's
 * textfile collector (atomically: a scrape never sees half a file); --format=maas the
 * results YAML of a MAAS hardware-testing script. */
#include "cli/command.h"
#include "report.h"
#include "report.h"
#include "results.h"

#include "json.h"
#include "msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct export_cfg {
	int format;
	const char *textfile;
	int list;
};

static const struct opt export_opts[] = {
	{ "format", 0, OPT_ENUM, offsetof(struct export_cfg, format), "openmetrics", 0, 0, "openmetrics|json|maas",
	  "what to print: Prometheus text, the JSON, or MAAS's testing results YAML (docs/fleet.md)", 0 },
	{ "textfile", 0, OPT_STR, offsetof(struct export_cfg, textfile), NULL, 0, 0, "PATH.prom",
	  "also write the OpenMetrics text to PATH (node_exporter's textfile collector), atomically", 0 },
	{ "list-metrics", 0, OPT_BOOL, offsetof(struct export_cfg, list), "0", 0, 0, NULL,
	  "print every metric family (type, labels, meaning) as a markdown table, no RESULT", OPT_NOARG },
	OPT_END,
};

int export_textfile(const char *path, const struct json *doc, char *err, size_t n)
{
	char *buf = NULL, dir[1024];
	size_t len = 0;
	const char *slash = strrchr(path, '/');
	FILE *m = open_memstream(&buf, &len);
	int r;
	if (!m) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (strlen(path) < 6 || strcmp(path + strlen(path) - 5, ".prom")) {
		fclose(m);
		free(buf);
		snprintf(err, n, "--textfile=%s: node_exporter reads only files ending in .prom", path);
		return -1;
	}
	report_openmetrics(doc, m);
	fclose(m);
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (slash == path)
		snprintf(dir, sizeof dir, "/");
	r = results_write_file(dir, slash ? slash + 1 : path, buf, len, err, n);
	free(buf);
	return r;
}

static int export_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct export_cfg c = *(const struct export_cfg *)cfg;
	char *const *pos = a->pos, err[600];
	struct json *doc;
	if (c.list) {
		report_metrics_markdown(stdout);
		return EXIT_OK;
	}
	if (a->npos != 1) {
		errmsg("export: give one result (a .json or a console log)");
		return EXIT_USAGE;
	}
	if (!(doc = doc_load(pos[0], err, sizeof err))) {
		errmsg("export: %s", err);
		return EXIT_USAGE;
	}
	if (!json_get(doc, "summary")) {
		errmsg("export: %s: not an assay run's result (no summary: an engine's -J output?)", pos[0]);
		json_free(doc);
		return EXIT_USAGE;
	}
	if (c.format == 1)
		json_print(stdout, doc, 2);
	else if (c.format == 2)
		report_maas(doc, stdout);
	else
		report_openmetrics(doc, stdout);
	if (c.textfile && export_textfile(c.textfile, doc, err, sizeof err)) {
		errmsg("export: %s", err);
		json_free(doc);
		return EXIT_FAIL;
	}
	json_free(doc);
	return EXIT_OK;
}

const struct command export_command = {
	.name = "export",
	.summary = "a result in OpenMetrics text (Prometheus) or JSON",
	.usage = "[--format openmetrics|json] [--textfile PATH.prom] RESULT",
	.help = "Print a result's figures as OpenMetrics text: a gauge (or counter) per figure in base\n"
		"units, labelled with the machine, the run and what the figure is about (docs/results.md).\n"
		"--textfile also writes it where node_exporter's textfile collector reads.",
	.opts = export_opts,
	.cfg_size = sizeof(struct export_cfg),
	.pos_min = 0,
	.pos_max = 1,
	.main = export_main,
};
