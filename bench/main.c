/* assay: the benchmark engine and CLI.  One static binary, in the image and on hosts. */
#include "commands.h"
#include "report/certify.h"
#include "engine.h"
#include "msg.h"


#include <signal.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run a suite of tests and print the results" },
	{ "compare", cmd_compare, "side-by-side table of several results" },
	{ "certify", cmd_certify, "check a result against threshold rules (exit 0: all pass)" },
	{ "extract", cmd_extract, "the result document from a console log" },
	{ "mkresults", cmd_mkresults, "make a results disk image (FAT, label ASSAY)" },
	{ "fetch", cmd_fetch, "copy the results from a results disk image" },
	{ "serve", cmd_serve, "serve iperf3 tests to stock iperf3 clients" },
	{ "kexec", cmd_kexec, "boot the assay image from a running Linux (no kexec-tools)" },
	{ NULL, NULL, NULL },
};

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

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	const struct engine *e;

	signal(SIGPIPE, SIG_IGN);
	if (!cmd || !strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return cmd ? EXIT_OK : EXIT_USAGE;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("assay %s\n", ASSAY_VERSION);
		return EXIT_OK;
	}
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, cmd))
			return c->fn(argc - 2, argv + 2);
	e = engine_find(cmd);
	if (e)
		return engine_main(e, argc - 2, argv + 2);
	errmsg("%s: unknown command (see assay --help)", cmd);
	return EXIT_USAGE;
}
