#include "netio.h"
#include "clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int net_resolve(const char *host, int port, int family, int socktype, struct sockaddr_storage *ss,
		socklen_t *len, char *err, size_t n)
{
	struct addrinfo hints, *res = NULL;
	char ps[16];
	int r;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = family;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_ADDRCONFIG;
	snprintf(ps, sizeof ps, "%d", port);
	r = getaddrinfo(host, ps, &hints, &res);
	if (r == EAI_ADDRFAMILY || r == EAI_NONAME) {
		hints.ai_flags = 0;    /* no address of that family configured: try anyway */
		r = getaddrinfo(host, ps, &hints, &res);
	}
	if (r || !res) {
		snprintf(err, n, "cannot resolve '%s': %s", host, r ? gai_strerror(r) : "no address");
		return -1;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

void net_addr_str(const struct sockaddr_storage *ss, char *out, size_t n)
{
	char a[INET6_ADDRSTRLEN] = "?";
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;
		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof a);
		snprintf(out, n, "[%s]:%d", a, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;
		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof a);
		snprintf(out, n, "%s:%d", a, ntohs(s4->sin_port));
	}
}

int net_connect(const struct sockaddr_storage *ss, socklen_t len, double timeout, char *err, size_t n)
{
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, n, "socket: %s", strerror(errno));
		return -1;
	}
	return net_connect_fd(fd, ss, len, timeout, err, n);
}

int net_connect_fd(int fd, const struct sockaddr_storage *ss, socklen_t len, double timeout, char *err, size_t n)
{
	int r, e = 0;
	char addr[80];
	socklen_t el = sizeof e;
	net_addr_str(ss, addr, sizeof addr);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	r = connect(fd, (const struct sockaddr *)ss, len);
	if (r && errno == EINPROGRESS) {
		struct pollfd p = { fd, POLLOUT, 0 };
		r = poll(&p, 1, (int)(timeout * 1000));
		if (r == 0) {
			snprintf(err, n, "connect to %s: no answer within %.0f s", addr, timeout);
			close(fd);
			errno = ETIMEDOUT;
			return -1;
		}
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el);
		r = e ? -1 : 0;
		errno = e;
	}
	if (r) {
		e = errno;
		snprintf(err, n, "connect to %s: %s", addr, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

static int wait_fd(int fd, short ev, double deadline)
{
	for (;;) {
		struct pollfd p = { fd, ev, 0 };
		double left = deadline - now_s();
		int r;
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = poll(&p, 1, left > 1 ? 1000 : (int)(left * 1000) + 1);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

int net_read_full(int fd, void *buf, size_t n, double deadline)
{
	char *p = buf;
	while (n) {
		ssize_t r;
		if (wait_fd(fd, POLLIN, deadline))
			return -1;
		r = recv(fd, p, n, MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r == 0)
			errno = ECONNRESET;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int net_write_full(int fd, const void *buf, size_t n, double deadline)
{
	const char *p = buf;
	while (n) {
		ssize_t r;
		if (wait_fd(fd, POLLOUT, deadline))
			return -1;
		r = send(fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

long net_tcp_retrans(int fd)
{
	struct tcp_info ti;
	socklen_t l = sizeof ti;
	memset(&ti, 0, sizeof ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &l))
		return -1;
	return (long)ti.tcpi_total_retrans;
}

int net_parse_http_url(const char *u, char *host, size_t hn, int *port, char *path, size_t pn, char *why,
		       size_t wn)
{
	const char *p;
	size_t hl;
	if (strncmp(u, "http://", 7)) {
		snprintf(why, wn, "only http:// URLs (no TLS in the image)");
		return -1;
	}
	p = u + 7;
	hl = p[0] == '[' ? strcspn(p, "]") + 1 : strcspn(p, ":/");
	if (hl <= (p[0] == '[' ? 2u : 0u) || hl >= hn || (p[0] == '[' && p[hl - 1] != ']')) {
		snprintf(why, wn, "no host");
		return -1;
	}
	snprintf(host, hn, "%.*s", (int)(p[0] == '[' ? hl - 2 : hl), p[0] == '[' ? p + 1 : p);
	p += hl;
	*port = 80;
	if (*p == ':') {
		char *end;
		long v = strtol(p + 1, &end, 10);
		if (v < 1 || v > 65535 || (*end && *end != '/')) {
			snprintf(why, wn, "bad port");
			return -1;
		}
		*port = (int)v;
		p = end;
	}
	snprintf(path, pn, "%s", *p ? p : "/");
	return 0;
}

int net_http_receive(int fd, double t0, double deadline, struct http_got *g, char *err, size_t n)
{
	char hbuf[16384], *buf = malloc(1 << 20);
	size_t hbuf_len = 0;
	int bad = 0;
	memset(g, 0, sizeof *g);
	if (n)
		err[0] = 0;
	if (!buf) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (;;) {
		struct pollfd pf = { fd, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t r;
		if (left <= 0) {
			snprintf(err, n, "download not finished after %.0f s", deadline - t0);
			bad = 1;
			break;
		}
		if (poll(&pf, 1, left > 1 ? 1000 : (int)(left * 1000) + 1) <= 0)
			continue;
		r = recv(fd, buf, 1 << 20, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (!g->t_first)
			g->t_first = now_s();
		if (!g->header_done) {
			size_t take = (size_t)r < sizeof hbuf - 1 - hbuf_len ? (size_t)r : sizeof hbuf - 1 - hbuf_len;
			char *eoh;
			memcpy(hbuf + hbuf_len, buf, take);
			hbuf_len += take;
			hbuf[hbuf_len] = 0;
			eoh = memmem(hbuf, hbuf_len, "\r\n\r\n", 4);
			/* a NUL in the headers would end the text they are read as: not HTTP */
			if (memchr(hbuf, 0, eoh ? (size_t)(eoh - hbuf) : hbuf_len)) {
				snprintf(err, n, "not an HTTP response (a NUL byte in its headers)");
				bad = 1;
				break;
			}
			if (!eoh) {
				if (hbuf_len >= sizeof hbuf - 1) {
					snprintf(err, n, "response headers over %zu bytes", sizeof hbuf);
					bad = 1;
					break;
				}
				continue;
			}
			g->header_done = 1;
			if (sscanf(hbuf, "HTTP/%*d.%*d %d", &g->status) != 1) {
				snprintf(err, n, "not an HTTP response");
				bad = 1;
				break;
			}
			for (char *h = strstr(hbuf, "\r\n"); h && h < eoh; h = strstr(h + 2, "\r\n"))
				if (!strncasecmp(h + 2, "Content-Length:", 15)) {
					const char *v = h + 17;
					char *e;
					v += strspn(v, " \t");
					errno = 0;
					g->clen = strtoull(v, &e, 10);
					if (e == v || *v == '-' || errno || (*e != '\r' && *e != ' ' && *e != '\t')) {
						snprintf(err, n, "a Content-Length that is no byte count: '%.*s'",
							 (int)strcspn(v, "\r\n") < 40 ? (int)strcspn(v, "\r\n") : 40, v);
						bad = 1;
						break;
					}
					g->have_clen = 1;
				}
			if (bad)
				break;
			/* body bytes in this read: what follows the headers */
			g->body += (unsigned long long)r - (unsigned long long)(eoh + 4 - hbuf - (hbuf_len - take));
		} else {
			g->body += (unsigned long long)r;
		}
		if (g->have_clen && g->body >= g->clen)
			break;
	}
	g->t_end = now_s();
	free(buf);
	return bad ? -1 : 0;
}

int net_http_verdict(const struct http_got *g, char *err, size_t n)
{
	if (err[0])
		return -1;
	if (!g->header_done) {
		snprintf(err, n, "no HTTP response");
		return -1;
	}
	if (g->status < 200 || g->status > 299) {
		snprintf(err, n, "HTTP status %d", g->status);
		return -1;
	}
	if (g->have_clen && g->body < g->clen) {
		snprintf(err, n, "download cut short: %llu of %llu bytes", g->body, g->clen);
		return -1;
	}
	return 0;
}
