/* What assay run asks of the engines, and the plan they fill: each engine's plan hook
 * (engine.h) reads the request and adds its tests, each an engine command line that the
 * run starts in a child with a watchdog.  The request is all an engine sees of assay
 * run's options: the suite's choices already applied. */
#ifndef ASSAY_PLAN_H
#define ASSAY_PLAN_H

enum suite_kind { SUITE_QUICK, SUITE_STANDARD, SUITE_FULL, SUITE_BURNIN };

struct plan_req {
	int suite;                  /* enum suite_kind */
	const char *tests;          /* the engines asked for: a comma list, or all */
	double cpu_time, disk_time, net_time;   /* seconds per test: the option, else the suite's */
	const char *mem_args;       /* the suite's sizes for STREAM and the latency sweep */
	double burnin;              /* a burn-in's length, seconds */
	/* disks */
	const char *disks;          /* all, none, or names and paths */
	int mode;                   /* enum mode (disk/disk.h) */
	const char *destroy;        /* the disks destroy may write (NAME:serial=S...) */
	const char *disk_profiles;  /* the suite's, or the option's */
	const char *rules_need;     /* the disk profiles certify's rules take figures from ("" none) */
	const char *rules_engines;  /* the engines they take figures from: planned whatever the suite */
	int disk_repeat;            /* each disk test's passes (0: auto) */
	const char *disk_sched;     /* an I/O scheduler for the disk tests (NULL: as it is) */
	unsigned long long inbox_disk_size;   /* the disk holding kexec's results inbox, by its
					       * size (0: none): never written */
	/* the network's peers (NULL: none) */
	const char *iperf, *ping, *http, *dns, *dns_file;
	/* the memory test */
	const char *memtest_size;
	double memtest_time;
};

#define MAX_TESTS 64
#define MAX_ARGS 16

struct engine;

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
/* about how long the plan's tests take, seconds (those skipped: nothing) */
double plan_seconds(const struct run_plan *p);
/* the tests' command lines freed, the plan empty */
void plan_clear(struct run_plan *p);
/* a test planned but not run, with the reason */
void plan_skip(struct plan_item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* does the request's --tests name this engine (or say all), or certify's rules need it? */
int plan_wants(const struct plan_req *r, const char *engine);
/* is the word in the comma list, or is the list "all"? */
int in_list(const char *list, const char *word);

#endif
