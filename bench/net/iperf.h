/* The iperf3 protocol (iperf3 3.12): a client that tests against stock iperf3 servers and
 * a server stock iperf3 clients test against; TCP and UDP, reverse and bidirectional. */
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
	double interval;         /* seconds between reports, 0: none */
	int parallel;
	int reverse, bidir, udp;
	size_t len;              /* block size (0: 128 KiB for TCP, the path's MSS for UDP) */
	double rate;             /* bits/s per stream (0: unlimited; UDP's default 1 Mbit/s) */
	long long window;        /* socket buffer, bytes (0: the system's) */
	const char *congestion;  /* TCP congestion control, or NULL */
	int mss;                 /* TCP MSS, 0: the system's */
	int zerocopy;            /* TCP: send with sendfile(2) */
	int udp64;               /* 64-bit UDP sequence numbers */
	int cport;               /* the data streams' local port (0: any) */
	const char *bind;        /* local address, or NULL */
	int get_server_output;
	double connect_timeout;
	int busy_retries;        /* a busy server (ACCESS_DENIED): tries again this many times */
	double busy_wait;
	FILE *live;              /* text mode: print iperf3's lines here as the test runs */
	int verbose;
};

/* Run one test against an iperf3 server; fills out in iperf3's JSON shape.
 * 0, or -1 with a one-line reason. */
int iperf_client(const struct iperf_opts *o, struct json *out, char *err, size_t n);

/* iperf3's text of a report (iperf_text.c): all of it, or its parts as a test runs */
void iperf_text(const struct json *r, int verbose, FILE *f);
void iperf_text_head(const struct json *r, int verbose, FILE *f);
void iperf_text_interval(const struct json *r, const struct json *iv, int first, FILE *f);
void iperf_text_end(const struct json *r, int verbose, FILE *f);

struct serve_log {
	FILE *f;                 /* a line per test, or NULL */
	double wait_s;           /* how long to wait for a client (0: forever) */
	double idle_s;           /* a connected client silent this long is dropped */
	int verbose;             /* the log gets iperf3's server text of each test */
};

/* Serve one test to an iperf3 client on the listening TCP socket (a UDP test's streams
 * come to the same address and port over UDP). */
int iperf_serve_one(int lfd, const struct serve_log *lg, char *err, size_t n);

#endif
