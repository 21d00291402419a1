/* Where a run's results go besides the console: the files where --results says (the ASSAY
 * partition, a directory, kexec's inbox), the shell's copy, the pushes, node_exporter's
 * textfile (run_int.h). */
#include "run_int.h"

#include "bootopts.h"
#include "json.h"
#include "msg.h"
#include "report/inbox.h"
#include "report/report.h"
#include "report/results.h"

#include <stdlib.h>
#include <string.h>

/* --results: the .json and .txt written (the ASSAY partition, or a directory); where,
 * or the error, into doc.results */
static void store_results(const struct run_cfg *c, struct json *doc, const char *txt, size_t len)
{
	struct json *res = json_obj();
	char where[600], err[600];
	int r = !strcmp(c->results, "auto")
		? results_store(doc, txt, len, where, sizeof where, err, sizeof err)
		: !strncmp(c->results, "inbox:", 6)
		? inbox_store(c->results, doc, txt, len, where, sizeof where, err, sizeof err)
		: results_write_dir(c->results, doc, txt, len, where, sizeof where, err, sizeof err);
	if (r) {
		warn("results not written: %s", err);
		json_add_str(res, "error", err);
	} else {
		info("results written to %s", where);
		json_add_str(res, "written", where);
	}
	json_add(doc, "results", res);
}

void run_store_interim(const struct run_cfg *c, const struct json *doc, const struct json *tests)
{
	struct json *d = json_copy(doc);
	json_free(json_detach(d, "tests"));
	json_add(d, "tests", json_copy(tests));
	json_add_str(d, "status", "running");
	result_summary(d);
	store_results(c, d, "", 0);
	json_free(d);
}

void run_deliver(const struct run_cfg *c, struct json *doc, const char *txt, size_t len)
{
	if (strcmp(c->results, "none"))
		store_results(c, doc, txt, len);
	if (c->after == AFTER_SHELL && getenv("ASSAY_IMAGE")) {
		/* the shell's user finds the files where the screen says */
		char where[600], err[600];
		if (results_write_dir(SHELL_RESULTS, doc, txt, len, where, sizeof where, err, sizeof err))
			warn("results not written to " SHELL_RESULTS ": %s", err);
		else if (!json_get(doc, "results"))
			json_add_str(json_add_obj(doc, "results"), "written", where);
	}
	if (c->push)
		report_push(c->push, &(struct push_opts){ c->push_ca, c->push_pin, c->push_insecure, c->push_timeout },
			    doc);
	if (c->textfile) {
		char err[600];
		if (export_textfile(c->textfile, doc, err, sizeof err))
			warn("%s", err);
	}
}
