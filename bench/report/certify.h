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
/* the same with the rules' text given (read from the results partition) */
int certify_text(const char *profile, const char *text, const struct json *doc, const struct json *base,
		 double max_regression, struct json *out, FILE *f, char *err, size_t n);
/* a profile's rules text (built in, or a file; file:PATH too); NULL with err */
char *certify_rules_text(const char *profile, char *err, size_t n);
/* the rules parse (figure names, operators, units): 0, or -1 with "PROFILE:LINE: why" */
int certify_check(const char *profile, const char *text, char *err, size_t n);
/* the engines the rules' figures come from (memtest, cpu...), a comma list into out: a run
 * plans them whatever its suite */
void certify_engines(const char *text, char *out, size_t n);
/* the disk profiles the rules' figures come from, a comma list into out */
void certify_disk_profiles(const char *text, char *out, size_t n);
/* the same, also against a baseline (NULL: none): its 'regression' rules, and with
 * max_regression >= 0 every headline figure at most that many percent worse */
int certify_eval(const char *profile, const struct json *doc, const struct json *base, double max_regression,
		 struct json *out, FILE *f, char *err, size_t n);

#endif
