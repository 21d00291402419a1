/* assay certify --profile P RESULT: threshold rules over a result's figures, one per
 * line, "FIGURE OP VALUE[UNIT]" (OP: >= <= > < == !=), '#' comments.  Each rule prints
 * PASS or FAIL with the measured value; exit 0 only when all pass. */
#include "cli/command.h"
#include "certify.h"
#include "report.h"
#include "engine/engine.h"
#include "fileio.h"
#include "json.h"
#include "report.h"
#include "opt.h"
#include "msg.h"
#include "gate.h"
#include "baseline.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct builtin {
	const char *name;
	const char *text;
} builtins[] = {
	{ "vps-tasting",
	  "# Is this VPS worth keeping?  The thresholds of a typical 'migrate if' list.\n"
	  "disk.seq.write.bw        >= 600 MB/s\n"
	  "disk.seq.read.bw         >= 600 MB/s\n"
	  "disk.randrw64.read.bw    >= 150 MB/s\n"
	  "disk.qd1.read.clat.p99   <= 1 ms\n"
	  "cpu.events_per_sec.1t    >= 800\n"
	  "cpu.events_per_sec.all   >= 1500\n"
	  "steal.max                <= 5 %\n" },
	{ "hw-certify",
	  "# New hardware before an OS goes on it: nothing the hardware says of its health got\n"
	  "# worse during the run, no kernel error, and NVMe-class performance.\n"
	  "health.disks.warnings             == 0   # critical warning, SMART failed, spare low\n"
	  "health.disks.new_errors           == 0   # media errors, reallocated/pending sectors\n"
	  "health.disks.self_test_failures   == 0\n"
	  "health.kernel_errors              == 0   # I/O errors, resets, timeouts, oops, hung tasks\n"
	  "health.mce                        == 0   # machine checks\n"
	  "optional health.edac.ce.delta     == 0   # corrected ECC errors (where EDAC counts them)\n"
	  "optional health.edac.ue           == 0\n"
	  "optional health.cpu.throttle_events.delta == 0\n"
	  "memtest.errors                    == 0   # a whole pass of every pattern (planned for this profile)\n"
	  "optional cpu.wrong_results.1t     == 0   # a prime count that differs from a sieve's\n"
	  "optional cpu.wrong_results.all    == 0\n"
	  "optional burnin.failed_tests      == 0   # every round of the burn-in suite\n"

	  "disk.seq.read.bw         >= 1000 MB/s\n"
	  "disk.qd1.read.iops       >= 5000\n"
	  "disk.qd1.read.clat.p99   <= 500 us\n"
	  "disk.qd8.read.iops       >= 30000\n"
	  "cpu.events_per_sec.1t    >= 1000\n"
	  "steal.max                <= 1 %\n" },
	{ "surface",
	  "# A surface scan found no bad sector (run with assay.disk-profile=scan).\n"
	  "disk.scan.errors         == 0\n" },
	{ "ci",
	  "# A CI gate under emulation: the suite ran and measured something.\n"
	  "cpu.events_per_sec.1t    > 0\n"
	  "cpu.events_per_sec.all   > 0\n"
	  "disk.seq.read.bw         > 0 MB/s\n"
	  "disk.qd1.read.iops       > 0\n" },
};

const char *certify_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].text;
	return NULL;
}

/* the profile's text: a built-in name, or a rules file (file:PATH in the image: on the
 * results partition, already mounted by the caller, or any path) */
static char *profile_text(const char *p, char *err, size_t n)
{
	const char *b = certify_builtin(p);
	char *buf;
	if (b)
		return strdup(b);
	if (!strncmp(p, "file:", 5))
		p += 5;
	buf = read_file(p, 1 << 20, NULL);
	if (!buf)
		snprintf(err, n, "--profile=%s: %s; built-in profiles: vps-tasting, hw-certify, surface, ci", p,
			 errno == EFBIG ? "larger than 1 MiB: not a rules file" : strerror(errno));
	return buf;
}

struct rule {
	char figure[160];
	char op[3];
	double value;
	char unit[16];
	int regression;         /* "regression FIGURE <= N%": against --baseline */
	int optional;           /* "optional FIGURE ...": not measured here is not a failure */
	int line;
};

struct rules {
	const char *name;
	struct rule r[256];
	int n;
};

/* one line -> rule; 0 ok, 1 blank, -1 error (the reason in err) */
static int parse_rule(char *line, struct rule *r, const struct json *doc, char *err, size_t n)
{
	char *s = line, *num, *end;
	size_t l;
	line[strcspn(line, "#")] = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 1;
	if (!strncmp(s, "optional", 8) && isspace((unsigned char)s[8])) {
		r->optional = 1;
		for (s += 8; isspace((unsigned char)*s); s++)
			;
	}
	if (!strncmp(s, "regression", 10) && isspace((unsigned char)s[10])) {
		r->regression = 1;
		for (s += 10; isspace((unsigned char)*s); s++)
			;
	}
	l = strcspn(s, " \t<>=!");
	if (!l || l >= sizeof r->figure) {
		snprintf(err, n, "expected 'FIGURE OP VALUE[UNIT]' or 'regression FIGURE <= N%%'");
		return -1;
	}
	snprintf(r->figure, sizeof r->figure, "%.*s", (int)l, s);
	for (s += l; isspace((unsigned char)*s); s++)
		;
	if (!strncmp(s, ">=", 2) || !strncmp(s, "<=", 2) || !strncmp(s, "==", 2) || !strncmp(s, "!=", 2)) {
		snprintf(r->op, sizeof r->op, "%.2s", s);
		s += 2;
	} else if (*s == '>' || *s == '<') {
		snprintf(r->op, sizeof r->op, "%c", *s);
		s++;
	} else {
		snprintf(err, n, "'%s': expected an operator (>= <= > < == !=) after the figure", r->figure);
		return -1;
	}
	for (; isspace((unsigned char)*s); s++)
		;
	num = s;
	r->value = strtod(num, &end);
	if (end == num || !isfinite(r->value)) {
		snprintf(err, n, "'%s %s': expected a number", r->figure, r->op);
		return -1;
	}
	for (s = end; isspace((unsigned char)*s); s++)
		;
	l = strcspn(s, " \t\r\n");
	if (l >= sizeof r->unit) {
		snprintf(err, n, "unit '%.*s' too long", (int)l, s);
		return -1;
	}
	snprintf(r->unit, sizeof r->unit, "%.*s", (int)l, s);
	for (s += l; isspace((unsigned char)*s); s++)
		;
	if (*s) {
		snprintf(err, n, "unexpected '%s' after the value", s);
		return -1;
	}
	if (!figure_name_known(r->figure, doc)) {
		char near[400];
		figure_nearest(r->figure, doc, near, sizeof near);
		snprintf(err, n, "unknown figure '%s'; nearest: %s (the names: docs/results.md)", r->figure, near);
		return -1;
	}
	if (r->unit[0] && !unit_known(r->unit)) {
		char list[600];
		units_list(list, sizeof list);
		snprintf(err, n, "'%s %s %g%s': unit '%s' unknown; accepted: %s", r->figure, r->op, r->value, r->unit,
			 r->unit, list);
		return -1;
	}
	if (r->regression && (strcmp(r->unit, "%") || (strcmp(r->op, "<=") && strcmp(r->op, "<")))) {
		snprintf(err, n, "'regression %s %s %g%s': a regression rule is 'regression FIGURE <= N%%'", r->figure,
			 r->op, r->value, r->unit);
		return -1;
	}
	return 0;
}

/* the rules of a profile (its text: NULL to read it), 0, or -1 with "PROFILE:LINE: why" */
static int rules_load(const char *profile, char *text, struct rules *rs, const struct json *doc, char *err,
		      size_t n)
{
	char *line, *save = NULL;
	int lineno = 0;
	rs->name = profile;
	rs->n = 0;
	if (!text && !(text = profile_text(profile, err, n)))
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char e[900];
		int r;
		lineno++;
		if (rs->n >= 256) {
			snprintf(err, n, "%s: more than 256 rules", profile);
			free(text);
			return -1;
		}
		memset(&rs->r[rs->n], 0, sizeof rs->r[rs->n]);
		r = parse_rule(line, &rs->r[rs->n], doc, e, sizeof e);
		if (r < 0) {
			snprintf(err, n, "%s:%d: %s", profile, lineno, e);
			free(text);
			return -1;
		}
		if (r == 0)
			rs->r[rs->n++].line = lineno;
	}
	free(text);
	if (!rs->n) {
		snprintf(err, n, "%s: no rules", profile);
		return -1;
	}
	return 0;
}

static int holds(double v, const char *op, double t)
{
	if (!strcmp(op, ">="))
		return v >= t;
	if (!strcmp(op, "<="))
		return v <= t;
	if (!strcmp(op, ">"))
		return v > t;
	if (!strcmp(op, "<"))
		return v < t;
	if (!strcmp(op, "=="))
		return v == t;
	return v != t;
}

/* how to get a disk job's figure measured, in the words of where the run was asked: the
 * kernel command line in the image, options on a host */
static void disk_hint(const struct json *doc, const char *job, const char *status, char *out, size_t n)
{
	int image = json_get(doc, "boot") && json_path(doc, "boot.in_image") &&
		    json_path(doc, "boot.in_image")->type == J_BOOL && json_path(doc, "boot.in_image")->b;
	const char *pre = image ? "assay." : "--";
	char prof[64];
	snprintf(prof, sizeof prof, "%.*s", (int)strcspn(job, "."), job);
	if (status && strstr(status, "readonly"))
		snprintf(out, n, "; give %smode=rewrite (writes back the bytes it read) or %smode=destroy", pre, pre);
	else if (!status)
		snprintf(out, n, "; add the profile: %sdisk-profile=...,%s", pre, prof);
	else
		out[0] = 0;
}

/* why a figure is missing: the test it would come from, and for a disk figure its job */
static void missing_why(const struct json *doc, const char *figure, char *out, size_t n)
{
	const struct json *tests = json_get(doc, "tests"), *test = NULL;
	size_t best = 0, l;
	char hint[200] = "";
	snprintf(out, n, "not measured");
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const char *name = json_get_str(t, "name", "");
		l = strlen(name);
		if (l > best && !strncmp(figure, name, l) && (figure[l] == '.' || !figure[l])) {
			best = l;
			test = t;
		}
	}
	if (!test) {
		/* a family the run's --tests left out */
		const char *tl = json_get_str(json_get(doc, "options"), "tests", NULL);
		char fam[32];
		snprintf(fam, sizeof fam, "%.*s", (int)strcspn(figure, "."), figure);
		if (!strcmp(fam, "dns") || !strcmp(fam, "mem") || !strcmp(fam, "cpu") || !strcmp(fam, "disk") ||
		    !strcmp(fam, "net")) {
			if (tl && !list_has(tl, "all") && !list_has(tl, fam))
				snprintf(out, n, "not measured (the run's tests were %s; add %s)", tl, fam);
		}
		return;
	}
	if (!strcmp(json_get_str(test, "engine", ""), "disk") && !strcmp(json_get_str(test, "status", ""), "ok")) {
		/* the job: the longest job name the figure goes on with */
		const struct json *jobs = json_path(test, "result.jobs"), *job = NULL;
		const char *rest = figure + best + (figure[best] == '.');
		size_t jl = 0;
		for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next) {
			const char *jn = json_get_str(j, "jobname", "");
			l = strlen(jn);
			if (l > jl && !strncmp(rest, jn, l) && (rest[l] == '.' || !rest[l]))
				job = j, jl = l;
		}
		disk_hint(doc, rest, job ? json_get_str(job, "assay.skipped", "") : NULL, hint, sizeof hint);
		if (job && json_path(job, "assay.skipped")) {
			const char *why = json_get_str(job, "assay.skipped", "");
			if (strstr(why, "readonly"))   /* the hint says it in the run's own words */
				snprintf(out, n, "not measured (%s: a write job, and the run was read-only)%s",
					 json_get_str(job, "jobname", ""), hint);
			else
				snprintf(out, n, "not measured (%s: skipped: %s)%s", json_get_str(job, "jobname", ""), why,
					 hint);
			return;
		}
		if (!job) {
			snprintf(out, n, "not measured (%s: no such job was run)%s", json_get_str(test, "name", ""), hint);
			return;
		}
	}
	snprintf(out, n, "not measured (%s: %s%s%s)", json_get_str(test, "name", ""), json_get_str(test, "status", "?"),
		 json_get(test, "why") ? ": " : "", json_get_str(test, "why", ""));
}

/* one rule's result; 0 pass, 1 fail, -1 error (a unit that does not convert) */
static int eval_rule(const struct rules *rs, const struct rule *r, const struct json *doc, const struct json *base,
		     double noise_pct, struct json *arr, struct gate *g, FILE *f, char *err, size_t n)
{
	struct json *o = json_push(arr, json_obj());
	char rule_s[256], meas[400];
	double v = NAN, mult = 1, want;
	const char *unit = "";
	enum better b;
	int pass, have = !figure_value(doc, r->figure, &v, &unit, &b);
	const struct json *row = figure_find(doc, r->figure);
	snprintf(rule_s, sizeof rule_s, "%s%s %s %g%s%s", r->regression ? "regression " : "", r->figure, r->op, r->value,
		 r->unit[0] && strcmp(r->unit, "%") ? " " : "", r->unit);
	json_add_str(o, "rule", rule_s);
	if (have && row && json_path(row, "coverage.complete") && !json_path(row, "coverage.complete")->b) {
		/* measured, but not all of what the figure stands for: no verdict on it */
		snprintf(meas, sizeof meas, "NOT MEASURED: %s covered (a whole pass is needed)",
			 json_get_str(json_get(row, "coverage"), "what", "not all"));
		json_add_str(o, "result", "NOT MEASURED");
		json_add_str(o, "why", meas);
		if (f)
			fprintf(f, "FAIL  %-44s %s\n", rule_s, meas);
		return 1;
	}
	if (!have && r->optional) {
		missing_why(doc, r->figure, meas, sizeof meas);
		json_add_str(o, "result", "N/A");
		json_add_str(o, "why", meas);
		if (f)
			fprintf(f, "N/A   %-44s %s: optional\n", rule_s, meas);
		return 0;
	} else if (!have) {
		missing_why(doc, r->figure, meas, sizeof meas);
		pass = 0;
	} else if (r->regression) {
		const struct json *brow = base ? figure_find(base, r->figure) : NULL;
		if (!base) {
			snprintf(err, n, "%s:%d: '%s': needs --baseline OLD.json", rs->name, r->line, rule_s);
			return -1;
		}
		if (!brow || !row || unit_convert(json_get_str(brow, "unit", ""), unit, &mult)) {
			snprintf(meas, sizeof meas, "not in the baseline");
			pass = 0;
			have = 0;
		} else {   /* decided with every other figure of the gate (gate.c) */
			json_free(json_detach(o, "rule"));
			gate_add(g, o, r->figure, row, brow, mult, r->value, noise_pct);
			return 0;
		}
	} else if (unit_convert(r->unit, unit, &mult)) {
		snprintf(err, n, "%s:%d: '%s': the unit '%s' does not convert to the figure's '%s'", rs->name, r->line,
			 rule_s, r->unit, unit);
		return -1;
	} else {
		char num[40];
		want = r->value * mult;
		pass = holds(v, r->op, want);
		figure_num(num, sizeof num, v);
		snprintf(meas, sizeof meas, "measured %s %s", num, unit);
		/* rewrite's writes put back what was read: said, as its figures can differ */
		if (!strncmp(r->figure, "disk.", 5) && strstr(r->figure, ".write.") &&
		    !strcmp(json_get_str(json_get(doc, "options"), "mode", ""), "rewrite"))
			snprintf(meas + strlen(meas), sizeof meas - strlen(meas), " (in rewrite mode)");
	}
	if (have) {
		json_add_num(o, "measured", v);
		json_add_str(o, "unit", unit);
	}
	json_add_str(o, "result", pass ? "PASS" : "FAIL");
	if (!have)
		json_add_str(o, "why", meas);
	/* what the figure concerns (a disk, a DIMM, a kernel line): said when the rule fails */
	if (have && !pass && row && json_get(row, "detail")) {
		json_add_str(o, "detail", json_get_str(row, "detail", ""));
		snprintf(meas + strlen(meas), sizeof meas - strlen(meas), ": %s", json_get_str(row, "detail", ""));
	}
	if (f)
		fprintf(f, "%s  %-44s %s\n", pass ? "PASS" : "FAIL", rule_s, meas);
	return !pass;
}

/* --max-regression: every headline figure of both documents, into the gate at pct */
static void gate_headlines(const struct json *doc, const struct json *base, double pct, double noise_pct,
			   struct json *arr, struct gate *g)
{
	const struct json *sum = json_get(doc, "summary");
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
		const char *name = json_get_str(r, "name", ""), *unit = json_get_str(r, "unit", "");
		const struct json *brow = figure_find(base, name);
		double mult = 1;
		if (!figure_headline(name, doc) || !strncmp(name, "steal.", 6) || !brow ||
		    unit_convert(json_get_str(brow, "unit", ""), unit, &mult) ||
		    !isfinite(gate_worse_pct(figure_level(r), figure_level(brow) * mult, figure_better(r))))
			continue;
		gate_add(g, json_push(arr, json_obj()), name, r, brow, mult, pct, noise_pct);
	}
}

int certify_text(const char *profile, const char *text, const struct json *doc, const struct json *base,
		 double max_regression, double noise_pct, struct json *out, FILE *f, char *err, size_t n)
{
	struct rules *rs = profile ? calloc(1, sizeof *rs) : NULL;
	struct gate *g = calloc(1, sizeof *g);
	struct json *arr;
	int failed = 0, unsure = 0, total;
	const char *verdict;
	if (!g || (profile && (!rs || rules_load(profile, text ? strdup(text) : NULL, rs, doc, err, n)))) {
		if (!rs || !g)
			snprintf(err, n, "out of memory");
		free(rs);
		free(g);
		return -1;
	}
	json_add_str(out, "profile", profile ? profile : "baseline");
	arr = json_add_arr(out, "rules");
	for (int i = 0; rs && i < rs->n; i++) {
		int r = eval_rule(rs, &rs->r[i], doc, base, noise_pct, arr, g, f, err, n);
		if (r < 0) {
			free(rs);
			free(g);
			return -1;
		}
		failed += r;
	}
	if (base && max_regression >= 0)
		gate_headlines(doc, base, max_regression, noise_pct, arr, g);
	gate_decide(g, f, &failed, &unsure);
	total = (int)json_get(out, "rules")->n;
	free(rs);
	free(g);
	verdict = failed ? "FAIL" : unsure ? "INCONCLUSIVE" : "PASS";
	json_add_str(out, "verdict", verdict);
	json_add_int(out, "failed", failed);
	json_add_int(out, "inconclusive", unsure);
	json_add_int(out, "rules_total", total);
	if (f && unsure)
		fprintf(f, "verdict: %s (%d of %d rule%s failed, %d inconclusive)\n", verdict, failed, total,
			total == 1 ? "" : "s", unsure);
	else if (f)
		fprintf(f, "verdict: %s (%d of %d rule%s failed)\n", verdict, failed, total, total == 1 ? "" : "s");
	return failed ? 1 : unsure ? 2 : 0;
}

int certify_eval(const char *profile, const struct json *doc, const struct json *base, double max_regression,
		 double noise_pct, struct json *out, FILE *f, char *err, size_t n)
{
	return certify_text(profile, NULL, doc, base, max_regression, noise_pct, out, f, err, n);
}


void certify_engines(const char *text, char *out, size_t n)
{
	char *copy = strdup(text ? text : ""), *line, *save = NULL;
	size_t l = 0;
	out[0] = 0;
	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char first[32];
		const char *s = line + strspn(line, " \t");
		for (int k = 0; k < 2; k++)   /* past "optional", "regression" */
			if (!strncmp(s, "optional", 8) || !strncmp(s, "regression", 10))
				s += strcspn(s, " \t"), s += strspn(s, " \t");
		if (*s == '#' || strcspn(s, ".") >= sizeof first)
			continue;
		snprintf(first, sizeof first, "%.*s", (int)strcspn(s, "."), s);
		if (engine_find(first) && !list_has(out, first))
			l += (size_t)snprintf(out + l, n > l ? n - l : 0, "%s%s", l ? "," : "", first);
	}
	free(copy);
}

/* is word one of the engine's parts (the registry's data: disk's profiles)? */
static int engine_part(const struct engine *e, const char *word)
{
	const char *const *parts = e && e->parts ? e->parts() : NULL;
	for (int i = 0; parts && parts[i]; i++)
		if (!strcmp(parts[i], word))
			return 1;
	return 0;
}

/* the disk profiles a rules text's figures come from ("seq,randrw64"), into out */
void certify_disk_profiles(const char *text, char *out, size_t n)
{
	char *copy = strdup(text ? text : ""), *line, *save = NULL;
	const struct engine *disk = engine_find("disk");
	size_t l = 0;
	out[0] = 0;
	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char fig[160], prof[64];
		const char *s = line;
		size_t fl;
		s += strspn(s, " \t");
		if (!strncmp(s, "regression", 10))
			s += 10 + strspn(s + 10, " \t");
		fl = strcspn(s, " \t<>=!#");
		if (strncmp(s, "disk.", 5) || fl >= sizeof fig)
			continue;
		snprintf(fig, sizeof fig, "%.*s", (int)fl, s);
		/* disk[.DEV].PROFILE...: the profile is the word a profile of that name begins */
		for (const char *w = fig + 5; *w; w += strcspn(w, ".") + (w[strcspn(w, ".")] != 0)) {
			snprintf(prof, sizeof prof, "%.*s", (int)strcspn(w, "."), w);
			if (engine_part(disk, prof)) {
				if (!list_has(out, prof))
					l += (size_t)snprintf(out + l, n > l ? n - l : 0, "%s%s", l ? "," : "", prof);
				break;
			}
		}
	}
	free(copy);
}

char *certify_rules_text(const char *profile, char *err, size_t n)
{
	return profile_text(profile, err, n);
}

int certify_check(const char *profile, const char *text, char *err, size_t n)
{
	struct rules *rs = calloc(1, sizeof *rs);
	int r = rs ? rules_load(profile, strdup(text), rs, NULL, err, n) : -1;
	if (!rs)
		snprintf(err, n, "out of memory");
	free(rs);
	return r;
}

#define MAX_BASELINES 32

struct certify_cfg {
	int format;
	const char *profile, *show, *max_regression;
	double noise;                     /* the noise floor, percent (0: each kind's) */
	struct { int n; char *path[MAX_BASELINES]; } base;   /* --baseline, once or more */
};

/* --baseline FILE, again for each run of the baseline */
static int opt_baseline(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err,
			size_t n)
{
	struct { int n; char *path[MAX_BASELINES]; } *b = field;
	(void)ctx;
	if (!val) {
		snprintf(err, n, "a result or a baseline file; again for each run");
		return 0;
	}
	if (b->n == MAX_BASELINES) {
		snprintf(err, n, "%s=%s: at most %d baselines (assay baseline merges more)", o->name, val, MAX_BASELINES);
		return -1;
	}
	b->path[b->n++] = (char *)val;
	return 0;
}

/* "10%" or "10" -> 10; -1 when not a percent */
static double parse_pct(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || !isfinite(v) || v < 0 || v > 1000)
		return -1;
	return v;
}

static const struct opt certify_opts[] = {
	{ "profile", 0, OPT_STR, offsetof(struct certify_cfg, profile), NULL, 0, 0,
	  "vps-tasting, hw-certify, surface, ci, or a rules file", "the threshold rules", 0 },
	{ "baseline", 0, OPT_CB, offsetof(struct certify_cfg, base), NULL, 0, 0, "a result, or a baseline file",
	  "what to compare against ('regression FIGURE <= N%' rules, --max-regression): a baseline made by "
	  "assay baseline, or runs, --baseline again for each; a figure regresses only beyond its noise "
	  "between runs (INCONCLUSIVE, exit 3, when it cannot tell)", 0, opt_baseline },
	{ "max-regression", 0, OPT_STR, offsetof(struct certify_cfg, max_regression), NULL, 0, 0, "a percent: 10%",
	  "with --baseline: every headline figure at most this much worse than the baseline's", 0 },
	{ "noise", 0, OPT_FLOAT, offsetof(struct certify_cfg, noise), "0", 0, 100, NULL,
	  "with --baseline: each figure's noise between runs is at least this percent (0: its kind's floor, "
	  "measured on emulated CI; a quieter machine gives its own, as assay baseline prints it)", 0 },
	{ "show", 0, OPT_STR, offsetof(struct certify_cfg, show), NULL, 0, 0, "a built-in profile's name",
	  "print a profile's rules and exit", 0 },
	{ "output-format", 0, OPT_ENUM, offsetof(struct certify_cfg, format), "normal", 0, 0, "normal|json",
	  "output format", 0 },
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "output-format=json", "same as --output-format=json", OPT_NOARG },
	OPT_END,
};

#define MAX_RESULTS 64

static int certify_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct certify_cfg c = *(const struct certify_cfg *)cfg;
	char err[1024], *const *pos = a->pos;
	struct json *base = NULL, *all;
	double maxreg = -1;
	int npos = a->npos, as_json, rc = EXIT_OK;
	as_json = c.format == FORMAT_JSON;
	if (c.show) {
		char *t = profile_text(c.show, err, sizeof err);
		if (!t) {
			errmsg("certify: %s", err);
			return EXIT_USAGE;
		}
		fputs(t, stdout);
		free(t);
		return EXIT_OK;
	}
	if ((!c.profile && !c.base.n) || !npos) {
		errmsg("certify: give --profile NAME|FILE (or --baseline OLD.json) and one or more RESULT files");
		return EXIT_USAGE;
	}
	if (c.max_regression && (!c.base.n || (maxreg = parse_pct(c.max_regression)) < 0)) {
		errmsg("certify: --max-regression=%s: %s", c.max_regression, c.base.n ? "not a percent (10%)"
										      : "give --baseline OLD.json too");
		return EXIT_USAGE;
	}
	if (c.base.n && !c.profile && maxreg < 0)
		maxreg = 10;      /* a baseline alone: fio's kind of gate, 10% */
	if (c.base.n && !(base = baseline_load(c.base.path, c.base.n, err, sizeof err))) {
		errmsg("certify: --baseline: %s", err);
		return EXIT_USAGE;
	}
	all = json_arr();
	for (int i = 0; i < npos && rc != EXIT_USAGE; i++) {
		struct json *doc = doc_load(pos[i], err, sizeof err), *out;
		char *text = NULL;
		size_t tl = 0;
		FILE *mem;
		int r;
		if (!doc) {
			errmsg("certify: %s", err);
			rc = EXIT_USAGE;
			break;
		}
		out = json_push(all, json_obj());
		json_add_str(out, "result", pos[i]);
		mem = npos > 1 ? open_memstream(&text, &tl) : NULL;
		r = certify_eval(c.profile, doc, base, maxreg, c.noise, out, as_json ? NULL : npos > 1 ? mem : stdout, err,
				 sizeof err);
		if (mem)
			fclose(mem);
		if (r < 0) {
			errmsg("certify: %s", err);
			rc = EXIT_USAGE;
		} else {
			if (r == 1 || (r == 2 && rc == EXIT_OK))
				rc = r == 1 ? EXIT_FAIL : EXIT_INCONCLUSIVE;
			if (npos > 1 && !as_json) {
				/* one verdict line each, the rules that failed (or could not tell) under it */
				printf("%s: %s (%lld of %lld rules failed)\n", pos[i], json_get_str(out, "verdict", "?"),
				       (long long)json_get_num(out, "failed", 0), (long long)json_get_num(out, "rules_total", 0));
				for (char *l = text, *e; r && l && *l; l = e ? e + 1 : NULL) {
					e = strchr(l, '\n');
					if (!strncmp(l, "FAIL", 4) || !strncmp(l, "INCONCLUSIVE", 12))
						printf("    %.*s\n", e ? (int)(e - l) : (int)strlen(l), l);
				}
			}
		}
		free(text);
		json_free(doc);
	}
	if (as_json && rc != EXIT_USAGE)
		json_print(stdout, npos > 1 ? all : all->child, 2);
	json_free(all);
	json_free(base);
	return rc;
}

const struct command certify_command = {
	.name = "certify",
	.summary = "check a result against threshold rules or a baseline (exit 0: all pass)",
	.usage = "--profile NAME|FILE | --baseline OLD... [--max-regression N%] [-J] RESULT...",
	.help = "Check a result (JSON or console log) against threshold rules, one per line:\n"
		"  FIGURE OP VALUE[UNIT]     e.g.  disk.seq.write.bw >= 600MB/s\n"
		"or against a baseline (--max-regression, 'regression FIGURE <= N%' rules): a figure fails\n"
		"only when it is worse than the limit and beyond its noise between runs.  Built-in\n"
		"profiles: vps-tasting, hw-certify, surface, ci.  Exit 0 PASS, 1 FAIL, 2 bad input,\n"
		"3 INCONCLUSIVE (worse than a limit, within the noise: more runs or --repeat decide).",
	.opts = certify_opts,
	.cfg_size = sizeof(struct certify_cfg),
	.pos_min = 0,
	.pos_max = MAX_RESULTS,
	.main = certify_main,
};
