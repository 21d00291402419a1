/* assay net: TCP throughput with the iperf3 protocol (-c HOST, iperf3's options and JSON),
 * latency (TCP connect time and ICMP echo, --latency HOST) and HTTP download
 * (--http URL: time to first byte and throughput). */
#include "clock.h"
#include "engine/engine.h"
#include "hist.h"
#include "iperf.h"
#include "json.h"
#include "net.h"
#include "msg.h"
#include "netio.h"
#include "result/result.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <netinet/icmp6.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct net_cfg {
	struct common_cfg common;
	const char *client;
	long long port;
	double time, omit;
	long long parallel;
	int reverse, v4, v6, udp, bidir, zerocopy, verbose, server_output, udp64;
	unsigned long long len, window;
	double rate, interval;
	const char *congestion, *logfile, *bind;
	long long mss, cport;
	double connect_timeout;
	long long busy_retries;
	const char *latency;
	long long count;
	long long latency_port;
	const char *http;
	double http_timeout;
};

/* iperf3's rates: a number with K, M, G or T, 1000-based */
static int rate_cb(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	char *end;
	double v;
	(void)o;
	if (!val) {
		snprintf(err, n, "RATE[KMGT] (bits/s, 1000-based)");
		return 0;
	}
	if (!strcmp(val, "auto")) {   /* UDP's 1 Mbit/s, TCP unlimited, as iperf3 */
		*(double *)field = -1;
		return 0;
	}
	v = strtod(val, &end);
	switch (*end) {
	case 'k': case 'K': v *= 1e3, end++; break;
	case 'm': case 'M': v *= 1e6, end++; break;
	case 'g': case 'G': v *= 1e9, end++; break;
	case 't': case 'T': v *= 1e12, end++; break;
	}
	if (end == val || (*end && *end != '/') || !(v >= 0) || v > 1e13) {
		snprintf(err, n, "--bitrate=%s: want bits/s such as 100M, 2.5G or 0 (unlimited)", val);
		return -1;
	}
	if (*end == '/') {
		snprintf(err, n, "--bitrate=%s: iperf3's /BURST is not supported: give the rate alone", val);
		return -1;
	}
	*(double *)field = v;
	return 0;
}

#define O(f) offsetof(struct net_cfg, f)
static const struct opt net_opts[] = {
	OPTS_COMMON(struct net_cfg),
	{ "client", 'c', OPT_STR, O(client), NULL, 0, 0, "a host name or address",
	  "measure TCP (or with -u UDP) throughput against this iperf3 server", 0 },
	{ "port", 'p', OPT_INT, O(port), "5201", 1, 65535, NULL, "iperf3 server port", 0 },
	{ "time", 't', OPT_TIME, O(time), "10", 1, 86400, NULL, "seconds to transmit", 0 },
	{ "omit", 'O', OPT_TIME, O(omit), "0", 0, 600, NULL, "leave out the first seconds (TCP slow start)", 0 },
	{ "parallel", 'P', OPT_INT, O(parallel), "1", 1, 128, NULL, "parallel streams", 0 },
	{ "reverse", 'R', OPT_BOOL, O(reverse), "0", 0, 0, NULL, "the server sends, we receive", OPT_NOARG },
	{ "version4", '4', OPT_BOOL, O(v4), "0", 0, 0, NULL, "IPv4 only", OPT_NOARG },
	{ "version6", '6', OPT_BOOL, O(v6), "0", 0, 0, NULL, "IPv6 only", OPT_NOARG },
	{ "len", 'l', OPT_SIZE, O(len), "0", 0, 16 << 20, NULL,
	  "block size per write (default: 128k for TCP, the path's MSS for UDP)", 0 },
	{ "udp", 'u', OPT_BOOL, O(udp), "0", 0, 0, NULL, "UDP instead of TCP (iperf3's -u)", OPT_NOARG },
	{ "bitrate", 'b', OPT_CB, O(rate), "auto", 0, 0, "RATE[KMGT]",
	  "target bits/s per stream, 1000-based (auto: 1M for UDP, unlimited for TCP; 0: unlimited)", 0, rate_cb },
	{ "bandwidth", 0, OPT_ALIAS, 0, NULL, 0, 0, "bitrate", "same as --bitrate (iperf3's old name)", 0 },
	{ "bidir", 0, OPT_BOOL, O(bidir), "0", 0, 0, NULL, "both ways at once (iperf3's --bidir)", OPT_NOARG },
	{ "window", 'w', OPT_SIZE, O(window), "0", 0, 512 << 20, NULL,
	  "socket buffer size for every stream, both ends (0: the system's)", 0 },
	{ "congestion", 'C', OPT_STR, O(congestion), NULL, 0, 0, "ALGO",
	  "TCP congestion control (cubic, bbr, reno, ...), both ends", 0 },
	{ "set-mss", 'M', OPT_INT, O(mss), "0", 0, 65535, NULL, "TCP maximum segment size (0: the system's)", 0 },
	{ "zerocopy", 'Z', OPT_BOOL, O(zerocopy), "0", 0, 0, NULL, "TCP: send with sendfile(2)", OPT_NOARG },
	{ "interval", 'i', OPT_TIME, O(interval), "1", 0, 60, NULL,
	  "seconds between reports (at least 0.1; 0: one report for the whole test)", 0 },
	{ "verbose", 'V', OPT_BOOL, O(verbose), "0", 0, 0, NULL, "more detail: times, cookie, CPU, congestion control",
	  OPT_NOARG },
	{ "logfile", 0, OPT_STR, O(logfile), NULL, 0, 0, "FILE", "write the output to FILE (appended) instead of stdout", 0 },
	{ "get-server-output", 0, OPT_BOOL, O(server_output), "0", 0, 0, NULL,
	  "get the server's own report of the test", OPT_NOARG },
	{ "udp-counters-64bit", 0, OPT_BOOL, O(udp64), "0", 0, 0, NULL, "64-bit UDP sequence numbers", OPT_NOARG },
	{ "cport", 0, OPT_INT, O(cport), "0", 0, 65535, NULL,
	  "local port of the data streams (stream i takes PORT+i; 0: any)", 0 },
	{ "bind", 'B', OPT_STR, O(bind), NULL, 0, 0, "ADDRESS", "local address of the connections", 0 },
	{ "connect-timeout", 0, OPT_TIME, O(connect_timeout), "10", 0.1, 600, NULL,
	  "give up connecting after this long", 0 },
	{ "busy-retries", 0, OPT_INT, O(busy_retries), "3", 0, 100, NULL,
	  "a busy server: try again this many times, 1 s apart", 0 },
	{ "latency", 0, OPT_STR, O(latency), NULL, 0, 0, "a host", "TCP connect time and ICMP echo to HOST", 0 },
	{ "count", 0, OPT_INT, O(count), "20", 1, 100000, NULL, "latency probes of each kind", 0 },
	{ "latency-port", 0, OPT_INT, O(latency_port), "0", 0, 65535, NULL,
	  "also time TCP connects to this port (0: ICMP echo only; never an iperf3 port unless named)", 0 },
	{ "http", 0, OPT_STR, O(http), NULL, 0, 0, "http://host[:port]/path",
	  "download URL to memory: throughput and time to first byte", 0 },
	{ "http-timeout", 0, OPT_TIME, O(http_timeout), "60", 1, 86400, NULL, "HTTP download time limit", 0 },
	OPT_END,
};
#undef O

static int family(const struct net_cfg *c)
{
	return c->v4 ? AF_INET : c->v6 ? AF_INET6 : AF_UNSPEC;
}

/* ---- latency ---- */

static void lat_json(struct json *o, const double *v, int n, int lost)
{
	struct summary s;
	double sorted[n > 0 ? n : 1], mdev = 0;
	stats_summarize(v, n, &s);
	memcpy(sorted, v, (size_t)n * sizeof *v);
	for (int i = 1; i < n; i++)   /* insertion sort: n is small */
		for (int k = i; k > 0 && sorted[k - 1] > sorted[k]; k--) {
			double t = sorted[k];
			sorted[k] = sorted[k - 1];
			sorted[k - 1] = t;
		}
	for (int i = 0; i < n; i++)
		mdev += fabs(v[i] - s.mean);
	json_add_int(o, "sent", n + lost);
	json_add_int(o, "received", n);
	json_add_int(o, "lost", lost);
	if (!n)
		return;
	json_add_num(o, "min_ms", s.min);
	json_add_num(o, "avg_ms", s.mean);
	json_add_num(o, "max_ms", s.max);
	json_add_num(o, "mdev_ms", mdev / n);   /* as ping: mean absolute deviation */
	json_add_num(o, "p50_ms", sorted[(int)ceil(0.50 * n) - 1]);
	json_add_num(o, "p99_ms", sorted[(int)ceil(0.99 * n) - 1]);
}

static int connect_times(const struct net_cfg *c, struct json *out, char *err, size_t n)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	double *v = calloc((size_t)c->count, sizeof *v);
	int got = 0, lost = 0, refused = 0;
	int port = (int)c->latency_port;
	if (!v || net_resolve(c->latency, port, family(c), SOCK_STREAM, &ss, &sl, err, n)) {
		free(v);
		return -1;
	}
	for (long long i = 0; i < c->count; i++) {
		double t0;
		char e[200];
		int fd;
		if (i)   /* paced as the ICMP probes: a server between two accepts is not flooded */
			usleep(20000);
		t0 = now_s();
		fd = net_connect(&ss, sl, c->connect_timeout, e, sizeof e);
		if (fd < 0) {
			refused += errno == ECONNREFUSED;
			if (!lost++)
				snprintf(err, n, "%s", e);
			continue;
		}
		v[got++] = (now_s() - t0) * 1e3;
		close(fd);
	}
	if (!got) {
		free(v);
		return -1;
	}
	{
		struct json *o = json_add_obj(out, "tcp_connect");
		json_add_int(o, "port", port);
		lat_json(o, v, got, lost);
		json_add_int(o, "refused", refused);
	}
	free(v);
	return 0;
}

static uint16_t csum(const void *p, size_t n)
{
	const uint16_t *w = p;
	uint32_t s = 0;
	for (; n > 1; n -= 2)
		s += *w++;
	if (n)
		s += *(const uint8_t *)w;
	s = (s >> 16) + (s & 0xffff);
	s += s >> 16;
	return (uint16_t)~s;
}

/* ICMP echo: an unprivileged ping socket, else a raw socket (root) */
static int icmp_times(const struct net_cfg *c, struct json *out, char *err, size_t n)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int v6, fd, raw = 0, got = 0, lost = 0;
	double *v;
	uint16_t ident = (uint16_t)getpid();
	if (net_resolve(c->latency, 0, family(c), SOCK_DGRAM, &ss, &sl, err, n))
		return -1;
	v6 = ss.ss_family == AF_INET6;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP);
	if (fd < 0) {
		fd = socket(ss.ss_family, SOCK_RAW | SOCK_CLOEXEC, v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP);
		raw = 1;
	}
	if (fd < 0) {
		snprintf(err, n, "no ICMP socket (ping sockets not allowed by net.ipv4.ping_group_range, "
			 "and not root): %s", strerror(errno));
		return -1;
	}
	v = calloc((size_t)c->count, sizeof *v);
	for (long long i = 0; v && i < c->count; i++) {
		unsigned char pkt[64], rb[1500];
		struct icmphdr *ic = (struct icmphdr *)pkt;
		double t0, deadline;
		int ok = 0;
		memset(pkt, 0, sizeof pkt);
		ic->type = v6 ? ICMP6_ECHO_REQUEST : ICMP_ECHO;
		ic->un.echo.id = htons(ident);
		ic->un.echo.sequence = htons((uint16_t)i);
		if (!v6)
			ic->checksum = csum(pkt, sizeof pkt);
		t0 = now_s();
		deadline = t0 + 1.0;
		if (sendto(fd, pkt, sizeof pkt, 0, (struct sockaddr *)&ss, sl) < 0) {
			lost++;
			continue;
		}
		while (!ok && now_s() < deadline) {
			struct pollfd p = { fd, POLLIN, 0 };
			ssize_t r;
			unsigned char *icr;
			if (poll(&p, 1, (int)((deadline - now_s()) * 1000) + 1) <= 0)
				break;
			r = recv(fd, rb, sizeof rb, 0);
			if (r <= 0)
				break;
			icr = rb;
			if (raw && !v6) {
				size_t hl = (size_t)(rb[0] & 15) * 4;
				if ((size_t)r < hl + 8)
					continue;
				icr += hl;
			}
			/* a ping socket rewrites the id; check the type and the sequence */
			if (icr[0] == (v6 ? ICMP6_ECHO_REPLY : ICMP_ECHOREPLY) &&
			    ((struct icmphdr *)icr)->un.echo.sequence == htons((uint16_t)i)) {
				v[got++] = (now_s() - t0) * 1e3;
				ok = 1;
			}
		}
		if (!ok)
			lost++;
		usleep(20000);
	}
	close(fd);
	{
		struct json *o = json_add_obj(out, "icmp");
		json_add_str(o, "socket", raw ? "raw" : "ping");
		lat_json(o, v, got, lost);
	}
	free(v);
	if (!got) {
		snprintf(err, n, "no ICMP echo reply from %s (%d sent)", c->latency, lost);
		return -1;
	}
	return 0;
}

/* ---- HTTP download ---- */

static int http_get(const struct net_cfg *c, struct json *out, char *err, size_t n)
{
	char host[256], path[1024] = "/", req[1600], why[64];
	int port = 80, fd;
	struct sockaddr_storage ss;
	socklen_t sl;
	struct http_got g;
	double t0, deadline;
	if (net_parse_http_url(c->http, host, sizeof host, &port, path, sizeof path, why, sizeof why)) {
		snprintf(err, n, "--http=%s: %s", c->http, why);
		return -2;
	}
	if (net_resolve(host, port, family(c), SOCK_STREAM, &ss, &sl, err, n))
		return -1;
	t0 = now_s();
	deadline = t0 + c->http_timeout;
	fd = net_connect(&ss, sl, c->connect_timeout, err, n);
	if (fd < 0)
		return -1;
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: assay/%s\r\nAccept: */*\r\n"
		 "Connection: close\r\n\r\n", path, host, ASSAY_VERSION);
	if (net_write_full(fd, req, strlen(req), deadline)) {
		snprintf(err, n, "sending the request: %s", strerror(errno));
		close(fd);
		return -1;
	}
	net_http_receive(fd, t0, deadline, &g, err, n);
	close(fd);
	{
		struct json *o = json_add_obj(out, "http");
		double secs = g.t_end - (g.t_first ? g.t_first : t0);
		json_add_str(o, "url", c->http);
		json_add_int(o, "status", g.status);
		json_add_int(o, "bytes", (long long)g.body);
		if (g.have_clen)
			json_add_int(o, "content_length", (long long)g.clen);
		json_add_num(o, "ttfb_ms", g.t_first ? (g.t_first - t0) * 1e3 : 0);
		json_add_num(o, "seconds", g.t_end - t0);
		json_add_num(o, "mb_per_sec", secs > 0 ? (double)g.body / secs / 1e6 : 0);
		json_add_num(o, "mbit_per_sec", secs > 0 ? 8.0 * (double)g.body / secs / 1e6 : 0);
	}
	return net_http_verdict(&g, err, n);
}

static int net_check(void *p, int npos, char **pos, char *err, size_t n)
{
	struct net_cfg *c = p;
	if (npos) {
		snprintf(err, n, "unexpected argument '%s'", pos[0]);
		return EXIT_USAGE;
	}
	if (!c->client && !c->latency && !c->http) {
		snprintf(err, n, "nothing to measure: give -c HOST (iperf3 server), --latency HOST or --http URL");
		return EXIT_USAGE;
	}
	if (c->v4 && c->v6) {
		snprintf(err, n, "-4 and -6: give one");
		return EXIT_USAGE;
	}
	if (c->reverse && c->bidir) {
		snprintf(err, n, "-R and --bidir: give one (--bidir sends both ways)");
		return EXIT_USAGE;
	}
	if (c->interval > 0 && c->interval < 0.1) {
		snprintf(err, n, "--interval=%g: at least 0.1 s, or 0 for no interval reports", c->interval);
		return EXIT_USAGE;
	}
	if (c->udp && c->len > 65507) {
		snprintf(err, n, "--len=%llu: a UDP datagram holds at most 65507 bytes", c->len);
		return EXIT_USAGE;
	}
	if (c->cport && c->cport + c->parallel * (c->bidir ? 2 : 1) - 1 > 65535) {
		snprintf(err, n, "--cport=%lld: the streams' ports would pass 65535", c->cport);
		return EXIT_USAGE;
	}
	if (c->congestion && (!c->congestion[0] || strlen(c->congestion) > 15)) {
		snprintf(err, n, "--congestion='%s': want an algorithm's name (cubic, bbr, reno, ...)", c->congestion);
		return EXIT_USAGE;
	}
	if (c->omit >= c->time && c->client) {
		snprintf(err, n, "--omit=%g is not shorter than --time=%g", c->omit, c->time);
		return EXIT_USAGE;
	}
	return 0;
}

/* the iperf3 lines were printed as the test ran (text output): the report leaves them out */
static int printed_live;

static int net_run(void *p, struct json *out)
{
	struct net_cfg *c = p;
	char err[512] = "";
	int rc = EXIT_OK;
	if (c->logfile && !freopen(c->logfile, "a", stdout)) {
		errmsg("net: --logfile=%s:", c->logfile);
		return EXIT_USAGE;
	}
	if (c->client) {
		struct iperf_opts o = {
			.host = c->client, .port = (int)c->port, .family = family(c), .time = c->time,
			.omit = c->omit, .interval = c->interval, .parallel = (int)c->parallel, .reverse = c->reverse,
			.bidir = c->bidir, .udp = c->udp, .len = c->len, .rate = c->rate, .window = (long long)c->window,
			.congestion = c->congestion, .mss = (int)c->mss, .zerocopy = c->zerocopy, .udp64 = c->udp64,
			.cport = (int)c->cport, .bind = c->bind, .get_server_output = c->server_output,
			.connect_timeout = c->connect_timeout, .busy_retries = (int)c->busy_retries, .busy_wait = 1,
			.live = c->common.format == 0 ? stdout : NULL, .verbose = c->verbose,
		};
		printed_live = o.live != NULL;
		if (iperf_client(&o, out, err, sizeof err)) {
			errmsg("net: %s", err);
			json_add_str(out, "error", err);
			rc = EXIT_FAIL;
		}
	}
	if (c->latency) {
		struct json *l = json_add_obj(out, "latency");
		char e2[512] = "";
		json_add_str(l, "host", c->latency);
		if (c->latency_port && connect_times(c, l, err, sizeof err)) {
			errmsg("net: TCP connect to %s: %s", c->latency, err);
			json_add_str(l, "tcp_error", err);
			rc = EXIT_FAIL;
		}
		if (icmp_times(c, l, e2, sizeof e2)) {
			/* with connect times the ICMP echo is extra; alone it is the test */
			if (c->latency_port) {
				warn("net: ICMP echo to %s: %s", c->latency, e2);
			} else {
				errmsg("net: ICMP echo to %s: %s", c->latency, e2);
				snprintf(err, sizeof err, "%s", e2);
				rc = EXIT_FAIL;
			}
			json_add_str(l, "icmp_error", e2);
		}
		if (rc && !json_get(out, "error"))
			json_add_str(out, "error", err);
	}
	if (c->http) {
		int r;
		err[0] = 0;
		r = http_get(c, out, err, sizeof err);
		if (r) {
			errmsg("net: %s: %s", c->http, err);
			if (!json_get(out, "error"))
				json_add_str(out, "error", err);
			rc = r == -2 ? EXIT_USAGE : EXIT_FAIL;
		}
	}
	return rc;
}

static void net_text(const struct json *r, FILE *f)
{
	const struct json *lat = json_get(r, "latency"), *h = json_get(r, "http");
	if (json_get(r, "start") && !printed_live)
		iperf_text(r, 0, f);
	if (lat) {
		static const char *const kinds[] = { "tcp_connect", "icmp" };
		for (int k = 0; k < 2; k++) {
			const struct json *o = json_get(lat, kinds[k]);
			if (!o)
				continue;
			fprintf(f, "%s %s: %0.f sent, %.0f received, %.0f lost", kinds[k], json_get_str(lat, "host", "?"),
				json_get_num(o, "sent", 0), json_get_num(o, "received", 0), json_get_num(o, "lost", 0));
			if (json_get_num(o, "refused", 0) > 0)
				fprintf(f, " (%.0f refused)", json_get_num(o, "refused", 0));
			if (json_get(o, "avg_ms"))
				fprintf(f, "; rtt min/avg/max/mdev = %.3f/%.3f/%.3f/%.3f ms, p50 %.3f, p99 %.3f ms",
					json_get_num(o, "min_ms", 0), json_get_num(o, "avg_ms", 0),
					json_get_num(o, "max_ms", 0), json_get_num(o, "mdev_ms", 0),
					json_get_num(o, "p50_ms", 0), json_get_num(o, "p99_ms", 0));
			fputc('\n', f);
		}
	}
	if (h)
		fprintf(f, "http %s: status %.0f, %.0f bytes in %.2f s, %.2f MB/s (%.1f Mbit/s), first byte after %.1f ms\n",
			json_get_str(h, "url", "?"), json_get_num(h, "status", 0), json_get_num(h, "bytes", 0),
			json_get_num(h, "seconds", 0), json_get_num(h, "mb_per_sec", 0),
			json_get_num(h, "mbit_per_sec", 0), json_get_num(h, "ttfb_ms", 0));
	if (json_get(r, "error"))
		fprintf(f, "error: %s\n", json_get_str(r, "error", ""));
}

/* net.tcp.gbit_per_sec.sent/.received, net.tcp.retransmits, net.rtt.icmp.avg_ms ... */
static void net_figures(const struct json *r, const char *test, struct json *sum)
{
	char name[128];
	if (json_path(r, "end.sum_sent")) {
		snprintf(name, sizeof name, "%s.gbit_per_sec.sent", test);
		figure_add(sum, name, json_get_num(r, "end.sum_sent.bits_per_second", 0) / 1e9, "Gbit/s", HIGHER_BETTER);
		snprintf(name, sizeof name, "%s.gbit_per_sec.received", test);
		figure_add(sum, name, json_get_num(r, "end.sum_received.bits_per_second", 0) / 1e9, "Gbit/s", HIGHER_BETTER);
		if (json_path(r, "end.sum")) {   /* UDP */
			snprintf(name, sizeof name, "%s.lost_percent", test);
			figure_add(sum, name, json_get_num(r, "end.sum_received.lost_percent", 0), "percent", LOWER_BETTER);
			snprintf(name, sizeof name, "%s.jitter_ms", test);
			figure_add(sum, name, json_get_num(r, "end.sum_received.jitter_ms", 0), "ms", LOWER_BETTER);
		} else {
			snprintf(name, sizeof name, "%s.retransmits", test);
			figure_add(sum, name, json_get_num(r, "end.sum_sent.retransmits", 0), "count", LOWER_BETTER);
		}
	}
	if (json_path(r, "latency.tcp_connect.avg_ms")) {
		snprintf(name, sizeof name, "%s.connect_ms.avg", test);
		figure_add(sum, name, json_get_num(r, "latency.tcp_connect.avg_ms", 0), "ms", LOWER_BETTER);
	}
	if (json_path(r, "latency.icmp.avg_ms")) {
		snprintf(name, sizeof name, "%s.rtt.avg", test);
		figure_add(sum, name, json_get_num(r, "latency.icmp.avg_ms", 0), "ms", LOWER_BETTER);
	}
	if (json_path(r, "http.mbit_per_sec")) {
		snprintf(name, sizeof name, "%s.mbit_per_sec", test);
		figure_add(sum, name, json_get_num(r, "http.mbit_per_sec", 0), "Mbit/s", HIGHER_BETTER);
		snprintf(name, sizeof name, "%s.ttfb_ms", test);
		figure_add(sum, name, json_get_num(r, "http.ttfb_ms", 0), "ms", LOWER_BETTER);
	}
}

static const char *const *net_figure_names(void)
{
	static const char *const names[] = { "net.tcp.[{reverse,p4}].{gbit_per_sec.sent,gbit_per_sec.received,retransmits}",
		"net.udp.{gbit_per_sec.sent,gbit_per_sec.received,lost_percent,jitter_ms}",
		"net.latency.{connect_ms.avg,rtt.avg}", "net.http.{mbit_per_sec,ttfb_ms}", NULL };
	return names;
}

const struct engine engine_net = {
	.cmd = ENGINE_COMMAND("net",
			      "network: iperf3-protocol TCP and UDP throughput, ICMP/connect latency, HTTP download",
			      "-c HOST [-p 5201] [-t SECS] [-P N] [-R|--bidir] [-u -b RATE] [-O SECS] [-i SECS] [-4|-6] | --latency HOST | --http URL",
			      net_opts, struct net_cfg, 0),
	.check = net_check,
	.run = net_run,
	.text = net_text,
	.figures = net_figures,
	.plan = net_plan,
	.title = "Network",
	.figure_names = net_figure_names,
};
