#include "init.h"
#include "msg.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static char text[4096];

static void key(const char *k, const char *v, void *arg)
{
	char err[512];
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
}
