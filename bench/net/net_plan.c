/* assay run's network tests: TCP throughput against an iperf3 server, latency, an HTTP
 * download, and the DNS query rate, each against the peer the run names; skipped with
 * the reason when no NIC got an address. */
#include "net.h"
#include "engine/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "host:port" / "[v6]:port" / "host" -> host and port (dflt when absent) */
void split_hostport(const char *s, char *host, size_t n, int *port, int dflt)
{
	const char *colon = strrchr(s, ':');
	*port = dflt;
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');
		snprintf(host, n, "%.*s", rb ? (int)(rb - s - 1) : (int)strlen(s + 1), s + 1);
		if (rb && rb[1] == ':')
			*port = atoi(rb + 2);
		return;
	}
	if (colon && strchr(s, ':') == colon) {
		snprintf(host, n, "%.*s", (int)(colon - s), s);
		*port = atoi(colon + 1);
	} else {
		snprintf(host, n, "%s", s);
	}
}

/* HOST[:PORT][:udp[:RATE]] ([v6] in brackets): the host, port (5201), udp and its rate;
 * a word that is none of these into bad */
static void iperf_target(const char *s, char *host, size_t n, int *port, int *udp, char *rate, size_t rn, char *bad,
			 size_t bn)
{
	const char *p = s, *end;
	*port = 5201;
	if (*p == '[') {
		end = strchr(p, ']');
		end = end ? end + 1 : p + strlen(p);
		snprintf(host, n, "%.*s", (int)(end - p - 2 > 0 ? end - p - 2 : 0), p + 1);
	} else {
		end = p + strcspn(p, ":");
		snprintf(host, n, "%.*s", (int)(end - p), p);
	}
	for (p = end; *p == ':';) {
		char w[64];
		size_t l = strcspn(p + 1, ":");
		snprintf(w, sizeof w, "%.*s", (int)l, p + 1);
		p += 1 + l;
		if (!strcmp(w, "udp"))
			*udp = 1;
		else if (*udp && w[0] >= '0' && w[0] <= '9' && strspn(w, "0123456789.kKmMgGtT") == strlen(w))
			snprintf(rate, rn, "%s", w);
		else if (!*udp && w[0] && strspn(w, "0123456789") == strlen(w) && atoi(w) > 0 && atoi(w) < 65536)
			*port = atoi(w);
		else if (!bad[0])
			snprintf(bad, bn, "%s", w);
	}
	if (*p && !bad[0])
		snprintf(bad, bn, "%s", p);
}

/* In the image: did any NIC get an address?  (init's /run/assay-net) */
int network_up(char *why, size_t n)
{
	FILE *f;
	char line[256], last[256] = "";
	int up = 0;
	if (!getenv("ASSAY_IMAGE"))
		return 1;
	f = fopen("/run/assay-net", "r");
	if (!f) {
		snprintf(why, n, "no network configured in the image (no NIC?)");
		return 0;
	}
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (strstr(line, "dhcp=ok") || (strstr(line, "static=") && !strstr(line, "static=failed")))
			up = 1;
		if (!strncmp(line, "nic ", 4))
			snprintf(last, sizeof last, "%s", line + 4);
	}
	fclose(f);
	if (!up)
		snprintf(why, n, "no network: %s", last[0] ? last : "no NIC got an address");
	return up;
}

/* one test, skipped with the reason when the network is down */
static void add(struct run_plan *p, const char *name, const char *engine, int argc, char **argv, double t, int up,
		const char *why)
{
	struct plan_item *it = plan_add(p, name, engine, argc, argv, t);
	if (!up)
		plan_skip(it, "%s", why);
}

void net_plan(struct run_plan *p, const struct plan_req *c)
{
	double t = c->net_time;
	char host[256], a[7][300], why[300];
	int port, up;
	if (!plan_wants(c, "net"))
		return;
	up = network_up(why, sizeof why);
	if (c->iperf) {
		char *av[8] = { a[0], a[1], a[2], "-J" }, rate[32] = "100M", bad[64] = "";
		int udp = 0;
		iperf_target(c->iperf, host, sizeof host, &port, &udp, rate, sizeof rate, bad, sizeof bad);
		snprintf(a[0], sizeof a[0], "--client=%s", host);
		snprintf(a[1], sizeof a[1], "--port=%d", port);
		snprintf(a[2], sizeof a[2], "--time=%g", t);
		if (bad[0]) {
			snprintf(why, sizeof why, "assay.iperf=%s: '%s' is neither a port, udp nor a rate", c->iperf, bad);
			up = 0;
		}
		/* -J: the suite keeps the JSON; iperf3's lines are not printed as the test runs */
		add(p, "net.tcp", "net", 4, av, t, up, why);
		if (c->suite != SUITE_QUICK) {
			av[4] = "--reverse";
			add(p, "net.tcp.reverse", "net", 5, av, t, up, why);
			av[4] = "--parallel=4";
			add(p, "net.tcp.p4", "net", 5, av, t, up, why);
		}
		if (udp) {
			snprintf(a[6], sizeof a[6], "--bitrate=%s", rate);
			av[4] = "--udp";
			av[5] = a[6];
			add(p, "net.udp", "net", 6, av, t, up, why);
		}
	}
	if (c->ping) {
		char *av[3] = { a[3], a[4] };
		split_hostport(c->ping, host, sizeof host, &port, 0);
		snprintf(a[3], sizeof a[3], "--latency=%s", host);
		snprintf(a[4], sizeof a[4], "--latency-port=%d", port);
		/* connect times only to a port the user named: never an iperf3 server's by default */
		add(p, "net.latency", "net", port ? 2 : 1, av, 0, up, why);
	}
	if (c->http) {
		char *av[2] = { a[5] };
		snprintf(a[5], sizeof a[5], "--http=%s", c->http);
		add(p, "net.http", "net", 1, av, 0, up, why);
	}
	if (!c->iperf && !c->ping && !c->http && !(c->dns && plan_wants(c, "dns")))
		plan_skip(plan_add(p, "net", "net", 0, NULL, 0), "no network peer given (assay.iperf=HOST, "
			  "assay.ping=HOST, assay.http=URL, assay.dns=SERVER)");
}

void dns_plan(struct run_plan *p, const struct plan_req *c)
{
	double t = c->net_time;
	char host[256], s1[300], s2[64], s3[64], s4[300], why[300];
	char *av[5];
	int ac = 0, port;
	if (!plan_wants(c, "dns") || !c->dns)
		return;
	if (strcmp(c->dns, "dhcp")) {
		split_hostport(c->dns, host, sizeof host, &port, 53);
		snprintf(s1, sizeof s1, "--server=%s", host);
		snprintf(s2, sizeof s2, "--port=%d", port);
		av[ac++] = s1;
		av[ac++] = s2;
	}
	snprintf(s3, sizeof s3, "--limit=%g", t);
	av[ac++] = s3;
	if (c->dns_file) {
		snprintf(s4, sizeof s4, "--datafile=%s", c->dns_file);
		av[ac++] = s4;
	}
	add(p, "dns", "dns", ac, av, t, network_up(why, sizeof why), why);
}
