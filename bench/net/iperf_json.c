/* iperf3's JSON, as iperf3 3.12 writes it (iperf_api.c: send_results, get_results,
 * iperf_print_intermediate, print_interval_results, iperf_print_results): the results
 * message each side sends the other, and the report's start, intervals and end. */
#include "iperf_int.h"
#include "json.h"
#include "netio.h"

#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

/* the counted bytes on this side (the omit period left out) */
static unsigned long long own_bytes(const struct ipstream *s)
{
	return (unsigned long long)s->bytes - s->bytes_omit;
}

struct json *ip_results_msg(const struct iptest *t)
{
	struct json *r = json_obj(), *arr;
	json_add_num(r, "cpu_util_total", t->cpu[0]);
	json_add_num(r, "cpu_util_user", t->cpu[1]);
	json_add_num(r, "cpu_util_system", t->cpu[2]);
	json_add_int(r, "sender_has_retransmits", t->mode == IP_RECEIVER ? -1 : t->sender_has_retransmits);
	if (!t->udp && t->cong_used[0])
		json_add_str(r, "congestion_used", t->cong_used);
	if (t->role == 's' && t->get_server_output && t->server_output)
		json_add_str(r, "server_output_text", t->server_output);
	arr = json_add_arr(r, "streams");
	for (int i = 0; i < t->nst; i++) {
		const struct ipstream *s = &t->st[i];
		struct json *o = json_push(arr, json_obj());
		json_add_int(o, "id", s->id);
		json_add_int(o, "bytes", (long long)own_bytes(s));
		json_add_int(o, "retransmits", s->sender && t->sender_has_retransmits ? s->retrans : -1);
		json_add_num(o, "jitter", s->jitter);
		json_add_int(o, "errors", s->cnt_error);
		json_add_int(o, "packets", ip_pkts(s));
		json_add_num(o, "start_time", 0);
		json_add_num(o, "end_time", s->end - s->start);
	}
	return r;
}

static int num_ok(const struct json *o, const char *k, double lo, double hi, double *v)
{
	const struct json *x = json_get(o, k);
	if (!x || x->type != J_NUM || !isfinite(x->num) || x->num < lo || x->num > hi)
		return 0;
	*v = x->num;
	return 1;
}

int ip_apply_results(struct iptest *t, const struct json *r, char *err, size_t n)
{
	const struct json *arr = json_get(r, "streams");
	double c[3], shr;
	if (!num_ok(r, "cpu_util_total", -1, 1e6, &c[0]) || !num_ok(r, "cpu_util_user", -1, 1e6, &c[1]) ||
	    !num_ok(r, "cpu_util_system", -1, 1e6, &c[2]) || !num_ok(r, "sender_has_retransmits", -1, 1e20, &shr) ||
	    !arr || arr->type != J_ARR) {
		snprintf(err, n, "the peer's results lack cpu_util_*, sender_has_retransmits or streams");
		return -1;
	}
	if ((int)arr->n != t->nst) {
		snprintf(err, n, "the peer's results hold %d streams, want %d", (int)arr->n, t->nst);
		return -1;
	}
	memcpy(t->rcpu, c, sizeof c);
	shr = shr == 1 ? 1 : 0;   /* iperf3 sends its -1 ("receiver") as 2^64 - 1 */
	if (t->mode == IP_RECEIVER) {
		t->sender_has_retransmits = (int)shr;
		t->other_side_has_retransmits = 0;
	} else if (t->mode == IP_BIDIR) {
		t->other_side_has_retransmits = (int)shr;
	}
	snprintf(t->remote_cong, sizeof t->remote_cong, "%s", json_get_str(r, "congestion_used", ""));
	for (const struct json *o = arr->child; o; o = o->next) {
		double id, bytes, rt, jit, errs, pk, st = 0, et = 0;
		struct ipstream *s = NULL;
		if (!num_ok(o, "id", 0, 1e6, &id) || !num_ok(o, "bytes", 0, 1e18, &bytes) ||
		    !num_ok(o, "retransmits", -1, 1e20, &rt) || !num_ok(o, "jitter", 0, 1e6, &jit) ||
		    !num_ok(o, "errors", -1e15, 1e15, &errs) || !num_ok(o, "packets", 0, 1e15, &pk)) {
			snprintf(err, n, "a stream in the peer's results lacks id, bytes, retransmits, jitter, "
				 "errors or packets, or has one out of range");
			return -1;
		}
		for (int i = 0; i < t->nst; i++)
			if (t->st[i].id == (int)id)
				s = &t->st[i];
		if (!s) {
			snprintf(err, n, "the peer's results name stream %.0f, which this test does not have", id);
			return -1;
		}
		if (rt > 1e15)
			rt = -1;   /* iperf3's -1, sent as 2^64 - 1 */
		num_ok(o, "start_time", -1e9, 1e9, &st);
		num_ok(o, "end_time", -1e9, 1e9, &et);
		s->peer_bytes = (unsigned long long)bytes;
		s->peer_pkts = (long long)pk;
		s->peer_time = et - st > 0 ? et - st : 0;
		s->have_peer = 1;
		if (s->sender) {
			s->peer_jitter = jit;
			s->peer_err = (long long)errs;
		} else {
			s->peer_retrans = (long long)rt;
		}
	}
	if (t->role == 'c' && t->get_server_output && json_get_str(r, "server_output_text", NULL)) {
		free(t->server_output);
		t->server_output = strdup(json_get_str(r, "server_output_text", ""));
	}
	return 0;
}

/* ---- start ---- */

void ip_json_start(const struct iptest *t, struct json *start, const char *host, int port)
{
	struct json *conn = json_add_arr(start, "connected"), *o;
	struct utsname u;
	char sys[400], when[64];
	time_t now = time(NULL);
	int mss = 0, snd = 0, rcv = 0;
	socklen_t l = sizeof mss;
	for (int i = 0; i < t->nst; i++) {
		struct sockaddr_storage la, ra;
		socklen_t ll = sizeof la, rl = sizeof ra;
		char ls[80], rs[80];
		o = json_push(conn, json_obj());
		getsockname(t->st[i].fd, (struct sockaddr *)&la, &ll);
		getpeername(t->st[i].fd, (struct sockaddr *)&ra, &rl);
		net_addr_str(&la, ls, sizeof ls);
		net_addr_str(&ra, rs, sizeof rs);
		json_add_int(o, "socket", t->st[i].fd);
		/* "1.2.3.4:5201" / "[::1]:5201" into host and port */
		for (int k = 0; k < 2; k++) {
			char *a = k ? rs : ls, *c = strrchr(a, ':');
			char h[80];
			snprintf(h, sizeof h, "%.*s", c ? (int)(c - a) : (int)strlen(a), a);
			if (h[0] == '[') {
				memmove(h, h + 1, strlen(h));
				h[strcspn(h, "]")] = 0;
			}
			json_add_str(o, k ? "remote_host" : "local_host", h);
			json_add_int(o, k ? "remote_port" : "local_port", c ? atoi(c + 1) : 0);
		}
	}
	json_add_str(start, "version", "assay " ASSAY_VERSION " (iperf 3.12 protocol)");
	uname(&u);
	snprintf(sys, sizeof sys, "%s %s %s %s %s", u.sysname, u.nodename, u.release, u.version, u.machine);
	json_add_str(start, "system_info", sys);
	strftime(when, sizeof when, "%a, %d %b %Y %H:%M:%S GMT", gmtime(&now));
	o = json_add_obj(start, "timestamp");
	json_add_str(o, "time", when);
	json_add_int(o, "timesecs", (long long)now);
	o = json_add_obj(start, "connecting_to");
	json_add_str(o, "host", host);
	json_add_int(o, "port", port);
	json_add_str(start, "cookie", t->cookie);
	if (!t->udp) {
		if (t->mss)
			json_add_int(start, "tcp_mss", t->mss);
		else if (t->nst && !getsockopt(t->st[0].fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &l))
			json_add_int(start, "tcp_mss_default", mss);
	}
	json_add_int(start, "target_bitrate", (long long)t->rate);
	json_add_int(start, "sock_bufsize", t->window);
	l = sizeof snd;
	if (t->nst) {
		getsockopt(t->st[0].fd, SOL_SOCKET, SO_SNDBUF, &snd, &l);
		l = sizeof rcv;
		getsockopt(t->st[0].fd, SOL_SOCKET, SO_RCVBUF, &rcv, &l);
	}
	json_add_int(start, "sndbuf_actual", snd);
	json_add_int(start, "rcvbuf_actual", rcv);
	o = json_add_obj(start, "test_start");
	json_add_str(o, "protocol", t->udp ? "UDP" : "TCP");
	json_add_int(o, "num_streams", t->nstreams);
	json_add_int(o, "blksize", (long long)t->len);
	json_add_int(o, "omit", (long long)t->omit);
	json_add_int(o, "duration", (long long)t->duration);
	json_add_int(o, "bytes", 0);
	json_add_int(o, "blocks", 0);
	json_add_int(o, "reverse", t->mode == IP_RECEIVER);
	json_add_int(o, "tos", 0);
	json_add_int(o, "target_bitrate", (long long)t->rate);
}

/* ---- intervals ---- */

/* the modes to report in turn, as iperf3: a bidirectional client its sending streams
 * first, a bidirectional server its receiving ones */
static int modes(const struct iptest *t, int must[2])
{
	if (t->mode != IP_BIDIR) {
		must[0] = t->mode;
		return 1;
	}
	must[0] = t->role == 'c';
	must[1] = !must[0];
	return 2;
}

static const char *sum_name(const struct iptest *t, int must, const char *plain, const char *rev)
{
	return t->mode == IP_BIDIR && ((t->role == 'c' && !must) || (t->role != 'c' && must)) ? rev : plain;
}

static void span(struct json *o, double start, double end, double secs, unsigned long long bytes)
{
	json_add_num(o, "start", start);
	json_add_num(o, "end", end);
	json_add_num(o, "seconds", secs);
	json_add_int(o, "bytes", (long long)bytes);
	json_add_num(o, "bits_per_second", secs > 0 ? 8.0 * (double)bytes / secs : 0);
}

static void interval_stream(const struct iptest *t, const struct ipstream *s, const struct ipiv *v, struct json *arr)
{
	struct json *o = json_push(arr, json_obj());
	json_add_int(o, "socket", s->fd);
	span(o, v->start, v->end, v->end - v->start, v->bytes);
	if (!t->udp && t->sender_has_retransmits == 1 && s->sender) {
		json_add_int(o, "retransmits", v->retrans);
		json_add_int(o, "snd_cwnd", v->cwnd);
		json_add_int(o, "snd_wnd", v->wnd);
		json_add_int(o, "rtt", v->rtt);
		json_add_int(o, "rttvar", v->rttvar);
		json_add_int(o, "pmtu", v->pmtu);
	} else if (t->udp && s->sender) {
		json_add_int(o, "packets", v->pkts);
	} else if (t->udp) {
		json_add_num(o, "jitter_ms", v->jitter * 1000);
		json_add_int(o, "lost_packets", v->err);
		json_add_int(o, "packets", v->pkts);
		json_add_num(o, "lost_percent", v->pkts > 0 ? 100.0 * (double)v->err / (double)v->pkts : 0);
	}
	json_add_bool(o, "omitted", v->omitted);
	json_add_bool(o, "sender", s->sender);
}

void ip_json_interval(const struct iptest *t, int k, struct json *e)
{
	struct json *streams = json_add_arr(e, "streams");
	int must[2], nm = modes(t, must);
	const struct ipiv *first = &t->st[0].iv[k];
	for (int m = 0; m < nm; m++) {
		unsigned long long bytes = 0;
		long long retrans = 0, pkts = 0, lost = 0;
		double jitter = 0, d = first->end - first->start;
		struct json *o;
		for (int i = 0; i < t->nst; i++) {
			const struct ipstream *s = &t->st[i];
			if (s->sender != must[m])
				continue;
			interval_stream(t, s, &s->iv[k], streams);
			bytes += s->iv[k].bytes;
			retrans += s->iv[k].retrans;
			pkts += s->iv[k].pkts;
			lost += s->iv[k].err;
			jitter += s->iv[k].jitter;
		}
		o = json_add_obj(e, sum_name(t, must[m], "sum", "sum_bidir_reverse"));
		span(o, first->start, first->end, d, bytes);
		if (!t->udp && t->sender_has_retransmits == 1 && must[m]) {
			json_add_int(o, "retransmits", retrans);
		} else if (t->udp && must[m]) {
			json_add_int(o, "packets", pkts);
		} else if (t->udp) {
			jitter /= t->nstreams;
			json_add_num(o, "jitter_ms", jitter * 1000);
			json_add_int(o, "lost_packets", lost);
			json_add_int(o, "packets", pkts);
			json_add_num(o, "lost_percent", pkts > 0 ? 100.0 * (double)lost / (double)pkts : 0);
		}
		json_add_bool(o, "omitted", first->omitted);
		json_add_bool(o, "sender", must[m]);
	}
}

void ip_json_intervals(const struct iptest *t, struct json *intervals)
{
	for (int k = 0; t->nst && k < t->st[0].niv; k++)
		ip_json_interval(t, k, json_push(intervals, json_obj()));
}

/* ---- end ---- */

/* a stream's figures as iperf3's summary sees them */
struct sview {
	unsigned long long sent, received;
	long long snd_pkts, rcv_pkts, err, omit_err, ooo, retrans;
	double jitter;
};

static void view(const struct ipstream *s, struct sview *v)
{
	long long own = ip_pkts(s);
	v->sent = s->sender ? own_bytes(s) : s->peer_bytes;
	v->received = s->sender ? s->peer_bytes : own_bytes(s);
	v->snd_pkts = (s->sender ? own : s->peer_pkts) - s->omit_pkts;
	v->rcv_pkts = (s->sender ? s->peer_pkts : own) - s->omit_pkts;
	v->err = (s->sender ? s->peer_err : s->cnt_error) - (s->sender ? 0 : s->omit_err);
	v->ooo = s->ooo - s->omit_ooo;
	v->retrans = s->sender ? s->retrans : s->peer_retrans;
	v->jitter = s->sender ? s->peer_jitter : s->jitter;
}

static void udp_obj(struct json *o, double start, double end, unsigned long long bytes, double bps, double jitter,
		    long long lost, long long pkts, double pct)
{
	json_add_num(o, "start", start);
	json_add_num(o, "end", end);
	json_add_num(o, "seconds", end);
	json_add_int(o, "bytes", (long long)bytes);
	json_add_num(o, "bits_per_second", bps);
	json_add_num(o, "jitter_ms", jitter * 1000);
	json_add_int(o, "lost_packets", lost);
	json_add_int(o, "packets", pkts);
	json_add_num(o, "lost_percent", pct);
}

static double rate(unsigned long long bytes, double secs)
{
	return secs > 0 ? 8.0 * (double)bytes / secs : 0;
}

static void end_mode(const struct iptest *t, int must, double snd_t, double rcv_t, double end_t, struct json *streams,
		     struct json *end)
{
	int shr = t->mode == IP_BIDIR && !must ? t->other_side_has_retransmits : t->sender_has_retransmits;
	unsigned long long tsent = 0, trecv = 0;
	long long tret = 0, tpk = 0, spk = 0, rpk = 0, lost = 0;
	double jit = 0;
	struct json *o;
	for (int i = 0; i < t->nst; i++) {
		const struct ipstream *s = &t->st[i];
		struct sview v;
		struct json *e;
		if (s->sender != must)
			continue;
		view(s, &v);
		e = json_push(streams, json_obj());
		tsent += v.sent;
		trecv += v.received;
		if (!t->udp) {
			if (shr)
				tret += v.retrans;
			o = json_add_obj(e, "sender");
			json_add_int(o, "socket", s->fd);
			span(o, 0, snd_t, snd_t, v.sent);
			if (shr) {
				json_add_int(o, "retransmits", v.retrans);
				json_add_int(o, "max_snd_cwnd", s->max_cwnd);
				json_add_int(o, "max_snd_wnd", s->max_wnd);
				json_add_int(o, "max_rtt", s->max_rtt);
				json_add_int(o, "min_rtt", s->min_rtt);
				json_add_int(o, "mean_rtt", s->count_rtt ? s->sum_rtt / s->count_rtt : 0);
			}
			json_add_bool(o, "sender", must);
			o = json_add_obj(e, "receiver");
			json_add_int(o, "socket", s->fd);
			json_add_num(o, "start", 0);
			json_add_num(o, "end", rcv_t);
			json_add_num(o, "seconds", end_t);
			json_add_int(o, "bytes", (long long)v.received);
			json_add_num(o, "bits_per_second", rate(v.received, rcv_t));
			json_add_bool(o, "sender", must);
		} else {
			long long pc = v.snd_pkts + s->omit_pkts ? v.snd_pkts : v.rcv_pkts;
			tpk += pc;
			spk += v.snd_pkts;
			rpk += v.rcv_pkts;
			lost += v.err;
			jit += v.jitter;
			o = json_add_obj(e, "udp");
			json_add_int(o, "socket", s->fd);
			udp_obj(o, 0, snd_t, v.sent, rate(v.sent, snd_t), v.jitter, v.err, pc,
				v.snd_pkts > 0 ? 100.0 * (double)v.err / (double)v.snd_pkts : 0);
			json_add_int(o, "out_of_order", v.ooo);
			json_add_bool(o, "sender", must);
			/* assay's: the receiver's side of the stream, for its text line */
			json_add_int(o, "received_bytes", (long long)v.received);
			json_add_int(o, "received_packets", v.rcv_pkts);
		}
	}
	if (!t->udp) {
		o = json_add_obj(end, sum_name(t, must, "sum_sent", "sum_sent_bidir_reverse"));
		span(o, 0, snd_t, snd_t, tsent);
		if (shr)
			json_add_int(o, "retransmits", tret);
		json_add_bool(o, "sender", must);
		o = json_add_obj(end, sum_name(t, must, "sum_received", "sum_received_bidir_reverse"));
		span(o, 0, rcv_t, rcv_t, trecv);
		json_add_bool(o, "sender", must);
		return;
	}
	jit /= t->nstreams;
	o = json_add_obj(end, sum_name(t, must, "sum", "sum_bidir_reverse"));
	udp_obj(o, 0, rcv_t, tsent, rate(tsent, snd_t), jit, lost, tpk, tpk > 0 ? 100.0 * (double)lost / (double)tpk : 0);
	json_add_bool(o, "sender", must);
	o = json_add_obj(end, sum_name(t, must, "sum_sent", "sum_sent_bidir_reverse"));
	udp_obj(o, 0, snd_t, tsent, rate(tsent, snd_t), 0, 0, spk, 0);
	json_add_bool(o, "sender", 1);
	o = json_add_obj(end, sum_name(t, must, "sum_received", "sum_received_bidir_reverse"));
	udp_obj(o, 0, rcv_t, trecv, rate(trecv, rcv_t), jit, lost, rpk, tpk > 0 ? 100.0 * (double)lost / (double)tpk : 0);
	json_add_bool(o, "sender", 0);
}

void ip_json_end(const struct iptest *t, struct json *end)
{
	struct json *streams = json_add_arr(end, "streams"), *o;
	int must[2], nm = modes(t, must);
	const struct ipstream *f = t->nst ? &t->st[0] : NULL;
	double end_t = f ? f->end - f->start : 0, snd_t, rcv_t;
	/* the sender's and receiver's times, both from the first stream */
	if (f && f->sender) {
		snd_t = end_t;
		rcv_t = f->have_peer && f->peer_time > 0 ? f->peer_time : snd_t;
	} else {
		rcv_t = end_t;
		snd_t = f && f->have_peer && f->peer_time > 0 ? f->peer_time : rcv_t;
	}
	for (int m = 0; m < nm; m++)
		end_mode(t, must[m], snd_t, rcv_t, end_t, streams, end);
	o = json_add_obj(end, "cpu_utilization_percent");
	json_add_num(o, "host_total", t->cpu[0]);
	json_add_num(o, "host_user", t->cpu[1]);
	json_add_num(o, "host_system", t->cpu[2]);
	json_add_num(o, "remote_total", t->rcpu[0]);
	json_add_num(o, "remote_user", t->rcpu[1]);
	json_add_num(o, "remote_system", t->rcpu[2]);
	if (!t->udp) {
		int last = must[nm - 1];
		const char *snd = last ? t->cong_used : t->remote_cong, *rcv = last ? t->remote_cong : t->cong_used;
		if (snd[0])
			json_add_str(end, "sender_tcp_congestion", snd);
		if (rcv[0])
			json_add_str(end, "receiver_tcp_congestion", rcv);
	}
}
