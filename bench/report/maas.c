/* A result as MAAS's hardware-testing results YAML (what a testing script writes to
 * $RESULT_PATH, docs/fleet.md "MAAS"): `status:` passed, degraded or failed, and
 * `results:` with the verdict and every summary figure.  The status: failed when a test
 * failed or did not finish, a rule about the machine's soundness failed (health, memory
 * test, wrong CPU results, surface scan, burn-in) or a rule's figure was not measured;
 * degraded when only performance
 * rules failed (the machine works, slower than asked); passed otherwise. */
#include "report.h"

#include "json.h"

#include <stdio.h>
#include <string.h>

/* a certify rule's figure is about soundness, not speed (a regression rule is speed) */
static int rule_is_health(const char *rule)
{
	static const char *const pre[] = { "health.", "memtest.", "cpu.wrong_results", "burnin.", "disk.scan.", NULL };
	if (!strncmp(rule, "optional ", 9))
		rule += 9;
	for (int i = 0; pre[i]; i++)
		if (!strncmp(rule, pre[i], strlen(pre[i])))
			return 1;
	return strncmp(rule, "regression ", 11) && strstr(rule, ".errors") != NULL;
}

/* a YAML key from a figure name: MAAS shows results keys as given; dots are fine in YAML
 * but not in MAAS's metadata `results:` names, so they become underscores */
static void yaml_key(FILE *f, const char *name)
{
	fputs("  ", f);
	for (const char *p = name; *p; p++)
		fputc((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_', f);
	fputs(": ", f);
}

/* a YAML double-quoted scalar */
static void yaml_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
	fputs("\"\n", f);
}

const char *report_maas_status(const struct json *doc, char *why, size_t n)
{
	const struct json *tests = json_get(doc, "tests"), *cert = json_get(doc, "certify"), *rules;
	const char *status = json_get_str(doc, "status", "");
	int health = 0, perf = 0;
	if (strcmp(status, "ok") && strcmp(status, "failed")) {
		snprintf(why, n, "the run did not finish (status %s)", *status ? status : "missing");
		return "failed";
	}
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next)
		if (strcmp(json_get_str(t, "status", ""), "ok") && strcmp(json_get_str(t, "status", ""), "skipped")) {
			snprintf(why, n, "test %s: %s", json_get_str(t, "name", "?"), json_get_str(t, "status", "?"));
			return "failed";
		}
	if (cert && json_get(cert, "error")) {
		snprintf(why, n, "certify: %s", json_get_str(cert, "error", ""));
		return "failed";
	}
	rules = cert ? json_get(cert, "rules") : NULL;
	for (const struct json *r = rules ? rules->child : NULL; r; r = r->next) {
		const char *rule = json_get_str(r, "rule", "");
		if (strcmp(json_get_str(r, "result", ""), "FAIL"))
			continue;
		if (rule_is_health(rule) || json_get(r, "why")) { /* not measured: no verdict */
			if (!health++)
				snprintf(why, n, "rule failed: %s", rule);
		} else if (!perf++ && !health) {
			snprintf(why, n, "performance rule failed: %s", rule);
		}
	}
	if (health)
		return "failed";
	if (perf)
		return "degraded";
	if (!strcmp(status, "failed")) {
		snprintf(why, n, "the run's status is failed");
		return "failed";
	}
	snprintf(why, n, "%s", cert ? "every rule passed" : "every test ran");
	return "passed";
}

void report_maas(const struct json *doc, FILE *f)
{
	const struct json *sum = json_get(doc, "summary"), *cert = json_get(doc, "certify");
	char why[400];
	const char *status = report_maas_status(doc, why, sizeof why);
	fputs("# assay's result for MAAS (docs/fleet.md); the whole document is in the script's output\n", f);
	fprintf(f, "status: %s\n", status);
	fputs("results:\n", f);
	yaml_key(f, "assay_why");
	yaml_str(f, why);
	yaml_key(f, "assay_machine_id");
	yaml_str(f, json_get_str(json_get(doc, "machine"), "id", ""));
	if (cert) {
		yaml_key(f, "assay_profile");
		yaml_str(f, json_get_str(cert, "profile", ""));
		yaml_key(f, "assay_verdict");
		yaml_str(f, json_get_str(cert, "verdict", "ERROR"));
		fprintf(f, "  assay_rules_failed: %lld\n", (long long)json_get_num(cert, "failed", 0));
	}
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
		const struct json *v = json_get(r, "value");
		if (!v || v->type != J_NUM)
			continue;
		yaml_key(f, json_get_str(r, "name", "figure"));
		fprintf(f, "%.6g\n", v->num);
	}
}
