/* One test in a child, with a watchdog: the engine's command line read and run in a
 * forked process that sends its JSON result back through a pipe; the parent shows
 * progress, samples health and the disks, kills a test past its time and says why
 * (run.h). */
#include "run_int.h"

#include "blkstall.h"
#include "clock.h"
#include "cpustat.h"
#include "fileio.h"
#include "health/health.h"
#include "json.h"
#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	json_add_str(t, "engine", it->eng->cmd.name);
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


/* every test of the plan, one after another: its entry in tests, its text to the outputs
 * (stdout in normal format, and the results' .txt); the number that failed */
int run_tests(const struct run_cfg *c, const struct run_plan *plan, struct json *tests, FILE *txt,
	      struct health_run *health, int round, double deadline)
{
	int failed = 0;
	fault = c->fault;
	for (int i = 0; i < plan->n && (!deadline || now_s() < deadline); i++) {
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
		if (round > 0)
			json_add_int(t, "round", round);
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
