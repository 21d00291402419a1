/* Threshold rules over a result's figures. */
#ifndef ASSAY_CERTIFY_H
#define ASSAY_CERTIFY_H

#include <stddef.h>
#include <stdio.h>

struct json;

/* the text of a built-in profile, or NULL */
const char *certify_builtin(const char *name);
/* Evaluate profile (built-in name or file) against doc: fills out {profile, rules[],
 * verdict, failed, rules_total}, prints PASS/FAIL lines to f (if non-NULL).
 * 0 all pass, 1 some fail, -1 bad profile (reason in err, naming the line). */
int certify_run(const char *profile, const struct json *doc, struct json *out, FILE *f, char *err,
		size_t n);

#endif
