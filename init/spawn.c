/* The suite runs as a child of PID 1 with a watchdog.  Its output goes through a pipe:
 * copied to the console as it comes and kept for the results partition. */
#include "init.h"
#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CAPTURE_MAX (16u << 20)
#define GRACE_S 5.0

static void keep(struct capture *c, const char *p, size_t n)
{
	if (c->len + n > CAPTURE_MAX)
		return;   /* the console still gets everything */
	if (c->len + n > c->cap) {
		size_t cap = c->cap ? c->cap : 65536;
		char *nb;
		while (cap < c->len + n)
			cap *= 2;
		nb = realloc(c->buf, cap);
		if (!nb)
			return;
		c->buf = nb;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void drain(int fd, struct capture *out)
{
	char buf[8192];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		console_write(buf, (size_t)n);
		keep(out, buf, (size_t)n);
	}
}

int suite_run(const struct boot_cfg *c, struct capture *out)
{
	/* results go to the ASSAY partition unless the command line says otherwise */
	static char *const argv[] = { "/bin/assay", "run", "--results=auto", "--cmdline=/proc/cmdline",
				      NULL };
	static char *const envp[] = { "PATH=/bin:/sbin", "HOME=/root", "TERM=vt100",
				      "ASSAY_IMAGE=1", NULL };
	int pfd[2], status = 0, sig_sent = 0;
	double t0 = uptime(), killed_at = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC)) {
		warn("cannot make a pipe for the suite:");
		return 111;
	}
	pid = fork();
	if (pid < 0) {
		warn("cannot fork the suite:");
		close(pfd[0]);
		close(pfd[1]);
		return 111;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		setsid();
		if (null >= 0)
			dup2(null, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		sigset_t all;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		execve(argv[0], argv, envp);
		warn("cannot run %s:", argv[0]);
		_exit(127);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	ilog("suite started at %.2f s (watchdog %.0f s)", t0, c->timeout);
	for (;;) {
		struct pollfd pf = { pfd[0], POLLIN, 0 };
		pid_t w;
		int r = poll(&pf, 1, 200), st, done = 0;
		if (r > 0)
			drain(pfd[0], out);
		/* reap the suite and any orphans reparented to us, in one loop: a separate
		 * waitpid(-1) could take the suite's status */
		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			if (w == pid) {
				status = st;
				done = 1;
			}
		if (done)
			break;
		if (!sig_sent && uptime() - t0 > c->timeout) {
			ilog("suite still running after %.0f s (assay.timeout): stopping it", c->timeout);
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
			sig_sent = 1;
			killed_at = uptime();
		} else if (sig_sent == 1 && uptime() - killed_at > GRACE_S) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			sig_sent = 2;
		}
		if (r < 0 && errno != EINTR)
			usleep(200000);
	}
	drain(pfd[0], out);
	close(pfd[0]);
	kill(-pid, SIGKILL);  /* anything the suite left behind */
	if (sig_sent) {
		ilog("suite killed by the watchdog after %.1f s", uptime() - t0);
		return 124;
	}
	if (WIFSIGNALED(status)) {
		ilog("suite killed by signal %d after %.1f s", WTERMSIG(status), uptime() - t0);
		return 128 + WTERMSIG(status);
	}
	ilog("suite ended after %.1f s", uptime() - t0);
	return WEXITSTATUS(status);
}
