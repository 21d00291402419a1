/* iperf3's data streams: TCP and UDP, each in a thread of its own, sending or receiving;
 * the main thread samples them every interval (iperf3 3.12's iperf_stats_callback) and
 * drops the omit period (iperf_reset_stats).
 *
 * UDP datagrams carry iperf3's header: seconds and microseconds of the send time, then a
 * 32-bit (or, asked for, 64-bit) sequence number from 1, all big-endian.  The receiver
 * counts as iperf3 does: a number past the next one adds the gap to the lost count, a
 * number behind it is out of order and takes one back from the lost count; the jitter is
 * RFC 1889's running mean of the change in transit time, over 16. */
#include "iperf_int.h"
#include "clock.h"
#include "netio.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int ip_sockopts(const struct iptest *t, int fd, int before_connect, char *err, size_t n)
{
	if (t->window > 0) {
		int w = (int)t->window;
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof w) ||
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof w)) {
			snprintf(err, n, "socket buffer of %lld bytes (-w): %s", t->window, strerror(errno));
			return -1;
		}
	}
	if (t->udp)
		return 0;
	if (t->mss > 0 && before_connect && setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &t->mss, sizeof t->mss)) {
		snprintf(err, n, "TCP MSS of %d bytes (-M): %s", t->mss, strerror(errno));
		return -1;
	}
	if (t->congestion[0] &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, t->congestion, (socklen_t)strlen(t->congestion))) {
		snprintf(err, n, "TCP congestion control '%s' (-C): %s", t->congestion,
			 errno == ENOENT ? "not available on this host (see /proc/sys/net/ipv4/"
					   "tcp_available_congestion_control)" : strerror(errno));
		return -1;
	}
	return 0;
}

void ip_congestion(int fd, char *out, size_t n)
{
	char ca[32] = "";
	socklen_t l = sizeof ca - 1;
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ca, &l) || !ca[0])
		snprintf(out, n, "unknown");
	else
		snprintf(out, n, "%.*s", (int)l, ca);
}

int ip_stream_init(struct iptest *t, struct ipstream *s, int fd, int sender, int index)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->id = ip_stream_id(index);
	s->sender = sender;
	s->udp = t->udp;
	s->len = t->len;
	s->rate = sender ? t->rate : 0;
	s->udp64 = t->udp64;
	s->memfd = -1;
	s->min_rtt = 0;
	pthread_mutex_init(&s->mu, NULL);
	s->buf = malloc(s->len);
	if (!s->buf)
		return -1;
	/* a payload that does not compress: iperf3 sends random bytes */
	{
		uint64_t x = now_ns() ^ (uint64_t)(index + 1) * 0x9e3779b97f4a7c15ull;
		for (size_t k = 0; k < s->len; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			s->buf[k] = (char)x;
		}
	}
	if (sender && t->zerocopy && !t->udp) {
		/* -Z: sendfile(2) from a memory file holding the buffer */
		s->memfd = memfd_create("assay-iperf", MFD_CLOEXEC);
		if (s->memfd >= 0 && write(s->memfd, s->buf, s->len) == (ssize_t)s->len)
			s->zerocopy = 1;
	}
	return 0;
}

void ip_stream_free(struct ipstream *s)
{
	if (s->fd >= 0)
		close(s->fd);
	if (s->memfd >= 0)
		close(s->memfd);
	free(s->buf);
	free(s->iv);
	pthread_mutex_destroy(&s->mu);
	s->fd = s->memfd = -1;
	s->buf = NULL;
	s->iv = NULL;
}

int ip_udp_hello(int fd, int reverse, size_t len, char *err, size_t n)
{
	uint32_t msg = UDP_CONNECT_MSG;   /* iperf3 writes it in host order */
	double deadline = now_s() + CTRL_SLACK;
	size_t seen = 0, most = 4 + (reverse ? 2 * len : 0);
	char buf[UDP_LEN_MAX + 64];
	if (send(fd, &msg, sizeof msg, MSG_NOSIGNAL) != (ssize_t)sizeof msg) {
		snprintf(err, n, "UDP stream: cannot send its first datagram: %s", strerror(errno));
		return -1;
	}
	/* the reply; with -R a few data datagrams may come first */
	while (seen < most + 4) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t r;
		uint32_t v;
		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0) {
			snprintf(err, n, "UDP stream: no answer from the server within %.0f s (is UDP "
				 "blocked on the way?)", CTRL_SLACK);
			return -1;
		}
		r = recv(fd, buf, sizeof buf, 0);
		if (r < 0) {
			snprintf(err, n, "UDP stream: %s", strerror(errno));
			return -1;
		}
		if (r >= 4) {
			memcpy(&v, buf, 4);
			if (v == UDP_CONNECT_REPLY || v == UDP_CONNECT_REPLY_LEGACY)
				return 0;
		}
		seen += (size_t)r;
	}
	snprintf(err, n, "UDP stream: the server's answer is not iperf3's");
	return -1;
}

/* ---- the stream threads ---- */

static void udp_header(struct ipstream *s, long long seq)
{
	struct timespec ts;
	uint32_t sec, usec;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sec = htonl((uint32_t)ts.tv_sec);
	usec = htonl((uint32_t)(ts.tv_nsec / 1000));
	memcpy(s->buf, &sec, 4);
	memcpy(s->buf + 4, &usec, 4);
	if (s->udp64) {
		uint64_t be = htobe64((uint64_t)seq);
		memcpy(s->buf + 8, &be, 8);
	} else {
		uint32_t be = htonl((uint32_t)seq);
		memcpy(s->buf + 8, &be, 4);
	}
}

static void udp_account(struct ipstream *s, size_t r)
{
	uint32_t sec, usec, p32;
	uint64_t p64;
	long long pcount;
	struct timespec ts;
	double sent, transit, d;
	if (r < (s->udp64 ? 16u : 12u))
		return;
	memcpy(&sec, s->buf, 4);
	memcpy(&usec, s->buf + 4, 4);
	if (s->udp64) {
		memcpy(&p64, s->buf + 8, 8);
		pcount = (long long)be64toh(p64);
	} else {
		memcpy(&p32, s->buf + 8, 4);
		pcount = ntohl(p32);
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sent = ntohl(sec) + ntohl(usec) / 1e6;
	transit = (double)ts.tv_sec + ts.tv_nsec / 1e9 - sent;
	pthread_mutex_lock(&s->mu);
	if (pcount >= s->packet_count + 1) {
		if (pcount > s->packet_count + 1)
			s->cnt_error += (pcount - 1) - s->packet_count;
		s->packet_count = pcount;
	} else {
		s->ooo++;
		if (s->cnt_error > 0)
			s->cnt_error--;
	}
	if (!s->have_transit) {
		s->prev_transit = transit;
		s->have_transit = 1;
	}
	d = transit - s->prev_transit;
	if (d < 0)
		d = -d;
	s->prev_transit = transit;
	s->jitter += (d - s->jitter) / 16.0;
	pthread_mutex_unlock(&s->mu);
}

/* a sender over its rate waits until it is not (iperf3's throttle) */
static int paced(struct ipstream *s)
{
	double el = now_s() - s->pace_t0, ahead;
	if (s->rate <= 0 || el <= 0)
		return 0;
	ahead = (double)atomic_load(&s->bytes) * 8 / s->rate - el;
	if (ahead <= 0)
		return 0;
	{
		struct timespec ts = { 0, (long)((ahead < 0.01 ? ahead : 0.01) * 1e9) };
		nanosleep(&ts, NULL);
	}
	return 1;
}

static void *stream_main(void *arg)
{
	struct ipstream *s = arg;
	struct timeval tv = { 0, 200000 };
	setsockopt(s->fd, SOL_SOCKET, s->sender ? SO_SNDTIMEO : SO_RCVTIMEO, &tv, sizeof tv);
	while (!atomic_load(s->stop)) {
		ssize_t r;
		if (s->sender) {
			if (paced(s))
				continue;
			if (s->udp) {
				long long seq = atomic_load(&s->sent_pkts) + 1;
				udp_header(s, seq);
				r = send(s->fd, s->buf, s->len, MSG_NOSIGNAL);
				if (r > 0)
					atomic_store(&s->sent_pkts, seq);
			} else if (s->zerocopy) {
				off_t off = 0;
				r = sendfile(s->fd, s->memfd, &off, s->len);
			} else {
				r = send(s->fd, s->buf, s->len, MSG_NOSIGNAL);
			}
		} else {
			r = recv(s->fd, s->buf, s->len, 0);
			if (r > 0 && s->udp)
				udp_account(s, (size_t)r);
		}
		if (r > 0) {
			atomic_fetch_add(&s->bytes, (unsigned long long)r);
			continue;
		}
		if (r < 0 && (errno == EAGAIN || errno == EINTR || errno == ENOBUFS ||
			      (s->udp && errno == ECONNREFUSED)))
			continue;
		if (r == 0 && s->udp)
			continue;
		if (!atomic_load(s->stop))
			s->err = r == 0 ? ECONNRESET : errno;
		break;
	}
	return NULL;
}

/* ---- sampling ---- */

/* iperf3's iperf_stats_callback for one stream */
static void sample_stream(struct iptest *t, struct ipstream *s, double now)
{
	struct ipiv v;
	unsigned long long b = atomic_load(&s->bytes);
	memset(&v, 0, sizeof v);
	v.start = s->end - s->start;
	v.end = now - s->start;
	if (v.start < 0)
		v.start = 0;
	s->end = now;
	v.bytes = b - s->bytes_last;
	s->bytes_last = b;
	v.omitted = t->omitting;
	if (s->udp) {
		long long pc;
		pthread_mutex_lock(&s->mu);
		pc = ip_pkts(s);
		v.pkts = pc - s->last_pkts;
		v.err = s->cnt_error - s->last_err;
		v.ooo = s->ooo - s->last_ooo;
		v.jitter = s->jitter;
		s->last_pkts = pc;
		s->last_err = s->cnt_error;
		s->last_ooo = s->ooo;
		pthread_mutex_unlock(&s->mu);
	} else if (t->sender_has_retransmits) {
		struct tcp_info ti;
		socklen_t l = sizeof ti;
		memset(&ti, 0, sizeof ti);
		if (!getsockopt(s->fd, IPPROTO_TCP, TCP_INFO, &ti, &l)) {
			v.retrans = (long long)ti.tcpi_total_retrans - s->retrans_prev;
			s->retrans += v.retrans;
			s->retrans_prev = ti.tcpi_total_retrans;
			v.cwnd = (long long)ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
#ifdef __GLIBC__
			v.wnd = 0;   /* (glibc's struct tcp_info ends before tcpi_snd_wnd: the ASan build) */
#else
			v.wnd = ti.tcpi_snd_wnd;
#endif
			v.rtt = ti.tcpi_rtt;
			v.rttvar = ti.tcpi_rttvar;
			v.pmtu = ti.tcpi_pmtu;
			if (v.cwnd > s->max_cwnd)
				s->max_cwnd = v.cwnd;
			if (v.wnd > s->max_wnd)
				s->max_wnd = v.wnd;
			if (v.rtt > s->max_rtt)
				s->max_rtt = v.rtt;
			if (!s->min_rtt || v.rtt < s->min_rtt)
				s->min_rtt = v.rtt;
			s->sum_rtt += v.rtt;
			s->count_rtt++;
		}
	}
	if (s->niv == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		struct ipiv *iv = realloc(s->iv, (size_t)cap * sizeof *iv);
		if (!iv)
			return;
		s->iv = iv;
		s->cap = cap;
	}
	s->iv[s->niv++] = v;
}

/* the interval's record for every stream; a last one shorter than a tenth of the
 * interval with no data is left out, as iperf3 leaves it out */
static void sample(struct iptest *t, double now, int last)
{
	if (last && t->interval > 0 && t->nst && now - t->st[0].end < 0.1 * t->interval) {
		int any = 0;
		for (int i = 0; i < t->nst; i++)
			any |= atomic_load(&t->st[i].bytes) != t->st[i].bytes_last;
		if (!any)
			return;
	}
	for (int i = 0; i < t->nst; i++)
		sample_stream(t, &t->st[i], now);
	if (t->on_interval && t->nst && t->st[0].niv)
		t->on_interval(t, t->st[0].niv - 1, t->on_interval_arg);
}

static long long total_retrans(int fd)
{
	long r = net_tcp_retrans(fd);
	return r < 0 ? 0 : r;
}

/* iperf3's iperf_reset_stats: the omit period ends */
static void reset_stats(struct iptest *t, double now)
{
	for (int i = 0; i < t->nst; i++) {
		struct ipstream *s = &t->st[i];
		s->bytes_omit = s->bytes_last = atomic_load(&s->bytes);
		pthread_mutex_lock(&s->mu);
		s->omit_pkts = s->last_pkts = ip_pkts(s);
		s->omit_err = s->last_err = s->cnt_error;
		s->omit_ooo = s->last_ooo = s->ooo;
		s->jitter = 0;
		s->have_transit = 0;
		pthread_mutex_unlock(&s->mu);
		if (!s->udp)
			s->retrans_prev = total_retrans(s->fd);
		s->retrans = 0;
		s->start = s->end = now;
	}
}

static void cpu_seconds(double *usr, double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*usr = tv_s(&ru.ru_utime);
	*sys = tv_s(&ru.ru_stime);
}

/* wait up to `s` seconds, or until ctrl turns readable (1); a client knocking on the
 * server's listener meanwhile is told the server is busy (iperf3's ACCESS_DENIED) */
static int wait_ctrl(int ctrl, int deny, double s)
{
	if (s < 0)
		s = 0;
	if (s > 0.05)
		s = 0.05;
	if (ctrl >= 0) {
		struct pollfd p[2] = { { ctrl, POLLIN, 0 }, { deny, POLLIN, 0 } };
		int r = poll(p, deny >= 0 ? 2 : 1, (int)(s * 1000) + 1);
		if (r > 0 && deny >= 0 && (p[1].revents & POLLIN)) {
			int fd = accept4(deny, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
			signed char busy = ACCESS_DENIED;
			if (fd >= 0) {
				if (send(fd, &busy, 1, MSG_NOSIGNAL) < 0) {
					/* it left already */
				}
				close(fd);
			}
		}
		return r > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR));
	}
	{
		struct timespec ts = { 0, (long)(s * 1e9) };
		nanosleep(&ts, NULL);
	}
	return 0;
}

int ip_run(struct iptest *t, int ctrl, double *cpu_user, double *cpu_sys, double *secs)
{
	double t0 = now_s(), next, u0, s0, u1, s1, now;
	int rc = 0;
	atomic_store(&t->stop, 0);
	t->omitting = t->omit > 0;
	for (int i = 0; i < t->nst; i++) {
		struct ipstream *s = &t->st[i];
		s->stop = &t->stop;
		s->start = s->end = s->pace_t0 = t0;
		if (!s->udp)
			s->retrans_prev = total_retrans(s->fd);
		s->running = !pthread_create(&s->tid, NULL, stream_main, s);
		if (!s->running)
			s->err = errno ? errno : EAGAIN;
	}
	cpu_seconds(&u0, &s0);
	next = t->interval > 0 ? t0 + t->interval : 1e300;
	for (;;) {
		/* the server's bound: the client's time and then some */
		double stop_at = t0 + t->omit + t->duration + (t->role == 'c' ? 0 : CTRL_SLACK);
		double until = next < stop_at ? next : stop_at;
		int errs = 0;
		if (t->omitting && t0 + t->omit < until)
			until = t0 + t->omit;
		if (wait_ctrl(ctrl, t->deny_fd, until - now_s())) {
			rc = 1;
			break;
		}
		now = now_s();
		for (int i = 0; i < t->nst; i++)
			errs += t->st[i].err != 0;
		if (errs == t->nst) {
			rc = -1;
			break;
		}
		if (now >= stop_at)
			break;
		if (t->omitting && now >= t0 + t->omit) {
			sample(t, now, 0);
			t->omitting = 0;
			reset_stats(t, now);
			if (t->interval > 0)
				next = now + t->interval;
		} else if (now >= next) {
			sample(t, now, 0);
			next += t->interval;
		}
	}
	now = now_s();
	cpu_seconds(&u1, &s1);
	sample(t, now, 1);
	atomic_store(&t->stop, 1);
	for (int i = 0; i < t->nst; i++)
		if (t->st[i].running) {
			pthread_join(t->st[i].tid, NULL);
			t->st[i].running = 0;
		}
	*secs = now - t0;
	*cpu_user = u1 - u0;
	*cpu_sys = s1 - s0;
	if (*secs > 0) {
		t->cpu[1] = 100 * *cpu_user / *secs;
		t->cpu[2] = 100 * *cpu_sys / *secs;
		t->cpu[0] = t->cpu[1] + t->cpu[2];
	}
	return rc;
}
