/* Result documents read back: compare and certify. */
#ifndef ASSAY_FIGURES_H
#define ASSAY_FIGURES_H

#include <stddef.h>

struct json;

/* A result document from a JSON file or a console log (the block is extracted).
 * NULL with "PATH: reason" in err. */
struct json *doc_load(const char *path, char *err, size_t n);
/* the summary row {name, value, unit} of a figure, or NULL */
const struct json *figure_find(const struct json *doc, const char *name);
/* a figure's value, unit and direction: a summary row, or what the machine is
 * (machine.cpus, .memory_bytes, .disks, .nics, .disk.NAME.size_bytes, .nic.NAME.speed_mbps);
 * 0, or -1 when the document has no such figure */
enum better;
int figure_value(const struct json *doc, const char *name, double *v, const char **unit, enum better *b);
/* is it one of the ~20 figures a person compares (compare's view, the final screen)?  its
 * rank from 1, or 0 */
int figure_headline(const char *name, const struct json *doc);
/* the few words the final screen shows a headline figure under, by its rank */
const char *figure_headline_label(int rank);
/* "kvm EPYC 7B13 2c 3.8G": the hypervisor, CPU, vCPUs and memory of a run */
void machine_label(const struct json *doc, char *out, size_t n);
/* a unit rules and conversions know; every one, space separated */
int unit_known(const char *unit);
void units_list(char *out, size_t n);
/* value in `from` units times mult = value in `to` units; -1 when they don't convert */
int unit_convert(const char *from, const char *to, double *mult);
int unit_lower_is_better(const char *unit);
/* could a result hold a figure of this name (an engine's pattern, the run's, or one
 * doc holds; doc may be NULL)? */
int figure_name_known(const char *name, const struct json *doc);
/* the (up to three) names nearest to name, comma separated, into out */
void figure_nearest(const char *name, const struct json *doc, char *out, size_t n);
/* does name match pattern (report/names.c)? */
int figure_pattern_match(const char *pattern, const char *name);
void doc_label(const char *path, char *out, size_t n);
/* the last result block in a console log (modified in place): 0 ok, 1 none, 2 damaged or
 * truncated, with the reason in why */
int extract_doc(char *buf, size_t len, struct json **doc, char *why, size_t wn);

#endif
