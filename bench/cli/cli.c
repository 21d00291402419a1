/* The one parser of every command (command.h): options into the row's config, positional
 * words, the words after "--"; --help, --cmdhelp, --version and docs/options.md from the
 * rows. */
#include "command.h"

#include "msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct command *command_find(const char *name)
{
	for (int i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: assay COMMAND [options]     (assay COMMAND --help for its options)\n\n"
		   "commands:\n");
	for (int i = 0; commands[i]; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n  --version  print the version\n  --help     this text\n");
}

static int usage_status(const struct command *c)
{
	return c->usage_status ? c->usage_status : EXIT_USAGE;
}

/* --help, -h, or fio's --cmdhelp[=NAME] (one dash or two) among a command's words before
 * a "--": answered here; -1 when there is none */
static int command_help(const struct command *c, int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		const char *w = argv[i], *a = w + (!strncmp(w, "--", 2) ? 2 : w[0] == '-' ? 1 : 0);
		if (a != w && !strncmp(a, "cmdhelp=", 8) && strcmp(a + 8, "all")) {
			if (!c->opts || opt_help_one(c->opts, a + 8, stdout)) {
				errmsg("--cmdhelp=%s: no such option of 'assay %s' (--help lists them)", a + 8, c->name);
				return usage_status(c);
			}
			return EXIT_OK;
		}
		if (strcmp(w, "--help") && strcmp(w, "-h") && (a == w || (strcmp(a, "cmdhelp") && strcmp(a, "cmdhelp=all"))))
			continue;
		printf("usage: assay %s %s\n%s\n", c->name, c->usage, c->help ? c->help : c->summary);
		if (c->opts) {
			printf("\noptions:\n");
			opt_help(c->opts, stdout);
		}
		return EXIT_OK;
	}
	return -1;
}

void *cli_parse(const struct command *c, int argc, char **argv, struct cmd_args *a)
{
	int nopt = argc;
	void *cfg = calloc(1, c->cfg_size ? c->cfg_size : 1);
	const char *prefix = opt_prefix;
	int r = 0;
	if (!cfg)
		die(EXIT_SYS, "out of memory");
	memset(a, 0, sizeof *a);
	a->ctx = (struct opt_ctx){ 1024, a->iec_seen, sizeof a->iec_seen };
	a->argc = argc;
	a->argv = argv;
	if (c->flags & CMD_REST) {
		for (nopt = 0; nopt < argc && strcmp(argv[nopt], "--"); nopt++)
			;
		a->rest = argv + (nopt < argc ? nopt + 1 : argc);
		a->nrest = nopt < argc ? argc - nopt - 1 : 0;
	}
	if (!(c->flags & CMD_NOPREFIX))
		opt_prefix = c->name;   /* its option errors say whose they are */
	if (c->opts) {
		opt_defaults(c->opts, cfg);
		r = opt_parse_ctx(c->opts, cfg, nopt, argv, a->pos, &a->npos,
				  c->pos_max < CMD_MAX_POS ? c->pos_max : CMD_MAX_POS, a->given, &a->ctx);
	} else {
		static const struct opt none[] = { OPT_END };
		r = opt_parse_given(none, cfg, nopt, argv, a->pos, &a->npos,
				    c->pos_max < CMD_MAX_POS ? c->pos_max : CMD_MAX_POS, a->given);
	}
	opt_prefix = prefix;
	if (!r && a->npos < c->pos_min) {
		if (c->missing)
			errmsg("%s: %s", c->name, c->missing);
		else
			errmsg("%s: missing argument (usage: assay %s %s)", c->name, c->name, c->usage);
		r = -1;
	}
	if (r) {
		free(cfg);
		return NULL;
	}
	return cfg;
}

/* docs/options.md: every command's options, from their tables */
static void options_markdown(FILE *f)
{
	fprintf(f, "# Options of every assay command\n\n"
		   "Generated from the option tables by `assay --options-markdown` (`make docs`); a test\n"
		   "fails when this file is stale.  Every option is also `--cmdhelp=NAME`; `assay run`'s\n"
		   "are also kernel command line keys, `assay.NAME=VALUE`.\n");
	for (int i = 0; commands[i]; i++) {
		const struct command *c = commands[i];
		fprintf(f, "\n## assay %s\n\n`assay %s %s`\n\n%s\n", c->name, c->name, c->usage,
			c->help ? c->help : c->summary);
		if (c->opts)
			opt_markdown(c->opts, f);
	}
}

int cli_main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	const struct command *c;
	struct cmd_args a;
	void *cfg;
	int r;
	if (!name || !strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return name ? EXIT_OK : EXIT_USAGE;
	}
	if (!strcmp(name, "--options-markdown")) {
		options_markdown(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("assay %s\n", ASSAY_VERSION);
		return EXIT_OK;
	}
	if (!(c = command_find(name))) {
		errmsg("%s: unknown command (see assay --help)", name);
		return EXIT_USAGE;
	}
	if ((r = command_help(c, argc - 2, argv + 2)) >= 0)
		return r;
	if (!(cfg = cli_parse(c, argc - 2, argv + 2, &a)))
		return usage_status(c);
	r = c->main(c, cfg, &a);
	free(cfg);
	return r;
}
