/* The commands of the assay CLI besides the engines (engines.c): each takes the words
 * after its name and returns the exit code.  --help and --cmdhelp are answered from
 * the registry (commands.c) before a command runs. */
#ifndef ASSAY_COMMANDS_H
#define ASSAY_COMMANDS_H

#include "opt.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;     /* one line for assay --help */
	const char *usage;       /* synopsis after the name */
	const struct opt *opts;  /* its options (NULL: positional words only) */
	const char *help;        /* more text for --help (NULL: none) */
};

extern const struct command commands[];   /* ends with { NULL } */
const struct command *command_find(const char *name);

int cmd_run(int argc, char **argv);
int cmd_certify(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_mkresults(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_kexec(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_bootonce(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_health(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* the OpenMetrics text of doc written to PATH.prom atomically; 0, or -1 with the reason */
struct json;
int export_textfile(const char *path, const struct json *doc, char *err, size_t n);

extern const struct opt run_opts[], compare_opts[], certify_opts[], kexec_opts[], serve_opts[], bootonce_opts[],
	health_opts[], export_opts[], report_opts[];

#endif
