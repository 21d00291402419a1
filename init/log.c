#include "init.h"

#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Consoles besides /dev/console (console=tty0 console=ttyS0: the VGA screen of a
 * provider's web console and the serial line): everything init shows goes to each.
 * Called again once modules are loaded: a console whose driver is a module (hvc0 of
 * virtio_console) registers only then, and is first sent what init showed before. */
static int extra[4];
static char extra_name[4][64];
static int nextra, scans;
static char backlog[16384];
static size_t nbacklog;

void consoles_open(void)
{
	FILE *f = fopen("/proc/consoles", "r");
	char line[256];
	while (f && fgets(line, sizeof line, f) && nextra < 4) {
		char name[64], flags[64], path[80];
		int fd, seen = 0;
		/* "tty0                 -WU (E  p  )    4:1": C marks /dev/console itself */
		if (sscanf(line, "%63s %*s (%63[^)])", name, flags) != 2 || strchr(flags, 'C'))
			continue;
		for (int i = 0; i < nextra; i++)
			seen |= !strcmp(extra_name[i], name);
		if (seen)
			continue;
		snprintf(path, sizeof path, "/dev/%s", name);
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			snprintf(extra_name[nextra], sizeof extra_name[nextra], "%s", name);
			extra[nextra++] = fd;
			if (scans)
				write_all(fd, backlog, nbacklog);
		}
	}
	if (f)
		fclose(f);
	scans++;
}

void console_write(const char *p, size_t n)
{
	if (scans < 2 && nbacklog + n <= sizeof backlog) {
		memcpy(backlog + nbacklog, p, n);
		nbacklog += n;
	}
	write_all(1, p, n);
	for (int i = 0; i < nextra; i++)
		write_all(extra[i], p, n);
}

double uptime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ilog(const char *fmt, ...)
{
	va_list ap;
	char line[1024];
	int n = snprintf(line, sizeof line, "init: ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(line);
	line[n++] = '\n';
	fflush(stdout);
	console_write(line, (size_t)n);
}
