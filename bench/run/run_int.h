/* assay run, inside: its options, the suites, the tests run each in a child with a
 * watchdog (child.c), the burn-in's rounds (burnin.c).  What the engines see of a run is
 * engine/plan.h, never this. */
#ifndef ASSAY_RUN_INT_H
#define ASSAY_RUN_INT_H

#include "engine/engine.h"
#include "engine/plan.h"

#include <stdio.h>

/* assay run's options (also assay.KEY=VALUE on the kernel command line) */
struct run_cfg {
	struct common_cfg common;
	int suite;
	const char *tests;
	double cpu_time;
	double test_timeout;
	const char *fault;       /* hidden: TEST:segv|hang,... (docs/reliability.md) */
	const char *cmdline;
	const char *disks;
	int mode;
	const char *destroy;
	double disk_time;
	const char *disk_profile;
	long long disk_repeat;      /* -1: the suite's; 0: auto */
	const char *disk_sched;
	const char *results;
	const char *certify;
	char *certify_rules;        /* the rules' text, read before the tests (NULL: unreadable) */
	char certify_error[600];    /* why they cannot be used, if so */
	char certify_disk[128];     /* the disk profiles the rules' figures come from */
	char certify_engines[128];  /* the engines they come from */
	const char *iperf, *ping, *http, *dns, *dns_file;
	double net_time;
	const char *textfile;       /* --textfile: OpenMetrics for node_exporter */
	const char *push;           /* --push: URLs the results go to */
	const char *push_ca, *push_pin;  /* https: the CA bundle, or the pinned certificate */
	int push_insecure;
	double push_timeout;
	double burnin;              /* the burn-in suite's length, seconds */
	long long repeat;           /* every test this many times, round after round (samples) */
	const char *memtest_size;   /* assay memtest --size */
	double memtest_time;        /* and --time */
	double steal_limit;         /* steal.max over this (percent): the figures are suspect */
	int after;                  /* init's assay.after (enum after), from --cmdline */
	double pause;               /* init's assay.pause: seconds before a reboot */
};

#define DEFAULT_TEST_TIMEOUT 1800   /* s; --test-timeout's default */
#define RUN_OPENMETRICS FORMAT_TERSE /* run's third output format */

extern const struct opt run_opts[];
extern const char *const suite_names[];   /* by enum suite_kind */

struct json;
struct health_run;

/* run_options.c: the kernel command line's assay.KEY=VALUE keys of --cmdline's file (bad ones a
 * warning each, in errors) over the options read, then every option checked; 0, or -1
 * after a one-line error.  *cmdtext: the file's first line; *cmdcopy: what the options
 * point into (free both after the run) */
int run_settle_options(struct run_cfg *c, struct json *errors, char **cmdtext, char **cmdcopy);

/* suites.c: what the run asks of the engines (its suite's choices applied), and the plan
 * they make of it, every engine in the registry's order */
void run_request(const struct run_cfg *c, struct plan_req *r);
void run_make_plan(const struct run_cfg *c, struct run_plan *p);

/* child.c: every test of the plan in turn, each entry into tests (marked with its round
 * when round > 0), text to txt; none started at or after deadline (0: none); the number
 * that failed */
int run_tests(const struct run_cfg *c, const struct run_plan *plan, struct json *tests, FILE *txt,
	      struct health_run *health, int round, double deadline);

#define SHELL_RESULTS "/run/assay"  /* assay.after=shell: the result files for the console user */

/* store.c: the results so far (doc with these tests), where --results says: a burn-in's
 * interim */
void run_store_interim(const struct run_cfg *c, const struct json *doc, const struct json *tests);
/* store.c: the run's results where its options send them; doc.results, doc.push say how it went */
void run_deliver(const struct run_cfg *c, struct json *doc, const char *txt, size_t len);

/* burnin.c: rounds of the plan until --burnin is spent; the last round's tests in *tests */
int burnin_loop(const struct run_cfg *c, const struct run_plan *plan, struct json *doc, struct json **tests,
		FILE *txt, struct health_run *health);

#endif
