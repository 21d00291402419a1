/* assay run: its options, and the plan of tests each engine adds to (engine.h's plan
 * hook).  A test is an engine command line run in a child with a watchdog. */
#ifndef ASSAY_SUITE_H
#define ASSAY_SUITE_H

#include "engine.h"

enum suite_kind { SUITE_QUICK, SUITE_STANDARD, SUITE_FULL, SUITE_BURNIN };

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
	const char *iperf, *ping, *http, *dns, *dns_file;
	double net_time;
	const char *textfile;       /* --textfile: OpenMetrics for node_exporter */
	const char *push;           /* --push: URLs the results go to */
	const char *push_ca, *push_pin;  /* https: the CA bundle, or the pinned certificate */
	int push_insecure;
	double push_timeout;
	double burnin;              /* the burn-in suite's length, seconds */
	const char *memtest_size;   /* assay memtest --size */
	double memtest_time;        /* and --time */
	double steal_limit;         /* steal.max over this (percent): the figures are suspect */
	int after;                  /* init's assay.after (enum after), from --cmdline */
	double pause;               /* init's assay.pause: seconds before a reboot */
};

/* what a suite asks of each family: its time per test and the like */
struct suite_def {
	double cpu_time, disk_time, net_time;
	const char *disk_profile;
	int repeat;               /* disk tests' passes; 0: auto */
	const char *mem_args;     /* sizes for STREAM and the latency sweep */
};
const struct suite_def *suite_def(const struct run_cfg *c);
/* seconds per CPU/memory, disk, network test: the option given, else the suite's */
double suite_cpu_time(const struct run_cfg *c);
double suite_disk_time(const struct run_cfg *c);
double suite_net_time(const struct run_cfg *c);
/* does --tests name this engine (or say all)? */
int suite_wants(const struct run_cfg *c, const char *engine);
/* is the word in the comma list, or is the list "all"? */
int in_list(const char *list, const char *word);

#define MAX_TESTS 64
#define MAX_ARGS 16

struct plan_item {
	char name[48];
	const struct engine *eng;
	int argc;
	char *argv[MAX_ARGS];
	char skip[200];          /* set: not run, reported as skipped with this reason */
	double expect_s;         /* about how long it runs (0: unknown) */
};

struct run_plan {
	int n;
	struct plan_item it[MAX_TESTS];
};

/* a test: the engine's command line (copied), about expect_s seconds long */
struct plan_item *plan_add(struct run_plan *p, const char *name, const char *engine, int argc, char **argv,
			   double expect_s);
struct json;
struct health_run;
/* every test of the plan in turn, each entry into tests, text to txt; the failed count */
int suite_run_tests(const struct run_cfg *c, const struct run_plan *plan, struct json *tests, FILE *txt,
		    struct health_run *health);
/* the results so far (doc with these tests), where --results says: a burn-in's interim */
void suite_store_interim(const struct run_cfg *c, const struct json *doc, const struct json *tests);
/* burnin.c: rounds of the plan until --burnin is spent; the last round's tests in *tests */
int burnin_loop(const struct run_cfg *c, const struct run_plan *plan, struct json *doc, struct json **tests,
		FILE *txt, struct health_run *health);
void burnin_figures(const struct json *doc, struct json *sum);

/* a test planned but not run, with the reason */
void plan_skip(struct plan_item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
