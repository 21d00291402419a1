#include "msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *msg_prog = "assay";
void (*msg_sink)(const char *line, size_t n);

static void vmsg(const char *level, const char *f, va_list ap)
{
	int e = errno;
	size_t len = strlen(f);
	char line[1024];
	int n = snprintf(line, sizeof line, "%s: %s%s", msg_prog, level, *level ? ": " : "");
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	vsnprintf(line + n, sizeof line - n, f, ap);
	if (len && f[len - 1] == ':') {
		size_t l = strlen(line);
		snprintf(line + l, sizeof line - l, " %s", strerror(e));
	}
	fflush(stdout);
	if (msg_sink) {
		size_t l = strlen(line);
		if (l >= sizeof line - 1)
			l = sizeof line - 2;
		line[l++] = '\n';
		msg_sink(line, l);
	} else {
		fprintf(stderr, "%s\n", line);
	}
	errno = e;
}

void errmsg(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vmsg("error", f, ap);
	va_end(ap);
}

void warnx_(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vmsg("warning", f, ap);
	va_end(ap);
}

void info(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vmsg("", f, ap);
	va_end(ap);
}

void die(int code, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vmsg("fatal", f, ap);
	va_end(ap);
	exit(code);
}

int fmt(char *buf, size_t n, const char *f, ...)
{
	va_list ap;
	int r;
	va_start(ap, f);
	r = vsnprintf(buf, n, f, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= n) {
		if (n >= 4)
			memcpy(buf + n - 4, "...", 4);
		return -1;
	}
	return r;
}
