/* Baselines made of several runs (baseline.c), for certify's gate. */
#ifndef ASSAY_BASELINE_H
#define ASSAY_BASELINE_H

#include <stddef.h>

struct json;

/* the runs (result documents) made one baseline: each figure the median of theirs, its
 * samples theirs (sample_kind "runs"); one run: a copy of it */
struct json *baseline_merge(struct json *const *docs, int n, char *const *paths);
/* the same from files (JSON results or console logs); NULL with "PATH: why" */
struct json *baseline_load(char *const *paths, int n, char *err, size_t en);

#endif
