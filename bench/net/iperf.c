/* The iperf3 TCP protocol (iperf3 3.12's src/iperf_api.c, iperf_client_api.c,
 * iperf_server_api.c): client and server, so assay measures against stock iperf3 servers
 * and stock iperf3 clients measure against `assay serve`.
 *
 * Control connection: the client sends a 37-byte cookie; the server answers with state
 * bytes (PARAM_EXCHANGE, CREATE_STREAMS, TEST_START, TEST_RUNNING, EXCHANGE_RESULTS,
 * DISPLAY_RESULTS; ACCESS_DENIED when busy, SERVER_ERROR + two int32 errnos on failure);
 * JSON messages are a 4-byte big-endian length and the text.  Every data connection also
 * starts with the cookie.  The client ends the test with TEST_END and IPERF_DONE.  Every
 * wait has a deadline; every message from the peer is checked. */
#include "iperf.h"
#include "clock.h"
#include "json.h"
#include "msg.h"
#include "netio.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

enum {
	TEST_START = 1, TEST_RUNNING = 2, TEST_END = 4, PARAM_EXCHANGE = 9, CREATE_STREAMS = 10,
	SERVER_TERMINATE = 11, CLIENT_TERMINATE = 12, EXCHANGE_RESULTS = 13, DISPLAY_RESULTS = 14,
	IPERF_DONE = 16, ACCESS_DENIED = -1, SERVER_ERROR = -2,
};

#define COOKIE_SIZE 37
#define JSON_MAX (1 << 20)
#define CTRL_SLACK 15.0         /* control replies may come this long after the test */

static const char *state_name(int s)
{
	switch (s) {
	case TEST_START: return "TEST_START";
	case TEST_RUNNING: return "TEST_RUNNING";
	case TEST_END: return "TEST_END";
	case PARAM_EXCHANGE: return "PARAM_EXCHANGE";
	case CREATE_STREAMS: return "CREATE_STREAMS";
	case SERVER_TERMINATE: return "SERVER_TERMINATE";
	case CLIENT_TERMINATE: return "CLIENT_TERMINATE";
	case EXCHANGE_RESULTS: return "EXCHANGE_RESULTS";
	case DISPLAY_RESULTS: return "DISPLAY_RESULTS";
	case IPERF_DONE: return "IPERF_DONE";
	case ACCESS_DENIED: return "ACCESS_DENIED";
	case SERVER_ERROR: return "SERVER_ERROR";
	default: return "an unknown state";
	}
}

static void make_cookie(char *c)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
	uint64_t x = now_ns() ^ ((uint64_t)getpid() << 32);
	for (int i = 0; i < COOKIE_SIZE - 1; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		c[i] = alphabet[x % 32];
	}
	c[COOKIE_SIZE - 1] = 0;
}

static int send_state(int fd, int s)
{
	signed char b = (signed char)s;
	return net_write_full(fd, &b, 1, now_s() + CTRL_SLACK);
}

static int read_state(int fd, double deadline, int *s)
{
	signed char b;
	if (net_read_full(fd, &b, 1, deadline))
		return -1;
	*s = b;
	return 0;
}

static int send_json(int fd, const struct json *j)
{
	size_t len;
	char *s = json_to_string(j, -1, &len);
	uint32_t be;
	int r;
	len--;   /* no trailing newline */
	be = htonl((uint32_t)len);
	r = net_write_full(fd, &be, 4, now_s() + CTRL_SLACK) || net_write_full(fd, s, len, now_s() + CTRL_SLACK);
	free(s);
	return r ? -1 : 0;
}

/* a length-prefixed JSON message; NULL with a reason */
static struct json *read_json(int fd, double deadline, char *err, size_t n)
{
	uint32_t be, len;
	char *buf, perr[200];
	struct json *j;
	if (net_read_full(fd, &be, 4, deadline)) {
		snprintf(err, n, "no JSON message from the peer: %s", strerror(errno));
		return NULL;
	}
	len = ntohl(be);
	if (len == 0 || len > JSON_MAX) {
		snprintf(err, n, "the peer announced a JSON message of %u bytes: refused", len);
		return NULL;
	}
	buf = malloc(len);
	if (!buf) {
		snprintf(err, n, "out of memory");
		return NULL;
	}
	if (net_read_full(fd, buf, len, deadline)) {
		snprintf(err, n, "JSON message cut short: %s", strerror(errno));
		free(buf);
		return NULL;
	}
	j = json_parse(buf, len, perr, sizeof perr);
	free(buf);
	if (!j)
		snprintf(err, n, "malformed JSON from the peer: %s", perr);
	else if (j->type != J_OBJ) {
		snprintf(err, n, "the peer's JSON message is not an object");
		json_free(j);
		j = NULL;
	}
	return j;
}

/* ---- data streams: one thread each ---- */

struct stream {
	int fd;
	int id;
	pthread_t tid;
	int sending;
	atomic_ullong bytes;
	long retrans0;
	char *buf;
	size_t len;
	atomic_int *stop;
	int err;
	int closed;             /* the socket is gone: retrans_done holds the count */
	long retrans_done;
};

static void *stream_main(void *arg)
{
	struct stream *s = arg;
	struct timeval tv = { 0, 200000 };
	setsockopt(s->fd, SOL_SOCKET, s->sending ? SO_SNDTIMEO : SO_RCVTIMEO, &tv, sizeof tv);
	while (!atomic_load(s->stop)) {
		ssize_t r = s->sending ? send(s->fd, s->buf, s->len, MSG_NOSIGNAL) : recv(s->fd, s->buf, s->len, 0);
		if (r > 0) {
			atomic_fetch_add(&s->bytes, (unsigned long long)r);
			continue;
		}
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (!atomic_load(s->stop))
			s->err = r == 0 ? ECONNRESET : errno;
		break;
	}
	return NULL;
}

static double cpu_seconds(double *usr, double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*usr = tv_s(&ru.ru_utime);
	*sys = tv_s(&ru.ru_stime);
	return *usr + *sys;
}

struct interval {
	double start, end;
	unsigned long long bytes;
	long retrans;
	int omitted;
};

/* Run the streams for `secs` (+ omit) while sampling each second; returns the number of
 * intervals.  ctrl, when >= 0, is watched for the peer ending the test (server side). */
static int run_streams(struct stream *st, int n, double secs, double omit, int ctrl, struct interval *iv,
		       int max_iv, double *t_start, double *t_end, unsigned long long *omit_bytes, int *peer_end)
{
	atomic_int stop = 0;
	unsigned long long last = 0;
	long last_rt = 0;
	int niv = 0, started = 0;
	double t0 = now_s(), next = t0 + 1, total = secs + omit;
	*omit_bytes = 0;
	for (int i = 0; i < n; i++) {
		st[i].stop = &stop;
		if (!pthread_create(&st[i].tid, NULL, stream_main, &st[i]))
			started++;
		else
			st[i].tid = 0;
	}
	*t_start = t0;
	for (;;) {
		double now = now_s();
		unsigned long long sum = 0;
		long rt = 0;
		int errs = 0;
		if (ctrl >= 0) {
			struct pollfd p = { ctrl, POLLIN, 0 };
			if (poll(&p, 1, 50) > 0) {
				*peer_end = 1;
				break;
			}
		} else {
			struct timespec ts = { 0, 20 * 1000000 };
			nanosleep(&ts, NULL);
		}
		now = now_s();
		for (int i = 0; i < n; i++)
			errs += st[i].err != 0;
		if (errs == n)
			break;   /* every stream failed */
		if (now >= next || (secs > 0 && now - t0 >= total)) {
			for (int i = 0; i < n; i++) {
				long r = st[i].sending ? net_tcp_retrans(st[i].fd) : -1;
				sum += atomic_load(&st[i].bytes);
				rt += r >= 0 ? r - st[i].retrans0 : 0;
			}
			if (niv < max_iv) {
				iv[niv].start = (niv ? iv[niv - 1].end : 0);
				iv[niv].end = now - t0;
				iv[niv].bytes = sum - last;
				iv[niv].retrans = rt - last_rt;
				iv[niv].omitted = omit > 0 && iv[niv].start < omit - 1e-6;
				if (iv[niv].omitted)
					*omit_bytes = sum;
				niv++;
			}
			last = sum;
			last_rt = rt;
			next += 1;
		}
		if (secs > 0 && now - t0 >= total)
			break;
	}
	*t_end = now_s();
	atomic_store(&stop, 1);
	for (int i = 0; i < n; i++)
		if (st[i].tid)
			pthread_join(st[i].tid, NULL);
	(void)started;
	return niv;
}

static void stream_result(struct json *arr, const struct stream *s, unsigned long long omit_share, double secs)
{
	struct json *o = json_push(arr, json_obj());
	long rt = s->closed ? s->retrans_done : s->sending && net_tcp_retrans(s->fd) >= 0
		  ? net_tcp_retrans(s->fd) - s->retrans0 : -1;
	json_add_int(o, "id", s->id);
	json_add_int(o, "bytes", (long long)(atomic_load(&s->bytes) - omit_share));
	json_add_int(o, "retransmits", rt);
	json_add_num(o, "jitter", 0);
	json_add_int(o, "errors", 0);
	json_add_int(o, "omitted_errors", 0);
	json_add_int(o, "packets", 0);
	json_add_int(o, "omitted_packets", 0);
	json_add_num(o, "start_time", 0);
	json_add_num(o, "end_time", secs);
}

static struct json *results_json(struct stream *st, int n, int sending, double secs, double cu, double cs,
				 unsigned long long omit_bytes)
{
	struct json *r = json_obj(), *arr;
	unsigned long long total = 0;
	for (int i = 0; i < n; i++)
		total += atomic_load(&st[i].bytes);
	json_add_num(r, "cpu_util_total", secs > 0 ? 100.0 * (cu + cs) / secs : 0);
	json_add_num(r, "cpu_util_user", secs > 0 ? 100.0 * cu / secs : 0);
	json_add_num(r, "cpu_util_system", secs > 0 ? 100.0 * cs / secs : 0);
	json_add_int(r, "sender_has_retransmits", sending ? 1 : 0);
	json_add_str(r, "congestion_used", "cubic");
	arr = json_add_arr(r, "streams");
	for (int i = 0; i < n; i++)
		/* the omitted bytes shared out in proportion */
		stream_result(arr, &st[i], total ? (unsigned long long)((double)omit_bytes *
			      (double)atomic_load(&st[i].bytes) / (double)total) : 0, secs);
	return r;
}

static void sum_obj(struct json *o, double secs, unsigned long long bytes, long retrans, int sender, int with_rt)
{
	json_add_num(o, "start", 0);
	json_add_num(o, "end", secs);
	json_add_num(o, "seconds", secs);
	json_add_int(o, "bytes", (long long)bytes);
	json_add_num(o, "bits_per_second", secs > 0 ? 8.0 * (double)bytes / secs : 0);
	if (with_rt)
		json_add_int(o, "retransmits", retrans);
	json_add_bool(o, "sender", sender);
}

static int stream_id(int i)
{
	return i == 0 ? 1 : i + 2;    /* iperf3 numbers streams 1, 3, 4, 5, ... */
}

/* ---- client ---- */

/* the control connection, its cookie sent and PARAM_EXCHANGE answered (a busy server
 * tried again, o->busy_retries times); the socket, or -1 with err */
static int client_hello(const struct iperf_opts *o, const struct sockaddr_storage *ss, socklen_t sl,
			const char *addr, char cookie[COOKIE_SIZE], char *err, size_t n)
{
	int ctrl, state;
	for (int attempt = 0;; attempt++) {
		ctrl = net_connect(ss, sl, o->connect_timeout, err, n);
		if (ctrl < 0)
			return -1;
		make_cookie(cookie);
		if (net_write_full(ctrl, cookie, COOKIE_SIZE, now_s() + CTRL_SLACK) ||
		    read_state(ctrl, now_s() + CTRL_SLACK, &state)) {
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
			 state_name(state), state);
	} else {
		return ctrl;
	}
	send_state(ctrl, CLIENT_TERMINATE);
	close(ctrl);
	return -1;
}

/* the test's parameters, sent; 0 once the server says CREATE_STREAMS */
static int send_params(const struct iperf_opts *o, int ctrl, const char *addr, char *err, size_t n)
{
	struct json *params = json_obj();
	int state, r;
	json_add_bool(params, "tcp", 1);
	json_add_int(params, "omit", (long long)o->omit);
	json_add_int(params, "time", (long long)o->time);
	json_add_int(params, "num", 0);
	json_add_int(params, "blockcount", 0);
	json_add_int(params, "parallel", o->parallel);
	if (o->reverse)
		json_add_bool(params, "reverse", 1);
	json_add_int(params, "len", (long long)o->len);
	json_add_int(params, "pacing_timer", 1000);
	json_add_str(params, "client_version", "3.12");
	r = send_json(ctrl, params) || read_state(ctrl, now_s() + CTRL_SLACK, &state);
	json_free(params);
	if (r) {
		snprintf(err, n, "%s: control connection lost while sending the parameters", addr);
		return -1;
	}
	if (state != CREATE_STREAMS) {
		snprintf(err, n, "%s: expected CREATE_STREAMS, got %s (%d)", addr, state_name(state), state);
		return -1;
	}
	return 0;
}

/* every data stream connected, its cookie sent; 0, or -1 with err */
static int open_streams(const struct iperf_opts *o, struct stream *st, const struct sockaddr_storage *ss,
			socklen_t sl, const char *addr, const char cookie[COOKIE_SIZE], char *err, size_t n)
{
	for (int i = 0; i < o->parallel; i++) {
		st[i].fd = net_connect(ss, sl, o->connect_timeout, err, n);
		if (st[i].fd < 0 || net_write_full(st[i].fd, cookie, COOKIE_SIZE, now_s() + CTRL_SLACK)) {
			if (st[i].fd >= 0)
				snprintf(err, n, "%s: data stream %d: %s", addr, i + 1, strerror(errno));
			return -1;
		}
		st[i].id = stream_id(i);
		st[i].sending = !o->reverse;
		st[i].len = o->len;
		st[i].buf = malloc(o->len);
		if (!st[i].buf) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		for (size_t k = 0; k < o->len; k++)
			st[i].buf[k] = (char)(k * 131 + 7);
		st[i].retrans0 = net_tcp_retrans(st[i].fd);
	}
	return 0;
}

/* after the test: results exchanged (ours sent, the server's read and checked); the
 * server's, or NULL with err */
static struct json *exchange_results(const struct iperf_opts *o, int ctrl, struct json *mine, const char *addr,
				     char *err, size_t n)
{
	struct json *sres;
	const struct json *ss;
	int state;
	if (send_state(ctrl, TEST_END) || read_state(ctrl, now_s() + CTRL_SLACK, &state)) {
		snprintf(err, n, "%s: control connection lost at the end of the test", addr);
		return NULL;
	}
	if (state != EXCHANGE_RESULTS) {
		snprintf(err, n, "%s: expected EXCHANGE_RESULTS, got %s (%d)", addr, state_name(state), state);
		return NULL;
	}
	if (send_json(ctrl, mine)) {
		snprintf(err, n, "%s: cannot send the results", addr);
		return NULL;
	}
	if (!(sres = read_json(ctrl, now_s() + CTRL_SLACK, err, n)))
		return NULL;
	ss = json_get(sres, "streams");
	if (!ss || ss->type != J_ARR || (int)ss->n != o->parallel) {
		snprintf(err, n, "%s: the server's results hold %d streams, want %d", addr,
			 ss && ss->type == J_ARR ? (int)ss->n : -1, o->parallel);
	} else if (read_state(ctrl, now_s() + CTRL_SLACK, &state) || state != DISPLAY_RESULTS) {
		snprintf(err, n, "%s: expected DISPLAY_RESULTS", addr);
	} else {
		send_state(ctrl, IPERF_DONE);
		return sres;
	}
	json_free(sres);
	return NULL;
}

/* what a client test measured, for its report */
struct client_run {
	const struct iperf_opts *o;
	const char *addr;
	struct stream *st;
	struct interval *iv;
	int niv;
	double secs, usr, sys;
	unsigned long long omit_bytes;
	const struct json *sres;   /* the server's results */
};

static void report_start(const struct client_run *cr, struct json *out)
{
	const struct iperf_opts *o = cr->o;
	struct json *start = json_add_obj(out, "start"), *conn = json_add_arr(start, "connected");
	struct json *ts = json_add_obj(start, "test_start"), *ct = json_add_obj(start, "connecting_to");
	for (int i = 0; i < o->parallel; i++) {
		struct sockaddr_storage la;
		socklen_t ll = sizeof la;
		char ls[80];
		struct json *c = json_push(conn, json_obj());
		getsockname(cr->st[i].fd, (struct sockaddr *)&la, &ll);
		net_addr_str(&la, ls, sizeof ls);
		json_add_int(c, "socket", cr->st[i].fd);
		json_add_str(c, "local", ls);
		json_add_str(c, "remote", cr->addr);
	}
	json_add_str(start, "version", "assay " ASSAY_VERSION " (iperf3 protocol)");
	json_add_str(ct, "host", o->host);
	json_add_int(ct, "port", o->port);
	json_add_str(ts, "protocol", "TCP");
	json_add_int(ts, "num_streams", o->parallel);
	json_add_int(ts, "blksize", (long long)o->len);
	json_add_int(ts, "omit", (long long)o->omit);
	json_add_int(ts, "duration", (long long)o->time);
	json_add_int(ts, "reverse", o->reverse);
}

static void report_intervals(const struct client_run *cr, struct json *out)
{
	struct json *ivs = json_add_arr(out, "intervals");
	for (int i = 0; i < cr->niv; i++) {
		const struct interval *iv = &cr->iv[i];
		struct json *e = json_push(ivs, json_obj()), *sum = json_add_obj(e, "sum");
		double d = iv->end - iv->start;
		json_add_num(sum, "start", iv->start);
		json_add_num(sum, "end", iv->end);
		json_add_num(sum, "seconds", d);
		json_add_int(sum, "bytes", (long long)iv->bytes);
		json_add_num(sum, "bits_per_second", d > 0 ? 8.0 * (double)iv->bytes / d : 0);
		if (!cr->o->reverse)
			json_add_int(sum, "retransmits", iv->retrans);
		json_add_bool(sum, "omitted", iv->omitted);
		json_add_bool(sum, "sender", !cr->o->reverse);
	}
}

/* end: the sender's and receiver's totals (the server's side from its results), CPU */
static void report_end(const struct client_run *cr, struct json *out)
{
	const struct iperf_opts *o = cr->o;
	struct json *end = json_add_obj(out, "end"), *cpu;
	double secs = cr->secs, rsecs = secs;
	unsigned long long sent = 0, recvd = 0;
	long retrans = 0;
	for (const struct json *r = json_get(cr->sres, "streams")->child; r; r = r->next) {
		if (o->reverse) {
			sent += (unsigned long long)json_get_num(r, "bytes", 0);
			retrans += (long)json_get_num(r, "retransmits", 0);
		} else {
			recvd += (unsigned long long)json_get_num(r, "bytes", 0);
		}
		if (json_get_num(r, "end_time", 0) > 0)
			rsecs = json_get_num(r, "end_time", 0);
	}
	for (int i = 0; i < o->parallel; i++) {
		long r = net_tcp_retrans(cr->st[i].fd);
		unsigned long long b = atomic_load(&cr->st[i].bytes);
		if (o->reverse) {
			recvd += b;
		} else {
			sent += b;
			retrans += r >= 0 ? r - cr->st[i].retrans0 : 0;
		}
	}
	if (o->reverse)
		recvd -= cr->omit_bytes;
	else
		sent -= cr->omit_bytes;
	sum_obj(json_add_obj(end, "sum_sent"), o->reverse ? rsecs : secs, sent, retrans, 1, 1);
	sum_obj(json_add_obj(end, "sum_received"), o->reverse ? secs : rsecs, recvd, 0, 0, 0);
	cpu = json_add_obj(end, "cpu_utilization_percent");
	json_add_num(cpu, "host_total", secs > 0 ? 100 * (cr->usr + cr->sys) / secs : 0);
	json_add_num(cpu, "host_user", secs > 0 ? 100 * cr->usr / secs : 0);
	json_add_num(cpu, "host_system", secs > 0 ? 100 * cr->sys / secs : 0);
	json_add_num(cpu, "remote_total", json_get_num(cr->sres, "cpu_util_total", 0));
	json_add_num(cpu, "remote_user", json_get_num(cr->sres, "cpu_util_user", 0));
	json_add_num(cpu, "remote_system", json_get_num(cr->sres, "cpu_util_system", 0));
	json_add_str(end, "sender_tcp_congestion", "cubic");
	json_add_str(end, "receiver_tcp_congestion", json_get_str(cr->sres, "congestion_used", "cubic"));
}

int iperf_client(const struct iperf_opts *o, struct json *out, char *err, size_t n)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char cookie[COOKIE_SIZE], addr[80];
	int ctrl, state = 0, rc = -1, peer_end = 0;
	struct json *sres = NULL, *mine = NULL;
	struct client_run cr = { .o = o, .addr = addr };
	double t_start = 0, t_end = 0, u0, s0, u1, s1;

	if (net_resolve(o->host, o->port, o->family, SOCK_STREAM, &ss, &sl, err, n))
		return -1;
	net_addr_str(&ss, addr, sizeof addr);
	if ((ctrl = client_hello(o, &ss, sl, addr, cookie, err, n)) < 0)
		return -1;
	if (send_params(o, ctrl, addr, err, n))
		goto out;
	cr.st = calloc((size_t)o->parallel, sizeof *cr.st);
	cr.iv = calloc(4096, sizeof *cr.iv);
	if (!cr.st || !cr.iv) {
		snprintf(err, n, "out of memory");
		goto out;
	}
	if (open_streams(o, cr.st, &ss, sl, addr, cookie, err, n))
		goto out;
	for (int want = TEST_START; want <= TEST_RUNNING; want++) {
		if (read_state(ctrl, now_s() + CTRL_SLACK, &state) || state != want) {
			snprintf(err, n, "%s: expected %s, got %s", addr, state_name(want),
				 errno && state != want ? strerror(errno) : state_name(state));
			goto out;
		}
	}
	cpu_seconds(&u0, &s0);
	cr.niv = run_streams(cr.st, o->parallel, o->time, o->omit, -1, cr.iv, 4096, &t_start, &t_end,
			     &cr.omit_bytes, &peer_end);
	cpu_seconds(&u1, &s1);
	cr.secs = t_end - t_start - o->omit;
	cr.usr = u1 - u0;
	cr.sys = s1 - s0;
	for (int i = 0; i < o->parallel; i++)
		if (cr.st[i].err) {
			snprintf(err, n, "%s: data stream %d failed during the test: %s", addr, i + 1,
				 strerror(cr.st[i].err));
			goto out;
		}
	mine = results_json(cr.st, o->parallel, !o->reverse, cr.secs, cr.usr, cr.sys, cr.omit_bytes);
	if (!(sres = exchange_results(o, ctrl, mine, addr, err, n)))
		goto out;
	rc = 0;
	/* the report, in iperf3's JSON shape */
	cr.sres = sres;
	report_start(&cr, out);
	report_intervals(&cr, out);
	report_end(&cr, out);
out:
	if (rc && !peer_end)
		send_state(ctrl, CLIENT_TERMINATE);
	for (int i = 0; cr.st && i < o->parallel; i++) {
		if (cr.st[i].fd > 0)
			close(cr.st[i].fd);
		free(cr.st[i].buf);
	}
	free(cr.st);
	free(cr.iv);
	json_free(sres);
	json_free(mine);
	close(ctrl);
	return rc;
}

/* ---- server ---- */

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
	send_state(ctrl, SERVER_ERROR);
	net_write_full(ctrl, v, sizeof v, now_s() + 2);
}

int iperf_serve_one(int lfd, const struct serve_log *lg, char *err, size_t n)
{
	char cookie[COOKIE_SIZE], c2[COOKIE_SIZE];
	int ctrl = accept_until(lfd, lg->wait_s > 0 ? now_s() + lg->wait_s : 1e300), state = 0, rc = -1;
	int parallel, reverse, peer_end = 0, accepted = 0;
	size_t len;
	double t_start, t_end, u0, s0, u1, s1, secs, tlimit;
	unsigned long long omit_bytes;
	struct json *params = NULL, *cres = NULL, *mine = NULL;
	struct stream *st = NULL;
	struct interval *iv = NULL;
	if (ctrl < 0) {
		snprintf(err, n, "no client within %.0f s", lg->wait_s);
		return -1;
	}
	if (net_read_full(ctrl, cookie, COOKIE_SIZE, now_s() + CTRL_SLACK)) {
		snprintf(err, n, "a client connected but sent no cookie");
		goto out;
	}
	cookie[COOKIE_SIZE - 1] = 0;
	if (send_state(ctrl, PARAM_EXCHANGE) || !(params = read_json(ctrl, now_s() + CTRL_SLACK, err, n)))
		goto out;
	if (json_get(params, "udp") && json_get(params, "udp")->b) {
		snprintf(err, n, "the client asked for UDP: only TCP is served");
		server_error(ctrl, EPROTONOSUPPORT);
		goto out;
	}
	parallel = (int)json_get_num(params, "parallel", 1);
	reverse = json_get(params, "reverse") && json_get(params, "reverse")->type == J_BOOL &&
		  json_get(params, "reverse")->b;
	len = (size_t)json_get_num(params, "len", 131072);
	tlimit = json_get_num(params, "time", 10) + json_get_num(params, "omit", 0);
	if (parallel < 1 || parallel > 128 || len < 1 || len > (16u << 20) || tlimit < 0 || tlimit > 86400) {
		snprintf(err, n, "the client asked for %d streams of %zu-byte blocks for %.0f s: refused",
			 parallel, len, tlimit);
		server_error(ctrl, EINVAL);
		goto out;
	}
	st = calloc((size_t)parallel, sizeof *st);
	iv = calloc(4096, sizeof *iv);
	if (!st || !iv) {
		snprintf(err, n, "out of memory");
		goto out;
	}
	if (send_state(ctrl, CREATE_STREAMS))
		goto lost;
	while (accepted < parallel) {
		int fd = accept_until(lfd, now_s() + CTRL_SLACK);
		if (fd < 0) {
			snprintf(err, n, "the client opened %d of %d data streams", accepted, parallel);
			goto out;
		}
		if (net_read_full(fd, c2, COOKIE_SIZE, now_s() + CTRL_SLACK) || memcmp(c2, cookie, COOKIE_SIZE - 1)) {
			/* another client while this one runs: busy */
			signed char d = ACCESS_DENIED;
			net_write_full(fd, &d, 1, now_s() + 1);
			close(fd);
			continue;
		}
		st[accepted].fd = fd;
		st[accepted].id = stream_id(accepted);
		st[accepted].sending = reverse;
		st[accepted].len = len;
		st[accepted].buf = calloc(1, len);
		st[accepted].retrans0 = net_tcp_retrans(fd);
		if (!st[accepted].buf) {
			snprintf(err, n, "out of memory");
			goto out;
		}
		accepted++;
	}
	if (send_state(ctrl, TEST_START) || send_state(ctrl, TEST_RUNNING))
		goto lost;
	cpu_seconds(&u0, &s0);
	/* runs until the client says TEST_END (bounded: its time plus slack) */
	run_streams(st, parallel, 0, 0, ctrl, iv, 4096, &t_start, &t_end, &omit_bytes, &peer_end);
	cpu_seconds(&u1, &s1);
	secs = t_end - t_start;
	/* iperf3's server closes the data streams at TEST_END: a client receiving (-R)
	 * reads them until they end before it goes on */
	for (int i = 0; i < accepted; i++) {
		long r = st[i].sending ? net_tcp_retrans(st[i].fd) : -1;
		st[i].retrans_done = r >= 0 ? r - st[i].retrans0 : -1;
		st[i].closed = 1;
		close(st[i].fd);
		st[i].fd = -1;
	}
	if (!peer_end) {
		snprintf(err, n, "every data stream of the client failed");
		goto out;
	}
	if (read_state(ctrl, now_s() + CTRL_SLACK, &state) || state != TEST_END) {
		snprintf(err, n, "expected TEST_END from the client, got %s", state_name(state));
		goto out;
	}
	if (send_state(ctrl, EXCHANGE_RESULTS) || !(cres = read_json(ctrl, now_s() + CTRL_SLACK, err, n)))
		goto out;
	{
		/* the omitted seconds: what the client's results leave out */
		const struct json *cs = json_get(cres, "streams");
		double omit = json_get_num(params, "omit", 0);
		unsigned long long tot = 0;
		for (int i = 0; i < parallel; i++)
			tot += atomic_load(&st[i].bytes);
		omit_bytes = secs > 0 && omit > 0 ? (unsigned long long)((double)tot * omit / secs) : 0;
		(void)cs;
		mine = results_json(st, parallel, reverse, secs - omit, u1 - u0, s1 - s0, omit_bytes);
	}
	if (send_json(ctrl, mine) || send_state(ctrl, DISPLAY_RESULTS))
		goto lost;
	read_state(ctrl, now_s() + CTRL_SLACK, &state);   /* IPERF_DONE, or the client just closes */
	if (lg->f) {
		unsigned long long tot = 0;
		for (int i = 0; i < parallel; i++)
			tot += atomic_load(&st[i].bytes);
		fprintf(lg->f, "serve: %d stream%s, %s, %.2f s, %.2f Gbit/s\n", parallel, parallel == 1 ? "" : "s",
			reverse ? "sent" : "received", secs, secs > 0 ? 8.0 * (double)tot / secs / 1e9 : 0);
		fflush(lg->f);
	}
	rc = 0;
	goto out;
lost:
	snprintf(err, n, "the client went away: %s", strerror(errno));
out:
	for (int i = 0; st && i < parallel && i < accepted; i++) {
		if (st[i].fd >= 0)
			close(st[i].fd);
		free(st[i].buf);
	}
	free(st);
	free(iv);
	json_free(params);
	json_free(cres);
	json_free(mine);
	close(ctrl);
	return rc;
}
