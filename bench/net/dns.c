/* assay dns: dnsperf-style query rate (dnsperf 2.10's src/dnsperf.c): queries from a file
 * of "name type" lines, sent over UDP with unique IDs and the RD flag, up to -q in flight,
 * each lost after -t seconds; QPS = completed / (last reply - start).  Replies are checked
 * (length, QR, a pending ID, the same question) before they count. */
#include "clock.h"
#include "dnswire.h"
#include "engine/engine.h"
#include "hist.h"
#include "json.h"
#include "net.h"
#include "msg.h"
#include "netio.h"
#include "result/result.h"

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

/* a run under way: the queries, the ids in flight, what came back */
struct dns_run {
	const struct dns_cfg *c;
	const char *server;
	struct query *qs;
	struct slot *slots;        /* by query id */
	int nq, fd, inflight, qi;
	uint16_t next_id;
	unsigned long long sent, done, lost, malformed, unexpected, req_bytes, resp_bytes;
	unsigned long long rcodes[16];
	double t_last, next_scan;
	struct hist h;
};

/* fill the window of outstanding queries; 0, or -1 with err */
static int dns_fill(struct dns_run *d, char *err, size_t n)
{
	const struct dns_cfg *c = d->c;
	while (d->inflight < c->outstanding) {
		struct query *q = &d->qs[d->qi];
		uint16_t id = d->next_id;
		int tries = 0;
		while (d->slots[id].busy && tries++ < 65536)
			id++;
		if (d->slots[id].busy)
			break;
		q->pkt[0] = (unsigned char)(id >> 8);
		q->pkt[1] = (unsigned char)id;
		if (send(d->fd, q->pkt, q->len, 0) < 0) {
			if (errno == EAGAIN || errno == ENOBUFS)
				break;
			if (errno == ECONNREFUSED)
				continue;   /* an ICMP error for an earlier query: keep going */
			snprintf(err, n, "sending to %s: %s", d->server, strerror(errno));
			return -1;
		}
		d->slots[id].busy = 1;
		d->slots[id].sent = now_s();
		d->slots[id].q = d->qi;
		d->next_id = (uint16_t)(id + 1);
		d->inflight++;
		d->sent++;
		d->req_bytes += q->len;
		d->qi = (d->qi + 1) % d->nq;
		if (c->max_queries && d->sent >= (unsigned long long)c->max_queries)
			break;
	}
	return 0;
}

/* every reply there is: matched to its query, or counted malformed or unexpected */
static void dns_drain(struct dns_run *d)
{
	unsigned char rb[65536];
	for (;;) {
		ssize_t r = recv(d->fd, rb, sizeof rb, 0);
		struct dns_reply rep;
		struct slot *sl;
		double t;
		if (r < 0 && errno == ECONNREFUSED)
			continue;
		if (r <= 0)
			break;
		t = now_s();
		if (dns_parse_reply(rb, (size_t)r, &rep)) {
			d->malformed++;
			continue;
		}
		sl = &d->slots[rep.id];
		if (!sl->busy || !dns_same_question(d->qs[sl->q].pkt, d->qs[sl->q].len, rb, (size_t)r)) {
			d->unexpected++;
			continue;
		}
		sl->busy = 0;
		d->inflight--;
		d->done++;
		d->resp_bytes += (unsigned long long)r;
		d->rcodes[rep.rcode & 15]++;
		hist_add(&d->h, (uint64_t)((t - sl->sent) * 1e9));
		d->t_last = t;
	}
}

/* queries unanswered for --timeout are lost (a linear scan, 10 times a second, and at
 * every turn once sending is over) */
static void dns_expire(struct dns_run *d, int sending)
{
	double now = now_s();
	if (now < d->next_scan && (sending || !d->inflight))
		return;
	d->next_scan = now + 0.1;
	for (int id = 0; id < 65536 && d->inflight; id++)
		if (d->slots[id].busy && now - d->slots[id].sent > d->c->timeout) {
			d->slots[id].busy = 0;
			d->inflight--;
			d->lost++;
		}
}

static void dns_report(const struct dns_run *d, double t0, struct json *out)
{
	static const double pl[] = { 50, 90, 99, 99.9 };
	double run = d->t_last > t0 ? d->t_last - t0 : now_s() - t0;
	struct json *rj = json_obj(), *lat, *pj;
	json_add_str(out, "server", d->server);
	json_add_int(out, "port", d->c->port);
	json_add_int(out, "queries_in_file", d->nq);
	json_add_int(out, "queries_sent", (long long)d->sent);
	json_add_int(out, "queries_completed", (long long)d->done);
	json_add_int(out, "queries_lost", (long long)d->lost);
	json_add_int(out, "replies_malformed", (long long)d->malformed);
	json_add_int(out, "replies_unexpected", (long long)d->unexpected);
	json_add_num(out, "run_time_s", run);
	json_add_num(out, "queries_per_second", run > 0 ? (double)d->done / run : 0);
	json_add_num(out, "avg_request_bytes", d->sent ? (double)d->req_bytes / (double)d->sent : 0);
	json_add_num(out, "avg_response_bytes", d->done ? (double)d->resp_bytes / (double)d->done : 0);
	for (int i = 0; i < 16; i++)
		if (d->rcodes[i])
			json_add_int(rj, dns_rcode_name(i), (long long)d->rcodes[i]);
	json_add(out, "rcodes", rj);
	lat = json_add_obj(out, "latency_s");
	json_add_num(lat, "avg", d->h.m.mean / 1e9);
	json_add_num(lat, "min", d->h.m.n ? (double)d->h.m.min / 1e9 : 0);
	json_add_num(lat, "max", (double)d->h.m.max / 1e9);
	json_add_num(lat, "stddev", moments_stddev(&d->h.m) / 1e9);
	pj = json_add_obj(lat, "percentile");
	for (int i = 0; i < 4; i++) {
		char k[32];
		snprintf(k, sizeof k, "%f", pl[i]);
		json_add_num(pj, k, (double)hist_percentile(&d->h, pl[i]) / 1e9);
	}
}

static int dns_run(void *p, struct json *out)
{
	struct dns_cfg *c = p;
	struct dns_run *d = calloc(1, sizeof *d);
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[512], server[256];
	int rc = EXIT_OK, big = 4 << 20;
	double t0, stop_at;

	if (!d || !(d->slots = calloc(65536, sizeof *d->slots))) {
		free(d);
		json_add_str(out, "error", "out of memory");
		return EXIT_SYS;
	}
	hist_init(&d->h);
	d->c = c;
	d->fd = -1;
	d->server = server;
	d->next_id = (uint16_t)(now_ns() & 0xffff);
	rc = EXIT_USAGE;
	if (c->server)
		snprintf(server, sizeof server, "%s", c->server);
	else if (default_server(server, sizeof server)) {
		snprintf(err, sizeof err, "no -s SERVER and no nameserver in /etc/resolv.conf");
		goto out;
	}
	if (load_queries(c->datafile, &d->qs, &d->nq, err, sizeof err) ||
	    net_resolve(server, (int)c->port, c->v4 ? AF_INET : c->v6 ? AF_INET6 : AF_UNSPEC, SOCK_DGRAM, &ss, &sl,
			err, sizeof err))
		goto out;
	rc = EXIT_FAIL;
	d->fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (d->fd < 0 || connect(d->fd, (struct sockaddr *)&ss, sl)) {
		snprintf(err, sizeof err, "cannot reach %s: %s", server, strerror(errno));
		goto out;
	}
	setsockopt(d->fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	t0 = now_s();
	stop_at = t0 + c->limit;
	for (;;) {
		int sending = now_s() < stop_at && (!c->max_queries || d->sent < (unsigned long long)c->max_queries);
		struct pollfd pf = { d->fd, POLLIN, 0 };
		if (sending && dns_fill(d, err, sizeof err))
			goto out;
		if (!sending && !d->inflight)
			break;
		if (poll(&pf, 1, 10) > 0)
			dns_drain(d);
		dns_expire(d, sending);
	}
	dns_report(d, t0, out);
	if (!d->done)
		snprintf(err, sizeof err, "no replies from %s:%lld (%llu queries sent)", server, c->port, d->sent);
	else
		rc = EXIT_OK;
out:
	if (rc != EXIT_OK) {
		errmsg("dns: %s", err);
		json_add_str(out, "error", err);
	}
	if (d->fd >= 0)
		close(d->fd);
	free(d->qs);
	free(d->slots);
	free(d);
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
	figure_add(sum, name, json_get_num(r, "queries_per_second", 0), "qps", HIGHER_BETTER);
	snprintf(name, sizeof name, "%s.latency_ms.avg", test);
	figure_add(sum, name, json_get_num(r, "latency_s.avg", 0) * 1e3, "ms", LOWER_BETTER);
	snprintf(name, sizeof name, "%s.lost", test);
	figure_add(sum, name, json_get_num(r, "queries_lost", 0), "count", LOWER_BETTER);
}

static const char *const *dns_figure_names(void)
{
	static const char *const names[] = { "dns.{qps,latency_ms.avg,lost}", NULL };
	return names;
}

const struct engine engine_dns = {
	.cmd = ENGINE_COMMAND("dns",
			      "DNS: dnsperf-style query rate and latency over UDP",
			      "[-s SERVER] [-p 53] [-d FILE] [-l SECS] [-q 100] [-t 5]",
			      dns_opts, struct dns_cfg, 0),
	.check = dns_check,
	.run = dns_run,
	.text = dns_text,
	.figures = dns_figures,
	.plan = dns_plan,
	.title = "DNS",
	.figure_names = dns_figure_names,
};
