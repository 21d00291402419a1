/* The iperf3 server side (iperf3 3.12's iperf_server_api.c), one test at a time: the
 * client's parameters checked, its data streams accepted (TCP on the listening socket,
 * UDP on a socket bound to the same port: a datagram announces each stream), the test
 * run until the client's TEST_END, results exchanged, and the server's text sent back
 * when the client asks for it (--get-server-output). */
#include "iperf_int.h"
#include "clock.h"
#include "json.h"
#include "netio.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* accept one connection before the deadline, -1 on timeout */
static int accept_until(int lfd, double deadline)
{
	for (;;) {
		struct pollfd p = { lfd, POLLIN, 0 };
		double left = deadline - now_s();
		int r;
		if (left <= 0)
			return -1;
		r = poll(&p, 1, left > 1 ? 1000 : (int)(left * 1000) + 1);
		if (r > 0)
			return accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

static void server_error(int ctrl, int e)
{
	int32_t v[2] = { (int32_t)htonl(1), (int32_t)htonl((uint32_t)e) };
	ip_send_state(ctrl, SERVER_ERROR);
	net_write_full(ctrl, v, sizeof v, now_s() + 2);
}

static int flag(const struct json *p, const char *k)
{
	const struct json *x = json_get(p, k);
	return x && ((x->type == J_BOOL && x->b) || (x->type == J_NUM && x->num != 0));
}

/* the client's parameters into the test; 0, or -1 with why */
static int take_params(struct iptest *t, const struct json *p, char *err, size_t n)
{
	double par = json_get_num(p, "parallel", 1), len = json_get_num(p, "len", 0);
	double time = json_get_num(p, "time", 10), omit = json_get_num(p, "omit", 0);
	double rate = json_get_num(p, "bandwidth", 0), win = json_get_num(p, "window", 0);
	double mss = json_get_num(p, "MSS", 0);
	const char *cc = json_get_str(p, "congestion", "");
	t->role = 's';
	if (flag(p, "sctp")) {
		snprintf(err, n, "the client asked for SCTP: only TCP and UDP are served");
		return -1;
	}
	t->udp = flag(p, "udp");
	t->mode = flag(p, "bidirectional") ? IP_BIDIR : flag(p, "reverse") ? IP_SENDER : IP_RECEIVER;
	if (!(par >= 1 && par <= 128) || !(len >= 0 && len <= (t->udp ? UDP_LEN_MAX : 16 << 20)) ||
	    !(time >= 0 && time <= 86400) || !(omit >= 0 && omit <= 600) || !(rate >= 0 && rate <= 1e13) ||
	    !(win >= 0 && win <= 512 << 20) || !(mss >= 0 && mss <= 65535) || strlen(cc) >= sizeof t->congestion) {
		snprintf(err, n, "the client asked for %.0f streams of %.0f-byte blocks for %.0f s (omit %.0f, rate %.0f, "
			 "window %.0f, MSS %.0f): refused", par, len, time, omit, rate, win, mss);
		return -1;
	}
	t->nstreams = (int)par;
	t->len = len > 0 ? (size_t)len : t->udp ? UDP_LEN_DEFAULT : 128 * 1024;
	if (t->udp && t->len < 16)
		t->len = 16;
	t->duration = time;
	t->omit = omit;
	t->interval = 1;
	t->rate = rate;
	t->window = (long long)win;
	t->mss = (int)mss;
	t->zerocopy = flag(p, "zerocopy");
	t->udp64 = flag(p, "udp_counters_64bit");
	t->get_server_output = flag(p, "get_server_output");
	snprintf(t->congestion, sizeof t->congestion, "%s", cc);
	t->sender_has_retransmits = t->mode != IP_RECEIVER && !t->udp;
	return 0;
}

/* a UDP socket bound to the listener's address and port */
static int udp_listener(int lfd)
{
	struct sockaddr_storage la;
	socklen_t ll = sizeof la;
	int one = 1, fd;
	if (getsockname(lfd, (struct sockaddr *)&la, &ll))
		return -1;
	fd = socket(la.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)&la, ll)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* iperf3's iperf_udp_accept: the announcing datagram's sender becomes the socket's peer */
static int udp_accept(int lfd, int *ufd, double deadline)
{
	struct sockaddr_storage pa;
	socklen_t pl = sizeof pa;
	uint32_t buf, reply = UDP_CONNECT_REPLY;
	struct pollfd p = { *ufd, POLLIN, 0 };
	double left = deadline - now_s();
	int fd = *ufd;
	if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
		return -1;
	if (recvfrom(fd, &buf, sizeof buf, 0, (struct sockaddr *)&pa, &pl) < 0 ||
	    connect(fd, (struct sockaddr *)&pa, pl))
		return -1;
	*ufd = udp_listener(lfd);   /* the next stream's */
	if (send(fd, &reply, sizeof reply, MSG_NOSIGNAL) != (ssize_t)sizeof reply) {
		close(fd);
		return -1;
	}
	return fd;
}

/* every data stream the client opens: with --bidir the first half sent to us */
static int accept_streams(struct iptest *t, int lfd, int *ufd, char *err, size_t n)
{
	int accepted = 0;
	char c2[COOKIE_SIZE], e2[200];
	if (ip_streams_alloc(t, err, n))
		return -1;
	while (accepted < t->nst) {
		int sender = t->mode == IP_BIDIR ? accepted >= t->nstreams : t->mode == IP_SENDER;
		int fd = t->udp ? udp_accept(lfd, ufd, now_s() + CTRL_SLACK) : accept_until(lfd, now_s() + CTRL_SLACK);
		if (fd < 0) {
			snprintf(err, n, "the client opened %d of %d data streams", accepted, t->nst);
			break;
		}
		if (!t->udp && (net_read_full(fd, c2, COOKIE_SIZE, now_s() + CTRL_SLACK) ||
				memcmp(c2, t->cookie, COOKIE_SIZE - 1))) {
			/* another client while this one runs: busy */
			signed char d = ACCESS_DENIED;
			net_write_full(fd, &d, 1, now_s() + 1);
			close(fd);
			continue;
		}
		if (ip_sockopts(t, fd, 0, e2, sizeof e2) && !strstr(e2, "(-C)")) {
			snprintf(err, n, "data stream %d: %s", accepted + 1, e2);
			close(fd);
			break;
		}
		if (ip_stream_init(t, &t->st[accepted], fd, sender, accepted)) {
			snprintf(err, n, "out of memory");
			close(fd);
			t->st[accepted].fd = -1;
			break;
		}
		if (!t->udp)
			ip_congestion(fd, t->cong_used, sizeof t->cong_used);
		accepted++;
	}
	if (accepted == t->nst)
		return 0;
	t->nst = accepted;   /* what there is to free */
	return -1;
}

/* the server's own report, as iperf3 prints it, for a client that asked for it */
static char *server_text(struct iptest *t, int ctrl)
{
	struct json *r = json_obj(), *start = json_add_obj(r, "start"), *acc;
	struct sockaddr_storage pa;
	socklen_t pl = sizeof pa;
	char a[80], *c, *buf = NULL;
	size_t len = 0;
	FILE *f;
	getpeername(ctrl, (struct sockaddr *)&pa, &pl);
	net_addr_str(&pa, a, sizeof a);
	c = strrchr(a, ':');
	if (c)
		*c++ = 0;
	if (a[0] == '[') {
		memmove(a, a + 1, strlen(a));
		a[strcspn(a, "]")] = 0;
	}
	acc = json_add_obj(start, "accepted_connection");
	json_add_str(acc, "host", a);
	json_add_int(acc, "port", c ? atoi(c) : 0);
	ip_json_start(t, start, "", 0);
	ip_json_intervals(t, json_add_arr(r, "intervals"));
	ip_json_end(t, json_add_obj(r, "end"));
	f = open_memstream(&buf, &len);
	if (f) {
		iperf_text(r, 0, f);
		fclose(f);
	}
	json_free(r);
	return buf;
}

static void log_test(const struct serve_log *lg, const struct iptest *t, double secs)
{
	unsigned long long tot = 0;
	if (!lg->f)
		return;
	for (int i = 0; i < t->nst; i++)
		tot += (unsigned long long)t->st[i].bytes;
	fprintf(lg->f, "serve: %d stream%s, %s%s, %.2f s, %.2f Gbit/s\n", t->nstreams, t->nstreams == 1 ? "" : "s",
		t->udp ? "UDP, " : "", t->mode == IP_BIDIR ? "both ways" : t->mode == IP_SENDER ? "sent" : "received",
		secs, secs > 0 ? 8.0 * (double)tot / secs / 1e9 : 0);
	fflush(lg->f);
}

int iperf_serve_one(int lfd, const struct serve_log *lg, char *err, size_t n)
{
	int ctrl = accept_until(lfd, lg->wait_s > 0 ? now_s() + lg->wait_s : 1e300), state = 0, rc = -1, r, ufd = -1;
	struct json *params = NULL, *cres = NULL, *mine = NULL;
	struct iptest t;
	double secs = 0, cu, cs;
	memset(&t, 0, sizeof t);
	if (ctrl < 0) {
		snprintf(err, n, "no client within %.0f s", lg->wait_s);
		return -1;
	}
	if (net_read_full(ctrl, t.cookie, COOKIE_SIZE, now_s() + CTRL_SLACK)) {
		snprintf(err, n, "a client connected but sent no cookie");
		goto out;
	}
	t.cookie[COOKIE_SIZE - 1] = 0;
	if (ip_send_state(ctrl, PARAM_EXCHANGE) || !(params = ip_read_json(ctrl, now_s() + CTRL_SLACK, err, n)))
		goto out;
	if (take_params(&t, params, err, n)) {
		server_error(ctrl, EINVAL);
		goto out;
	}
	/* a UDP test: the socket its streams announce themselves to is there before the
	 * client is told to open them */
	if (t.udp && (ufd = udp_listener(lfd)) < 0) {
		snprintf(err, n, "cannot listen for UDP on the server's port: %s", strerror(errno));
		server_error(ctrl, errno);
		goto out;
	}
	if (ip_send_state(ctrl, CREATE_STREAMS))
		goto lost;
	r = accept_streams(&t, lfd, &ufd, err, n);
	if (ufd >= 0)
		close(ufd);
	if (r)
		goto out;
	if (ip_send_state(ctrl, TEST_START) || ip_send_state(ctrl, TEST_RUNNING))
		goto lost;
	t.deny_fd = lfd;
	/* runs until the client says TEST_END (bounded: its time plus slack) */
	r = ip_run(&t, ctrl, &cu, &cs, &secs);
	/* iperf3's server closes the data streams at TEST_END: a client receiving (-R)
	 * reads them until they end before it goes on */
	for (int i = 0; i < t.nst; i++)
		if (!t.udp)
			shutdown(t.st[i].fd, SHUT_RDWR);
	if (r != 1) {
		snprintf(err, n, r < 0 ? "every data stream of the client failed" : "the client did not end the test in time");
		goto out;
	}
	if (ip_read_state(ctrl, now_s() + CTRL_SLACK, &state) || state != TEST_END) {
		snprintf(err, n, "expected TEST_END from the client, got %s", ip_state_name(state));
		goto out;
	}
	if (ip_send_state(ctrl, EXCHANGE_RESULTS) || !(cres = ip_read_json(ctrl, now_s() + CTRL_SLACK, err, n)))
		goto out;
	if (ip_apply_results(&t, cres, err, n))
		goto out;
	if (t.get_server_output)
		t.server_output = server_text(&t, ctrl);
	if (lg->verbose && lg->f) {
		char *txt = t.server_output ? NULL : server_text(&t, ctrl);
		fputs(t.server_output ? t.server_output : txt ? txt : "", lg->f);
		free(txt);
	}
	mine = ip_results_msg(&t);
	if (ip_send_json(ctrl, mine) || ip_send_state(ctrl, DISPLAY_RESULTS))
		goto lost;
	ip_read_state(ctrl, now_s() + CTRL_SLACK, &state);   /* IPERF_DONE, or the client just closes */
	log_test(lg, &t, secs);
	rc = 0;
	goto out;
lost:
	snprintf(err, n, "the client went away: %s", strerror(errno));
out:
	for (int i = 0; t.st && i < t.nst; i++)
		ip_stream_free(&t.st[i]);
	free(t.st);
	free(t.server_output);
	json_free(params);
	json_free(cres);
	json_free(mine);
	close(ctrl);
	return rc;
}
