/* The iperf3 TCP protocol: client and server (iperf.c). */
#ifndef ASSAY_IPERF_H
#define ASSAY_IPERF_H

#include <stddef.h>
#include <stdio.h>

struct json;

struct iperf_opts {
	const char *host;
	int port;
	int family;              /* AF_UNSPEC, AF_INET, AF_INET6 */
	double time, omit;       /* seconds */
	int parallel;
	int reverse;
	size_t len;              /* block size */
	double connect_timeout;
	int busy_retries;        /* a busy server (ACCESS_DENIED): tries again this many times */
	double busy_wait;
};

/* Run one test against an iperf3 server; fills out in iperf3's JSON shape
 * (start, intervals[].sum, end.sum_sent/sum_received/cpu_utilization_percent).
 * 0, or -1 with a one-line reason. */
int iperf_client(const struct iperf_opts *o, struct json *out, char *err, size_t n);

struct serve_log {
	FILE *f;                 /* a line per test, or NULL */
	double wait_s;           /* how long to wait for a client (0: forever) */
};

/* Serve one test to an iperf3 client on the listening socket. */
int iperf_serve_one(int lfd, const struct serve_log *lg, char *err, size_t n);

#endif
