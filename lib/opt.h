/* Options are data: one table drives the CLI flags (--name=value), the kernel command
 * line (assay.name=value), profile files and --help.  (After fio's struct fio_option.) */
#ifndef ASSAY_OPT_H
#define ASSAY_OPT_H

#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_BOOL,   /* int 0/1: "--x" alone means 1; 1/0 yes/no true/false on/off */
	OPT_INT,    /* long long in [min,max]; choices may name words: "all=0,auto=-1" */
	OPT_SIZE,   /* unsigned long long bytes: 4k 1m 1g 1t (1024-based, as fio) */
	OPT_SIZES,  /* unsigned long long[3]: one size for all, or reads,writes[,trims] (fio's
	             * bs=4k,64k); an empty side keeps what it was */
	OPT_TIME,   /* double seconds: 10 10s 500ms 250us 2m 1h */
	OPT_FLOAT,  /* double in [min,max] */
	OPT_ENUM,   /* int: index into choices "a|b|c" */
	OPT_STR,    /* const char * (not copied: points into argv or the parsed text) */
	OPT_ALIAS,  /* no storage: choices holds "name=value" it stands for, or "name": another
	             * name of that option, taking its values (and marking it given) */
	OPT_CB,     /* a value of its own form, read once by the row's cb into the typed field at
	             * off (choices: what it accepts, for --help) */
};

#define OPT_HIDDEN 1u   /* not listed in --help */
#define OPT_NOARG  2u   /* OPT_ALIAS/OPT_BOOL that never takes a value */
#define OPT_OPTARG 4u   /* OPT_STR whose value is optional: "--x" alone is "" (never the next word) */
#define OPT_LIST   8u   /* OPT_ENUM taking a comma list of choices: a bitmask (1 << index) */
#define OPT_FIOUNITS 16u /* OPT_SIZE/OPT_SIZES read with fio's units (parse_size_fio) */
#define OPT_ZONES  32u  /* OPT_SIZE also taking fio's N zones, "4z": stored as OPT_ZONE_COUNT | N */
#define OPT_ZONE_COUNT (1ull << 63)
#define OPT_BASE   64u  /* OPT_ENUM of numbers (fio's kb_base, 1024|1000): the base every size of
			 * the parse's words is read under, wherever among them it stands */

/* what a parse reads its words under: fio's kb_base (1024, its default, or 1000: what k, m,
 * g are powers of; with an i, KiB, the other base), and where the first size with an i
 * read under 1024 is kept ("4KiB", for a warning; NULL: nowhere) */
struct opt_ctx {
	int kb_base;           /* 0: 1024 */
	char *iec_seen;
	size_t iec_n;
};

struct opt {
	const char *name;
	char alias;             /* short letter, or 0 */
	enum opt_type type;
	size_t off;             /* offsetof() into the config struct */
	const char *def;        /* default, as text as a user would write it (NULL: zero) */
	double min, max;        /* range for numbers, used when max > min */
	const char *choices;    /* see enum opt_type */
	const char *help;
	unsigned flags;
	/* OPT_CB: read val into the field; 0, or -1 with a one-line reason in err
	 * ("NAME=VALUE: why"); with val NULL (and field NULL), what it accepts into err; ctx: the
	 * parse's context (NULL: the defaults') */
	int (*cb)(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n);
};
#define OPT_END { 0 }

enum { OPT_OK = 0, OPT_EUNKNOWN = -1, OPT_EVALUE = -2 };

const struct opt *opt_find(const struct opt *tab, const char *name);
/* Apply every default of the table. */
void opt_defaults(const struct opt *tab, void *cfg);
/* Set one option from text.  On error returns OPT_EUNKNOWN or OPT_EVALUE and writes a
 * one-line reason naming what is accepted into err. */
int opt_set(const struct opt *tab, void *cfg, const char *name, const char *val,
	    char *err, size_t errlen);
/* Parse argv (after the subcommand).  --name=value, --name value, -a value, -aVALUE,
 * "--" ends options.  Non-option words go to pos[] (at most maxpos).  On error prints
 * one line naming the argument and returns -1. */
int opt_parse(const struct opt *tab, void *cfg, int argc, char **argv,
	      char **pos, int *npos, int maxpos);
/* what opt_parse's error lines start with ("kexec" gives "kexec: --x: ..."); NULL: nothing */
extern const char *opt_prefix;
/* The same, also marking given[i] for every table entry i the user set (an alias marks
 * the entry it stands for); given has room for OPT_MAX_ENTRIES. */
#define OPT_MAX_ENTRIES 512
int opt_parse_given(const struct opt *tab, void *cfg, int argc, char **argv,
		    char **pos, int *npos, int maxpos, unsigned char *given);
/* The same in a context (NULL: the defaults'): its kb_base set first from an OPT_BASE
 * option among the words, its iec_seen kept */
int opt_parse_ctx(const struct opt *tab, void *cfg, int argc, char **argv, char **pos, int *npos, int maxpos,
		  unsigned char *given, struct opt_ctx *ctx);
/* Was the option NAME given?  (given as filled by opt_parse_given) */
int opt_was_given(const struct opt *tab, const unsigned char *given, const char *name);
/* fio's per-direction values, "R,W[,T]" (",W": reads keep theirs) or one for all: direction
 * d's part of v (a direction past the parts given takes the last one given); -1 when v
 * has more than three */
int opt_dir_part(const char *v, int d, const char **p, size_t *l);
/* Print the table as help text. */
void opt_help(const struct opt *tab, FILE *f);
/* The table as a markdown table (docs/options.md); hidden options named in one line */
void opt_markdown(const struct opt *tab, FILE *f);
/* One option's help line (hidden ones too) and what it accepts; -1 when there is none */
int opt_help_one(const struct opt *tab, const char *name, FILE *f);
/* Describe what an option accepts, e.g. "a size like 4k, 1m (512..64m)". */
void opt_accepts(const struct opt *o, char *buf, size_t n);

/* Kernel command line: every word "PREFIXkey=value" (quotes allowed as the kernel does).
 * Calls fn for each; returns the number of words seen.  The text is modified. */
int opt_cmdline_each(char *text, const char *prefix,
		     void (*fn)(const char *key, const char *val, void *arg), void *arg);

/* Value parsers shared with profile files and other readers; 0 on success. */
/* is word one of the items of the comma-separated list? */
int list_has(const char *list, const char *word);
/* edit distance of a and b (at most 127 characters of each are compared): "did you mean" */
unsigned edits(const char *a, const char *b);

int parse_size(const char *s, unsigned long long *out);
/* fio's units under a context's kb_base (NULL: 1024, fio's default): k, m, g, t, p (with or
 * without b) are powers of kb_base, and with an i (KiB, MiB) the other base -- so by
 * default 4k is 4096 and 4KiB 4000, as fio reads them.  The first size read with an i
 * under 1024 is kept in the context's iec_seen (for a warning). */
int parse_size_fio(const char *s, const struct opt_ctx *ctx, unsigned long long *out);
int parse_time(const char *s, double *out);
/* fio's arithmetic in a value, "(expr)" (fio(1): "an arithmetic expression may be used,
 * provided it is surrounded by parentheses"), read as fio reads an option of that kind:
 * FX_INT a count or bytes (units: k m g t p = powers of 1024, KiB = 1000 ...), FX_SECONDS a
 * seconds option (a bare number is seconds; with a time unit, microseconds truncated to
 * whole seconds), FX_USEC a microseconds one (bare: microseconds; m is minutes in both),
 * FX_FLOAT the decimal value.  parse_int, the size parsers, parse_time and OPT_FLOAT
 * take it.  0, or -1 when s is no such expression (or divides by zero). */
enum { FX_INT, FX_SECONDS, FX_USEC, FX_FLOAT };
int fio_expr(const char *s, int kind, double *out);
int parse_bool(const char *s, int *out);
int parse_int(const char *s, long long *out);

#endif
