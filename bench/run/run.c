/* assay run: a suite of tests, each an engine command line run in a child with a
 * watchdog (child.c); the results go into one versioned document (docs/results.md),
 * verdict, files, pushes. */
#include "run_int.h"

#include "bootopts.h"
#include "clock.h"
#include "disk/disk.h"
#include "health/health.h"
#include "json.h"
#include "machine/sysinfo.h"
#include "msg.h"
#include "report/certify.h"
#include "report/inbox.h"
#include "report/report.h"
#include "report/results.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


static double uptime_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the result document's head: versions, boot, options, the machine, the network setup */
static struct json *doc_begin(const struct run_cfg *c, const char *cmdtext, struct json *errors)
{
	struct json *doc = json_obj(), *boot, *opts;
	char when[32], line[300];
	FILE *nf;
	json_add_int(doc, "schema_version", RESULT_SCHEMA_VERSION);
	json_add_str(doc, "assay_version", ASSAY_VERSION);
	utc_now(when, sizeof when);
	json_add_str(doc, "started_utc", when);
	boot = json_add_obj(doc, "boot");
	json_add_bool(boot, "in_image", getenv("ASSAY_IMAGE") != NULL);
	json_add_num(boot, "uptime_at_start_s", uptime_s());
	if (cmdtext)
		json_add_str(boot, "cmdline", cmdtext);
	opts = json_add_obj(doc, "options");
	json_add_str(opts, "suite", suite_names[c->suite]);
	json_add_str(opts, "tests", c->tests);
	json_add_str(opts, "disks", c->disks);
	json_add_str(opts, "mode", mode_names[c->mode]);
	json_add_int(opts, "repeat", c->repeat);
	json_add(doc, "option_errors", errors);
	json_add(doc, "machine", sysinfo_json());
	/* what init did to the NICs: DHCP leases, timings, failures */
	if ((nf = fopen("/run/assay-net", "r"))) {
		struct json *na = json_add_arr(doc, "network_setup");
		while (fgets(line, sizeof line, nf)) {
			line[strcspn(line, "\n")] = 0;
			json_push(na, json_str(line));
		}
		fclose(nf);
	}
	return doc;
}

/* --certify: its rules read and checked before the tests (file:NAME from the results
 * partition), so a typo is said at once and the disk profiles they need are planned */
static void certify_prepare(struct run_cfg *c)
{
	char err[sizeof c->certify_error];
	const char *p = c->certify;
	c->certify_rules = !strncmp(p, "file:", 5) && getenv("ASSAY_IMAGE")
		? results_read(p + 5, 1 << 20, err, sizeof err) : certify_rules_text(p, err, sizeof err);
	if (c->certify_rules && certify_check(p, c->certify_rules, err, sizeof err)) {
		free(c->certify_rules);
		c->certify_rules = NULL;
	}
	if (!c->certify_rules) {
		snprintf(c->certify_error, sizeof c->certify_error, "%s", err);
		return;
	}
	certify_disk_profiles(c->certify_rules, c->certify_disk, sizeof c->certify_disk);
	certify_engines(c->certify_rules, c->certify_engines, sizeof c->certify_engines);
}

/* --certify: the rules' verdict into doc.certify and the text; EXIT_OK, EXIT_FAIL, or
 * EXIT_USAGE for rules that could not be read */
static int certify_doc(const struct run_cfg *c, struct json *doc, FILE *txt)
{
	struct json *cert = json_obj();
	char *ctext = NULL, err[600];
	size_t clen = 0;
	FILE *cs = open_memstream(&ctext, &clen);
	int r = cs ? certify_text(c->certify, c->certify_rules, doc, NULL, -1, 0, cert, cs, err, sizeof err) : -1;
	if (!cs)
		snprintf(err, sizeof err, "out of memory");
	else if (r >= 0)
		fprintf(cs, "\n######## CERTIFY %s: %s ########\n", c->certify, json_get_str(cert, "verdict", "?"));
	else
		fprintf(cs, "certify: %s\n", err);
	if (cs)
		fclose(cs);
	if (r < 0) {
		warn("certify: %s", err);
		json_add_str(cert, "profile", c->certify);
		json_add_str(cert, "error", err);
	}
	json_add(doc, "certify", cert);
	fprintf(c->common.format == FORMAT_NORMAL ? stdout : stderr, "\n== certify: %s ==\n%s", c->certify, ctext ? ctext : "");
	fprintf(txt, "\n== certify: %s ==\n%s", c->certify, ctext ? ctext : "");
	free(ctext);
	return r < 0 ? EXIT_USAGE : r == 1 ? EXIT_FAIL : r == 2 ? EXIT_INCONCLUSIVE : EXIT_OK;
}

/* the inputs read when the run ends, checked before it begins: certify's rules, the push
 * URLs; 1 after a line naming what is wrong */
static int refused(const struct run_cfg *c)
{
	char err[600];
	if (c->certify && !c->certify_rules) {
		errmsg("certify: %s (nothing run)", c->certify_error);
		return 1;
	}
	if (c->push && report_push_check(c->push, err, sizeof err)) {
		errmsg("--push=%s: %s (nothing run)", c->push, err);
		return 1;
	}
	return 0;
}

/* steal.max over --steal-limit: the figures are suspect, said in the document */
static void steal_verdict(const struct run_cfg *c, struct json *doc)
{
	const struct json *row = figure_find(doc, "steal.max");
	double v = row ? json_get_num(row, "value", 0) : 0;
	json_add_num(doc, "steal_limit_pct", c->steal_limit);
	json_add_bool(doc, "steal_suspect", v > c->steal_limit);
	if (v > c->steal_limit)
		warn("steal peaked at %.1f%% (over --steal-limit=%g%%): other guests took this machine's CPU; "
		     "the figures are suspect", v, c->steal_limit);
}

/* what init does once the run is over, for the last screen (the image only) */
static const char *next_words(const struct run_cfg *c)
{
	static char buf[80];
	if (!getenv("ASSAY_IMAGE"))
		return NULL;
	switch (c->after) {
	case AFTER_REBOOT:
		snprintf(buf, sizeof buf, "rebooting in %g s", c->pause);
		return buf;
	case AFTER_SHELL:
		return "a shell on this console; the results are in " SHELL_RESULTS;
	case AFTER_KEXEC:
		return "booting the image again (kexec)";
	default:
		return "powering off";
	}
}

static int run_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	struct run_cfg c = *(struct run_cfg *)cfg;
	struct run_plan plan = { 0 };
	struct json *doc, *tests, *errors = json_arr();
	char *cmdtext = NULL, *cmdcopy = NULL, *txtbuf = NULL;
	size_t txtlen = 0;
	FILE *txt;
	int certified = EXIT_OK, failed;
	double t0 = now_s();
	struct health_run *health;

	if (run_settle_options(&c, errors, &cmdtext, &cmdcopy)) {
		json_free(errors);
		return EXIT_USAGE;
	}
	if (c.certify)
		certify_prepare(&c);
	if (refused(&c)) {   /* bad input said now, not after hours of tests */
		free(c.certify_rules);
		free(cmdtext);
		free(cmdcopy);
		json_free(errors);
		return EXIT_USAGE;
	}
	run_make_plan(&c, &plan);
	doc = doc_begin(&c, cmdtext, errors);
	tests = json_add_arr(doc, "tests");
	{
		/* a burn-in: rounds of the plan (its tests made to fit) until its length is spent */
		double planned = c.suite == SUITE_BURNIN ? c.burnin : plan_seconds(&plan) * (double)c.repeat;
		fprintf(stderr, "assay %s: %s suite, %d test%s%s, planned about %.0f s\n", ASSAY_VERSION,
			suite_names[c.suite], plan.n, plan.n == 1 ? "" : "s", c.repeat > 1 ? ", each repeated" : "",
			planned);
		json_add_num(doc, "planned_s", planned);
	}
	txt = open_memstream(&txtbuf, &txtlen);
	health = health_begin();
	if (c.suite == SUITE_BURNIN) {
		struct json *ts = json_arr();
		failed = burnin_loop(&c, &plan, doc, &ts, txt, health);
		json_free(json_detach(doc, "tests"));
		json_add(doc, "tests", ts);
	} else {
		failed = 0;
		for (int k = 1; k <= c.repeat; k++)
			failed += run_tests(&c, &plan, tests, txt, health, c.repeat > 1 ? k : 0, 0);
	}
	health_end(health, doc);
	json_add_num(doc, "duration_s", now_s() - t0);
	json_add_str(doc, "status", failed ? "failed" : "ok");
	result_summary(doc);
	steal_verdict(&c, doc);
	if (c.common.format == FORMAT_NORMAL)
		report_table(doc, stdout);
	report_table(doc, txt);
	for (int k = 0; k < 2 && json_get(doc, "health"); k++) {
		FILE *o = k ? txt : c.common.format == FORMAT_NORMAL ? stdout : NULL;
		if (o) {
			fprintf(o, "\n== health ==\n");
			health_text(json_get(doc, "health"), o);
		}
	}
	if (c.certify)
		certified = certify_doc(&c, doc, txt);
	fclose(txt);
	run_deliver(&c, doc, txtbuf, txtlen);
	if (c.common.format == FORMAT_JSON)
		json_print(stdout, doc, 2);
	else if (c.common.format == RUN_OPENMETRICS)
		report_openmetrics(doc, stdout);
	else
		report_block(doc, stdout);
	fflush(stdout);
	report_screen(doc, next_words(&c), NULL, c.steal_limit, c.common.format == FORMAT_NORMAL ? stdout : stderr);
	fflush(NULL);
	json_free(doc);
	free(cmdtext);
	free(cmdcopy);
	free(txtbuf);
	free(c.certify_rules);
	if (certified == EXIT_USAGE)
		return EXIT_USAGE;
	return failed || certified ? EXIT_FAIL : EXIT_OK;
}


const struct command run_command = {
	.name = "run",
	.summary = "run a suite of tests and print the results",
	.usage = "[options]",
	.help = "Run a suite of tests and print the results (text, then the JSON document between marker "
		"lines).",
	.opts = run_opts,
	.cfg_size = sizeof(struct run_cfg),
	.main = run_main,
};
