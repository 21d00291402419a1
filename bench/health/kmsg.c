/* The kernel log, read through a run from /dev/kmsg ("PRIO,SEQ,USEC,FLAGS;MESSAGE" a
 * record, docs: Documentation/ABI/testing/dev-kmsg): the lines a certifier cares about
 * (I/O errors, resets, timeouts, EDAC, machine checks, hung tasks, oopses, throttling)
 * are kept with their class and time, so a run attaches each to the test that was running. */
#include "health.h"

#include "fileio.h"
#include "json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* what marks each class, matched case-insensitively anywhere in the message; the first
 * class that matches wins */
static const struct {
	const char *cls;
	const char *words[12];
} classes[] = {
	{ "mce", { "machine check", "[hardware error]", "mce:", NULL } },
	{ "edac", { "edac ", "edac:", NULL } },
	{ "oops", { "oops", "bug:", "general protection fault", "kernel panic", "call trace", "unable to handle",
		    NULL } },
	{ "hung", { "blocked for more than", "hung_task", "soft lockup", "hard lockup", "rcu_sched self-detected",
		    NULL } },
	{ "reset", { "resetting controller", "hard resetting link", "controller is down", "reset controller",
		     "link is slow to respond", "device reset", NULL } },
	{ "timeout", { "timeout", "timed out", NULL } },
	{ "io", { "i/o error", "critical medium error", "medium error", "blk_update_request", "buffer i/o",
		  "uncorrectable error", "unrecovered read error", "failed command", "exception emask", NULL } },
	{ "thermal", { "temperature above threshold", "cpu clock throttled", "throttled", NULL } },
};

const char *kmsg_class(const char *msg)
{
	for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
		for (int i = 0; classes[c].words[i]; i++)
			if (strcasestr(msg, classes[c].words[i]))
				return classes[c].cls;
	return NULL;
}

struct kmsg_watch {
	int fd;
	char buf[8192];
	size_t len;
};

struct kmsg_watch *kmsg_open(void)
{
	char path[512];
	struct kmsg_watch *w;
	int fd;
	sys_path(path, sizeof path, "/dev/kmsg");
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	/* the log from now on (a fixture file: what is appended from now on) */
	lseek(fd, 0, SEEK_END);
	w = calloc(1, sizeof *w);
	if (!w) {
		close(fd);
		return NULL;
	}
	w->fd = fd;
	return w;
}

int kmsg_record(char *rec, struct json *events)
{
	char *semi = strchr(rec, ';'), *msg, *nl;
	const char *cls;
	unsigned long long usec = 0;
	int prio = 6;
	struct json *o;
	if (!semi)
		return 0;
	*semi = 0;
	msg = semi + 1;
	if ((nl = strchr(msg, '\n')))      /* " KEY=VALUE" continuation lines after it */
		*nl = 0;
	sscanf(rec, "%d,%*u,%llu", &prio, &usec);
	/* only what the kernel said at warning level or worse, and the machine-check lines
	 * (corrected errors are logged at lower levels) */
	cls = kmsg_class(msg);
	if (!cls || ((prio & 7) > 4 && strcmp(cls, "mce") && strcmp(cls, "edac")))
		return 0;
	if (events) {
		o = json_push(events, json_obj());
		json_add_str(o, "class", cls);
		json_add_num(o, "t_s", (double)usec / 1e6);
		json_add_int(o, "level", prio & 7);
		json_add_str(o, "line", msg);
	}
	return 1;
}

int kmsg_drain(struct kmsg_watch *w, struct json *events)
{
	int found = 0;
	if (!w)
		return 0;
	for (;;) {
		ssize_t r = read(w->fd, w->buf + w->len, sizeof w->buf - 1 - w->len);
		char *start, *nl;
		if (r < 0 && (errno == EINTR || errno == EPIPE))   /* EPIPE: records overwritten */
			continue;
		if (r <= 0)
			break;
		w->len += (size_t)r;
		w->buf[w->len] = 0;
		/* /dev/kmsg gives one record a read; a file, any bytes: records end at a newline
		 * that is not followed by a continuation (a space) */
		start = w->buf;
		while ((nl = strchr(start, '\n'))) {
			char *end = nl;
			while (end[1] == ' ' && (end = strchr(end + 1, '\n')))
				;
			if (!end)
				break;
			*end = 0;
			found += kmsg_record(start, events);
			start = end + 1;
		}
		w->len = strlen(start);
		memmove(w->buf, start, w->len);
		if (w->len == sizeof w->buf - 1)     /* one record larger than the buffer: dropped */
			w->len = 0;
	}
	return found;
}

void kmsg_close(struct kmsg_watch *w)
{
	if (!w)
		return;
	close(w->fd);
	free(w);
}
