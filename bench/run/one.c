/* assay ENGINE: one engine run as its own command (assay cpu, assay disk...): its result
 * printed in the formats asked, its exit status as its peer tool's when the engine says
 * how. */
#include "engine/engine.h"

#include "clock.h"
#include "json.h"
#include "machine/sysinfo.h"
#include "msg.h"
#include "report/report.h"
#include "result/result.h"

#include <stdio.h>
#include <stdlib.h>

/* --output-format=openmetrics: the result as a one-test run's document (the machine, the
 * test, its summary figures), printed as assay export prints a run's */
static void engine_openmetrics(const struct engine *e, const struct json *out, int rc, FILE *f)
{
	struct json *doc = json_obj(), *t;
	char name[64], when[32];
	utc_now(when, sizeof when);     /* the run label: when and which machine */
	json_add_str(doc, "started_utc", when);
	/* named as the suite names its tests (cpu.1t, cpu.all): one thread, or more */
	snprintf(name, sizeof name, "%s.%s", e->cmd.name, json_get_num(out, "threads", 0) == 1 ? "1t" : "all");
	json_add(doc, "machine", sysinfo_json());
	t = json_push(json_add_arr(doc, "tests"), json_obj());
	json_add_str(t, "name", name);
	json_add_str(t, "engine", e->cmd.name);
	json_add_str(t, "status", rc == EXIT_OK ? "ok" : "failed");
	json_add(t, "result", json_copy(out));
	result_summary(doc);
	report_openmetrics(doc, f);
	json_free(doc);
}

int engine_command(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct engine *e = ENGINE_OF(self);
	struct common_cfg *c = cfg;
	struct json *out;
	unsigned fmts;
	int rc;
	if (engine_prepare(e, cfg, a))
		return e->exit_status ? e->exit_status(NULL, EXIT_USAGE) : EXIT_USAGE;
	out = json_obj();
	rc = e->run(c, out);
	/* fio's order whatever the list's: terse, json, normal; after bad input only the
	 * JSON (the one-line error said it all) */
	fmts = c->formats ? (unsigned)c->formats : FMT_BIT(c->format);
	if ((fmts & FMT_BIT(FORMAT_TERSE)) && rc != EXIT_USAGE)
		e->terse(out, stdout);
	if (fmts & (FMT_BIT(FORMAT_JSON) | FMT_BIT(FORMAT_JSONPLUS)))
		json_print(stdout, out, 2);
	if ((fmts & FMT_BIT(FORMAT_NORMAL)) && rc != EXIT_USAGE)
		e->text(out, stdout);
	if ((fmts & FMT_BIT(FORMAT_OPENMETRICS)) && rc != EXIT_USAGE)
		engine_openmetrics(e, out, rc, stdout);
	fflush(stdout);
	if (e->exit_status)
		rc = e->exit_status(out, rc);
	json_free(out);
	return rc;
}
