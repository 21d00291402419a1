/* --push=URL[,URL...]: the results sent to the collectors a team already runs.  A URL whose
 * path begins /metrics/job/ is a Prometheus Pushgateway: the figures as Prometheus text are
 * PUT under it, grouped by the machine (/instance/<machine id> added unless the URL names
 * an instance), so a run replaces its machine's previous group.  Any other http:// URL gets
 * the result document POSTed as JSON.  Bounded retries with backoff (the network may come
 * up late); each failure is one line; the results are on the console and the partition
 * whatever the push does.  (https:// needs TLS, not in the image yet: said, not tried.) */
#include "report.h"
#include "figures.h"

#include "clock.h"
#include "json.h"
#include "msg.h"
#include "net/netio.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PUSH_TRIES 5
#define PUSH_TIMEOUT 10.0    /* seconds for one attempt, connect to response */

struct url {
	char host[256], path[1024];
	int port;
};

static int url_parse(const char *u, struct url *out, char *err, size_t n)
{
	char why[64];
	if (!strncmp(u, "https://", 8)) {
		snprintf(err, n, "%s: https is not supported yet (no TLS library in the image): use http:// on a trusted "
			 "network", u);
		return -1;
	}
	if (net_parse_http_url(u, out->host, sizeof out->host, &out->port, out->path, sizeof out->path, why,
			       sizeof why)) {
		snprintf(err, n, "%s: %s", u, why);
		return -1;
	}
	return 0;
}

/* one request; the HTTP status, or -1 with the reason in err (a network failure) */
static int request(const struct url *u, const char *method, const char *ctype, const char *body, size_t len,
		   char *err, size_t n)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char head[2048], resp[1024];
	size_t got = 0;
	double deadline = now_s() + PUSH_TIMEOUT;
	int fd, status = -1;
	if (net_resolve(u->host, u->port, AF_UNSPEC, SOCK_STREAM, &ss, &sl, err, n))
		return -1;
	if ((fd = net_connect(&ss, sl, 5, err, n)) < 0)
		return -1;
	snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: assay/%s\r\nContent-Type: %s\r\n"
		 "Content-Length: %zu\r\nConnection: close\r\n\r\n", method, u->path, u->host, u->port, ASSAY_VERSION,
		 ctype, len);
	if (net_write_full(fd, head, strlen(head), deadline) || net_write_full(fd, body, len, deadline)) {
		snprintf(err, n, "sending: %s", strerror(errno));
		close(fd);
		return -1;
	}
	while (got < sizeof resp - 1) {
		struct pollfd pf = { fd, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t r;
		if (left <= 0) {
			snprintf(err, n, "no answer in %.0f s", PUSH_TIMEOUT);
			close(fd);
			return -1;
		}
		if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		r = recv(fd, resp + got, sizeof resp - 1 - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		resp[got] = 0;
		if (strstr(resp, "\r\n\r\n"))
			break;
	}
	close(fd);
	resp[got] = 0;
	if (sscanf(resp, "HTTP/%*d.%*d %d", &status) != 1) {
		snprintf(err, n, got ? "not an HTTP answer" : "the connection closed without an answer");
		return -1;
	}
	/* the reason a refusal gives: the status line, and the body's first line */
	{
		const char *body_start = strstr(resp, "\r\n\r\n");
		snprintf(err, n, "HTTP %d%s%.*s", status, body_start && body_start[4] ? ": " : "",
			 body_start ? (int)strcspn(body_start + 4, "\r\n") : 0, body_start ? body_start + 4 : "");
	}
	return status;
}

/* one URL: its entry for doc.push; 0 pushed, -1 not */
static int push_one(const char *url, const struct json *doc, const char *prom, size_t plen, const char *js,
		    size_t jlen, struct json *entry)
{
	struct url u;
	char err[600] = "";
	int gateway, status = -1, tries = 0;
	double wait = 1;
	json_add_str(entry, "url", url);
	if (url_parse(url, &u, err, sizeof err)) {
		warn("push: %s", err);
		json_add_str(entry, "error", err);
		return -1;
	}
	gateway = !strncmp(u.path, "/metrics/job/", 13);
	if (gateway && !strstr(u.path, "/instance/"))
		snprintf(u.path + strlen(u.path), sizeof u.path - strlen(u.path), "%s/instance/%s",
			 u.path[strlen(u.path) - 1] == '/' ? "" : "", json_get_str(json_get(doc, "machine"), "id", "unknown"));
	json_add_str(entry, "kind", gateway ? "pushgateway" : "json");
	for (tries = 1; tries <= PUSH_TRIES; tries++) {
		status = gateway ? request(&u, "PUT", "text/plain; version=0.0.4", prom, plen, err, sizeof err)
				 : request(&u, "POST", "application/json", js, jlen, err, sizeof err);
		if (status >= 200 && status < 300)
			break;
		/* a refusal (4xx) will not change on its own; a failure or a 5xx may */
		if (status >= 400 && status < 500) {
			warn("push: %s: refused: %s", url, err);
			break;
		}
		if (tries < PUSH_TRIES) {
			warn("push: %s: attempt %d of %d: %s; again in %.0f s", url, tries, PUSH_TRIES, err, wait);
			usleep((useconds_t)(wait * 1e6));
			wait *= 2;
		} else {
			warn("push: %s: giving up after %d attempts: %s (the results are on the console and in the "
			     "result files)", url, PUSH_TRIES, err);
		}
	}
	json_add_int(entry, "attempts", tries > PUSH_TRIES ? PUSH_TRIES : tries);
	if (status > 0)
		json_add_int(entry, "status", status);
	if (status >= 200 && status < 300) {
		info("push: %s: %s%s", url, err, gateway ? " (the gateway keeps it until the next push of this "
			"machine or a DELETE)" : "");
		return 0;
	}
	json_add_str(entry, "error", err);
	return -1;
}

int report_push(const char *urls, struct json *doc)
{
	char *prom = NULL, *js, *list = strdup(urls), *save = NULL;
	size_t plen = 0, jlen = 0;
	struct json *arr = json_arr();
	FILE *m = open_memstream(&prom, &plen);
	int failed = 0;
	if (!m || !list)
		die(EXIT_SYS, "push: out of memory");
	report_openmetrics(doc, m);
	fclose(m);
	js = json_to_string(doc, 2, &jlen);
	for (char *u = strtok_r(list, ",", &save); u; u = strtok_r(NULL, ",", &save))
		failed += push_one(u, doc, prom, plen, js, jlen, json_push(arr, json_obj())) != 0;
	json_add(doc, "push", arr);
	free(prom);
	free(js);
	free(list);
	return failed;
}
