/* assay certify --profile P RESULT: threshold rules over a result's figures, one per
 * line, "FIGURE OP VALUE[UNIT]" (OP: >= <= > < == !=), '#' comments.  Each rule prints
 * PASS or FAIL with the measured value; exit 0 only when all pass. */
#include "commands.h"
#include "certify.h"
#include "figures.h"
#include "engine.h"
#include "json.h"
#include "opt.h"
#include "msg.h"

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
	  "# New hardware before an OS goes on it: a healthy NVMe-class disk and a sane CPU.\n"
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

/* the profile's text: a built-in name or a file */
static char *profile_text(const char *p, char *err, size_t n)
{
	const char *b = certify_builtin(p);
	FILE *f;
	char *buf;
	size_t len;
	if (b)
		return strdup(b);
	f = fopen(p, "r");
	if (!f) {
		snprintf(err, n, "--profile=%s: %s; built-in profiles: vps-tasting, hw-certify, surface, ci", p,
			 strerror(errno));
		return NULL;
	}
	buf = malloc(1 << 20);
	len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (!buf) {
		snprintf(err, n, "out of memory");
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

struct rule {
	char figure[160];
	char op[3];
	double value;
	char unit[16];
};

/* one line -> rule; 0 ok, 1 blank, -1 error */
static int parse_rule(char *line, struct rule *r, char *err, size_t n)
{
	char *s = line, *num, *end;
	size_t l;
	line[strcspn(line, "#")] = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 1;
	l = strcspn(s, " \t<>=!");
	if (!l || l >= sizeof r->figure) {
		snprintf(err, n, "expected 'FIGURE OP VALUE[UNIT]'");
		return -1;
	}
	snprintf(r->figure, sizeof r->figure, "%.*s", (int)l, s);
	s += l;
	while (isspace((unsigned char)*s))
		s++;
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
	while (isspace((unsigned char)*s))
		s++;
	num = s;
	r->value = strtod(num, &end);
	if (end == num || !isfinite(r->value)) {
		snprintf(err, n, "'%s %s': expected a number", r->figure, r->op);
		return -1;
	}
	s = end;
	while (isspace((unsigned char)*s))
		s++;
	l = strcspn(s, " \t\r\n");
	if (l >= sizeof r->unit) {
		snprintf(err, n, "unit '%.*s' too long", (int)l, s);
		return -1;
	}
	snprintf(r->unit, sizeof r->unit, "%.*s", (int)l, s);
	s += l;
	while (isspace((unsigned char)*s))
		s++;
	if (*s) {
		snprintf(err, n, "unexpected '%s' after the value", s);
		return -1;
	}
	if (!figure_name_known(r->figure)) {
		snprintf(err, n, "unknown figure '%s' (see docs/results.md for the names)", r->figure);
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

/* why a figure is missing: the status of the test it would come from */
static void missing_why(const struct json *doc, const char *figure, char *out, size_t n)
{
	const struct json *tests = json_get(doc, "tests");
	size_t best = 0;
	snprintf(out, n, "not measured");
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const char *name = json_get_str(t, "name", "");
		size_t l = strlen(name);
		if (l > best && !strncmp(figure, name, l) && (figure[l] == '.' || !figure[l])) {
			best = l;
			snprintf(out, n, "not measured (%s: %s%s%s)", name, json_get_str(t, "status", "?"),
				 json_get(t, "why") ? ": " : "", json_get_str(t, "why", ""));
		}
	}
}

int certify_run(const char *profile, const struct json *doc, struct json *out, FILE *f, char *err,
		size_t n)
{
	char *text = profile_text(profile, err, n), *line, *save;
	struct rule rules[256];
	int nr = 0, lineno = 0, failed = 0;
	struct json *arr;
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char e[300];
		int r;
		lineno++;
		if (nr >= 256) {
			snprintf(err, n, "%s: more than 256 rules", profile);
			free(text);
			return -1;
		}
		r = parse_rule(line, &rules[nr], e, sizeof e);
		if (r < 0) {
			snprintf(err, n, "%s:%d: %s", profile, lineno, e);
			free(text);
			return -1;
		}
		if (r == 0)
			nr++;
	}
	free(text);
	if (!nr) {
		snprintf(err, n, "%s: no rules", profile);
		return -1;
	}
	json_add_str(out, "profile", profile);
	arr = json_add_arr(out, "rules");
	for (int i = 0; i < nr; i++) {
		const struct rule *r = &rules[i];
		const struct json *fig = figure_find(doc, r->figure);
		const char *unit = fig ? json_get_str(fig, "unit", "") : "";
		struct json *o = json_push(arr, json_obj());
		char rule_s[256], meas[300];
		double mult = 1, v, want;
		int pass;
		snprintf(rule_s, sizeof rule_s, "%s %s %g%s%s", r->figure, r->op, r->value,
			 r->unit[0] ? " " : "", r->unit);
		json_add_str(o, "rule", rule_s);
		if (!fig) {
			missing_why(doc, r->figure, meas, sizeof meas);
			pass = 0;
		} else if (unit_convert(r->unit, unit, &mult)) {
			snprintf(err, n, "%s: rule '%s': the unit '%s' does not convert to the figure's '%s'",
				 profile, rule_s, r->unit, unit);
			return -1;
		} else {
			v = json_get_num(fig, "value", NAN);
			want = r->value * mult;
			pass = holds(v, r->op, want);
			snprintf(meas, sizeof meas, fabs(v) >= 1000 ? "measured %.0f %s" : "measured %.3g %s", v, unit);
			json_add_num(o, "measured", v);
			json_add_str(o, "unit", unit);
		}
		json_add_str(o, "result", pass ? "PASS" : "FAIL");
		if (!fig)
			json_add_str(o, "why", meas);
		failed += !pass;
		if (f)
			fprintf(f, "%s  %-44s %s\n", pass ? "PASS" : "FAIL", rule_s, meas);
	}
	json_add_str(out, "verdict", failed ? "FAIL" : "PASS");
	json_add_int(out, "failed", failed);
	json_add_int(out, "rules_total", nr);
	if (f)
		fprintf(f, "verdict: %s (%d of %d rule%s failed)\n", failed ? "FAIL" : "PASS", failed, nr,
			nr == 1 ? "" : "s");
	return failed ? 1 : 0;
}

struct certify_cfg {
	int format;
	const char *profile;
};

const struct opt certify_opts[] = {
	{ "profile", 0, OPT_STR, offsetof(struct certify_cfg, profile), NULL, 0, 0,
	  "vps-tasting, hw-certify, surface, ci, or a rules file", "the threshold rules", 0 },
	{ "output-format", 0, OPT_ENUM, offsetof(struct certify_cfg, format), "normal", 0, 0, "normal|json",
	  "output format", 0 },
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "output-format=json", "same as --output-format=json", OPT_NOARG },
	OPT_END,
};

int cmd_certify(int argc, char **argv)
{
	struct certify_cfg c;
	const char *profile, *result;
	char err[512], *pos[2];
	struct json *doc, *out;
	int r, as_json, npos = 0;
	opt_defaults(certify_opts, &c);
	if (opt_parse(certify_opts, &c, argc, argv, pos, &npos, 1))
		return EXIT_USAGE;
	profile = c.profile;
	result = npos ? pos[0] : NULL;
	as_json = c.format == FORMAT_JSON;
	if (!profile || !result) {
		errmsg("certify: give --profile NAME|FILE and a RESULT file");
		return EXIT_USAGE;
	}
	doc = doc_load(result, err, sizeof err);
	if (!doc) {
		errmsg("certify: %s", err);
		return EXIT_USAGE;
	}
	out = json_obj();
	r = certify_run(profile, doc, out, as_json ? NULL : stdout, err, sizeof err);
	if (as_json && r >= 0)
		json_print(stdout, out, 2);
	json_free(out);
	json_free(doc);
	if (r < 0) {
		errmsg("certify: %s", err);
		return EXIT_USAGE;
	}
	return r ? EXIT_FAIL : EXIT_OK;
}
