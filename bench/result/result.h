/* The result document's model (docs/results.md): its figure rows {name, value, unit,
 * better} that engines, health and the burn-in write into doc.summary, their units and
 * directions, their names and headings, and the summary made from a run's tests.  Below
 * the engines and the commands that read results (report/): it sees engines only as the
 * registry's data (engine.h). */
#ifndef ASSAY_RESULT_H
#define ASSAY_RESULT_H

#include <stddef.h>

struct json;
struct engine;

#define RESULT_SCHEMA_VERSION 1
/* the lines a result document's block is printed between on a console */
#define RESULT_BEGIN "-----BEGIN ASSAY RESULT-----"
#define RESULT_END   "-----END ASSAY RESULT-----"

/* which way a figure is better (declared with it: the summary row's "better") */
enum better { HIGHER_BETTER, LOWER_BETTER };

/* ---- figure rows (figure.c) ---- */
/* One row of doc.summary: {name, value, unit, better} added to sum */
struct json *figure_add(struct json *sum, const char *name, double value, const char *unit, enum better b);
/* a row's 95% confidence interval over repeats ("ci95_low", "ci95_high"), from a stats
 * object's (stats_json) times scale */
void figure_ci(struct json *row, const struct json *stats, double scale);
/* which way a summary row is better: its "better", or for documents before it, by its
 * unit and name (time, %, errors, lost, retransmits: lower) */
enum better figure_better(const struct json *row);
/* the summary row {name, value, unit} of a figure, or NULL */
const struct json *figure_find(const struct json *doc, const char *name);
/* a figure's value, unit and direction: a summary row, or what the machine is
 * (machine.cpus, .memory_bytes, .disks, .nics, .disk.NAME.size_bytes, .nic.NAME.speed_mbps);
 * 0, or -1 when the document has no such figure */
int figure_value(const struct json *doc, const char *name, double *v, const char **unit, enum better *b);
/* a figure's value as people read it: whole numbers as integers with thousands apart
 * (14,710), else three significant digits, never an exponent (0.00123) */
void figure_num(char *b, size_t n, double v);
/* a unit rules and conversions know; every one, space separated */
int unit_known(const char *unit);
void units_list(char *out, size_t n);
/* value in `from` units times mult = value in `to` units; -1 when they don't convert */
int unit_convert(const char *from, const char *to, double *mult);
int unit_lower_is_better(const char *unit);

/* ---- the summary (summary.c) ---- */
/* Adds doc.summary: every ok test's engine figures, the run's own (steal, CPU scaling) and
 * the document's (the registry's doc_figures: health, burn-in). */
void result_summary(struct json *doc);

/* ---- headings and headlines (headline.c) ---- */
/* the engine a summary figure's name belongs to (NULL: the run's own, steal.*) */
const struct engine *figure_engine(const char *name);
/* the heading a figure goes under: its engine's title, or the run's (Steal, Health...) */
const char *figure_family(const char *name);
/* the k-th heading of a table: the engines' in the registry's order, then the run's;
 * NULL past the last */
const char *figure_heading(int k);
/* is it one of the ~20 figures a person compares (compare's view, the final screen)?  its
 * rank from 1, or 0 */
int figure_headline(const char *name, const struct json *doc);
/* the few words the final screen shows a headline figure under, by its rank */
const char *figure_headline_label(int rank);
/* a CPU model in a few words: "AMD EPYC 7B13 64-Core Processor" -> "EPYC 7B13" */
void short_cpu(const char *model, char *out, size_t n);
/* "kvm EPYC 7B13 2c 3.8G": the hypervisor, CPU, vCPUs and memory of a run */
void machine_label(const struct json *doc, char *out, size_t n);

/* ---- noise (noise.c): how much a figure moves between runs of the same machine ---- */
struct noise {
	double sigma;       /* the standard deviation of its log (0.05: about 5%) */
	double df;          /* how well that is known: degrees of freedom (INFINITY: a default) */
	int n;              /* the samples its level is made of */
	int runs;           /* how many runs (boots) they are */
	const char *from;   /* "runs" (a baseline's), "repeats" (a run's), "default" (its kind's) */
	double measured;    /* its samples' own spread (NAN: fewer than two) */
};
/* a kind's default noise, by the figure's name and unit (0: a count, not a measure) */
double noise_default(const char *name, const char *unit);
/* a summary row's samples ("samples", else its value): how many, into v (at most max) */
int figure_samples(const struct json *row, double *v, int max);
/* its level: the geometric mean of its samples (its value when it has one) */
double figure_level(const struct json *row);
/* its noise: its samples' spread (two or more), never below its kind's floor (noise_pct > 0
 * in its place: compare's and certify's --noise) */
void figure_noise(const struct json *row, double noise_pct, struct noise *out);
/* a's level against b's, in their noise: the log of the ratio, its standard error, Student's
 * t on it and the chance of a t this far above 0 by noise alone (p_above) */
struct diff {
	double log_ratio, sigma, se, df, t, p_above;
	const char *from;   /* what the noise came from: runs, repeats or default */
	double measured;    /* a baseline's runs' own spread, when the floor is above it (else NAN) */
};
void noise_diff(const struct json *a, const struct json *b, double noise_pct, struct diff *d);

/* ---- names (names.c) ---- */
/* could a result hold a figure of this name (an engine's pattern, the run's, or one
 * doc holds; doc may be NULL)? */
int figure_name_known(const char *name, const struct json *doc);
/* the (up to three) names nearest to name, comma separated, into out */
void figure_nearest(const char *name, const struct json *doc, char *out, size_t n);
/* does name match pattern (a word, '*' any one word, '{a,b}', '[t]': names.c)? */
int figure_pattern_match(const char *pattern, const char *name);

#endif
