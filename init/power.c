/* The end of the run: power off (default), reboot, or a rescue shell first.
 * busybox's poweroff/reboot/halt signal PID 1 (SIGUSR2/SIGTERM/SIGUSR1); so does
 * Ctrl-Alt-Del (SIGINT).  PID 1 never returns from here. */
#include "init.h"
#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t requested = -1;

static void on_signal(int s)
{
	requested = s == SIGTERM || s == SIGINT ? AFTER_REBOOT : AFTER_POWEROFF;
}

void signals_setup(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	reboot(RB_DISABLE_CAD);
}

int power_requested(void)
{
	return requested;
}

static void shell(void)
{
	pid_t pid = fork();
	if (pid < 0) {
		warn("cannot start the shell:");
		return;
	}
	if (pid == 0) {
		char *const argv[] = { "-sh", NULL };
		char *const envp[] = { "PATH=/bin:/sbin", "HOME=/root", "TERM=vt100", NULL };
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setsid();
		ioctl(0, TIOCSCTTY, 1);
		execve("/bin/sh", argv, envp);
		warn("cannot run /bin/sh:");
		_exit(127);
	}
	ilog("rescue shell: 'exit' or 'poweroff' powers off, 'reboot' reboots");
	while (requested < 0) {
		int st;
		pid_t w = waitpid(-1, &st, 0);
		if (w == pid)
			return;
		if (w < 0 && errno != EINTR)
			return;
	}
}

/* assay kexec --again: on success it never returns */
static void kexec_again(void)
{
	pid_t pid = fork();
	int st;
	if (pid == 0) {
		char *const argv[] = { "/bin/assay", "kexec", "--again", "--yes", NULL };
		char *const envp[] = { "PATH=/bin:/sbin", "HOME=/root", NULL };
		execve(argv[0], argv, envp);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	warn("kexec into the image again failed: powering off instead");
}

void final_action(int after, double pause_s)
{
	if (after == AFTER_SHELL) {
		shell();
		after = requested >= 0 ? requested : AFTER_POWEROFF;
	}
	if (after == AFTER_KEXEC) {
		sync();
		ilog("booting again with kexec");
		kexec_again();
		after = AFTER_POWEROFF;
	}
	if (after == AFTER_REBOOT && pause_s > 0) {
		struct timespec ts = { (time_t)pause_s, (long)((pause_s - (double)(time_t)pause_s) * 1e9) };
		while (nanosleep(&ts, &ts) && errno == EINTR && requested < 0)
			;
	}
	kill(-1, SIGTERM);
	usleep(100000);
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	sync();
	ilog(after == AFTER_REBOOT ? "rebooting" : "powering off");
	reboot(after == AFTER_REBOOT ? RB_AUTOBOOT : RB_POWER_OFF);
	warn("reboot() failed: halting here:");
	for (;;)
		pause();
}
