/* The iperf3 client (iperf3 3.12's iperf_client_api.c): the control connection, the
 * test's parameters, the data streams (TCP or UDP; sending, receiving with -R, both with
 * --bidir), the results exchanged, and the report in iperf3's JSON shape (its text made
 * from that JSON, live when asked). */
#include "iperf_int.h"
#include "clock.h"
#include "json.h"
#include "msg.h"
#include "netio.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* a socket to the server: bound to -B and the local port when given, options set */
static int dial(const struct iptest *t, const struct iperf_opts *o, const struct sockaddr_storage *ss, socklen_t sl,
		int udp, int lport, double timeout, char *err, size_t n)
{
	int fd = socket(ss->ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0), one = 1;
	if (fd < 0) {
		snprintf(err, n, "socket: %s", strerror(errno));
		return -1;
	}
	if (o->bind || lport) {
		struct sockaddr_storage la;
		socklen_t ll;
		char e2[200];
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (net_resolve(o->bind ? o->bind : ss->ss_family == AF_INET6 ? "::" : "0.0.0.0", lport, ss->ss_family,
				udp ? SOCK_DGRAM : SOCK_STREAM, &la, &ll, e2, sizeof e2)) {
			snprintf(err, n, "-B %s: %s", o->bind ? o->bind : "", e2);
			close(fd);
			return -1;
		}
		if (bind(fd, (struct sockaddr *)&la, ll)) {
			snprintf(err, n, "cannot bind to %s port %d: %s", o->bind ? o->bind : "*", lport, strerror(errno));
			close(fd);
			return -1;
		}
	}
	if (t && ip_sockopts(t, fd, 1, err, n)) {
		close(fd);
		return -1;
	}
	if (udp) {
		if (connect(fd, (const struct sockaddr *)ss, sl)) {
			snprintf(err, n, "UDP connect: %s", strerror(errno));
			close(fd);
			return -1;
		}
		return fd;
	}
	return net_connect_fd(fd, ss, sl, timeout, err, n);
}

/* the control connection, its cookie sent and PARAM_EXCHANGE answered (a busy server
 * tried again, o->busy_retries times); the socket, or -1 with err */
static int client_hello(const struct iperf_opts *o, const struct sockaddr_storage *ss, socklen_t sl,
			const char *addr, char cookie[COOKIE_SIZE], char *err, size_t n)
{
	int ctrl, state;
	for (int attempt = 0;; attempt++) {
		ctrl = dial(NULL, o, ss, sl, 0, 0, o->connect_timeout, err, n);
		if (ctrl < 0)
			return -1;
		ip_make_cookie(cookie);
		if (net_write_full(ctrl, cookie, COOKIE_SIZE, now_s() + CTRL_SLACK) ||
		    ip_read_state(ctrl, now_s() + CTRL_SLACK, &state)) {
			if (errno == ETIMEDOUT || errno == EAGAIN)
				snprintf(err, n, "%s: the server accepted the connection but did not answer within %d s "
					 "(not an iperf3 server?)", addr, (int)CTRL_SLACK);
			else
				snprintf(err, n, "%s: the server closed the control connection: %s", addr, strerror(errno));
			close(ctrl);
			return -1;
		}
		if (state != ACCESS_DENIED)
			break;
		close(ctrl);
		if (attempt >= o->busy_retries) {
			snprintf(err, n, "%s: the server is busy running another test (tried %d times)", addr,
				 attempt + 1);
			return -1;
		}
		warn("net: %s is busy; trying again in %.0f s", addr, o->busy_wait);
		usleep((useconds_t)(o->busy_wait * 1e6));
	}
	if (state == SERVER_ERROR) {
		int32_t e[2] = { 0, 0 };
		net_read_full(ctrl, e, sizeof e, now_s() + 5);
		snprintf(err, n, "%s: the server reported an error (%d, %s)", addr, (int)ntohl((uint32_t)e[0]),
			 strerror((int)ntohl((uint32_t)e[1])));
	} else if (state != PARAM_EXCHANGE) {
		snprintf(err, n, "%s: expected PARAM_EXCHANGE, got %s (%d): is it an iperf3 server?", addr,
			 ip_state_name(state), state);
	} else {
		return ctrl;
	}
	ip_send_state(ctrl, CLIENT_TERMINATE);
	close(ctrl);
	return -1;
}

/* the test's parameters, sent; 0 once the server says CREATE_STREAMS */
static int send_params(const struct iptest *t, int ctrl, const char *addr, char *err, size_t n)
{
	struct json *p = json_obj();
	int state, r;
	json_add_bool(p, t->udp ? "udp" : "tcp", 1);
	json_add_int(p, "omit", (long long)t->omit);
	json_add_int(p, "time", (long long)t->duration);
	json_add_int(p, "num", 0);
	json_add_int(p, "blockcount", 0);
	if (t->mss)
		json_add_int(p, "MSS", t->mss);
	json_add_int(p, "parallel", t->nstreams);
	if (t->mode == IP_RECEIVER)
		json_add_bool(p, "reverse", 1);
	if (t->mode == IP_BIDIR)
		json_add_bool(p, "bidirectional", 1);
	if (t->window)
		json_add_int(p, "window", t->window);
	json_add_int(p, "len", (long long)t->len);
	if (t->rate > 0)
		json_add_int(p, "bandwidth", (long long)t->rate);
	json_add_int(p, "pacing_timer", 1000);
	if (t->congestion[0])
		json_add_str(p, "congestion", t->congestion);
	if (t->get_server_output)
		json_add_int(p, "get_server_output", 1);
	if (t->udp64)
		json_add_int(p, "udp_counters_64bit", 1);
	if (t->zerocopy)
		json_add_int(p, "zerocopy", 1);
	json_add_str(p, "client_version", "3.12");
	r = ip_send_json(ctrl, p) || ip_read_state(ctrl, now_s() + CTRL_SLACK, &state);
	json_free(p);
	if (r) {
		snprintf(err, n, "%s: control connection lost while sending the parameters", addr);
		return -1;
	}
	if (state == SERVER_ERROR) {
		int32_t e[2] = { 0, 0 };
		net_read_full(ctrl, e, sizeof e, now_s() + 5);
		snprintf(err, n, "%s: the server refused the test (%s)", addr, strerror((int)ntohl((uint32_t)e[1])));
		return -1;
	}
	if (state != CREATE_STREAMS) {
		snprintf(err, n, "%s: expected CREATE_STREAMS, got %s (%d)", addr, ip_state_name(state), state);
		return -1;
	}
	return 0;
}

/* every data stream connected, its cookie sent (TCP) or its first datagram answered
 * (UDP): with --bidir the sending ones first, as iperf3; 0, or -1 with err */
static int open_streams(struct iptest *t, const struct iperf_opts *o, const struct sockaddr_storage *ss, socklen_t sl,
			const char *addr, char *err, size_t n)
{
	if (ip_streams_alloc(t, err, n))
		return -1;
	for (int i = 0; i < t->nst; i++) {
		int sender = t->mode == IP_BIDIR ? i < t->nstreams : t->mode == IP_SENDER;
		int lport = o->cport ? o->cport + i : 0;
		char e2[300];
		int fd = dial(t, o, ss, sl, t->udp, lport, o->connect_timeout, e2, sizeof e2);
		if (fd < 0) {
			snprintf(err, n, "%s: data stream %d: %s", addr, i + 1, e2);
			return -1;
		}
		if (ip_stream_init(t, &t->st[i], fd, sender, i)) {
			close(fd);
			t->st[i].fd = -1;
			snprintf(err, n, "out of memory");
			return -1;
		}
		if (t->udp ? ip_udp_hello(fd, !sender, t->len, e2, sizeof e2)
			   : net_write_full(fd, t->cookie, COOKIE_SIZE, now_s() + CTRL_SLACK)) {
			snprintf(err, n, "%s: data stream %d: %s", addr, i + 1, t->udp ? e2 : strerror(errno));
			return -1;
		}
		if (!t->udp)
			ip_congestion(fd, t->cong_used, sizeof t->cong_used);
	}
	return 0;
}

/* after the test: results exchanged (ours sent, the server's read and applied) */
static int exchange_results(struct iptest *t, int ctrl, const char *addr, char *err, size_t n)
{
	struct json *mine, *sres;
	int state, r;
	if (ip_send_state(ctrl, TEST_END) || ip_read_state(ctrl, now_s() + CTRL_SLACK, &state)) {
		snprintf(err, n, "%s: control connection lost at the end of the test", addr);
		return -1;
	}
	if (state != EXCHANGE_RESULTS) {
		snprintf(err, n, "%s: expected EXCHANGE_RESULTS, got %s (%d)", addr, ip_state_name(state), state);
		return -1;
	}
	mine = ip_results_msg(t);
	r = ip_send_json(ctrl, mine);
	json_free(mine);
	if (r) {
		snprintf(err, n, "%s: cannot send the results", addr);
		return -1;
	}
	if (!(sres = ip_read_json(ctrl, now_s() + CTRL_SLACK, err, n)))
		return -1;
	r = ip_apply_results(t, sres, err, n);
	json_free(sres);
	if (r)
		return -1;
	if (ip_read_state(ctrl, now_s() + CTRL_SLACK, &state) || state != DISPLAY_RESULTS) {
		snprintf(err, n, "%s: expected DISPLAY_RESULTS", addr);
		return -1;
	}
	ip_send_state(ctrl, IPERF_DONE);
	return 0;
}

/* the test as iperf3 sets it up from the client's options */
static void setup(struct iptest *t, const struct iperf_opts *o, int ctrl)
{
	int mss = 0;
	socklen_t l = sizeof mss;
	t->role = 'c';
	t->deny_fd = -1;   /* no listener: nobody to tell "busy" */
	t->mode = o->bidir ? IP_BIDIR : o->reverse ? IP_RECEIVER : IP_SENDER;
	t->udp = o->udp;
	t->nstreams = o->parallel;
	t->duration = o->time;
	t->omit = o->omit;
	t->interval = o->interval;
	t->len = o->len;
	if (!t->len && !t->udp)
		t->len = 128 * 1024;
	if (!t->len) {   /* UDP: the control connection's MSS, as iperf3 */
		getsockopt(ctrl, IPPROTO_TCP, TCP_MAXSEG, &mss, &l);
		t->len = mss > 0 && mss <= UDP_LEN_MAX ? (size_t)mss : UDP_LEN_DEFAULT;
	}
	t->rate = o->rate >= 0 ? o->rate : t->udp ? UDP_RATE_DEFAULT : 0;
	t->window = o->window;
	t->mss = o->mss;
	t->zerocopy = o->zerocopy;
	t->udp64 = o->udp64;
	t->get_server_output = o->get_server_output;
	snprintf(t->congestion, sizeof t->congestion, "%s", o->congestion ? o->congestion : "");
	t->sender_has_retransmits = t->mode != IP_RECEIVER && !t->udp;
}

struct live {
	const struct iperf_opts *o;
	struct json *out;
};

static void on_interval(struct iptest *t, int k, void *arg)
{
	struct live *lv = arg;
	struct json *iv = json_obj();
	ip_json_interval(t, k, iv);
	iperf_text_interval(lv->out, iv, k == 0, lv->o->live);
	json_free(iv);
}

int iperf_client(const struct iperf_opts *o, struct json *out, char *err, size_t n)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char addr[80];
	int ctrl, state = 0, rc = -1, ended = 0;
	struct iptest t;
	struct live lv = { o, out };
	double secs, cu, cs;

	memset(&t, 0, sizeof t);
	if (net_resolve(o->host, o->port, o->family, SOCK_STREAM, &ss, &sl, err, n))
		return -1;
	net_addr_str(&ss, addr, sizeof addr);
	if ((ctrl = client_hello(o, &ss, sl, addr, t.cookie, err, n)) < 0)
		return -1;
	setup(&t, o, ctrl);
	if (send_params(&t, ctrl, addr, err, n) || open_streams(&t, o, &ss, sl, addr, err, n))
		goto out;
	for (int want = TEST_START; want <= TEST_RUNNING; want++) {
		if (ip_read_state(ctrl, now_s() + CTRL_SLACK, &state) || state != want) {
			snprintf(err, n, "%s: expected %s, got %s", addr, ip_state_name(want),
				 errno && state != want ? strerror(errno) : ip_state_name(state));
			goto out;
		}
	}
	ip_json_start(&t, json_add_obj(out, "start"), o->host, o->port);
	if (o->live) {
		iperf_text_head(out, o->verbose, o->live);
		t.on_interval = on_interval;
		t.on_interval_arg = &lv;
	}
	if (ip_run(&t, -1, &cu, &cs, &secs) < 0) {
		for (int i = 0; i < t.nst; i++)
			if (t.st[i].err) {
				snprintf(err, n, "%s: data stream %d failed during the test: %s", addr, i + 1,
					 strerror(t.st[i].err));
				break;
			}
		goto out;
	}
	if (exchange_results(&t, ctrl, addr, err, n))
		goto out;
	ended = 1;
	ip_json_intervals(&t, json_add_arr(out, "intervals"));
	ip_json_end(&t, json_add_obj(out, "end"));
	if (t.server_output)
		json_add_str(out, "server_output_text", t.server_output);
	if (o->live)
		iperf_text_end(out, o->verbose, o->live);
	rc = 0;
out:
	if (rc && !ended)
		ip_send_state(ctrl, CLIENT_TERMINATE);
	for (int i = 0; t.st && i < t.nst; i++)
		ip_stream_free(&t.st[i]);
	free(t.st);
	free(t.server_output);
	close(ctrl);
	return rc;
}
