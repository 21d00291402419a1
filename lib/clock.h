/* Monotonic time in nanoseconds. */
#ifndef ASSAY_CLOCK_H
#define ASSAY_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double now_s(void)
{
	return (double)now_ns() / 1e9;
}

/* the wall-clock time in UTC as ISO 8601 ("2026-12-06T14:20:00Z") */
static inline void utc_now(char *b, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(b, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static inline double tv_s(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

#endif
