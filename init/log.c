#include "init.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

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
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "init: %s\n", line);
}
