/* Inside the iperf3 protocol (iperf_proto.c, iperf_stream.c, iperf_json.c, iperf_text.c,
 * iperf.c, iperf_serve.c): a test, its streams and their interval records, kept as
 * iperf3 3.12 keeps them so the reports come out in its shape. */
#ifndef ASSAY_IPERF_INT_H
#define ASSAY_IPERF_INT_H

#include "iperf.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>

enum {
	TEST_START = 1, TEST_RUNNING = 2, TEST_END = 4, PARAM_EXCHANGE = 9, CREATE_STREAMS = 10,
	SERVER_TERMINATE = 11, CLIENT_TERMINATE = 12, EXCHANGE_RESULTS = 13, DISPLAY_RESULTS = 14,
	IPERF_DONE = 16, ACCESS_DENIED = -1, SERVER_ERROR = -2,
};

/* iperf3's modes: what this side's streams do */
enum { IP_RECEIVER = 0, IP_SENDER = 1, IP_BIDIR = -1 };

#define COOKIE_SIZE 37
#define CTRL_SLACK 15.0          /* control replies may come this long after the test */
#define UDP_CONNECT_MSG 0x36373839u
#define UDP_CONNECT_REPLY 0x39383736u
#define UDP_CONNECT_REPLY_LEGACY 987654321u
#define UDP_RATE_DEFAULT (1024.0 * 1024.0)   /* iperf3's -u default: 1 Mbit/s */
#define UDP_LEN_DEFAULT 1460
#define UDP_LEN_MAX 65507

/* one interval of one stream, as iperf3's iperf_interval_results */
struct ipiv {
	double start, end;               /* seconds from the stream's start */
	unsigned long long bytes;
	long long retrans, cwnd, wnd, rtt, rttvar, pmtu;
	long long pkts, err, ooo;         /* UDP: this interval's */
	double jitter;                   /* seconds */
	int omitted;
};

struct ipstream {
	int fd, id, sender, udp;
	pthread_t tid;
	int running;
	char *buf;
	size_t len;
	double rate;                     /* bits/s for this stream, 0: as fast as it goes */
	int zerocopy, memfd, udp64;
	atomic_int *stop;
	int err;                         /* errno that ended the stream's thread */
	/* kept by the stream's thread */
	atomic_ullong bytes;             /* sent or received since the streams started */
	atomic_llong sent_pkts;          /* UDP sender: datagrams sent */
	double pace_t0;
	pthread_mutex_t mu;              /* UDP receiver: what follows */
	long long packet_count, cnt_error, ooo;
	double jitter, prev_transit;
	int have_transit;
	/* kept by the main thread */
	double start;                    /* when the counted part began (after the omit) */
	double end;                      /* the last sample */
	unsigned long long bytes_omit, bytes_last;
	long long omit_pkts, omit_err, omit_ooo, last_pkts, last_err, last_ooo;
	long long retrans, retrans_prev;
	long long max_cwnd, max_wnd, max_rtt, min_rtt, sum_rtt, count_rtt;
	struct ipiv *iv;
	int niv, cap;
	/* the peer's results for this stream */
	unsigned long long peer_bytes;
	long long peer_retrans, peer_pkts, peer_err;
	double peer_jitter, peer_time;
	int have_peer;
};

struct iptest {
	char role;                       /* 'c' client, 's' server */
	int mode;                        /* IP_SENDER, IP_RECEIVER, IP_BIDIR */
	int udp;
	int nstreams;                    /* per direction */
	struct ipstream *st;
	int nst;
	double duration, omit, interval;
	size_t len;
	double rate;
	long long window;
	int mss, zerocopy, udp64, get_server_output;
	char congestion[32], cong_used[32], remote_cong[32];
	int sender_has_retransmits, other_side_has_retransmits;
	double cpu[3], rcpu[3];          /* total, user, system % */
	char cookie[COOKIE_SIZE];
	atomic_int stop;
	int omitting;
	int deny_fd;                     /* server: its listener, where other clients hear "busy" */
	char *server_output;             /* the server's text, when asked for (malloc'd) */
	/* called after each interval's record is made (k: its index) */
	void (*on_interval)(struct iptest *t, int k, void *arg);
	void *on_interval_arg;
};

/* a stream's datagram count as iperf3's packet_count: sent, or the highest number received */
static inline long long ip_pkts(const struct ipstream *s)
{
	return s->sender ? (long long)s->sent_pkts : s->packet_count;
}

/* iperf_proto.c: the control connection */
const char *ip_state_name(int s);
void ip_make_cookie(char *c);
int ip_send_state(int fd, int s);
int ip_read_state(int fd, double deadline, int *s);
int ip_send_json(int fd, const struct json *j);
struct json *ip_read_json(int fd, double deadline, char *err, size_t n);
int ip_stream_id(int i);         /* 1, 3, 4, 5, ... as iperf3 numbers them */

/* iperf_stream.c: data streams */
/* socket options a data socket takes before it connects or as it is accepted (-w, -C, -M);
 * 0, or -1 with err */
int ip_sockopts(const struct iptest *t, int fd, int before_connect, char *err, size_t n);
/* the test's streams (nstreams, twice with --bidir), none open yet; 0 or -1 with err */
int ip_streams_alloc(struct iptest *t, char *err, size_t n);
/* a stream on fd, its buffer made; 0 or -1 (out of memory) */
int ip_stream_init(struct iptest *t, struct ipstream *s, int fd, int sender, int index);
void ip_stream_free(struct ipstream *s);
/* the client's end of a UDP stream: the datagram that announces it and the server's reply */
int ip_udp_hello(int fd, int reverse, size_t len, char *err, size_t n);
/* Run the test's streams: threads started, a sample every interval (and at the end), the
 * omit period dropped; until duration passes (client) or ctrl turns readable (server:
 * the client's TEST_END).  Returns 1 when ctrl ended it, 0 when the time did, -1 when
 * every stream failed. */
int ip_run(struct iptest *t, int ctrl, double *cpu_user, double *cpu_sys, double *secs);
/* the congestion control a socket uses ("unknown" when it cannot say) */
void ip_congestion(int fd, char *out, size_t n);

/* iperf_json.c: iperf3's JSON */
struct json *ip_results_msg(const struct iptest *t);
int ip_apply_results(struct iptest *t, const struct json *r, char *err, size_t n);
void ip_json_start(const struct iptest *t, struct json *start, const char *host, int port);
void ip_json_intervals(const struct iptest *t, struct json *intervals);
void ip_json_interval(const struct iptest *t, int k, struct json *e);
void ip_json_end(const struct iptest *t, struct json *end);

#endif
