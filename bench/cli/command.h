/* One way to be a command (after git's commands[] and parse-options.h, toybox's NEWTOY):
 * every subcommand of assay, engines and the others, is a row with its option table,
 * usage and summary; one parser (cli.c) reads its words into its config, its positional
 * words and the words after "--", and answers --help and --cmdhelp from the row.  The
 * rows are listed in bench/commands.c. */
#ifndef ASSAY_COMMAND_H
#define ASSAY_COMMAND_H

#include "opt.h"

#include <stddef.h>

#define CMD_MAX_POS 64

/* what the parser read besides the options */
struct cmd_args {
	int npos;
	char *pos[CMD_MAX_POS];      /* positional words (before any "--") */
	int nrest;
	char **rest;                 /* CMD_REST: the words after "--" */
	int argc;
	char **argv;                 /* every word after the command's name */
	unsigned char given[OPT_MAX_ENTRIES];   /* the options the user set */
	struct opt_ctx ctx;          /* what the words were read under (fio's kb_base) */
	char iec_seen[64];           /* ctx's: the first size with an i read under 1024 */
};

#define CMD_REST    1u   /* the words after "--" are the command's own (kexec: assay run's) */
#define CMD_NOPREFIX 2u  /* option errors without the command's name (an engine's, as its peer's) */

struct command {
	const char *name;
	const char *summary;     /* one line for assay --help */
	const char *usage;       /* synopsis after the name */
	const char *help;        /* more text for --help (NULL: the summary) */
	const struct opt *opts;  /* its options (NULL: none) */
	size_t cfg_size;         /* the config they fill (0: none) */
	int pos_min, pos_max;    /* how many positional words it takes */
	const char *missing;     /* what to say when there are fewer (NULL: the usage line) */
	unsigned flags;
	/* run it: the config read (NULL without options) and the words; the exit code */
	int (*main)(const struct command *self, void *cfg, const struct cmd_args *a);
	/* its exit status for its own bad input when not EXIT_USAGE (assay disk: fio's 1) */
	int usage_status;
};

/* the registry (bench/commands.c): every command, in assay --help's order */
extern const struct command *const commands[];
const struct command *command_find(const char *name);

/* read argv (the words after the name) for c: a fresh config (free it), or NULL after one
 * line naming the bad word; a is filled.  A config is allocated even for a command without
 * options (its size 0: one byte). */
void *cli_parse(const struct command *c, int argc, char **argv, struct cmd_args *a);
/* the command line: argv[1] names the command; --help, --version, --options-markdown */
int cli_main(int argc, char **argv);

#endif
