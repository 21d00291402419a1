/* Every engine behind one small struct (after fio's struct ioengine_ops, kept to a
 * handful of hooks).  An engine measures and fills a JSON result; only report code
 * prints.  The registry is the explicit array in bench/commands.c.  What an engine sees
 * of the rest of assay is this header, plan.h and the result model (result/). */
#ifndef ASSAY_ENGINE_H
#define ASSAY_ENGINE_H

#include <stddef.h>
#include <stdio.h>

#include "cli/command.h"
#include "opt.h"

struct json;
struct run_plan;
struct plan_req;

/* The output formats, in --output-format's order: common_cfg.format holds one of these,
 * common_cfg.formats a mask of FMT_BIT(them) (fio's list: normal,json prints both) */
enum { FORMAT_NORMAL, FORMAT_JSON, FORMAT_TERSE, FORMAT_JSONPLUS, FORMAT_OPENMETRICS };
#define FMT_BIT(f) (1u << (f))

/* Options every subcommand takes; the first member of every engine's config. */
struct common_cfg {
	int format;     /* 0 normal, 1 json, 2 terse, 3 json+ (fio's: json with histogram bins);
			 * with a list (formats) the first of json+, json, terse it holds, else 0 */
	int formats;    /* OPTS_COMMON_TERSE: fio's list (normal,json): bit i for format i */
	unsigned char given[OPT_MAX_ENTRIES];  /* which options the user set */
	int argc;                               /* the words they came from */
	char **argv;
	char iec_seen[64];      /* the first size with an i (4KiB) read under kb_base 1024 ("": none) */
};

#define OPTS_COMMON(type) \
	{ "output-format", 0, OPT_ENUM, offsetof(type, common.format), "normal", 0, 0, \
	  "normal|json|openmetrics", "output format (openmetrics: the summary figures as Prometheus " \
	  "text, as assay export prints them)", 0 }, \
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "output-format=json", \
	  "same as --output-format=json", OPT_NOARG }
/* for an engine with a terse hook: fio's terse format too (format 2), and several formats
 * at once (printed as fio does: terse, then json, then normal) */
#define OPTS_COMMON_TERSE(type) \
	{ "output-format", 0, OPT_ENUM, offsetof(type, common.formats), "normal", 0, 0, \
	  "normal|json|terse|json+|openmetrics", "output format, or several (fio's: normal,json prints both; " \
	  "terse: fio's, version 3; json+: json with the latency histograms' buckets; openmetrics: the " \
	  "summary figures as Prometheus text)", OPT_LIST }, \
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "output-format=json", \
	  "same as --output-format=json", OPT_NOARG }, \
	{ "minimal", 0, OPT_ALIAS, 0, NULL, 0, 0, "output-format=terse", \
	  "same as --output-format=terse (fio's)", OPT_NOARG }

/* An engine: a command (its first member: name, options, usage; the registry's row is
 * &engine_X.cmd) that measures and fills a JSON result, and what the rest of assay reads
 * of it as data: how its result reads as text and figures, the names and titles of its
 * figures, the tests it adds to a run's plan. */
struct engine {
	struct command cmd;
	/* after option parsing: positional words and cross-checks; 0 or an exit code
	 * with a one-line reason in err */
	int (*check)(void *cfg, int npos, char **pos, char *err, size_t errlen);
	/* measure; fills out; returns EXIT_OK, EXIT_FAIL (partial results kept and
	 * marked), EXIT_SKIP or EXIT_USAGE */
	int (*run)(void *cfg, struct json *out);
	/* human text of a result */
	void (*text)(const struct json *res, FILE *f);
	/* fio's terse lines of a result (engines with OPTS_COMMON_TERSE) */
	void (*terse)(const struct json *res, FILE *f);
	/* the summary figures of a result of test `test`: {name, value, unit} rows added to
	 * sum, each name "TEST.FIGURE" (cpu.1t.events_per_sec) */
	void (*figures)(const struct json *res, const char *test, struct json *sum);
	/* the heading its figures go under in tables (CPU, Memory, Disk...) */
	const char *title;
	/* the names its figures can have, as patterns (result/names.c: words, '*' any one word,
	 * '{a,b}' one of them, '[t]' t or nothing), NULL-terminated: certify checks a rule's
	 * figure against them and names the nearest ones for a typo */
	const char *const *(*figure_names)(void);
	/* the parts of its tests a figure's name can name and a plan can be asked for (disk:
	 * its profiles, disk.qd1.read.iops is qd1's), NULL-terminated; NULL: none */
	const char *const *(*parts)(void);
	/* assay run: add this engine's tests to the plan, as the request asks (plan.h) */
	void (*plan)(struct run_plan *p, const struct plan_req *r);
	/* the command's exit status from its result and run's code, when not that code: the
	 * peer tool's (assay disk: fio's), so scripts written for the peer read it alike; NULL
	 * for assay's own (lib/msg.h) */
	int (*exit_status)(const struct json *res, int rc);
};

/* an engine's command row: its name, summary, usage, options, config type and exit status
 * for bad input (0: EXIT_USAGE); run by engine_command (run/one.c), option errors as its
 * peer tool's (no prefix) */
#define ENGINE_COMMAND(nm, sum, use, tab, cfgtype, bad_input_status) \
	{ .name = (nm), .summary = (sum), .usage = (use), .opts = (tab), .cfg_size = sizeof(cfgtype), \
	  .pos_min = 0, .pos_max = 16, .flags = CMD_NOPREFIX, .main = engine_command, \
	  .usage_status = (bad_input_status) }
#define ENGINE_OF(c) ((const struct engine *)(c))   /* cmd is an engine's first member */
int engine_command(const struct command *self, void *cfg, const struct cmd_args *a);

/* the engines, in the registry's order (bench/commands.c) */
extern const struct engine *const engines[];
const struct engine *engine_find(const char *name);

/* Figures of a run's whole document, not of one test's result (health before and after,
 * burn-in rounds): rows of the registry beside the engines */
struct doc_figures {
	const char *prefix;           /* their names' first word (health) */
	const char *title;            /* their heading in tables (Health; NULL: Other) */
	const char *const *names;     /* the names they can have, as patterns */
	void (*figures)(const struct json *doc, struct json *sum);
};
extern const struct doc_figures *const doc_figures[];

/* Parse argv (words after the subcommand) into a freshly allocated config, checked by
 * the engine.  Returns NULL after printing one line when the input is bad. */
void *engine_config(const struct engine *e, int argc, char **argv);
/* the same for a config cli_parse read: the output formats settled, the engine's check;
 * 0, or EXIT_USAGE after one line */
int engine_prepare(const struct engine *e, void *cfg, const struct cmd_args *a);

#endif
