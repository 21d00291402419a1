/* --push=URL[,URL...]: the results sent to the collectors a team already runs.  A URL whose
 * path begins /metrics/job/ is a Prometheus Pushgateway: the figures as Prometheus text are
 * PUT under it, grouped by the machine (/instance/<machine id> added unless the URL names
 * an instance), so a run replaces its machine's previous group.  Any other http:// URL gets
 * the result document POSTed as JSON.  Bounded retries with backoff (the network may come
 * up late); each failure is one line; the results are on the console and the partition
 * whatever the push does.  https:// goes through TLS (net/tls.c), the server verified
 * against --push-ca (a PEM bundle; on a host the system's by default) or its certificate
 * against --push-pin; unverified only with --push-insecure. */
#include "report.h"
#include "report.h"

#include "clock.h"
#include "json.h"
#include "msg.h"
#include "net/netio.h"
#include "net/tls.h"
#include "fileio.h"
#include "results.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PUSH_TRIES 5
static double push_timeout = 10;  /* seconds for one attempt, connect to response (--push-timeout) */

struct url {
	char host[256], path[1024];
	int port, tls;
};

static int url_parse(const char *u, struct url *out, char *err, size_t n)
{
	char why[64], plain[2048];
	const char *auth;
	out->tls = !strncmp(u, "https://", 8);
	snprintf(plain, sizeof plain, "http://%s", out->tls ? u + 8 : u);
	if (net_parse_http_url(out->tls ? plain : u, out->host, sizeof out->host, &out->port, out->path,
			       sizeof out->path, why, sizeof why)) {
		snprintf(err, n, "%s: %s", u, !strncmp(why, "only http://", 12) ? "only http:// and https:// URLs" : why);
		return -1;
	}
	auth = u + (out->tls ? 8 : 7);
	if (out->tls) {
		const char *after = auth[0] == '[' ? strchr(auth, ']') : auth;
		size_t l = after ? strcspn(after, "/") : 0;
		if (!after || !memchr(after, ':', l))
			out->port = 443;    /* no port given: https' own */
	}
	return 0;
}

/* --push-ca, --push-pin, --push-insecure made ready (the bundle read) once per run */
static int tls_ready(const struct push_opts *o, struct tls_cfg *c, char *err, size_t n)
{
	static const char sys_ca[] = "/etc/ssl/certs/ca-certificates.crt";
	const char *ca = o->ca;
	char why[200];
	memset(c, 0, sizeof *c);
	c->insecure = o->insecure;
	if (o->pin && tls_parse_pin(o->pin, c->pin, why, sizeof why)) {
		snprintf(err, n, "--push-pin=%s: %s", o->pin, why);
		return -1;
	}
	c->has_pin = o->pin != NULL;
	if (c->has_pin || c->insecure)
		return 0;
	if (!ca && getenv("ASSAY_IMAGE")) {
		snprintf(err, n, "https needs assay.push-ca=file:NAME (a PEM bundle on the ASSAY partition) or "
			 "assay.push-pin=sha256:HEX (the server certificate's fingerprint)");
		return -1;
	}
	if (!ca)
		ca = sys_ca;
	c->ca_name = ca;
	if (!strncmp(ca, "file:", 5) && getenv("ASSAY_IMAGE")) {
		c->ca_pem = results_read(ca + 5, 4 << 20, why, sizeof why);
		if (c->ca_pem)
			c->ca_len = strlen(c->ca_pem);
	} else {
		size_t len = 0;
		c->ca_pem = read_file(ca, 4 << 20, &len);
		c->ca_len = len;
		if (!c->ca_pem)
			snprintf(why, sizeof why, "%s", errno == EFBIG ? "larger than 4 MiB" : strerror(errno));
	}
	if (!c->ca_pem || tls_check_ca(c->ca_pem, c->ca_len, why, sizeof why) < 0) {
		snprintf(err, n, "--push-ca=%s: %s", ca, why);
		free((char *)c->ca_pem);
		c->ca_pem = NULL;
		return -1;
	}
	return 0;
}

/* one request; the HTTP status, or -1 with the reason in err (a network failure) */
static int request(const struct url *u, const struct tls_cfg *tc, const char *method, const char *ctype,
		   const char *body, size_t len, char *err, size_t n)
{
	struct tls *t = NULL;
	struct sockaddr_storage ss;
	socklen_t sl;
	char head[2048], resp[1024];
	size_t got = 0;
	double deadline = now_s() + push_timeout;
	int fd, status = -1;
	if (net_resolve(u->host, u->port, AF_UNSPEC, SOCK_STREAM, &ss, &sl, err, n))
		return -1;
	if ((fd = net_connect(&ss, sl, push_timeout < 5 ? push_timeout : 5, err, n)) < 0)
		return -1;
	if (u->tls && !(t = tls_open(fd, u->host, tc, deadline, err, n))) {
		close(fd);
		/* a certificate that does not verify will not on a retry */
		return strncmp(err, "TLS: the server's certificate", 29) ? -1 : -2;
	}
	snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: assay/%s\r\nContent-Type: %s\r\n"
		 "Content-Length: %zu\r\nConnection: close\r\n\r\n", method, u->path, u->host, u->port, ASSAY_VERSION,
		 ctype, len);
	if (t ? tls_write(t, head, strlen(head), err, n) || tls_write(t, body, len, err, n)
	      : net_write_full(fd, head, strlen(head), deadline) || net_write_full(fd, body, len, deadline)) {
		if (!t)
			snprintf(err, n, "sending: %s", strerror(errno));
		tls_close(t);
		close(fd);
		return -1;
	}
	while (got < sizeof resp - 1) {
		struct pollfd pf = { fd, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t r;
		if (left <= 0) {
			snprintf(err, n, "no answer in %.3g s", push_timeout);
			tls_close(t);
			close(fd);
			return -1;
		}
		if (!t && poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		r = t ? tls_read(t, resp + got, sizeof resp - 1 - got) : recv(fd, resp + got, sizeof resp - 1 - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		resp[got] = 0;
		if (strstr(resp, "\r\n\r\n"))
			break;
	}
	tls_close(t);
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
static int push_one(const char *url, const struct push_opts *o, const struct json *doc, const char *prom,
		    size_t plen, const char *js, size_t jlen, struct json *entry)
{
	struct url u;
	struct tls_cfg tc = { 0 };
	char err[600] = "";
	int gateway, status = -1, tries = 0;
	double wait = 1;
	json_add_str(entry, "url", url);
	if (url_parse(url, &u, err, sizeof err)) {
		warn("push: %s", err);
		json_add_str(entry, "error", err);
		return -1;
	}
	if (u.tls && tls_ready(o, &tc, err, sizeof err)) {
		warn("push: %s: %s", url, err);
		json_add_str(entry, "error", err);
		return -1;
	}
	if (u.tls && !tc.has_pin && !tc.insecure && (strchr(u.host, ':') || strspn(u.host, "0123456789.") == strlen(u.host))) {
		snprintf(err, sizeof err, "https to an IP address: a certificate is checked by host name here; use the "
			 "name, or --push-pin=sha256:HEX");
		warn("push: %s: %s", url, err);
		json_add_str(entry, "error", err);
		free((char *)tc.ca_pem);
		return -1;
	}
	if (u.tls && tc.insecure)
		warn("push: %s: --push-insecure: the server is not verified (anyone on the path can read and change "
		     "what is sent)", url);
	gateway = !strncmp(u.path, "/metrics/job/", 13);
	if (gateway && !strstr(u.path, "/instance/"))
		snprintf(u.path + strlen(u.path), sizeof u.path - strlen(u.path), "%s/instance/%s",
			 u.path[strlen(u.path) - 1] == '/' ? "" : "", json_get_str(json_get(doc, "machine"), "id", "unknown"));
	json_add_str(entry, "kind", gateway ? "pushgateway" : "json");
	for (tries = 1; tries <= PUSH_TRIES; tries++) {
		status = gateway ? request(&u, &tc, "PUT", "text/plain; version=0.0.4", prom, plen, err, sizeof err)
				 : request(&u, &tc, "POST", "application/json", js, jlen, err, sizeof err);
		if (status >= 200 && status < 300)
			break;
		/* a refusal (4xx, a certificate) will not change on its own; a failure or a 5xx may */
		if ((status >= 400 && status < 500) || status == -2) {
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
	free((char *)tc.ca_pem);
	json_add_int(entry, "attempts", tries > PUSH_TRIES ? PUSH_TRIES : tries);
	if (u.tls)
		json_add_str(entry, "tls", tc.insecure ? "unverified" : tc.has_pin ? "pinned" : "ca");
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

int report_push_check(const char *urls, char *err, size_t n)
{
	char *list = strdup(urls), *save = NULL;
	struct url u;
	int r = 0;
	if (!list)
		die(EXIT_SYS, "push: out of memory");
	for (char *w = strtok_r(list, ",", &save); w && !r; w = strtok_r(NULL, ",", &save))
		r = url_parse(w, &u, err, n);
	if (!r && !*urls && snprintf(err, n, "no URL") > 0)
		r = -1;
	free(list);
	return r;
}

int report_push(const char *urls, const struct push_opts *o, struct json *doc)
{
	char *prom = NULL, *js, *list = strdup(urls), *save = NULL;
	size_t plen = 0, jlen = 0;
	struct json *arr = json_arr();
	FILE *m = open_memstream(&prom, &plen);
	int failed = 0;
	if (o->timeout > 0)
		push_timeout = o->timeout;
	if (!m || !list)
		die(EXIT_SYS, "push: out of memory");
	report_openmetrics(doc, m);
	fclose(m);
	js = json_to_string(doc, 2, &jlen);
	for (char *u = strtok_r(list, ",", &save); u; u = strtok_r(NULL, ",", &save))
		failed += push_one(u, o, doc, prom, plen, js, jlen, json_push(arr, json_obj())) != 0;
	json_add(doc, "push", arr);
	free(prom);
	free(js);
	free(list);
	return failed;
}
