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
/* value in `from` units times mult = value in `to` units; -1 when they don't convert */
int unit_convert(const char *from, const char *to, double *mult);
int unit_lower_is_better(const char *unit);
/* could a result hold a figure of this name? */
int figure_name_known(const char *name);
void doc_label(const char *path, char *out, size_t n);
/* the last result block in a console log (modified in place): 0 ok, 1 none, 2 damaged or
 * truncated, with the reason in why */
int extract_doc(char *buf, size_t len, struct json **doc, char *why, size_t wn);

#endif
