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
 * provider's web console and the serial line): everything init shows goes to each. */
static int extra[4];
static int nextra;

void consoles_open(void)
{
	FILE *f = fopen("/proc/consoles", "r");
	char line[256];
	while (f && fgets(line, sizeof line, f) && nextra < 4) {
		char name[64], flags[64], path[80];
		int fd;
		/* "tty0                 -WU (E  p  )    4:1": C marks /dev/console itself */
		if (sscanf(line, "%63s %*s (%63[^)])", name, flags) != 2 || strchr(flags, 'C'))
			continue;
		snprintf(path, sizeof path, "/dev/%s", name);
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0)
			extra[nextra++] = fd;
	}
	if (f)
		fclose(f);
}

void console_write(const char *p, size_t n)
{
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
