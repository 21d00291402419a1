/* The engines' registry looked up, and an engine's command line read into its config
 * (engine.h). */
#include "engine.h"

#include "msg.h"

#include <stdlib.h>
#include <string.h>

const struct engine *engine_find(const char *name)
{
	for (int i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->cmd.name, name))
			return engines[i];
	return NULL;
}

int engine_prepare(const struct engine *e, void *cfg, const struct cmd_args *a)
{
	struct common_cfg *cc = cfg;
	char err[512];
	memcpy(cc->given, a->given, sizeof cc->given);
	memcpy(cc->iec_seen, a->iec_seen, sizeof cc->iec_seen);
	if (!e->terse && cc->format == 2)    /* OPTS_COMMON's third choice */
		cc->format = FORMAT_OPENMETRICS;
	if (cc->formats)     /* a list: the one format code that asks for one sees */
		cc->format = cc->formats & FMT_BIT(FORMAT_JSONPLUS) ? FORMAT_JSONPLUS
			     : cc->formats & FMT_BIT(FORMAT_JSON) ? FORMAT_JSON
			     : cc->formats & FMT_BIT(FORMAT_TERSE) ? FORMAT_TERSE : FORMAT_NORMAL;
	cc->argc = a->argc;
	cc->argv = a->argv;
	if (e->check) {
		if (e->check(cfg, a->npos, (char **)a->pos, err, sizeof err)) {
			errmsg("%s: %s", e->cmd.name, err);
			return EXIT_USAGE;
		}
	} else if (a->npos) {
		errmsg("%s: unexpected argument '%s'", e->cmd.name, a->pos[0]);
		return EXIT_USAGE;
	}
	return 0;
}

void *engine_config(const struct engine *e, int argc, char **argv)
{
	struct cmd_args *a = malloc(sizeof *a);
	void *cfg = a ? cli_parse(&e->cmd, argc, argv, a) : NULL;
	if (cfg && engine_prepare(e, cfg, a)) {
		free(cfg);
		cfg = NULL;
	}
	free(a);
	return cfg;
}
