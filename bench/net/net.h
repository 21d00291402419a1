/* The network engines (net, dns) as the rest of assay sees them: their part of a suite. */
#ifndef ASSAY_NET_H
#define ASSAY_NET_H

#include <stddef.h>

struct run_plan;
struct plan_req;

/* assay run's net and dns tests */
void net_plan(struct run_plan *p, const struct plan_req *c);
void dns_plan(struct run_plan *p, const struct plan_req *c);
/* "host:port", "[v6]:port" or "host": the host, and the port (dflt when none) */
void split_hostport(const char *s, char *host, size_t n, int *port, int dflt);
/* in the image, did a NIC get an address (init's /run/assay-net)?  1, or 0 with why;
 * on a host always 1 */
int network_up(char *why, size_t n);

#endif
