/* The iperf3 control connection (iperf3 3.12's src/iperf_api.c): a 37-byte cookie, state
 * bytes, and JSON messages as a 4-byte big-endian length and the text.  Every wait has a
 * deadline; every message from the peer is checked. */
#include "iperf_int.h"
#include "clock.h"
#include "json.h"
#include "netio.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JSON_MAX (1 << 20)

const char *ip_state_name(int s)
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

void ip_make_cookie(char *c)
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

int ip_send_state(int fd, int s)
{
	signed char b = (signed char)s;
	return net_write_full(fd, &b, 1, now_s() + CTRL_SLACK);
}

int ip_read_state(int fd, double deadline, int *s)
{
	signed char b;
	if (net_read_full(fd, &b, 1, deadline))
		return -1;
	*s = b;
	return 0;
}

int ip_send_json(int fd, const struct json *j)
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

struct json *ip_read_json(int fd, double deadline, char *err, size_t n)
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

int ip_stream_id(int i)
{
	return i == 0 ? 1 : i + 2;
}

int ip_streams_alloc(struct iptest *t, char *err, size_t n)
{
	t->nst = t->nstreams * (t->mode == IP_BIDIR ? 2 : 1);
	t->st = calloc((size_t)t->nst, sizeof *t->st);
	if (!t->st) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (int i = 0; i < t->nst; i++) {
		t->st[i].fd = t->st[i].memfd = -1;
		pthread_mutex_init(&t->st[i].mu, NULL);
	}
	return 0;
}
