/* assay run: a suite of tests, each an engine command line run in a child with a
 * watchdog; the results go into one versioned document (docs/results.md). */
#include "commands.h"
#include "suite.h"

#include "blkdev.h"
#include "blkstall.h"
#include "bootopts.h"
#include "report/certify.h"
#include "report/results.h"
#include "report/inbox.h"
#include "disk/job.h"
#include "disk/disk.h"
#include "clock.h"
#include "cpustat.h"
#include "report/figures.h"
#include "engine.h"
#include "fileio.h"
#include "json.h"
#include "msg.h"
#include "report/report.h"
#include "sysinfo.h"
#include "health/health.h"

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

static const char *const suite_names[] = { "quick", "standard", "full", "burnin" };

#define DEFAULT_TEST_TIMEOUT 1800   /* s; the option's default below */
#define SHELL_RESULTS "/run/assay"  /* assay.after=shell: the result files for the console user */


#define FORMAT_OPENMETRICS FORMAT_TERSE   /* run's third output format */

const struct opt run_opts[] = {
	{ "output-format", 0, OPT_ENUM, offsetof(struct run_cfg, common.format), "normal", 0, 0,
	  "normal|json|openmetrics", "output format (openmetrics: the figures for Prometheus' tools, "
	  "after the progress lines on stderr)", 0 },
	{ "json", 'J', OPT_ALIAS, 0, NULL, 0, 0, "output-format=json", "same as --output-format=json", OPT_NOARG },
	{ "textfile", 0, OPT_STR, offsetof(struct run_cfg, textfile), NULL, 0, 0, "PATH.prom",
	  "also write the figures as OpenMetrics text to PATH for node_exporter's textfile collector "
	  "(atomically)", 0 },
	{ "suite", 0, OPT_ENUM, offsetof(struct run_cfg, suite), "quick", 0, 0,
	  "quick|standard|full|burnin", "how long and how thorough (burnin: rounds of stress and checks "
	  "for --burnin)", 0 },
	{ "burnin", 0, OPT_TIME, offsetof(struct run_cfg, burnin), "1h", 1, 30 * 86400, NULL,
	  "the burn-in suite's length: rounds run until it is spent (8h, 30m)", 0 },
	{ "tests", 0, OPT_STR, offsetof(struct run_cfg, tests), "all", 0, 0,
	  "a comma list of engines (cpu) or all", "which engines run", 0 },
	{ "cpu-time", 0, OPT_TIME, offsetof(struct run_cfg, cpu_time), "0", 0, 86400, NULL,
	  "seconds per CPU test (0: the suite's default)", 0 },
	{ "test-timeout", 0, OPT_TIME, offsetof(struct run_cfg, test_timeout), "1800", 1, 86400, NULL,
	  "watchdog per test: a test still running is killed and marked failed", 0 },
	{ "fault", 0, OPT_STR, offsetof(struct run_cfg, fault), NULL, 0, 0, "TEST:segv|hang,...",
	  "testing aid: the named test's child crashes or hangs at its start (docs/reliability.md)", OPT_HIDDEN },
	{ "disks", 0, OPT_STR, offsetof(struct run_cfg, disks), "all", 0, 0,
	  "all, none, or a comma list of disk names (vda,nvme0n1)", "which disks the disk tests use", 0 },
	{ "mode", 0, OPT_ENUM, offsetof(struct run_cfg, mode), "readonly", 0, 0, MODE_CHOICES,
	  "readonly: no writes; rewrite: writes back what it read; destroy: random data, only on "
	  "disks named in --destroy", 0 },
	{ "destroy", 0, OPT_STR, offsetof(struct run_cfg, destroy), NULL, 0, 0,
	  "NAME:serial=S or NAME:size=BYTES (':force' to allow a partition table/filesystem), comma separated",
	  "the disks --mode=destroy may write, each with its serial or exact size", 0 },
	{ "disk-time", 0, OPT_TIME, offsetof(struct run_cfg, disk_time), "0", 0, 86400, NULL,
	  "seconds per time-based disk job (0: the suite's default)", 0 },
	{ "disk-repeat", 0, OPT_INT, offsetof(struct run_cfg, disk_repeat), "suite", 1, 100, "auto=0,suite=-1",
	  "each disk test's passes: N, or auto (again until each job's IOPS has its 95% CI within +-3%, "
	  "3 to 5 passes); suite: the suite's (standard: auto)", 0 },
	{ "disk-profile", 0, OPT_STR, offsetof(struct run_cfg, disk_profile), NULL, 0, 0,
	  "a comma list of assay disk profiles", "disk profiles (default: the suite's)", 0 },
	{ "disk-ioscheduler", 0, OPT_STR, offsetof(struct run_cfg, disk_sched), NULL, 0, 0,
	  "none, mq-deadline, bfq or kyber", "each disk's I/O scheduler for its tests, put back after "
	  "(disk --ioscheduler; default: as it is)", 0 },
	{ "iperf", 0, OPT_STR, offsetof(struct run_cfg, iperf), NULL, 0, 0, "HOST[:PORT][:udp[:RATE]]",
	  "an iperf3 server for the TCP throughput tests; with udp also a UDP test at RATE bits/s "
	  "(default 100M): loss and jitter", 0 },
	{ "ping", 0, OPT_STR, offsetof(struct run_cfg, ping), NULL, 0, 0, "HOST[:TCPPORT]",
	  "a host for latency: ICMP echo, and TCP connect time when a port is given", 0 },
	{ "http", 0, OPT_STR, offsetof(struct run_cfg, http), NULL, 0, 0, "http://host[:port]/path",
	  "a file to download for HTTP throughput", 0 },
	{ "dns", 0, OPT_STR, offsetof(struct run_cfg, dns), NULL, 0, 0, "SERVER[:PORT], or dhcp",
	  "a DNS server for the query rate test (dhcp: the resolver DHCP gave)", 0 },
	{ "dns-file", 0, OPT_STR, offsetof(struct run_cfg, dns_file), NULL, 0, 0, "a file of 'name type' lines",
	  "the DNS queries (default: a built-in list of common names)", 0 },
	{ "net-time", 0, OPT_TIME, offsetof(struct run_cfg, net_time), "0", 0, 86400, NULL,
	  "seconds per network test (0: the suite's default)", 0 },
	{ "memtest-size", 0, OPT_STR, offsetof(struct run_cfg, memtest_size), "auto", 0, 0, "auto or a size (4g)",
	  "memory the memory test locks and tests (memtest --size; it runs in the full suite or when "
	  "--tests names memtest)", 0 },
	{ "memtest-time", 0, OPT_TIME, offsetof(struct run_cfg, memtest_time), "0", 0, 30 * 86400, NULL,
	  "the memory test stops after the pattern running at this time (0: one pass of every pattern)", 0 },
	{ "results", 0, OPT_STR, offsetof(struct run_cfg, results), "none", 0, 0,
	  "none, auto (the FAT partition labelled ASSAY), a directory, or inbox:... (set by assay kexec "
	  "--results-to)",
	  "where the result files (.json, .txt, .html) go besides the console", 0 },
	{ "push", 0, OPT_STR, offsetof(struct run_cfg, push), NULL, 0, 0, "URL[,URL...]",
	  "send the results: a Pushgateway URL (http://HOST:9091/metrics/job/NAME) gets the figures as "
	  "Prometheus text, grouped by machine; any other http(s):// URL the JSON document (POST); "
	  "5 tries with backoff", 0 },
	{ "push-ca", 0, OPT_STR, offsetof(struct run_cfg, push_ca), NULL, 0, 0, "PEM file",
	  "https pushes: the CAs the server's certificate must chain to (in the image: file:NAME on the ASSAY "
	  "partition; on a host the system's bundle by default)", 0 },
	{ "push-pin", 0, OPT_STR, offsetof(struct run_cfg, push_pin), NULL, 0, 0, "sha256:HEX",
	  "https pushes: accept only the server certificate with this SHA-256 fingerprint (openssl x509 "
	  "-noout -fingerprint -sha256), instead of a CA", 0 },
	{ "push-insecure", 0, OPT_BOOL, offsetof(struct run_cfg, push_insecure), NULL, 0, 0, NULL,
	  "https pushes: do not verify the server at all (said on every push)", 0 },
	{ "push-timeout", 0, OPT_TIME, offsetof(struct run_cfg, push_timeout), "10", 0.1, 600, "seconds",
	  "how long one push attempt may take, connect to answer (a slow collector)", 0 },
	{ "certify", 0, OPT_STR, offsetof(struct run_cfg, certify), NULL, 0, 0,
	  "vps-tasting, hw-certify, surface, ci, or a profile file", "check the figures against threshold "
	  "rules; the exit status is the verdict", 0 },
	{ "steal-limit", 0, OPT_FLOAT, offsetof(struct run_cfg, steal_limit), "5", 0, 100, "percent",
	  "steal time above which the run's figures are flagged as suspect (noisy neighbours)", 0 },
	{ "cmdline", 0, OPT_STR, offsetof(struct run_cfg, cmdline), NULL, 0, 0, "a file path",
	  "also read assay.KEY=VALUE options from FILE (/proc/cmdline in the image); "
	  "bad ones are reported and ignored", 0 },
	OPT_END,
};

int in_list(const char *list, const char *word)
{
	return !strcmp(list, "all") || list_has(list, word);
}

int suite_wants(const struct run_cfg *c, const char *engine)
{
	return in_list(c->tests, engine);
}

struct plan_item *plan_add(struct run_plan *p, const char *name, const char *engine, int argc, char **argv,
			   double expect_s)
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
	it->expect_s = expect_s;
	return it;
}

void plan_skip(struct plan_item *it, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(it->skip, sizeof it->skip, fmt, ap);
	va_end(ap);
}

static const struct suite_def suites[] = {
	[SUITE_QUICK] = { 2, 2, 3, "seq,qd1,qd8", 1,
			  "--stream-array-size=16m --stream-ntimes=4 --latency-max=16m --latency-repeats=2" },
	/* disk: each job 4 s, again until its IOPS' 95% CI is within +-3% (3 to 5 passes) */
	[SUITE_STANDARD] = { 10, 4, 10, "seq,qd1,qd8,randrw64,randwrite4,randread16x4,latency", 0, "" },
	[SUITE_FULL] = { 30, 30, 30, "seq,qd1,qd8,randrw64,randwrite4,randread16x4,latency", 3,
			 "--stream-ntimes=20 --latency-repeats=5" },
	/* a round: CPU 2 x 60 s verified, memory, memtest, a verified write pass on the disks
	 * destroy names (scanwrite) and a read scan, each disk job up to 120 s */
	[SUITE_BURNIN] = { 60, 120, 30, "scanwrite,scan", 1, "--stream-ntimes=4" },
};

const struct suite_def *suite_def(const struct run_cfg *c)
{
	return &suites[c->suite];
}

double suite_cpu_time(const struct run_cfg *c)
{
	return c->cpu_time > 0 ? c->cpu_time : suites[c->suite].cpu_time;
}

double suite_disk_time(const struct run_cfg *c)
{
	return c->disk_time > 0 ? c->disk_time : suites[c->suite].disk_time;
}

double suite_net_time(const struct run_cfg *c)
{
	return c->net_time > 0 ? c->net_time : suites[c->suite].net_time;
}

/* every engine adds its tests, in the registry's order */
static void make_plan(const struct run_cfg *c, struct run_plan *p)
{
	for (int i = 0; engines[i]; i++)
		if (engines[i]->plan)
			engines[i]->plan(p, c);
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
	struct boot_cfg *boot;
};

static void cmdline_key(const char *key, const char *val, void *arg)
{
	struct cmdline_ctx *cx = arg;
	char err[1024];
	if (opt_find(boot_opts, key)) {
		opt_set(boot_opts, cx->boot, key, val, err, sizeof err);   /* init's: it says what is wrong */
		return;
	}
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

/* assay.fault=TEST:segv|hang,... (hidden, docs/reliability.md): the named tests' children
 * crash or hang as they start, so the boot tests can prove the crash path and the
 * watchdog on the real image */
static const char *fault;

static void inject_fault(const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = fault; p && *p;) {
		size_t l = strcspn(p, ",");
		if (l > nl + 1 && !strncmp(p, name, nl) && p[nl] == ':') {
			if (!strncmp(p + nl + 1, "segv", l - nl - 1))
				raise(SIGSEGV);
			else if (!strncmp(p + nl + 1, "hang", l - nl - 1))
				for (;;)
					pause();
		}
		p += l + (p[l] == ',');
	}
}

/* A test the watchdog ends while a disk has I/O in flight and no completion for
 * STALL_MIN_S: the disk stopped answering, it is marked stuck (blkstall_mark) and not read
 * again (later tests on it fail at once, the results search passes it by).  A child that
 * has not ended KILL_WAIT_S after SIGKILL waits on I/O the kernel cannot cancel: it is
 * left behind. */
#define KILL_WAIT_S 20
#define STALL_MIN_S 5       /* no completion for this long with I/O in flight: stalled */

/* the first stuck disk the test names (/dev/NAME in an argument), or NULL */
static const char *names_stuck_disk(const struct plan_item *it, char *name, size_t n)
{
	for (int i = 0; i < it->argc; i++)
		for (const char *m = it->argv[i]; (m = strstr(m, "/dev/")); m += 5) {
			snprintf(name, n, "%.*s", (int)strcspn(m + 5, ":, "), m + 5);
			if (blkstall_stuck(name))
				return name;
		}
	return NULL;
}

/* reap the test's child; past deadline it is killed, and given KILL_WAIT_S to end:
 * 0 reaped (*status), -1 left behind */
static int reap(pid_t pid, int *status, double deadline, int *timed_out)
{
	double give_up = *timed_out ? now_s() + KILL_WAIT_S : 0;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!*timed_out && now_s() >= deadline) {
			kill(pid, SIGKILL);
			*timed_out = 1;
			give_up = now_s() + KILL_WAIT_S;
		}
		if (*timed_out && now_s() >= give_up)
			return -1;
		usleep(20000);
	}
}

/* the why of a test the watchdog ended: the disks that stalled, whether it ended */
static void timed_out_why(char *why, size_t n, double timeout, const char *stall, int left)
{
	snprintf(why, n, "timed out after %.0f s: killed%s%s%s", timeout, stall[0] ? "; " : "", stall,
		 left ? "; it did not end (waiting on I/O in the kernel): left behind" : "");
}

static struct json *run_one(const struct plan_item *it, double timeout, struct progress *pg,
			    struct health_run *health)
{
	struct json *t = json_obj(), *args, *res = NULL;
	int pfd[2], status = 0, timed_out = 0;
	pid_t pid;
	char *buf = NULL, err[256], why[700] = "", stall[400] = "", disk[48];
	size_t len = 0, cap = 0;
	double t0 = now_s(), deadline = t0 + timeout;
	struct cpusnap before, after;
	struct cpuload load;
	struct blkstall bs = { 0 };
	int left = 0;

	json_add_str(t, "name", it->name);
	json_add_str(t, "engine", it->eng->name);
	args = json_add_arr(t, "args");
	for (int i = 0; i < it->argc; i++)
		json_push(args, json_str(it->argv[i]));
	if (!it->skip[0] && names_stuck_disk(it, disk, sizeof disk)) {
		fprintf(stderr, "assay: error: disk %s stopped answering: not measured\n", disk);
		json_add_str(t, "status", "failed");
		snprintf(why, sizeof why, "%s stopped answering (a read waited over %d s, or an earlier test's "
			 "I/O never completed): not measured", disk, BLKSTALL_READ_S);
		json_add_str(t, "why", why);
		json_add_num(t, "elapsed_s", 0);
		return t;
	}
	if (it->skip[0]) {
		json_add_str(t, "status", "skipped");
		json_add_str(t, "why", it->skip);
		json_add_num(t, "elapsed_s", 0);
		return t;
	}

	fflush(NULL);
	cpusnap_take(&before);
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
		inject_fault(it->name);
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
	blkstall_tick(&bs, t0);
	for (;;) {
		struct pollfd pf = { pfd[0], POLLIN, 0 };
		double rest = deadline - now_s();
		int r;
		if (rest <= 0) {
			double now = now_s();
			blkstall_describe(&bs, now, STALL_MIN_S, stall, sizeof stall);
			blkstall_mark_stalled(&bs, now, STALL_MIN_S);   /* not read again in this run */
			timed_out = 1;
			kill(pid, SIGKILL);
			break;
		}
		r = poll(&pf, 1, rest > 1 ? 1000 : (int)(rest * 1000) + 1);
		progress(pg, it, t0);
		health_tick(health);
		blkstall_tick(&bs, now_s());
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
	left = reap(pid, &status, deadline, &timed_out) < 0;
	if (left)
		status = 0;
	cpusnap_take(&after);
	cpuload_between(&before, &after, &load);
	if (load.have_stat)
		json_add_num(t, "steal_pct", load.steal_pct);
	if (buf && len) {
		buf[len] = 0;
		res = json_parse(buf, len, err, sizeof err);
		if (!res && !timed_out)
			snprintf(why, sizeof why, "the test's result could not be read (%s)", err);
	}
	if (timed_out)
		timed_out_why(why, sizeof why, timeout, stall, left);
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

static double uptime_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* assay run's options: the words, then assay.KEY=VALUE keys of --cmdline's file (bad ones
 * a warning each, in errors); 0, or -1 after a one-line error */
static int read_options(struct run_cfg *c, int argc, char **argv, struct json *errors, char **cmdtext,
			char **cmdcopy)
{
	char *pos[1], err[512];
	int npos;
	struct boot_cfg boot;
	opt_defaults(run_opts, c);
	opt_defaults(boot_opts, &boot);
	if (opt_parse(run_opts, c, argc, argv, pos, &npos, 0))
		return -1;
	if (c->cmdline) {
		struct cmdline_ctx cx = { run_opts, c, errors, &boot };
		*cmdtext = read_file(c->cmdline, 65536, NULL);
		if (!*cmdtext) {
			warn("--cmdline=%s: cannot read:", c->cmdline);
		} else {
			/* the options point into this copy: it lives as long as the run */
			*cmdcopy = strdup(*cmdtext);
			(*cmdtext)[strcspn(*cmdtext, "\n")] = 0;
			if (*cmdcopy)
				opt_cmdline_each(*cmdcopy, "assay.", cmdline_key, &cx);
		}
	}
	if (disk_check_list(c->disks, err, sizeof err)) {
		if (!c->cmdline) {
			errmsg("--%s", err);
			return -1;
		}
		warn("kernel command line: assay.%s; measuring the disks found", err);
		json_push(errors, json_str(err));
		c->disks = "all";
	}
	if (!strncmp(c->results, "inbox:", 6)) {
		struct inbox_map m;
		if (inbox_parse(c->results, &m, err, sizeof err)) {
			if (!c->cmdline) {
				errmsg("--%s", err);
				return -1;
			}
			warn("kernel command line: assay.%s; the results stay on the console", err);
			json_push(errors, json_str(err));
			c->results = "none";
		}
	}
	c->after = boot.after;
	c->pause = boot.pause;
	if (check_tests_list(c->tests, err, sizeof err)) {
		if (!c->cmdline) {
			errmsg("--%s", err);
			return -1;
		}
		warn("kernel command line: assay.%s; using all", err);
		json_push(errors, json_str(err));
		c->tests = "all";
	}
	return 0;
}

/* the result document's head: versions, boot, options, the machine, the network setup */
static struct json *doc_begin(const struct run_cfg *c, const char *cmdtext, struct json *errors)
{
	struct json *doc = json_obj(), *boot, *opts;
	char when[32], line[300];
	FILE *nf;
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
	json_add_str(opts, "suite", suite_names[c->suite]);
	json_add_str(opts, "tests", c->tests);
	json_add_str(opts, "disks", c->disks);
	json_add_str(opts, "mode", mode_names[c->mode]);
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

/* every test of the plan, one after another: its entry in tests, its text to the outputs
 * (stdout in normal format, and the results' .txt); the number that failed */
int suite_run_tests(const struct run_cfg *c, const struct run_plan *plan, struct json *tests, FILE *txt,
		    struct health_run *health)
{
	int failed = 0;
	fault = c->fault;
	for (int i = 0; i < plan->n; i++) {
		const struct plan_item *it = &plan->it[i];
		FILE *outs[2] = { c->common.format == FORMAT_NORMAL ? stdout : NULL, txt };
		struct progress pg = { i + 1, plan->n, isatty(2), now_s() + (isatty(2) ? 2 : 10) };
		struct json *t;
		const char *st;
		fprintf(stderr, "[%2d/%d] %s: start\n", i + 1, plan->n, it->name);
		/* the default watchdog allows at least twice what the test is planned to take (a
		 * surface scan given hours of assay.disk-time); one the user gave is kept */
		health_test_begin(health, it->name);
		t = json_push(tests, run_one(it, c->test_timeout != DEFAULT_TEST_TIMEOUT ||
						   c->test_timeout > 2 * it->expect_s + 60 ? c->test_timeout
						   : 2 * it->expect_s + 60, &pg, health));
		health_test_end(health, t);
		st = json_get_str(t, "status", "?");
		failed += !strcmp(st, "failed");
		fprintf(stderr, "%s[%2d/%d] %s: %s in %.1f s, steal %.1f%%%s%s\n", pg.tty ? "\r\033[K" : "", i + 1,
			plan->n, it->name, st, json_get_num(t, "elapsed_s", 0), json_get_num(t, "steal_pct", 0),
			json_get(t, "why") ? ": " : "", json_get_str(t, "why", ""));
		for (int k = 0; k < 2 && json_get(t, "result"); k++) {
			if (!outs[k])
				continue;
			fprintf(outs[k], "\n== %s ==\n", it->name);
			it->eng->text(json_get(t, "result"), outs[k]);
			fprintf(outs[k], "\n");
			fflush(outs[k]);
		}
	}
	return failed;
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
		warn("certify: %s; the tests run, the verdict will be 'bad rules' (exit 2)", err);
		return;
	}
	certify_disk_profiles(c->certify_rules, c->certify_disk, sizeof c->certify_disk);
}

/* --certify: the rules' verdict into doc.certify and the text; EXIT_OK, EXIT_FAIL, or
 * EXIT_USAGE for rules that could not be read */
static int certify_doc(const struct run_cfg *c, struct json *doc, FILE *txt)
{
	struct json *cert = json_obj();
	char *ctext = NULL, err[600];
	size_t clen = 0;
	FILE *cs = open_memstream(&ctext, &clen);
	int r = !c->certify_rules ? (snprintf(err, sizeof err, "%s", c->certify_error), -1) : cs
		? certify_text(c->certify, c->certify_rules, doc, NULL, -1, cert, cs, err, sizeof err) : -1;
	if (!cs)
		snprintf(err, sizeof err, "out of memory");
	else if (r >= 0)
		fprintf(cs, "\n######## CERTIFY %s: %s ########\n", c->certify, r ? "FAIL" : "PASS");
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
	return r < 0 ? EXIT_USAGE : r ? EXIT_FAIL : EXIT_OK;
}

/* --results: the .json and .txt written (the ASSAY partition, or a directory); where,
 * or the error, into doc.results */
static void store_results(const struct run_cfg *c, struct json *doc, const char *txt, size_t len)
{
	struct json *res = json_obj();
	char where[600], err[600];
	int r = !strcmp(c->results, "auto")
		? results_store(doc, txt, len, where, sizeof where, err, sizeof err)
		: !strncmp(c->results, "inbox:", 6)
		? inbox_store(c->results, doc, txt, len, where, sizeof where, err, sizeof err)
		: results_write_dir(c->results, doc, txt, len, where, sizeof where, err, sizeof err);
	if (r) {
		warn("results not written: %s", err);
		json_add_str(res, "error", err);
	} else {
		info("results written to %s", where);
		json_add_str(res, "written", where);
	}
	json_add(doc, "results", res);
}

void suite_store_interim(const struct run_cfg *c, const struct json *doc, const struct json *tests)
{
	struct json *d = json_copy(doc);
	json_free(json_detach(d, "tests"));
	json_add(d, "tests", json_copy(tests));
	json_add_str(d, "status", "running");
	report_summary(d);
	store_results(c, d, "", 0);
	json_free(d);
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

int cmd_run(int argc, char **argv)
{
	struct run_cfg c;
	struct run_plan plan = { 0 };
	struct json *doc, *tests, *errors = json_arr();
	char *cmdtext = NULL, *cmdcopy = NULL, *txtbuf = NULL;
	size_t txtlen = 0;
	FILE *txt;
	int certified = EXIT_OK, failed;
	double t0 = now_s();
	struct health_run *health;

	if (read_options(&c, argc, argv, errors, &cmdtext, &cmdcopy)) {
		json_free(errors);
		return EXIT_USAGE;
	}
	if (c.certify)
		certify_prepare(&c);
	make_plan(&c, &plan);
	doc = doc_begin(&c, cmdtext, errors);
	tests = json_add_arr(doc, "tests");
	{
		double planned = 0;
		for (int i = 0; i < plan.n; i++)
			planned += plan.it[i].skip[0] ? 0 : plan.it[i].expect_s;
		/* a burn-in: rounds of the plan until its length is spent, and the last round */
		if (c.suite == SUITE_BURNIN)
			planned = c.burnin + planned;
		fprintf(stderr, "assay %s: %s suite, %d test%s, planned about %.0f s\n", ASSAY_VERSION,
			suite_names[c.suite], plan.n, plan.n == 1 ? "" : "s", planned);
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
		failed = suite_run_tests(&c, &plan, tests, txt, health);
	}
	health_end(health, doc);
	json_add_num(doc, "duration_s", now_s() - t0);
	json_add_str(doc, "status", failed ? "failed" : "ok");
	report_summary(doc);
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
	if (strcmp(c.results, "none"))
		store_results(&c, doc, txtbuf, txtlen);
	if (c.after == AFTER_SHELL && getenv("ASSAY_IMAGE")) {
		/* the shell's user finds the files where the screen says */
		char where[600], err[600];
		if (results_write_dir(SHELL_RESULTS, doc, txtbuf, txtlen, where, sizeof where, err, sizeof err))
			warn("results not written to " SHELL_RESULTS ": %s", err);
		else if (!json_get(doc, "results"))
			json_add_str(json_add_obj(doc, "results"), "written", where);
	}
	if (c.push)
		report_push(c.push, &(struct push_opts){ c.push_ca, c.push_pin, c.push_insecure, c.push_timeout }, doc);
	if (c.textfile) {
		char err[600];
		if (export_textfile(c.textfile, doc, err, sizeof err))
			warn("%s", err);
	}
	if (c.common.format == FORMAT_JSON)
		json_print(stdout, doc, 2);
	else if (c.common.format == FORMAT_OPENMETRICS)
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
