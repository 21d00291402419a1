/* Threshold rules over a result's figures. */
#ifndef ASSAY_CERTIFY_H
#define ASSAY_CERTIFY_H

#include <stddef.h>
#include <stdio.h>

struct json;

/* the text of a built-in profile, or NULL */
const char *certify_builtin(const char *name);
/* Evaluate profile's rules (its text given, or NULL: the built-in or file read) against doc,
 * and against base (NULL: none) its regression rules and, with max_regression >= 0, every
 * headline figure (the gate: gate.c; noise_pct > 0 the noise floor): fills out {profile,
 * rules[], verdict, failed, inconclusive, rules_total}, prints a line a rule to f (if
 * non-NULL).  0 all pass, 1 some fail, 2 inconclusive, -1 bad profile (reason in err,
 * naming the line). */
int certify_text(const char *profile, const char *text, const struct json *doc, const struct json *base,
		 double max_regression, double noise_pct, struct json *out, FILE *f, char *err, size_t n);
/* a profile's rules text (built in, or a file; file:PATH too); NULL with err */
char *certify_rules_text(const char *profile, char *err, size_t n);
/* the rules parse (figure names, operators, units): 0, or -1 with "PROFILE:LINE: why" */
int certify_check(const char *profile, const char *text, char *err, size_t n);
/* the engines the rules' figures come from (memtest, cpu...), a comma list into out: a run
 * plans them whatever its suite */
void certify_engines(const char *text, char *out, size_t n);
/* the disk profiles the rules' figures come from, a comma list into out */
void certify_disk_profiles(const char *text, char *out, size_t n);
/* certify_text with the profile's text read */
int certify_eval(const char *profile, const struct json *doc, const struct json *base, double max_regression,
		 double noise_pct, struct json *out, FILE *f, char *err, size_t n);

#endif
