/* Addresses for the NICs: DHCP with busybox udhcpc and our script (the default), a static
 * address from assay.net=IF:ADDR/PREFIX[:GATEWAY[:DNS]], or none.  IPv6 SLAAC is the
 * kernel's own once the link is up.  What each NIC got, and how long DHCP took, goes to
 * /run/assay-net for the results; no link or no lease is one line and the suite marks its
 * network tests skipped. */
#include "fileio.h"
#include "init.h"
#include "msg.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NETLOG "/run/assay-net"
#define LINK_WAIT_S 3.0
#define DHCP_LIMIT_S 12.0

static void netlog(const char *fmt, const char *a, const char *b, double t)
{
	FILE *f = fopen(NETLOG, "a");
	if (!f)
		return;
	fprintf(f, fmt, a, b, t);
	fputc('\n', f);
	fclose(f);
}

/* run argv with a time limit; its exit status, -1 on timeout or when it did not run */
static int run_bounded(char *const argv[], double limit)
{
	static char *const envp[] = { "PATH=/bin:/sbin", NULL };
	double t0 = uptime();
	int st;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		execve(argv[0], argv, envp);
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		if (uptime() - t0 > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		usleep(20000);
	}
}

static int has_carrier(const char *ifname)
{
	char p[128], b[8] = "";
	FILE *f;
	snprintf(p, sizeof p, "/sys/class/net/%s/carrier", ifname);
	f = fopen(p, "r");
	if (!f)
		return 0;
	if (!fgets(b, sizeof b, f))
		b[0] = 0;
	fclose(f);
	return b[0] == '1';
}

/* the IPv4 address and prefix an interface has ("10.0.2.15/24"), or "" */
static void if_addr(const char *ifname, char *out, size_t n)
{
	struct ifaddrs *ifa, *i;
	*out = 0;
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		const struct sockaddr_in *a = (const void *)i->ifa_addr, *m = (const void *)i->ifa_netmask;
		char ip[INET_ADDRSTRLEN];
		if (!a || a->sin_family != AF_INET || strcmp(i->ifa_name, ifname) || !m)
			continue;
		inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
		snprintf(out, n, "%s/%d", ip, __builtin_popcount(m->sin_addr.s_addr));
		break;
	}
	freeifaddrs(ifa);
}

static void dhcp(const char *ifname)
{
	char addr[64];
	char ifn[32];
	char *argv[] = { "/bin/udhcpc", "-i", ifn, "-f", "-q", "-n", "-t", "4", "-T", "1", "-A", "1",
			 "-s", "/etc/udhcpc.script", NULL };
	double t0 = uptime(), tl;
	int r;
	snprintf(ifn, sizeof ifn, "%s", ifname);
	while (!has_carrier(ifname) && uptime() - t0 < LINK_WAIT_S)
		usleep(50000);
	if (!has_carrier(ifname)) {
		ilog("%s: no link after %.0f s: no address", ifname, LINK_WAIT_S);
		netlog("nic %s link=down dhcp=skipped%s seconds=%.2f", ifname, "", uptime() - t0);
		return;
	}
	tl = uptime();
	r = run_bounded(argv, DHCP_LIMIT_S);
	if (r == 0) {
		if_addr(ifname, addr, sizeof addr);
		ilog("%s: DHCP lease in %.2f s: %s", ifname, uptime() - tl, *addr ? addr : "no IPv4 address");
		netlog("nic %s link=up dhcp=ok%s seconds=%.2f", ifname, "", uptime() - tl);
	} else {
		ilog("%s: no DHCP lease within %.0f s%s", ifname, uptime() - tl,
		     r == 127 ? " (no udhcpc in the image)" : "");
		netlog("nic %s link=up dhcp=failed%s seconds=%.2f", ifname, "", uptime() - tl);
	}
}

/* IF:ADDR/PREFIX[:GATEWAY[:DNS]] */
static void static_addr(const char *spec)
{
	char buf[256], *f[4] = { 0 }, *save;
	int n = 0;
	snprintf(buf, sizeof buf, "%s", spec);
	for (char *t = strtok_r(buf, ":", &save); t && n < 4; t = strtok_r(NULL, ":", &save))
		f[n++] = t;
	if (n < 2 || !strchr(f[1], '/')) {
		warn("kernel command line: assay.net=%s: accepted: dhcp, none, or IF:ADDR/PREFIX[:GATEWAY[:DNS]]", spec);
		return;
	}
	if (rtnl_link_up(f[0]) || rtnl_addr_add(f[0], f[1])) {
		warn("assay.net=%s: cannot set the address:", spec);
		netlog("nic %s static=failed%s seconds=%.2f", f[0], "", 0);
		return;
	}
	if (f[2] && *f[2] && rtnl_default_route(f[0], f[2]))
		warn("assay.net=%s: cannot set the default route:", spec);
	if (f[3] && *f[3]) {
		FILE *r = fopen("/etc/resolv.conf", "w");
		if (r) {
			fprintf(r, "nameserver %s\n", f[3]);
			fclose(r);
		}
	}
	ilog("%s: static address %s", f[0], f[1]);
	netlog("nic %s static=%s seconds=%.2f", f[0], f[1], 0);
}

/* The kernel's ip= parameter (Documentation/admin-guide/nfs/nfsroot.rst):
 * ip=CLIENT:SERVER:GATEWAY:NETMASK:HOSTNAME:DEVICE:AUTOCONF[...] or ip=dhcp|off|none.
 * Turned into what assay.net says: "dhcp", "none" or IF:ADDR/PREFIX:GW.  0 when absent. */
static int kernel_ip(char *out, size_t n)
{
	char *cmd = read_file("/proc/cmdline", 65536, NULL), *save;
	int found = 0;
	if (!cmd)
		return 0;
	for (char *w = strtok_r(cmd, " \n", &save); w && !found; w = strtok_r(NULL, " \n", &save)) {
		char *f[8] = { 0 }, *p;
		int k = 0, prefix = 0;
		unsigned a, b, c2, d;
		if (strncmp(w, "ip=", 3))
			continue;
		w += 3;
		if (!strcmp(w, "dhcp") || !strcmp(w, "on") || !strcmp(w, "any") || !strcmp(w, "both")) {
			snprintf(out, n, "dhcp");
			found = 1;
			continue;
		}
		if (!strcmp(w, "off") || !strcmp(w, "none")) {
			snprintf(out, n, "none");
			found = 1;
			continue;
		}
		for (p = w; k < 8; k++) {   /* empty fields count: strsep, not strtok */
			f[k] = strsep(&p, ":");
			if (!p)
				break;
		}
		found = 1;
		if (f[6] && (!strcmp(f[6], "dhcp") || !strcmp(f[6], "on") || !strcmp(f[6], "any"))) {
			snprintf(out, n, "dhcp");
			continue;
		}
		if (!f[0] || !*f[0] || !f[5] || !*f[5]) {
			warn("kernel command line: ip=%s: assay reads CLIENT::GATEWAY:NETMASK::DEVICE:off "
			     "(client address and device needed); using DHCP", w);
			snprintf(out, n, "dhcp");
			continue;
		}
		if (f[3] && sscanf(f[3], "%u.%u.%u.%u", &a, &b, &c2, &d) == 4) {
			unsigned long m = (unsigned long)a << 24 | b << 16 | c2 << 8 | d;
			while (m & 0x80000000ul) {
				prefix++;
				m = (m << 1) & 0xffffffffu;
			}
		} else {
			prefix = 24;
		}
		snprintf(out, n, "%s:%s/%d%s%s", f[5], f[0], prefix, f[2] && *f[2] ? ":" : "", f[2] && *f[2] ? f[2] : "");
	}
	free(cmd);
	return found;
}

void net_configure(const char *how_in)
{
	struct dirent **v;
	int n;
	char kip[256];
	const char *how = how_in;
	if (!strcmp(how, "dhcp") && kernel_ip(kip, sizeof kip)) {
		ilog("network from the kernel's ip= parameter: %s", kip);
		how = kip;
	}
	if (!strcmp(how, "none")) {
		netlog("net %s%s seconds=%.2f", "none", "", 0);
		return;
	}
	if (strcmp(how, "dhcp")) {
		static_addr(how);
		return;
	}
	n = scandir("/sys/class/net", &v, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *nm = v[i]->d_name;
		if (nm[0] != '.' && strcmp(nm, "lo") && strncmp(nm, "sit", 3) && strncmp(nm, "dummy", 5))
			dhcp(nm);
		free(v[i]);
	}
	if (n > 0)
		free(v);
}
