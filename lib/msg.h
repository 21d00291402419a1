/* Messages built the same way everywhere: "PROG: LEVEL: text[: strerror]".
 * A format ending in ':' appends strerror(errno) (as ubase's eprintf does);
 * errno is preserved across every call. */
#ifndef ASSAY_MSG_H
#define ASSAY_MSG_H

#include <stddef.h>

/* fixed exit codes */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,      /* a failed verdict or a failed test */
	EXIT_USAGE = 2,     /* bad input */
	EXIT_INCONCLUSIVE = 3,   /* a verdict that cannot be told from the noise (certify's gate) */
	EXIT_SKIP = 77,     /* skipped */
	EXIT_SYS = 111,     /* system error */
};

extern const char *msg_prog;
/* where the lines go: stderr unless set (init sends them to every console); gets the
 * line with its newline */
extern void (*msg_sink)(const char *line, size_t n);

/* "error": what stops the command (bad input, a failed measurement: exit code != 0);
 * "warning": what it goes on after (a default used, a fallback taken) */
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define warn warnx_

/* snprintf into a fixed buffer; never truncates silently: returns -1 (and leaves a
 * marked string "...") when the text did not fit. */
int fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
