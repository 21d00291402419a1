/* rtnetlink from C: links up, addresses, the default route -- what init needs of ip(8). */
#include "init.h"
#include "msg.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct req {
	struct nlmsghdr nh;
	union {
		struct ifinfomsg ifi;
		struct ifaddrmsg ifa;
		struct rtmsg rt;
	} u;
	char attrs[256];
};

static void add_attr(struct req *r, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

/* send one request and wait (bounded) for its acknowledgement; 0 or -1 with errno */
static int talk(struct req *r)
{
	static unsigned seq;
	char buf[4096];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), rc = -1;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	if (fd < 0)
		return -1;
	r->nh.nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	r->nh.nlmsg_seq = ++seq;
	if (sendto(fd, r, r->nh.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof sa) < 0)
		goto out;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t n;
		if (poll(&p, 1, 2000) <= 0) {
			errno = ETIMEDOUT;
			goto out;
		}
		n = recv(fd, buf, sizeof buf, 0);
		if (n <= 0)
			goto out;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (unsigned)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != r->nh.nlmsg_seq || h->nlmsg_type != NLMSG_ERROR)
				continue;
			errno = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
			rc = errno ? -1 : 0;
			goto out;
		}
	}
out:
	close(fd);
	return rc;
}

int rtnl_link_up(const char *ifname)
{
	struct req r;
	int idx = (int)if_nametoindex(ifname);
	if (!idx)
		return -1;
	memset(&r, 0, sizeof r);
	r.nh.nlmsg_len = NLMSG_LENGTH(sizeof r.u.ifi);
	r.nh.nlmsg_type = RTM_NEWLINK;
	r.u.ifi.ifi_family = AF_UNSPEC;
	r.u.ifi.ifi_index = idx;
	r.u.ifi.ifi_flags = IFF_UP;
	r.u.ifi.ifi_change = IFF_UP;
	return talk(&r);
}

/* "10.0.0.5/24" or "fd00::5/64" on ifname */
int rtnl_addr_add(const char *ifname, const char *cidr)
{
	struct req r;
	char a[64], *slash;
	unsigned char bin[16];
	int idx = (int)if_nametoindex(ifname), fam, plen;
	snprintf(a, sizeof a, "%s", cidr);
	slash = strchr(a, '/');
	if (!idx || !slash) {
		errno = EINVAL;
		return -1;
	}
	*slash = 0;
	plen = atoi(slash + 1);
	fam = strchr(a, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(fam, a, bin) != 1 || plen < 0 || plen > (fam == AF_INET ? 32 : 128)) {
		errno = EINVAL;
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.nh.nlmsg_len = NLMSG_LENGTH(sizeof r.u.ifa);
	r.nh.nlmsg_type = RTM_NEWADDR;
	r.nh.nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
	r.u.ifa.ifa_family = (unsigned char)fam;
	r.u.ifa.ifa_prefixlen = (unsigned char)plen;
	r.u.ifa.ifa_index = (unsigned)idx;
	add_attr(&r, IFA_LOCAL, bin, fam == AF_INET ? 4 : 16);
	add_attr(&r, IFA_ADDRESS, bin, fam == AF_INET ? 4 : 16);
	return talk(&r);
}

int rtnl_default_route(const char *ifname, const char *gw)
{
	struct req r;
	unsigned char bin[16];
	int idx = (int)if_nametoindex(ifname), fam = strchr(gw, ':') ? AF_INET6 : AF_INET;
	if (!idx || inet_pton(fam, gw, bin) != 1) {
		errno = EINVAL;
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.nh.nlmsg_len = NLMSG_LENGTH(sizeof r.u.rt);
	r.nh.nlmsg_type = RTM_NEWROUTE;
	r.nh.nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
	r.u.rt.rtm_family = (unsigned char)fam;
	r.u.rt.rtm_table = RT_TABLE_MAIN;
	r.u.rt.rtm_protocol = RTPROT_STATIC;
	r.u.rt.rtm_scope = RT_SCOPE_UNIVERSE;
	r.u.rt.rtm_type = RTN_UNICAST;
	add_attr(&r, RTA_GATEWAY, bin, fam == AF_INET ? 4 : 16);
	add_attr(&r, RTA_OIF, &idx, sizeof idx);
	return talk(&r);
}
