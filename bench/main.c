/* assay: the benchmark engine and CLI.  One static binary, in the image and on hosts. */
#include "commands.h"
#include "engine.h"
#include "msg.h"


#include <signal.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: assay COMMAND [options]     (assay COMMAND --help for its options)\n\n"
		   "commands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	for (int i = 0; engines[i]; i++)
		fprintf(f, "  %-10s %s\n", engines[i]->name, engines[i]->summary);
	fprintf(f, "\n  --version  print the version\n  --help     this text\n");
}

/* --help, -h or fio's --cmdhelp[=NAME] among a command's words (before a "--"): answered
 * here; -1 when there is none */
static int command_help(const struct command *c, int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		if (!strncmp(a, "--cmdhelp=", 10) && strcmp(a + 10, "all")) {
			if (!c->opts || opt_help_one(c->opts, a + 10, stdout)) {
				errmsg("--cmdhelp=%s: no such option of 'assay %s' (--help lists them)", a + 10, c->name);
				return EXIT_USAGE;
			}
			return EXIT_OK;
		}
		if (strcmp(a, "--help") && strcmp(a, "-h") && strcmp(a, "--cmdhelp") && strcmp(a, "--cmdhelp=all"))
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

/* docs/options.md: every command's and engine's options, from their tables */
static void options_markdown(FILE *f)
{
	fprintf(f, "# Options of every assay command\n\n"
		   "Generated from the option tables by `assay --options-markdown` (`make docs`); a test\n"
		   "fails when this file is stale.  Every option is also `--cmdhelp=NAME`; `assay run`'s\n"
		   "are also kernel command line keys, `assay.NAME=VALUE`.\n");
	for (const struct command *c = commands; c->name; c++) {
		fprintf(f, "\n## assay %s\n\n`assay %s %s`\n\n%s\n", c->name, c->name, c->usage,
			c->help ? c->help : c->summary);
		if (c->opts)
			opt_markdown(c->opts, f);
	}
	for (int i = 0; engines[i]; i++) {
		const struct engine *e = engines[i];
		fprintf(f, "\n## assay %s\n\n`assay %s %s`\n\n%s\n", e->name, e->name, e->usage, e->summary);
		opt_markdown(e->opts, f);
	}
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	const struct engine *e;

	signal(SIGPIPE, SIG_IGN);
	if (!cmd || !strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return cmd ? EXIT_OK : EXIT_USAGE;
	}
	if (!strcmp(cmd, "--options-markdown")) {
		options_markdown(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("assay %s\n", ASSAY_VERSION);
		return EXIT_OK;
	}
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, cmd)) {
			int r = command_help(c, argc - 2, argv + 2);
			opt_prefix = c->name;   /* its option errors say whose they are */
			return r >= 0 ? r : c->fn(argc - 2, argv + 2);
		}
	e = engine_find(cmd);
	if (e)
		return engine_main(e, argc - 2, argv + 2);
	errmsg("%s: unknown command (see assay --help)", cmd);
	return EXIT_USAGE;
}
