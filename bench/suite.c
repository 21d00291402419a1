/* assay run: a suite of tests, each an engine command line run in a child with a
 * watchdog; the results go into one versioned document (docs/results.md). */
#include "suite.h"
#include "bootopts.h"
#include "clock.h"
#include "engine.h"
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

struct run_cfg {
	struct common_cfg common;
	int suite;
	const char *tests;
	double cpu_time;
	double test_timeout;
	const char *cmdline;
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
};

struct plan {
	int n;
	struct plan_item it[MAX_TESTS];
};

static int wanted(const char *list, const char *engine)
{
	size_t l = strlen(engine);
	if (!strcmp(list, "all"))
		return 1;
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t pl = comma ? (size_t)(comma - p) : strlen(p);
		if (pl == l && !strncmp(p, engine, l))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

static void plan_add(struct plan *p, const char *name, const char *engine, ...)
{
	struct plan_item *it;
	va_list ap;
	const char *a;
	if (p->n >= MAX_TESTS)
		die(EXIT_SYS, "internal: too many tests in the plan");
	it = &p->it[p->n++];
	snprintf(it->name, sizeof it->name, "%s", name);
	it->eng = engine_find(engine);
	if (!it->eng)
		die(EXIT_SYS, "internal: no engine %s", engine);
	va_start(ap, engine);
	while ((a = va_arg(ap, const char *)) && it->argc < MAX_ARGS - 1)
		it->argv[it->argc++] = strdup(a);
	va_end(ap);
}

static void make_plan(const struct run_cfg *c, struct plan *p)
{
	char t[64];
	static const double cpu_default[] = { 2, 10, 30 };
	double cpu_time = c->cpu_time > 0 ? c->cpu_time : cpu_default[c->suite];

	snprintf(t, sizeof t, "--time=%g", cpu_time);
	if (wanted(c->tests, "cpu")) {
		plan_add(p, "cpu.1t", "cpu", "--threads=1", t, (char *)NULL);
		plan_add(p, "cpu.all", "cpu", "--threads=all", t, (char *)NULL);
	}
}

static int check_tests_list(const char *list, char *err, size_t n)
{
	static const char *known[] = { "cpu" };
	if (!strcmp(list, "all"))
		return 0;
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t pl = comma ? (size_t)(comma - p) : strlen(p);
		int ok = 0;
		for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
			ok |= strlen(known[i]) == pl && !strncmp(p, known[i], pl);
		if (!ok) {
			snprintf(err, n, "tests=%s: unknown engine '%.*s'; accepted: all or a comma list of cpu",
				 list, (int)pl, p);
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

static char *slurp(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	size_t n = 0;
	if (fd < 0)
		return NULL;
	buf = malloc(max + 1);
	while (buf && n < max) {
		ssize_t r = read(fd, buf + n, max - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (buf)
		buf[n] = 0;
	if (len)
		*len = n;
	return buf;
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

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Returns the test's entry for the document. */
static struct json *run_one(const struct plan_item *it, double timeout)
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
		snprintf(why, sizeof why, "bad options for the engine");
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
	char *cmdtext = NULL;
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
		cmdtext = slurp(c.cmdline, 65536, NULL);
		if (!cmdtext) {
			warn("--cmdline=%s: cannot read:", c.cmdline);
		} else {
			char *copy = strdup(cmdtext);
			cmdtext[strcspn(cmdtext, "\n")] = 0;
			opt_cmdline_each(copy, "assay.", cmdline_key, &cx);
			free(copy);
		}
	}
	if (check_tests_list(c.tests, err, sizeof err)) {
		if (!c.cmdline) {
			warn("--%s", err);
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
	json_add(doc, "option_errors", errors);
	json_add(doc, "machine", sysinfo_json());
	tests = json_add_arr(doc, "tests");

	fprintf(stderr, "assay %s: %s suite, %d test%s\n", ASSAY_VERSION, suite_names[c.suite],
		plan.n, plan.n == 1 ? "" : "s");
	for (int i = 0; i < plan.n; i++) {
		struct json *t;
		const char *st;
		fprintf(stderr, "[%2d/%d] %s: start\n", i + 1, plan.n, plan.it[i].name);
		t = json_push(tests, run_one(&plan.it[i], c.test_timeout));
		st = json_get_str(t, "status", "?");
		failed += !strcmp(st, "failed");
		fprintf(stderr, "[%2d/%d] %s: %s in %.1f s%s%s\n", i + 1, plan.n, plan.it[i].name, st,
			json_get_num(t, "elapsed_s", 0), json_get(t, "why") ? ": " : "",
			json_get_str(t, "why", ""));
		if (c.common.format == 0 && json_get(t, "result")) {
			printf("\n== %s ==\n", plan.it[i].name);
			plan.it[i].eng->text(json_get(t, "result"), stdout);
			printf("\n");
			fflush(stdout);
		}
	}
	json_add_num(doc, "duration_s", now_s() - t0);
	json_add_str(doc, "status", failed ? "failed" : "ok");
	report_summary(doc);
	if (c.common.format == 1) {
		json_print(stdout, doc, 2);
	} else {
		report_table(doc, stdout);
		report_block(doc, stdout);
	}
	fflush(stdout);
	json_free(doc);
	free(cmdtext);
	return failed ? EXIT_FAIL : EXIT_OK;
}
