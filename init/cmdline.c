#include "init.h"
#include "msg.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static char text[4096];
static int timeout_given;
static double burnin;

static void key(const char *k, const char *v, void *arg)
{
	char err[512];
	/* a burn-in's length (assay run's option) stretches the watchdog's default */
	if (!strcmp(k, "burnin") && parse_time(v, &burnin))
		burnin = 0;
	timeout_given |= !strcmp(k, "timeout");
	if (!opt_find(boot_opts, k))
		return;   /* assay run reads and checks the others */
	if (opt_set(boot_opts, arg, k, v, err, sizeof err))
		warn("kernel command line: assay.%s; using the default", err);
}

void cmdline_read(struct boot_cfg *c)
{
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
	opt_defaults(boot_opts, c);
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		warn("cannot read /proc/cmdline: using defaults:");
		return;
	}
	text[n] = 0;
	opt_cmdline_each(text, "assay.", key, c);
	/* assay.suite=burnin assay.burnin=8h: the last round may run past the deadline */
	if (!timeout_given && strstr(text, "assay.suite=burnin") && burnin + 3600 > c->timeout)
		c->timeout = burnin + 3600;
	else if (!timeout_given && strstr(text, "assay.suite=burnin") && !burnin)
		c->timeout = 7200;     /* the default burn-in is 1 h */
}
