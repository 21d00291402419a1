/* assay run's network tests: TCP throughput against an iperf3 server, latency, an HTTP
 * download, and the DNS query rate, each against the peer the run names; skipped with
 * the reason when no NIC got an address. */
#include "net.h"
#include "suite.h"

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

void net_plan(struct run_plan *p, const struct run_cfg *c)
{
	double t = suite_net_time(c);
	char host[256], a[6][300], why[300];
	int port, up;
	if (!suite_wants(c, "net"))
		return;
	up = network_up(why, sizeof why);
	if (c->iperf) {
		char *av[8] = { a[0], a[1], a[2], "-J" };
		split_hostport(c->iperf, host, sizeof host, &port, 5201);
		snprintf(a[0], sizeof a[0], "--client=%s", host);
		snprintf(a[1], sizeof a[1], "--port=%d", port);
		snprintf(a[2], sizeof a[2], "--time=%g", t);
		add(p, "net.tcp", "net", 3, av, t, up, why);
		if (c->suite != SUITE_QUICK) {
			av[3] = "--reverse";
			add(p, "net.tcp.reverse", "net", 4, av, t, up, why);
			av[3] = "--parallel=4";
			add(p, "net.tcp.p4", "net", 4, av, t, up, why);
		}
	}
	if (c->ping) {
		char *av[3] = { a[3], a[4] };
		split_hostport(c->ping, host, sizeof host, &port, 5201);
		snprintf(a[3], sizeof a[3], "--latency=%s", host);
		snprintf(a[4], sizeof a[4], "--latency-port=%d", port);
		add(p, "net.latency", "net", 2, av, 0, up, why);
	}
	if (c->http) {
		char *av[2] = { a[5] };
		snprintf(a[5], sizeof a[5], "--http=%s", c->http);
		add(p, "net.http", "net", 1, av, 0, up, why);
	}
	if (!c->iperf && !c->ping && !c->http && !(c->dns && suite_wants(c, "dns")))
		plan_skip(plan_add(p, "net", "net", 0, NULL, 0), "no network peer given (assay.iperf=HOST, "
			  "assay.ping=HOST, assay.http=URL, assay.dns=SERVER)");
}

void dns_plan(struct run_plan *p, const struct run_cfg *c)
{
	double t = suite_net_time(c);
	char host[256], s1[300], s2[64], s3[64], s4[300], why[300];
	char *av[5];
	int ac = 0, port;
	if (!suite_wants(c, "dns") || !c->dns)
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
