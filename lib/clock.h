/* Monotonic time in nanoseconds. */
#ifndef ASSAY_CLOCK_H
#define ASSAY_CLOCK_H

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

static inline double tv_s(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

#endif
