/* assay run: a suite of tests, each an engine command line run in a child with a
 * watchdog; the results go into one versioned document (docs/results.md). */
#include "suite.h"
#include "blkdev.h"
#include "bootopts.h"
#include "certify.h"
#include "results.h"
#include "disk.h"
#include "clock.h"
#include "engine.h"
#include "fileio.h"
#include "json.h"
#include "msg.h"
#include "report.h"
#include "sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum suite_kind { SUITE_QUICK, SUITE_STANDARD, SUITE_FULL };
static const char *const suite_names[] = { "quick", "standard", "full" };

#define DEFAULT_TEST_TIMEOUT 1800   /* s; the option's default below */

struct run_cfg {
	struct common_cfg common;
	int suite;
	const char *tests;
	double cpu_time;
	double test_timeout;
	const char *cmdline;
	const char *disks;
	int mode;
	const char *destroy;
	double disk_time;
	const char *disk_profile;
	const char *disk_sched;
	const char *results;
	const char *certify;
	const char *iperf, *ping, *http, *dns, *dns_file;
	double net_time;
};

static const struct opt run_opts[] = {
	OPTS_COMMON(struct run_cfg),
	{ "suite", 0, OPT_ENUM, offsetof(struct run_cfg, suite), "quick", 0, 0,
	  "quick|standard|full", "how long and how thorough", 0 },
	{ "tests", 0, OPT_STR, offsetof(struct run_cfg, tests), "all", 0, 0,
	  "a comma list of engines (cpu) or all", "which engines run", 0 },
	{ "cpu-time", 0, OPT_TIME, offsetof(struct run_cfg, cpu_time), "0", 0, 86400, NULL,
	  "seconds per CPU test (0: the suite's default)", 0 },
	{ "test-timeout", 0, OPT_TIME, offsetof(struct run_cfg, test_timeout), "1800", 1, 86400, NULL,
	  "watchdog per test: a test still running is killed and marked failed", 0 },
	{ "disks", 0, OPT_STR, offsetof(struct run_cfg, disks), "all", 0, 0,
	  "all, none, or a comma list of disk names (vda,nvme0n1)", "which disks the disk tests use", 0 },
	{ "mode", 0, OPT_ENUM, offsetof(struct run_cfg, mode), "readonly", 0, 0, "readonly|rewrite|destroy",
	  "readonly: no writes; rewrite: writes back what it read; destroy: random data, only on "
	  "disks named in --destroy", 0 },
	{ "destroy", 0, OPT_STR, offsetof(struct run_cfg, destroy), NULL, 0, 0,
	  "NAME:serial=S or NAME:size=BYTES (':force' to allow a partition table/filesystem), comma separated",
	  "the disks --mode=destroy may write, each with its serial or exact size", 0 },
	{ "disk-time", 0, OPT_TIME, offsetof(struct run_cfg, disk_time), "0", 0, 86400, NULL,
	  "seconds per time-based disk job (0: the suite's default)", 0 },
	{ "disk-profile", 0, OPT_STR, offsetof(struct run_cfg, disk_profile), NULL, 0, 0,
	  "a comma list of assay disk profiles", "disk profiles (default: the suite's)", 0 },
	{ "disk-ioscheduler", 0, OPT_STR, offsetof(struct run_cfg, disk_sched), NULL, 0, 0,
	  "none, mq-deadline, bfq or kyber", "each disk's I/O scheduler for its tests, put back after "
	  "(disk --ioscheduler; default: as it is)", 0 },
	{ "iperf", 0, OPT_STR, offsetof(struct run_cfg, iperf), NULL, 0, 0, "HOST[:PORT]",
	  "an iperf3 server for the TCP throughput tests", 0 },
	{ "ping", 0, OPT_STR, offsetof(struct run_cfg, ping), NULL, 0, 0, "HOST[:TCPPORT]",
	  "a host for latency: ICMP echo and TCP connect time (port 5201 unless given)", 0 },
	{ "http", 0, OPT_STR, offsetof(struct run_cfg, http), NULL, 0, 0, "http://host[:port]/path",
	  "a file to download for HTTP throughput", 0 },
	{ "dns", 0, OPT_STR, offsetof(struct run_cfg, dns), NULL, 0, 0, "SERVER[:PORT], or dhcp",
	  "a DNS server for the query rate test (dhcp: the resolver DHCP gave)", 0 },
	{ "dns-file", 0, OPT_STR, offsetof(struct run_cfg, dns_file), NULL, 0, 0, "a file of 'name type' lines",
	  "the DNS queries (default: a built-in list of common names)", 0 },
	{ "net-time", 0, OPT_TIME, offsetof(struct run_cfg, net_time), "0", 0, 86400, NULL,
	  "seconds per network test (0: the suite's default)", 0 },
	{ "results", 0, OPT_STR, offsetof(struct run_cfg, results), "none", 0, 0,
	  "none, auto (the FAT partition labelled ASSAY), or a directory",
	  "where the result files (.json, .txt) go besides the console", 0 },
	{ "certify", 0, OPT_STR, offsetof(struct run_cfg, certify), NULL, 0, 0,
	  "vps-tasting, hw-certify, surface, ci, or a profile file", "check the figures against threshold "
	  "rules; the exit status is the verdict", 0 },
	{ "cmdline", 0, OPT_STR, offsetof(struct run_cfg, cmdline), NULL, 0, 0, "a file path",
	  "also read assay.KEY=VALUE options from FILE (/proc/cmdline in the image); "
	  "bad ones are reported and ignored", 0 },
	OPT_END,
};

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

struct plan {
	int n;
	struct plan_item it[MAX_TESTS];
};

/* is word in the comma list (or the list "all")? */
static int in_list(const char *list, const char *word)
{
	return !strcmp(list, "all") || list_has(list, word);
}

static struct plan_item *plan_addv(struct plan *p, const char *name, const char *engine, int argc,
				   char **argv)
{
	struct plan_item *it;
	if (p->n >= MAX_TESTS)
		die(EXIT_SYS, "internal: too many tests in the plan");
	it = &p->it[p->n++];
	snprintf(it->name, sizeof it->name, "%s", name);
	it->eng = engine_find(engine);
	if (!it->eng)
		die(EXIT_SYS, "internal: no engine %s", engine);
	for (int i = 0; i < argc && it->argc < MAX_ARGS - 1; i++)
		it->argv[it->argc++] = strdup(argv[i]);
	return it;
}

struct suite_def {
	double cpu_time, disk_time;
	const char *disk_profile;
	int repeat;
	const char *mem_args;     /* sizes for STREAM and the latency sweep */
};

static const struct suite_def suites[] = {
	[SUITE_QUICK] = { 2, 2, "seq,qd1,qd8", 1,
			  "--stream-array-size=16m --stream-ntimes=4 --latency-max=16m --latency-repeats=2" },
	[SUITE_STANDARD] = { 10, 10, "seq,qd1,qd8,randrw64,randwrite4,randread16x4,latency", 1, "" },
	[SUITE_FULL] = { 30, 30, "seq,qd1,qd8,randrw64,randwrite4,randread16x4,latency", 3,
			 "--stream-ntimes=20 --latency-repeats=5" },
};

/* "vdb:serial=S[:force]" or "vdb:size=N[:force]" for this disk: 1 and the engine's
 * identity arguments, 0 when not named, -1 on a malformed entry */
static int destroy_entry(const char *list, const char *disk, char *a1, size_t n1, int *force,
			 char *err, size_t errn)
{
	size_t dl = strlen(disk);
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t pl = comma ? (size_t)(comma - p) : strlen(p);
		char e[256], *colon, *id, *f;
		snprintf(e, sizeof e, "%.*s", (int)pl, p);
		colon = strchr(e, ':');
		if (!colon || (strncmp(colon + 1, "serial=", 7) && strncmp(colon + 1, "size=", 5))) {
			snprintf(err, errn, "destroy=%s: entry '%s' is not NAME:serial=S or NAME:size=BYTES",
				 list, e);
			return -1;
		}
		*colon = 0;
		id = colon + 1;
		f = strchr(id, ':');
		if (f) {
			*f++ = 0;
			if (strcmp(f, "force")) {
				snprintf(err, errn, "destroy=%s: '%s' after the identity: only ':force' is accepted",
					 list, f);
				return -1;
			}
		}
		if (strlen(e) == dl && !strcmp(e, disk)) {
			*force = f != NULL;
			if (!strncmp(id, "serial=", 7))
				snprintf(a1, n1, "--expect-serial=%s", id + 7);
			else
				snprintf(a1, n1, "--expect-size=%s", id + 5);
			return 1;
		}
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* time-based jobs in a profile list times their runtime (seq's jobs count as one each) */
static double disk_estimate(const char *profiles, double runtime)
{
	static const struct { const char *name; int jobs; } n[] = {
		{ "seq", 2 }, { "qd1", 1 }, { "qd8", 1 }, { "randrw64", 1 }, { "randwrite4", 1 },
		{ "randread16x4", 1 }, { "latency", 3 }, { "all", 10 },
		/* a surface scan ends with the disk or at the runtime; scanwrite reads back too */
		{ "scan", 1 }, { "scanwrite", 2 },
	};
	double t = 0;
	for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
		if (in_list(profiles, n[i].name))
			t += n[i].jobs * runtime;
	return t;
}

static void plan_disks(const struct run_cfg *c, struct plan *p)
{
	static const char *const modes[] = { "readonly", "rewrite", "destroy" };
	const struct suite_def *sd = &suites[c->suite];
	struct blkdev *list;
	int n = blkdev_list(&list, strcmp(c->disks, "all") != 0), added = 0;  /* loop, ram...: only when named */
	char prof[256], rt[64], rep[32], sched[256];
	snprintf(prof, sizeof prof, "--profile=%s", c->disk_profile ? c->disk_profile : sd->disk_profile);
	snprintf(rt, sizeof rt, "--runtime=%g", c->disk_time > 0 ? c->disk_time : sd->disk_time);
	snprintf(rep, sizeof rep, "--repeat=%d", sd->repeat);
	snprintf(sched, sizeof sched, "--ioscheduler=%s", c->disk_sched ? c->disk_sched : "");
	for (int i = 0; i < n; i++) {
		const struct blkdev *d = &list[i];
		char name[48], file[300], mode[32], ident[200] = "", err[300];
		char *argv[10];
		int argc = 0, force = 0, m = c->mode;
		if (!in_list(c->disks, d->name))
			continue;
		if (!strcmp(d->signature, "vfat") && !strcmp(d->label, "ASSAY"))
			continue;   /* the results disk */
		if (m == MODE_DESTROY) {
			int r = c->destroy ? destroy_entry(c->destroy, d->name, ident, sizeof ident, &force,
							   err, sizeof err) : 0;
			if (r < 0) {
				warn("%s", err);
				r = 0;
			}
			if (r == 0) {
				info("disk %s: not named in --destroy (assay.destroy): measured read-only", d->name);
				m = MODE_READONLY;
			}
		}
		snprintf(name, sizeof name, added ? "disk.%s" : "disk", d->name);
		snprintf(file, sizeof file, "--filename=%s", d->path);
		snprintf(mode, sizeof mode, "--mode=%s", modes[m]);
		argv[argc++] = file;
		argv[argc++] = prof;
		argv[argc++] = rt;
		argv[argc++] = mode;
		if (sd->repeat > 1)
			argv[argc++] = rep;
		if (ident[0])
			argv[argc++] = ident;
		if (force)
			argv[argc++] = "--force";
		if (c->disk_sched)
			argv[argc++] = sched;
		argv[argc++] = "--eta=never";     /* the suite's own progress line is on the terminal */
		plan_addv(p, name, "disk", argc, argv)->expect_s =
			disk_estimate(c->disk_profile ? c->disk_profile : sd->disk_profile,
				      c->disk_time > 0 ? c->disk_time : sd->disk_time) * sd->repeat;
		added++;
	}
	free(list);
	if (!added) {
		struct plan_item *it = plan_addv(p, "disk", "disk", 0, NULL);
		snprintf(it->skip, sizeof it->skip, "no disk to measure (found %d; --disks=%s)", n, c->disks);
	}
}

/* "host:port" / "[v6]:port" / "host" -> host and port (dflt when absent) */
static void split_hostport(const char *s, char *host, size_t n, int *port, int dflt)
{
	const char *colon = strrchr(s, ':');
	*port = dflt;
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');
		snprintf(host, n, "%.*s", rb ? (int)(rb - s - 1) : (int)strlen(s + 1), s + 1);
		if (rb && rb[1] == ':')
			*port = atoi(rb + 2);
		return;
	}
	if (colon && strchr(s, ':') == colon) {
		snprintf(host, n, "%.*s", (int)(colon - s), s);
		*port = atoi(colon + 1);
	} else {
		snprintf(host, n, "%s", s);
	}
}

/* In the image: did any NIC get an address?  (init's /run/assay-net) */
static int network_up(char *why, size_t n)
{
	FILE *f;
	char line[256], last[256] = "";
	int up = 0;
	if (!getenv("ASSAY_IMAGE"))
		return 1;
	f = fopen("/run/assay-net", "r");
	if (!f) {
		snprintf(why, n, "no network configured in the image (no NIC?)");
		return 0;
	}
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (strstr(line, "dhcp=ok") || (strstr(line, "static=") && !strstr(line, "static=failed")))
			up = 1;
		if (!strncmp(line, "nic ", 4))
			snprintf(last, sizeof last, "%s", line + 4);
	}
	fclose(f);
	if (!up)
		snprintf(why, n, "no network: %s", last[0] ? last : "no NIC got an address");
	return up;
}

static void plan_net(const struct run_cfg *c, struct plan *p, double cpu_time)
{
	static const double net_default[] = { 3, 10, 30 };
	double t = c->net_time > 0 ? c->net_time : net_default[c->suite];
	char host[256], a[6][300], why[300];
	int port, planned = 0, up = network_up(why, sizeof why);
	(void)cpu_time;
	if (in_list(c->tests, "net") && c->iperf) {
		char *av[8] = { a[0], a[1], a[2], "-J" };
		struct plan_item *it;
		split_hostport(c->iperf, host, sizeof host, &port, 5201);
		snprintf(a[0], sizeof a[0], "--client=%s", host);
		snprintf(a[1], sizeof a[1], "--port=%d", port);
		snprintf(a[2], sizeof a[2], "--time=%g", t);
		it = plan_addv(p, "net.tcp", "net", 3, av);
		it->expect_s = t;
		if (!up)
			snprintf(it->skip, sizeof it->skip, "%s", why);
		if (c->suite != SUITE_QUICK) {
			av[3] = "--reverse";
			it = plan_addv(p, "net.tcp.reverse", "net", 4, av);
			it->expect_s = t;
			if (!up)
				snprintf(it->skip, sizeof it->skip, "%s", why);
			av[3] = "--parallel=4";
			it = plan_addv(p, "net.tcp.p4", "net", 4, av);
			it->expect_s = t;
			if (!up)
				snprintf(it->skip, sizeof it->skip, "%s", why);
		}
		planned++;
	}
	if (in_list(c->tests, "net") && c->ping) {
		char *av[3] = { a[3], a[4] };
		struct plan_item *it;
		split_hostport(c->ping, host, sizeof host, &port, 5201);
		snprintf(a[3], sizeof a[3], "--latency=%s", host);
		snprintf(a[4], sizeof a[4], "--latency-port=%d", port);
		it = plan_addv(p, "net.latency", "net", 2, av);
		if (!up)
			snprintf(it->skip, sizeof it->skip, "%s", why);
		planned++;
	}
	if (in_list(c->tests, "net") && c->http) {
		char *av[2] = { a[5] };
		struct plan_item *it;
		snprintf(a[5], sizeof a[5], "--http=%s", c->http);
		it = plan_addv(p, "net.http", "net", 1, av);
		if (!up)
			snprintf(it->skip, sizeof it->skip, "%s", why);
		planned++;
	}
	if (in_list(c->tests, "dns") && c->dns) {
		char s1[300], s2[64], s3[64], s4[300];
		char *av[5];
		int ac = 0;
		struct plan_item *it;
		if (strcmp(c->dns, "dhcp")) {
			split_hostport(c->dns, host, sizeof host, &port, 53);
			snprintf(s1, sizeof s1, "--server=%s", host);
			snprintf(s2, sizeof s2, "--port=%d", port);
			av[ac++] = s1;
			av[ac++] = s2;
		}
		snprintf(s3, sizeof s3, "--limit=%g", t);
		av[ac++] = s3;
		if (c->dns_file) {
			snprintf(s4, sizeof s4, "--datafile=%s", c->dns_file);
			av[ac++] = s4;
		}
		it = plan_addv(p, "dns", "dns", ac, av);
		it->expect_s = t;
		if (!up)
			snprintf(it->skip, sizeof it->skip, "%s", why);
		planned++;
	}
	if (!planned && in_list(c->tests, "net")) {
		struct plan_item *it = plan_addv(p, "net", "net", 0, NULL);
		snprintf(it->skip, sizeof it->skip, "no network peer given (assay.iperf=HOST, assay.ping=HOST, "
			 "assay.http=URL, assay.dns=SERVER)");
	}
}

static void make_plan(const struct run_cfg *c, struct plan *p)
{
	char t[64];
	double cpu_time = c->cpu_time > 0 ? c->cpu_time : suites[c->suite].cpu_time;
	snprintf(t, sizeof t, "--time=%g", cpu_time);
	if (in_list(c->tests, "cpu")) {
		char *a1[] = { "--threads=1", t }, *a2[] = { "--threads=all", t };
		plan_addv(p, "cpu.1t", "cpu", 2, a1)->expect_s = cpu_time;
		plan_addv(p, "cpu.all", "cpu", 2, a2)->expect_s = cpu_time;
	}
	if (in_list(c->tests, "mem")) {
		char *a1[12] = { "--threads=1", t, "--tests=sysbench,stream,latency" };
		char *a2[12] = { "--threads=all", t, "--tests=sysbench,stream" };
		char extra[200], *save = NULL;
		int n1 = 3, n2 = 3;
		snprintf(extra, sizeof extra, "%s", suites[c->suite].mem_args);
		for (char *w = strtok_r(extra, " ", &save); w && n1 < 11; w = strtok_r(NULL, " ", &save)) {
			a1[n1++] = w;
			if (strncmp(w, "--latency", 9))
				a2[n2++] = w;
		}
		plan_addv(p, "mem.1t", "mem", n1, a1)->expect_s = cpu_time * 2;
		plan_addv(p, "mem.all", "mem", n2, a2)->expect_s = cpu_time * 2;
	}
	if (in_list(c->tests, "disk") && strcmp(c->disks, "none"))
		plan_disks(c, p);
	if (in_list(c->tests, "net") || in_list(c->tests, "dns"))
		plan_net(c, p, cpu_time);
}

/* the tests list names engines */
static int check_tests_list(const char *list, char *err, size_t n)
{
	if (!strcmp(list, "all"))
		return 0;
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t pl = comma ? (size_t)(comma - p) : strlen(p);
		char name[32];
		snprintf(name, sizeof name, "%.*s", (int)pl, p);
		if (pl >= sizeof name || !engine_find(name)) {
			size_t l = (size_t)snprintf(err, n, "tests=%s: unknown engine '%.*s'; accepted: all or a "
						      "comma list of", list, (int)pl, p);
			for (int i = 0; engines[i] && l < n; i++)
				l += (size_t)snprintf(err + l, n - l, " %s", engines[i]->name);
			return -1;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

/* ---- the kernel command line ---- */

struct cmdline_ctx {
	const struct opt *tab;
	void *cfg;
	struct json *errors;
};

static void cmdline_key(const char *key, const char *val, void *arg)
{
	struct cmdline_ctx *cx = arg;
	char err[1024];
	if (opt_find(boot_opts, key))
		return;   /* init's own */
	if (opt_set(cx->tab, cx->cfg, key, val, err, sizeof err)) {
		char line[1200];
		snprintf(line, sizeof line, "kernel command line: assay.%s; %s", err,
			 opt_find(cx->tab, key) ? "using the default" : "ignored");
		warn("%s", line);
		json_push(cx->errors, json_str(line));
	}
}

/* ---- one test in a child ---- */

static const char *signame(int s)
{
	switch (s) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	default: return "a signal";
	}
}

/* Returns the test's entry for the document. */
/* "[2/5] disk: 12 s, about 18 s left": on a terminal one line updated in place each
 * second; otherwise (a serial console) a new line every 10 s, plain text */
struct progress {
	int idx, n, tty;
	double next;
};

static void progress(struct progress *pg, const struct plan_item *it, double t0)
{
	double now = now_s(), el = now - t0;
	char eta[64] = "";
	if (!pg || now < pg->next)
		return;
	pg->next = now + (pg->tty ? 1 : 10);
	if (it->expect_s > 0)
		snprintf(eta, sizeof eta, ", about %.0f s left", it->expect_s > el ? it->expect_s - el : 0);
	if (pg->tty)
		fprintf(stderr, "\r[%2d/%d] %s: %.0f s%s\033[K", pg->idx, pg->n, it->name, el, eta);
	else
		fprintf(stderr, "[%2d/%d] %s: running, %.0f s%s\n", pg->idx, pg->n, it->name, el, eta);
}

static struct json *run_one(const struct plan_item *it, double timeout, struct progress *pg)
{
	struct json *t = json_obj(), *args, *res = NULL;
	int pfd[2], status = 0, timed_out = 0;
	pid_t pid;
	char *buf = NULL, err[256], why[300] = "";
	size_t len = 0, cap = 0;
	double t0 = now_s(), deadline = t0 + timeout;

	json_add_str(t, "name", it->name);
	json_add_str(t, "engine", it->eng->name);
	args = json_add_arr(t, "args");
	for (int i = 0; i < it->argc; i++)
		json_push(args, json_str(it->argv[i]));
	if (it->skip[0]) {
		json_add_str(t, "status", "skipped");
		json_add_str(t, "why", it->skip);
		json_add_num(t, "elapsed_s", 0);
		return t;
	}

	fflush(NULL);
	if (pipe2(pfd, O_CLOEXEC) || (pid = fork()) < 0) {
		snprintf(why, sizeof why, "cannot start the test: %s", strerror(errno));
		goto done;
	}
	if (pid == 0) {
		struct json *out;
		void *cfg;
		char *s;
		int rc;
		close(pfd[0]);
		signal(SIGPIPE, SIG_DFL);
		cfg = engine_config(it->eng, it->argc, (char **)it->argv);
		if (!cfg)
			_exit(EXIT_USAGE);
		out = json_obj();
		rc = it->eng->run(cfg, out);
		s = json_to_string(out, -1, &len);
		write_all(pfd[1], s, len);
		_exit(rc);
	}
	close(pfd[1]);
	for (;;) {
		struct pollfd pf = { pfd[0], POLLIN, 0 };
		double left = deadline - now_s();
		int r;
		if (left <= 0) {
			timed_out = 1;
			kill(pid, SIGKILL);
			break;
		}
		r = poll(&pf, 1, left > 1 ? 1000 : (int)(left * 1000) + 1);
		progress(pg, it, t0);
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		if (len + 65536 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 262144);
			if (!nb)
				break;
			buf = nb;
		}
		r = (int)read(pfd[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (buf && len) {
		buf[len] = 0;
		res = json_parse(buf, len, err, sizeof err);
		if (!res && !timed_out)
			snprintf(why, sizeof why, "the test's result could not be read (%s)", err);
	}
	if (timed_out)
		snprintf(why, sizeof why, "timed out after %.0f s: killed", timeout);
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof why, "crashed: killed by %s (%d)", signame(WTERMSIG(status)),
			 WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_USAGE)
		snprintf(why, sizeof why, "%s", res && json_get_str(res, "error", NULL)
			 ? json_get_str(res, "error", "") : "bad options for the engine");
	else if (WIFEXITED(status) && WEXITSTATUS(status) != EXIT_OK && !why[0]) {
		const char *e = res ? json_get_str(res, "error", NULL) : NULL;
		const char *s = res ? json_get_str(res, "skip_reason", NULL) : NULL;
		if (WEXITSTATUS(status) == EXIT_SKIP)
			snprintf(why, sizeof why, "%s", s ? s : "skipped");
		else
			snprintf(why, sizeof why, "%s", e ? e : "failed");
	}
done:
	free(buf);
	if (!why[0])
		json_add_str(t, "status", "ok");
	else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP && !timed_out)
		json_add_str(t, "status", "skipped");
	else
		json_add_str(t, "status", "failed");
	if (why[0])
		json_add_str(t, "why", why);
	json_add_num(t, "elapsed_s", now_s() - t0);
	if (res)
		json_add(t, "result", res);
	return t;
}

static void utc_now(char *b, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(b, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static double uptime_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_run(int argc, char **argv)
{
	struct run_cfg c;
	struct plan plan = { 0 };
	struct json *doc, *tests, *opts, *errors, *boot;
	char *pos[1], err[512], when[32];
	char *cmdtext = NULL, *cmdcopy = NULL, *txtbuf = NULL;
	size_t txtlen = 0;
	FILE *txt;
	int certified = EXIT_OK;
	int npos, failed = 0;
	double t0 = now_s();

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: assay run [options]\nRun a suite of tests and print the results "
			       "(text, then the JSON document between marker lines).\n\noptions:\n");
			opt_help(run_opts, stdout);
			return EXIT_OK;
		}
	opt_defaults(run_opts, &c);
	if (opt_parse(run_opts, &c, argc, argv, pos, &npos, 0))
		return EXIT_USAGE;

	errors = json_arr();
	if (c.cmdline) {
		struct cmdline_ctx cx = { run_opts, &c, errors };
		cmdtext = read_file(c.cmdline, 65536, NULL);
		if (!cmdtext) {
			warn("--cmdline=%s: cannot read:", c.cmdline);
		} else {
			/* the options point into this copy: it lives as long as the run */
			cmdcopy = strdup(cmdtext);
			cmdtext[strcspn(cmdtext, "\n")] = 0;
			if (cmdcopy)
				opt_cmdline_each(cmdcopy, "assay.", cmdline_key, &cx);
		}
	}
	if (check_tests_list(c.tests, err, sizeof err)) {
		if (!c.cmdline) {
			errmsg("--%s", err);
			return EXIT_USAGE;
		}
		warn("kernel command line: assay.%s; using all", err);
		json_push(errors, json_str(err));
		c.tests = "all";
	}
	make_plan(&c, &plan);

	doc = json_obj();
	json_add_int(doc, "schema_version", REPORT_SCHEMA_VERSION);
	json_add_str(doc, "assay_version", ASSAY_VERSION);
	utc_now(when, sizeof when);
	json_add_str(doc, "started_utc", when);
	boot = json_add_obj(doc, "boot");
	json_add_bool(boot, "in_image", getenv("ASSAY_IMAGE") != NULL);
	json_add_num(boot, "uptime_at_start_s", uptime_s());
	if (cmdtext)
		json_add_str(boot, "cmdline", cmdtext);
	opts = json_add_obj(doc, "options");
	json_add_str(opts, "suite", suite_names[c.suite]);
	json_add_str(opts, "tests", c.tests);
	json_add_str(opts, "disks", c.disks);
	json_add_str(opts, "mode", c.mode == MODE_READONLY ? "readonly" : c.mode == MODE_REWRITE ? "rewrite" : "destroy");
	json_add(doc, "option_errors", errors);
	json_add(doc, "machine", sysinfo_json());
	{
		/* what init did to the NICs: DHCP leases, timings, failures */
		FILE *nf = fopen("/run/assay-net", "r");
		char line[300];
		struct json *na = nf ? json_add_arr(doc, "network_setup") : NULL;
		while (nf && fgets(line, sizeof line, nf)) {
			line[strcspn(line, "\n")] = 0;
			json_push(na, json_str(line));
		}
		if (nf)
			fclose(nf);
	}
	tests = json_add_arr(doc, "tests");

	fprintf(stderr, "assay %s: %s suite, %d test%s\n", ASSAY_VERSION, suite_names[c.suite],
		plan.n, plan.n == 1 ? "" : "s");
	txt = open_memstream(&txtbuf, &txtlen);
	for (int i = 0; i < plan.n; i++) {
		struct json *t;
		const char *st;
		struct progress pg = { i + 1, plan.n, isatty(2), now_s() + (isatty(2) ? 2 : 10) };
		fprintf(stderr, "[%2d/%d] %s: start\n", i + 1, plan.n, plan.it[i].name);
		/* the default watchdog allows at least twice what the test is planned to take (a
		 * surface scan given hours of assay.disk-time); one the user gave is kept */
		t = json_push(tests, run_one(&plan.it[i], c.test_timeout != DEFAULT_TEST_TIMEOUT ||
							 c.test_timeout > 2 * plan.it[i].expect_s + 60 ? c.test_timeout
							 : 2 * plan.it[i].expect_s + 60, &pg));
		st = json_get_str(t, "status", "?");
		failed += !strcmp(st, "failed");
		fprintf(stderr, "%s[%2d/%d] %s: %s in %.1f s%s%s\n", pg.tty ? "\r\033[K" : "", i + 1, plan.n,
			plan.it[i].name, st, json_get_num(t, "elapsed_s", 0), json_get(t, "why") ? ": " : "",
			json_get_str(t, "why", ""));
		if (json_get(t, "result")) {
			FILE *outs[2] = { c.common.format == 0 ? stdout : NULL, txt };
			for (int k = 0; k < 2; k++) {
				if (!outs[k])
					continue;
				fprintf(outs[k], "\n== %s ==\n", plan.it[i].name);
				plan.it[i].eng->text(json_get(t, "result"), outs[k]);
				fprintf(outs[k], "\n");
				fflush(outs[k]);
			}
		}
	}
	json_add_num(doc, "duration_s", now_s() - t0);
	json_add_str(doc, "status", failed ? "failed" : "ok");
	report_summary(doc);
	{
		FILE *outs[2] = { c.common.format == 0 ? stdout : NULL, txt };
		for (int k = 0; k < 2; k++)
			if (outs[k])
				report_table(doc, outs[k]);
	}
	if (c.certify) {
		struct json *cert = json_obj();
		char *ctext = NULL;
		size_t clen = 0;
		FILE *cs = open_memstream(&ctext, &clen);
		int r = cs ? certify_run(c.certify, doc, cert, cs, err, sizeof err) : -1;
		if (r >= 0)
			fprintf(cs, "\n######## CERTIFY %s: %s ########\n", c.certify, r ? "FAIL" : "PASS");
		else
			fprintf(cs, "certify: %s\n", err);
		if (cs)
			fclose(cs);
		if (r < 0) {
			warn("certify: %s", err);
			json_add_str(cert, "profile", c.certify);
			json_add_str(cert, "error", err);
		}
		certified = r < 0 ? EXIT_USAGE : r ? EXIT_FAIL : EXIT_OK;
		json_add(doc, "certify", cert);
		fprintf(c.common.format == 0 ? stdout : stderr, "\n== certify: %s ==\n%s", c.certify,
			ctext ? ctext : "");
		fprintf(txt, "\n== certify: %s ==\n%s", c.certify, ctext ? ctext : "");
		free(ctext);
	}
	fclose(txt);
	if (strcmp(c.results, "none")) {
		struct json *res = json_obj();
		char where[600], rerr[600];
		int r = !strcmp(c.results, "auto")
			? results_store(doc, txtbuf, txtlen, where, sizeof where, rerr, sizeof rerr)
			: results_write_dir(c.results, doc, txtbuf, txtlen, where, sizeof where, rerr, sizeof rerr);
		if (r) {
			warn("results not written: %s", rerr);
			json_add_str(res, "error", rerr);
		} else {
			info("results written to %s", where);
			json_add_str(res, "written", where);
		}
		json_add(doc, "results", res);
	}
	if (c.common.format == 1)
		json_print(stdout, doc, 2);
	else
		report_block(doc, stdout);
	fflush(stdout);
	json_free(doc);
	free(cmdtext);
	free(cmdcopy);
	free(txtbuf);
	if (certified == EXIT_USAGE)
		return EXIT_USAGE;
	return failed || certified ? EXIT_FAIL : EXIT_OK;
}
