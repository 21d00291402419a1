#include "engine.h"
#include "report/report.h"
#include "sysinfo.h"
#include "clock.h"
#include "json.h"
#include "msg.h"

#include <stdlib.h>
#include <string.h>

extern const struct engine engine_cpu;
extern const struct engine engine_disk;
extern const struct engine engine_mem;
extern const struct engine engine_memtest;
extern const struct engine engine_net;
extern const struct engine engine_dns;

const struct engine *const engines[] = {
	&engine_cpu,
	&engine_mem,
	&engine_memtest,
	&engine_disk,
	&engine_net,
	&engine_dns,
	NULL,
};

const struct engine *engine_find(const char *name)
{
	for (int i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

void *engine_config(const struct engine *e, int argc, char **argv)
{
	char *pos[16], err[512];
	int npos = 0, r;
	void *cfg = calloc(1, e->cfg_size);
	struct common_cfg *cc;
	if (!cfg)
		die(EXIT_SYS, "out of memory");
	opt_defaults(e->opts, cfg);
	if (opt_parse_given(e->opts, cfg, argc, argv, pos, &npos, 16,
			    ((struct common_cfg *)cfg)->given)) {
		free(cfg);
		return NULL;
	}
	cc = cfg;
	if (!e->terse && cc->format == 2)    /* OPTS_COMMON's third choice */
		cc->format = FORMAT_OPENMETRICS;
	if (cc->formats)     /* a list: the one format code that asks for one sees */
		cc->format = cc->formats & FMT_BIT(FORMAT_JSONPLUS) ? FORMAT_JSONPLUS
			     : cc->formats & FMT_BIT(FORMAT_JSON) ? FORMAT_JSON
			     : cc->formats & FMT_BIT(FORMAT_TERSE) ? FORMAT_TERSE : FORMAT_NORMAL;
	cc->argc = argc;
	cc->argv = argv;
	if (e->check) {
		r = e->check(cfg, npos, pos, err, sizeof err);
		if (r) {
			errmsg("%s: %s", e->name, err);
			free(cfg);
			return NULL;
		}
	} else if (npos) {
		errmsg("%s: unexpected argument '%s'", e->name, pos[0]);
		free(cfg);
		return NULL;
	}
	return cfg;
}

/* --output-format=openmetrics: the result as a one-test run's document (the machine, the
 * test, its summary figures), printed as assay export prints a run's */
static void engine_openmetrics(const struct engine *e, const struct json *out, int rc, FILE *f)
{
	struct json *doc = json_obj(), *t;
	char name[64], when[32];
	utc_now(when, sizeof when);     /* the run label: when and which machine */
	json_add_str(doc, "started_utc", when);
	/* named as the suite names its tests (cpu.1t, cpu.all): one thread, or more */
	snprintf(name, sizeof name, "%s.%s", e->name, json_get_num(out, "threads", 0) == 1 ? "1t" : "all");
	json_add(doc, "machine", sysinfo_json());
	t = json_push(json_add_arr(doc, "tests"), json_obj());
	json_add_str(t, "name", name);
	json_add_str(t, "engine", e->name);
	json_add_str(t, "status", rc == EXIT_OK ? "ok" : "failed");
	json_add(t, "result", json_copy(out));
	report_summary(doc);
	report_openmetrics(doc, f);
	json_free(doc);
}

static int exit_status(const struct engine *e, const struct json *res, int rc)
{
	return e->exit_status ? e->exit_status(res, rc) : rc;
}

/* assay ENGINE ARGS: the engine's own command (its exit status as its peer tool's, when the
 * engine says how) */
int engine_main(const struct engine *e, int argc, char **argv)
{
	struct common_cfg *c;
	struct json *out;
	unsigned fmts;
	int rc;
	for (int i = 0; i < argc; i++) {
		/* fio's --cmdhelp=NAME (one option, hidden ones too), or alone: all of them */
		const char *a = argv[i] + (!strncmp(argv[i], "--", 2) ? 2 : argv[i][0] == '-' ? 1 : 0);
		if (a != argv[i] && !strncmp(a, "cmdhelp=", 8) && strcmp(a + 8, "all")) {
			if (opt_help_one(e->opts, a + 8, stdout)) {
				errmsg("--cmdhelp=%s: no such option of 'assay %s' (--help lists them)", a + 8, e->name);
				return exit_status(e, NULL, EXIT_USAGE);
			}
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(a, "cmdhelp") ||
		    !strcmp(a, "cmdhelp=all")) {
			printf("usage: assay %s %s\n%s\n\noptions:\n", e->name, e->usage, e->summary);
			opt_help(e->opts, stdout);
			return EXIT_OK;
		}
	}
	c = engine_config(e, argc, argv);
	if (!c)
		return exit_status(e, NULL, EXIT_USAGE);
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
	rc = exit_status(e, out, rc);
	json_free(out);
	free(c);
	return rc;
}
