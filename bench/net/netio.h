/* Small socket helpers with deadlines: every network wait in assay is bounded. */
#ifndef ASSAY_NETIO_H
#define ASSAY_NETIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Resolve host:port (family AF_UNSPEC, AF_INET or AF_INET6); 0 or -1 with err. */
int net_resolve(const char *host, int port, int family, int socktype, struct sockaddr_storage *ss,
		socklen_t *len, char *err, size_t n);
/* Connect with a timeout (seconds); the fd, or -1 with err ("connection refused", ...). */
int net_connect(const struct sockaddr_storage *ss, socklen_t len, double timeout, char *err, size_t n);
/* the same on a socket of the caller's (bound, options set); closes it on failure */
int net_connect_fd(int fd, const struct sockaddr_storage *ss, socklen_t len, double timeout, char *err, size_t n);
/* Read/write exactly n bytes before the deadline (monotonic seconds); 0, or -1 with errno
 * (ETIMEDOUT on the deadline, ECONNRESET when the peer closed early). */
int net_read_full(int fd, void *buf, size_t n, double deadline);
int net_write_full(int fd, const void *buf, size_t n, double deadline);
/* http://HOST[:PORT][/PATH] (HOST may be [IPv6]) into its parts (port 80, path "/" by
 * default); 0, or -1 with why ("no host", "bad port", "only http:// URLs...") */
int net_parse_http_url(const char *u, char *host, size_t hn, int *port, char *path, size_t pn, char *why,
		       size_t wn);
/* "1.2.3.4:5201" / "[::1]:5201" */
void net_addr_str(const struct sockaddr_storage *ss, char *out, size_t n);
/* retransmits so far (TCP_INFO), -1 when unknown */
long net_tcp_retrans(int fd);

/* An HTTP/1.1 response read from fd until its Content-Length, the peer's close or the
 * deadline: the status, the body's bytes (counted, not kept), the times */
struct http_got {
	int status, header_done, have_clen;
	unsigned long long body, clen;
	double t_first, t_end;     /* the first byte's time (0: none), the end's */
};
/* 0 when the response ended as it should; else -1 with the first thing that went wrong in
 * err (headers too long, not HTTP, no answer in time); g is filled either way */
int net_http_receive(int fd, double t0, double deadline, struct http_got *g, char *err, size_t n);
/* what the response means: 0 a whole 2xx body, else -1 with one line in err (err already
 * set by net_http_receive is kept) */
int net_http_verdict(const struct http_got *g, char *err, size_t n);

#endif
