#include "engine.h"
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
				return EXIT_USAGE;
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
		return EXIT_USAGE;
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
	fflush(stdout);
	json_free(out);
	free(c);
	return rc;
}
