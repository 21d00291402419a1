/* assay mkresults FILE [SIZE] and assay fetch FILE DIR: make and read results disk
 * images on a host, without root, with dosfstools' mkfs.fat and mtools. */
#include "cli/command.h"
#include "certify.h"
#include "fileio.h"
#include "msg.h"
#include "opt.h"
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int mkresults_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	char *const *argv = a->pos;
	int argc = a->npos;
	unsigned long long size = 32ull << 20;
	char kb[32], img[4096];
	struct stat st;
	if (argc == 2 && (parse_size(argv[1], &size) || size < (1 << 20) || size > (64ull << 30))) {
		errmsg("mkresults: SIZE=%s: accepted: 1m to 64g", argv[1]);
		return EXIT_USAGE;
	}
	if (!stat(argv[0], &st)) {
		errmsg("mkresults: %s exists: not overwriting it", argv[0]);
		return EXIT_USAGE;
	}
	snprintf(kb, sizeof kb, "%llu", size / 1024);
	{
		char *mk[] = { "mkfs.fat", "-C", "-n", RESULTS_LABEL, argv[0], kb, NULL };
		int r = run_wait(mk, 1);
		if (r) {
			errmsg("mkresults: mkfs.fat failed (%s): install dosfstools",
			     r == 127 ? "not found" : "exit status");
			unlink(argv[0]);
			return EXIT_SYS;
		}
	}
	snprintf(img, sizeof img, "%s", argv[0]);
	{
		char *md[] = { "mmd", "-i", img, "::assay", NULL };
		if (run_wait(md, 1)) {
			errmsg("mkresults: mmd failed: install mtools");
			return EXIT_SYS;
		}
	}
	printf("%s: %llu bytes, FAT labelled %s\n", argv[0], size, RESULTS_LABEL);
	return EXIT_OK;
}

static int fetch_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	char *const *argv = a->pos;
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		errmsg("fetch: %s:", argv[1]);
		return EXIT_USAGE;
	}
	{
		char *cp[] = { "mcopy", "-n", "-s", "-i", argv[0], "::assay/*", argv[1], NULL };
		int r = run_wait(cp, 0);
		if (r) {
			errmsg("fetch: mcopy from %s failed%s", argv[0], r == 127 ? " (install mtools)" : "");
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

const struct command mkresults_command = {
	.name = "mkresults",
	.summary = "make a results disk image (FAT, label ASSAY)",
	.usage = "FILE [SIZE]",
	.help = "Create a results disk image: FAT labelled " RESULTS_LABEL " with an assay/ directory (default 32m;\n"
		"needs mkfs.fat and mtools, not root).",
	.pos_min = 1,
	.pos_max = 2,
	.main = mkresults_main,
};

const struct command fetch_command = {
	.name = "fetch",
	.summary = "copy the results from a results disk image",
	.usage = "FILE DIR",
	.help = "Copy the results (assay/*) from a results disk image into DIR (mtools' mcopy, no root).",
	.pos_min = 2,
	.pos_max = 2,
	.main = fetch_main,
};
