/* assay dns: dnsperf-style query rate (dnsperf 2.10's src/dnsperf.c): queries from a file
 * of "name type" lines, sent over UDP with unique IDs and the RD flag, up to -q in flight,
 * each lost after -t seconds; QPS = completed / (last reply - start).  Replies are checked
 * (length, QR, a pending ID, the same question) before they count. */
#include "clock.h"
#include "dnswire.h"
#include "engine.h"
#include "hist.h"
#include "json.h"
#include "msg.h"
#include "netio.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct dns_cfg {
	struct common_cfg common;
	const char *server;
	long long port;
	const char *datafile;
	double limit;
	long long outstanding;
	double timeout;
	long long max_queries;
	int v4, v6;
};

#define O(f) offsetof(struct dns_cfg, f)
static const struct opt dns_opts[] = {
	OPTS_COMMON(struct dns_cfg),
	{ "server", 's', OPT_STR, O(server), NULL, 0, 0, "a host", "the DNS server (default: the first "
	  "nameserver in /etc/resolv.conf)", 0 },
	{ "port", 'p', OPT_INT, O(port), "53", 1, 65535, NULL, "server port", 0 },
	{ "datafile", 'd', OPT_STR, O(datafile), NULL, 0, 0, "a file of 'name type' lines",
	  "the queries, sent in a loop (default: a built-in list)", 0 },
	{ "limit", 'l', OPT_TIME, O(limit), "10", 0.1, 86400, NULL, "run this long", 0 },
	{ "outstanding", 'q', OPT_INT, O(outstanding), "100", 1, 65535, NULL, "queries in flight at most", 0 },
	{ "timeout", 't', OPT_TIME, O(timeout), "5", 0.01, 600, NULL, "a query with no reply after this is lost", 0 },
	{ "max-queries", 'n', OPT_INT, O(max_queries), "0", 0, 1e12, NULL,
	  "stop after sending this many (0: only -l limits)", 0 },
	{ "version4", '4', OPT_BOOL, O(v4), "0", 0, 0, NULL, "IPv4 only", OPT_NOARG },
	{ "version6", '6', OPT_BOOL, O(v6), "0", 0, 0, NULL, "IPv6 only", OPT_NOARG },
	OPT_END,
};
#undef O

static const char builtin_queries[] =
	"www.google.com A\nwww.wikipedia.org A\nwww.debian.org A\ngithub.com A\nwww.cloudflare.com AAAA\n"
	"example.com A\nexample.com MX\nkernel.org A\nwww.amazon.com A\nnonexistent.example.com A\n";

struct query {
	unsigned char pkt[DNS_MAX_QUERY];
	size_t len;
};

static int load_queries(const char *file, struct query **out, int *nq, char *err, size_t n)
{
	char *text = NULL, *line, *save;
	int cap = 0, count = 0, lineno = 0;
	struct query *q = NULL;
	if (file) {
		FILE *f = fopen(file, "r");
		size_t len;
		if (!f) {
			snprintf(err, n, "-d %s: %s", file, strerror(errno));
			return -1;
		}
		text = malloc(16 << 20);
		len = text ? fread(text, 1, (16 << 20) - 1, f) : 0;
		fclose(f);
		if (!text) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		text[len] = 0;
	} else {
		text = strdup(builtin_queries);
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[300], type[32], e[200];
		int k;
		lineno++;
		line[strcspn(line, "#\r")] = 0;
		k = sscanf(line, "%299s %31s", name, type);
		if (k <= 0)
			continue;
		if (k == 1)
			snprintf(type, sizeof type, "A");   /* dnsperf's default type */
		if (count == cap) {
			struct query *nqp = realloc(q, (size_t)(cap = cap ? cap * 2 : 64) * sizeof *q);
			if (!nqp) {
				snprintf(err, n, "out of memory");
				goto fail;
			}
			q = nqp;
		}
		if (dns_build_query(name, type, 0, q[count].pkt, &q[count].len, e, sizeof e)) {
			snprintf(err, n, "%s:%d: %s", file ? file : "built-in list", lineno, e);
			goto fail;
		}
		count++;
	}
	free(text);
	if (!count) {
		snprintf(err, n, "-d %s: no queries in it", file);
		free(q);
		return -1;
	}
	*out = q;
	*nq = count;
	return 0;
fail:
	free(text);
	free(q);
	return -1;
}

static int default_server(char *out, size_t n)
{
	FILE *f = fopen("/etc/resolv.conf", "r");
	char line[256];
	int r = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "nameserver %255s", out) == 1 && strlen(out) < n) {
			r = 0;
			break;
		}
	if (f)
		fclose(f);
	return r;
}

struct slot {
	double sent;
	int q;          /* index of the query */
	int busy;
};

static int dns_check(void *p, int npos, char **pos, char *err, size_t n)
{
	struct dns_cfg *c = p;
	if (npos) {
		snprintf(err, n, "unexpected argument '%s'", pos[0]);
		return EXIT_USAGE;
	}
	if (c->v4 && c->v6) {
		snprintf(err, n, "-4 and -6: give one");
		return EXIT_USAGE;
	}
	return 0;
}

static int dns_run(void *p, struct json *out)
{
	struct dns_cfg *c = p;
	struct query *qs = NULL;
	struct slot *slots = calloc(65536, sizeof *slots);
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[512], server[256];
	int nq = 0, fd = -1, inflight = 0, qi = 0, rc = EXIT_OK;
	uint16_t next_id = (uint16_t)(now_ns() & 0xffff);
	unsigned long long sent = 0, done = 0, lost = 0, malformed = 0, unexpected = 0, req_bytes = 0, resp_bytes = 0;
	unsigned long long rcodes[16] = { 0 };
	double t0, t_last = 0, stop_at;
	struct hist h;
	unsigned char rb[65536];

	hist_init(&h);
	if (!slots) {
		json_add_str(out, "error", "out of memory");
		return EXIT_SYS;
	}
	if (c->server)
		snprintf(server, sizeof server, "%s", c->server);
	else if (default_server(server, sizeof server)) {
		snprintf(err, sizeof err, "no -s SERVER and no nameserver in /etc/resolv.conf");
		goto usage;
	}
	if (load_queries(c->datafile, &qs, &nq, err, sizeof err))
		goto usage;
	if (net_resolve(server, (int)c->port, c->v4 ? AF_INET : c->v6 ? AF_INET6 : AF_UNSPEC, SOCK_DGRAM, &ss, &sl,
			err, sizeof err))
		goto usage;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&ss, sl)) {
		snprintf(err, sizeof err, "cannot reach %s: %s", server, strerror(errno));
		goto fail;
	}
	{
		int big = 4 << 20;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	}
	t0 = now_s();
	stop_at = t0 + c->limit;
	for (;;) {
		double now = now_s();
		int sending = now < stop_at && (!c->max_queries || sent < (unsigned long long)c->max_queries);
		struct pollfd pf = { fd, POLLIN, 0 };
		/* fill the window */
		while (sending && inflight < c->outstanding) {
			struct query *q = &qs[qi];
			uint16_t id = next_id;
			int tries = 0;
			while (slots[id].busy && tries++ < 65536)
				id++;
			if (slots[id].busy)
				break;
			q->pkt[0] = (unsigned char)(id >> 8);
			q->pkt[1] = (unsigned char)id;
			if (send(fd, q->pkt, q->len, 0) < 0) {
				if (errno == EAGAIN || errno == ENOBUFS)
					break;
				if (errno == ECONNREFUSED)
					continue;   /* an ICMP error for an earlier query: keep going */
				snprintf(err, sizeof err, "sending to %s: %s", server, strerror(errno));
				goto fail;
			}
			slots[id].busy = 1;
			slots[id].sent = now_s();
			slots[id].q = qi;
			next_id = (uint16_t)(id + 1);
			inflight++;
			sent++;
			req_bytes += q->len;
			qi = (qi + 1) % nq;
			if (c->max_queries && sent >= (unsigned long long)c->max_queries)
				break;
		}
		if (!sending && !inflight)
			break;
		if (poll(&pf, 1, 10) > 0) {
			for (;;) {
				ssize_t r = recv(fd, rb, sizeof rb, 0);
				struct dns_reply rep;
				double t;
				if (r < 0 && errno == ECONNREFUSED)
					continue;
				if (r <= 0)
					break;
				t = now_s();
				if (dns_parse_reply(rb, (size_t)r, &rep)) {
					malformed++;
					continue;
				}
				if (!slots[rep.id].busy ||
				    !dns_same_question(qs[slots[rep.id].q].pkt, qs[slots[rep.id].q].len, rb, (size_t)r)) {
					unexpected++;
					continue;
				}
				slots[rep.id].busy = 0;
				inflight--;
				done++;
				resp_bytes += (unsigned long long)r;
				rcodes[rep.rcode & 15]++;
				hist_add(&h, (uint64_t)((t - slots[rep.id].sent) * 1e9));
				t_last = t;
			}
		}
		/* expire the lost (a linear scan, 10 times a second) */
		{
			static double next_scan;
			double now2 = now_s();
			if (now2 >= next_scan || (!sending && inflight)) {
				next_scan = now2 + 0.1;
				for (int id = 0; id < 65536 && inflight; id++)
					if (slots[id].busy && now2 - slots[id].sent > c->timeout) {
						slots[id].busy = 0;
						inflight--;
						lost++;
					}
			}
		}
	}
	{
		double run = t_last > t0 ? t_last - t0 : now_s() - t0;
		struct json *rj = json_obj(), *lat;
		json_add_str(out, "server", server);
		json_add_int(out, "port", c->port);
		json_add_int(out, "queries_in_file", nq);
		json_add_int(out, "queries_sent", (long long)sent);
		json_add_int(out, "queries_completed", (long long)done);
		json_add_int(out, "queries_lost", (long long)lost);
		json_add_int(out, "replies_malformed", (long long)malformed);
		json_add_int(out, "replies_unexpected", (long long)unexpected);
		json_add_num(out, "run_time_s", run);
		json_add_num(out, "queries_per_second", run > 0 ? (double)done / run : 0);
		json_add_num(out, "avg_request_bytes", sent ? (double)req_bytes / (double)sent : 0);
		json_add_num(out, "avg_response_bytes", done ? (double)resp_bytes / (double)done : 0);
		for (int i = 0; i < 16; i++)
			if (rcodes[i])
				json_add_int(rj, dns_rcode_name(i), (long long)rcodes[i]);
		json_add(out, "rcodes", rj);
		lat = json_add_obj(out, "latency_s");
		json_add_num(lat, "avg", h.m.mean / 1e9);
		json_add_num(lat, "min", h.m.n ? (double)h.m.min / 1e9 : 0);
		json_add_num(lat, "max", (double)h.m.max / 1e9);
		json_add_num(lat, "stddev", moments_stddev(&h.m) / 1e9);
		{
			struct json *pj = json_add_obj(lat, "percentile");
			static const double pl[] = { 50, 90, 99, 99.9 };
			for (int i = 0; i < 4; i++) {
				char k[32];
				snprintf(k, sizeof k, "%f", pl[i]);
				json_add_num(pj, k, (double)hist_percentile(&h, pl[i]) / 1e9);
			}
		}
	}
	if (!done) {
		snprintf(err, sizeof err, "no replies from %s:%lld (%llu queries sent)", server, c->port, sent);
		goto fail;
	}
	goto out;
usage:
	rc = EXIT_USAGE;
	errmsg("dns: %s", err);
	json_add_str(out, "error", err);
	goto out;
fail:
	rc = EXIT_FAIL;
	errmsg("dns: %s", err);
	json_add_str(out, "error", err);
out:
	if (fd >= 0)
		close(fd);
	free(qs);
	free(slots);
	return rc;
}

static void dns_text(const struct json *r, FILE *f)
{
	double sent = json_get_num(r, "queries_sent", 0);
	const struct json *rc = json_get(r, "rcodes");
	if (!json_get(r, "queries_sent")) {
		if (json_get(r, "error"))
			fprintf(f, "error: %s\n", json_get_str(r, "error", ""));
		return;
	}
	fprintf(f, "Statistics (server %s, port %.0f):\n\n", json_get_str(r, "server", "?"), json_get_num(r, "port", 0));
	fprintf(f, "  Queries sent:         %.0f\n", sent);
	fprintf(f, "  Queries completed:    %.0f (%.2f%%)\n", json_get_num(r, "queries_completed", 0),
		sent ? 100 * json_get_num(r, "queries_completed", 0) / sent : 0);
	fprintf(f, "  Queries lost:         %.0f (%.2f%%)\n\n", json_get_num(r, "queries_lost", 0),
		sent ? 100 * json_get_num(r, "queries_lost", 0) / sent : 0);
	fprintf(f, "  Response codes:       ");
	for (const struct json *k = rc ? rc->child : NULL; k; k = k->next)
		fprintf(f, "%s %.0f (%.2f%%)%s", k->key, k->num,
			json_get_num(r, "queries_completed", 0) ? 100 * k->num / json_get_num(r, "queries_completed", 0) : 0,
			k->next ? ", " : "");
	fprintf(f, "\n  Average packet size:  request %.0f, response %.0f\n", json_get_num(r, "avg_request_bytes", 0),
		json_get_num(r, "avg_response_bytes", 0));
	fprintf(f, "  Run time (s):         %f\n", json_get_num(r, "run_time_s", 0));
	fprintf(f, "  Queries per second:   %f\n\n", json_get_num(r, "queries_per_second", 0));
	fprintf(f, "  Average Latency (s):  %f (min %f, max %f)\n", json_get_num(r, "latency_s.avg", 0),
		json_get_num(r, "latency_s.min", 0), json_get_num(r, "latency_s.max", 0));
	fprintf(f, "  Latency StdDev (s):   %f\n", json_get_num(r, "latency_s.stddev", 0));
	fprintf(f, "  Latency p50/p99 (s):  %f / %f\n", json_get_num(r, "latency_s.percentile.50.000000", 0),
		json_get_num(r, "latency_s.percentile.99.000000", 0));
	if (json_get_num(r, "replies_malformed", 0) || json_get_num(r, "replies_unexpected", 0))
		fprintf(f, "  Replies ignored:      %.0f malformed, %.0f not matching a query\n",
			json_get_num(r, "replies_malformed", 0), json_get_num(r, "replies_unexpected", 0));
	if (json_get(r, "error"))
		fprintf(f, "error: %s\n", json_get_str(r, "error", ""));
}

static void dns_figures(const struct json *r, const char *test, struct json *sum)
{
	char name[128];
	if (!json_get(r, "queries_per_second"))
		return;
	snprintf(name, sizeof name, "%s.qps", test);
	report_figure(sum, name, json_get_num(r, "queries_per_second", 0), "qps");
	snprintf(name, sizeof name, "%s.latency_ms.avg", test);
	report_figure(sum, name, json_get_num(r, "latency_s.avg", 0) * 1e3, "ms");
	snprintf(name, sizeof name, "%s.lost", test);
	report_figure(sum, name, json_get_num(r, "queries_lost", 0), "count");
}

const struct engine engine_dns = {
	.name = "dns",
	.summary = "DNS: dnsperf-style query rate and latency over UDP",
	.usage = "[-s SERVER] [-p 53] [-d FILE] [-l SECS] [-q 100] [-t 5]",
	.opts = dns_opts,
	.cfg_size = sizeof(struct dns_cfg),
	.check = dns_check,
	.run = dns_run,
	.text = dns_text,
	.figures_fn = dns_figures,
};
