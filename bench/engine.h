/* Every engine behind one small struct (after fio's struct ioengine_ops, kept to a
 * handful of hooks).  An engine measures and fills a JSON result; only report code
 * prints.  The registry is the explicit array in engines.c. */
#ifndef ASSAY_ENGINE_H
#define ASSAY_ENGINE_H

#include <stddef.h>
#include <stdio.h>

#include "opt.h"

struct json;
struct run_plan;
struct run_cfg;

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

struct engine {
	const char *name;        /* the subcommand */
	const char *summary;     /* one line for assay --help */
	const char *usage;       /* synopsis after the name */
	const struct opt *opts;
	size_t cfg_size;
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
	/* the names its figures can have, as patterns (report/names.c: words, '*' any one word,
	 * '{a,b}' one of them, '[t]' t or nothing), NULL-terminated: certify checks a rule's
	 * figure against them and names the nearest ones for a typo */
	const char *const *(*figure_names)(void);
	/* assay run: add this engine's tests to the plan, as the run's options ask (suite.h) */
	void (*plan)(struct run_plan *p, const struct run_cfg *c);
	/* the command's exit status from its result and run's code, when not that code: the
	 * peer tool's (assay disk: fio's), so scripts written for the peer read it alike; NULL
	 * for assay's own (lib/msg.h) */
	int (*exit_status)(const struct json *res, int rc);
};

extern const struct engine *const engines[];
const struct engine *engine_find(const char *name);

/* Parse argv (words after the subcommand) into a freshly allocated config.  Returns
 * NULL after printing one line when the input is bad. */
void *engine_config(const struct engine *e, int argc, char **argv);
/* The CLI: parse, run, print text or JSON; returns the exit code. */
int engine_main(const struct engine *e, int argc, char **argv);

#endif
