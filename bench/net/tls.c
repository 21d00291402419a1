/* TLS client connections with BearSSL (built for musl by mk/bearssl.sh): the CA bundle's
 * certificates become trust anchors and BearSSL's minimal X.509 engine checks the chain,
 * the dates and the host name; a pinned fingerprint replaces that with one check of the
 * server's own certificate; insecure checks nothing (asked for by name only). */
#include "net/tls.h"

#include "clock.h"

#include <bearssl.h>

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct buf {
	unsigned char *p;
	size_t len, cap;
	int oom;
};

static void buf_add(void *ctx, const void *src, size_t len)
{
	struct buf *b = ctx;
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2 + 256;
		unsigned char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, src, len);
	b->len += len;
}

static void discard(void *ctx, const void *src, size_t len)
{
	(void)ctx, (void)src, (void)len;
}

static unsigned char *dup_bytes(const unsigned char *p, size_t n)
{
	unsigned char *d = malloc(n ? n : 1);
	if (d)
		memcpy(d, p, n);
	return d;
}

struct anchors {
	br_x509_trust_anchor *ta;
	size_t n, bad;
};

static void anchors_free(struct anchors *a)
{
	for (size_t i = 0; i < a->n; i++) {
		br_x509_pkey *k = &a->ta[i].pkey;
		free(a->ta[i].dn.data);
		if (k->key_type == BR_KEYTYPE_RSA) {
			free(k->key.rsa.n);
			free(k->key.rsa.e);
		} else {
			free(k->key.ec.q);
		}
	}
	free(a->ta);
	memset(a, 0, sizeof *a);
}

/* one DER certificate as a trust anchor (a CA, or a server's own certificate) */
static void anchor_add(struct anchors *a, const unsigned char *der, size_t len)
{
	br_x509_decoder_context dc;
	struct buf dn = { 0 };
	const br_x509_pkey *pk;
	br_x509_trust_anchor *ta, *grown;
	br_x509_decoder_init(&dc, buf_add, &dn);
	br_x509_decoder_push(&dc, der, len);
	pk = br_x509_decoder_get_pkey(&dc);
	if (!pk || dn.oom || !(grown = realloc(a->ta, (a->n + 1) * sizeof *a->ta))) {
		free(dn.p);
		a->bad++;
		return;
	}
	a->ta = grown;
	ta = &a->ta[a->n];
	memset(ta, 0, sizeof *ta);
	ta->dn.data = dn.p;
	ta->dn.len = dn.len;
	ta->flags = br_x509_decoder_isCA(&dc) ? BR_X509_TA_CA : 0;
	ta->pkey = *pk;
	if (pk->key_type == BR_KEYTYPE_RSA) {
		ta->pkey.key.rsa.n = dup_bytes(pk->key.rsa.n, pk->key.rsa.nlen);
		ta->pkey.key.rsa.e = dup_bytes(pk->key.rsa.e, pk->key.rsa.elen);
	} else {
		ta->pkey.key.ec.q = dup_bytes(pk->key.ec.q, pk->key.ec.qlen);
	}
	a->n++;
}

static int anchors_load(const char *pem, size_t len, struct anchors *a, char *why, size_t n)
{
	br_pem_decoder_context pc;
	struct buf der = { 0 };
	int cert = 0, inside = 0;
	size_t off = 0;
	memset(a, 0, sizeof *a);
	br_pem_decoder_init(&pc);
	/* a trailing newline so the last line ends even when the file's does not */
	while (off <= len) {
		const char *src = off < len ? pem + off : "\n";
		size_t k = br_pem_decoder_push(&pc, src, off < len ? len - off : 1);
		off += off < len ? k : 1;
		switch (br_pem_decoder_event(&pc)) {
		case BR_PEM_BEGIN_OBJ:
			cert = !strcmp(br_pem_decoder_name(&pc), "CERTIFICATE") ||
			       !strcmp(br_pem_decoder_name(&pc), "X509 CERTIFICATE");
			inside = 1;
			der.len = 0;
			br_pem_decoder_setdest(&pc, cert ? buf_add : discard, &der);
			break;
		case BR_PEM_END_OBJ:
			if (cert && !der.oom)
				anchor_add(a, der.p, der.len);
			inside = cert = 0;
			break;
		case BR_PEM_ERROR:
			snprintf(why, n, "not PEM (a broken BEGIN/END block)");
			free(der.p);
			anchors_free(a);
			return -1;
		}
	}
	free(der.p);
	if (!a->n) {
		snprintf(why, n, "%s", inside ? "a certificate without its END line"
				       : a->bad ? "no certificate in it could be read" : "no PEM certificate in it");
		anchors_free(a);
		return -1;
	}
	return 0;
}

int tls_check_ca(const char *pem, size_t len, char *why, size_t n)
{
	struct anchors a;
	size_t count;
	if (anchors_load(pem, len, &a, why, n))
		return -1;
	count = a.n;
	anchors_free(&a);
	return (int)count;
}

int tls_parse_pin(const char *s, unsigned char pin[32], char *why, size_t n)
{
	size_t got = 0;
	if (!strncmp(s, "sha256:", 7))
		s += 7;
	else if (!strncmp(s, "sha256//", 8))
		s += 8;
	for (const char *p = s; *p; p++) {
		int hi, lo;
		if (*p == ':')
			continue;
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) || got == 32) {
			snprintf(why, n, "not a SHA-256 fingerprint (sha256:64 hex digits, colons allowed)");
			return -1;
		}
		hi = isdigit((unsigned char)p[0]) ? p[0] - '0' : tolower((unsigned char)p[0]) - 'a' + 10;
		lo = isdigit((unsigned char)p[1]) ? p[1] - '0' : tolower((unsigned char)p[1]) - 'a' + 10;
		pin[got++] = (unsigned char)(hi << 4 | lo);
		p++;
	}
	if (got != 32) {
		snprintf(why, n, "not a SHA-256 fingerprint (sha256:64 hex digits, colons allowed)");
		return -1;
	}
	return 0;
}

/* the X.509 engine of pinned and insecure connections: the server's own certificate is
 * hashed (and its key read); the chain above it is not looked at */
struct xwrap {
	const br_x509_class *vtable;
	const struct tls_cfg *cfg;
	br_sha256_context sha;
	br_x509_decoder_context dec;
	int idx;
	unsigned char seen[32];
};

static void xw_start_chain(const br_x509_class **ctx, const char *server_name)
{
	struct xwrap *x = (struct xwrap *)ctx;
	(void)server_name;
	x->idx = 0;
}

static void xw_start_cert(const br_x509_class **ctx, uint32_t length)
{
	struct xwrap *x = (struct xwrap *)ctx;
	(void)length;
	if (x->idx == 0) {
		br_sha256_init(&x->sha);
		br_x509_decoder_init(&x->dec, discard, NULL);
	}
}

static void xw_append(const br_x509_class **ctx, const unsigned char *buf, size_t len)
{
	struct xwrap *x = (struct xwrap *)ctx;
	if (x->idx == 0) {
		br_sha256_update(&x->sha, buf, len);
		br_x509_decoder_push(&x->dec, buf, len);
	}
}

static void xw_end_cert(const br_x509_class **ctx)
{
	((struct xwrap *)ctx)->idx++;
}

static unsigned xw_end_chain(const br_x509_class **ctx)
{
	struct xwrap *x = (struct xwrap *)ctx;
	if (!x->idx || !br_x509_decoder_get_pkey(&x->dec))
		return BR_ERR_X509_NOT_TRUSTED;
	br_sha256_out(&x->sha, x->seen);
	if (x->cfg->has_pin && memcmp(x->seen, x->cfg->pin, 32))
		return BR_ERR_X509_NOT_TRUSTED;
	return 0;
}

static const br_x509_pkey *xw_get_pkey(const br_x509_class *const *ctx, unsigned *usages)
{
	struct xwrap *x = (struct xwrap *)(void *)ctx;
	if (usages)
		*usages = BR_KEYTYPE_KEYX | BR_KEYTYPE_SIGN;
	return br_x509_decoder_get_pkey(&x->dec);
}

static const br_x509_class xwrap_class = {
	sizeof(struct xwrap), xw_start_chain, xw_start_cert, xw_append, xw_end_cert, xw_end_chain, xw_get_pkey,
};

struct tls {
	br_ssl_client_context sc;
	br_x509_minimal_context xc;
	struct xwrap xw;
	br_sslio_context io;
	struct anchors a;
	int fd, timed_out;
	double deadline;
	unsigned char iobuf[BR_SSL_BUFSIZE_BIDI];
};

static int sock_wait(struct tls *t, short ev)
{
	for (;;) {
		struct pollfd p = { t->fd, ev, 0 };
		double left = t->deadline - now_s();
		int r;
		if (left <= 0) {
			t->timed_out = 1;
			return -1;
		}
		r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

static int sock_read(void *ctx, unsigned char *buf, size_t len)
{
	struct tls *t = ctx;
	for (;;) {
		ssize_t k;
		if (sock_wait(t, POLLIN))
			return -1;
		k = recv(t->fd, buf, len, 0);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		return k > 0 ? (int)k : -1;
	}
}

static int sock_write(void *ctx, const unsigned char *buf, size_t len)
{
	struct tls *t = ctx;
	for (;;) {
		ssize_t k;
		if (sock_wait(t, POLLOUT))
			return -1;
		k = send(t->fd, buf, len, MSG_NOSIGNAL);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		return k > 0 ? (int)k : -1;
	}
}

/* why the last operation failed, in words */
static void tls_why(struct tls *t, const char *host, char *why, size_t n)
{
	int e = br_ssl_engine_last_error(&t->sc.eng);
	const struct tls_cfg *c = t->xw.cfg;
	char fp[100] = "";
	for (int i = 0; i < 32 && c->has_pin; i++)
		snprintf(fp + 2 * i, sizeof fp - 2 * i, "%02x", t->xw.seen[i]);
	if (t->timed_out)
		snprintf(why, n, "TLS: no answer in time");
	else if (e == BR_ERR_X509_NOT_TRUSTED && c->has_pin)
		snprintf(why, n, "TLS: the server's certificate is not the pinned one (it is sha256:%s)", fp);
	else if (e == BR_ERR_X509_NOT_TRUSTED)
		snprintf(why, n, "TLS: the server's certificate is not signed by a CA of %s", c->ca_name ? c->ca_name : "the bundle");
	else if (e == BR_ERR_X509_BAD_SERVER_NAME)
		snprintf(why, n, "TLS: the server's certificate is not for the name %s", host);
	else if (e == BR_ERR_X509_EXPIRED)
		snprintf(why, n, "TLS: the server's certificate has expired or is not valid yet (is the clock right?)");
	else if (e >= BR_ERR_RECV_FATAL_ALERT && e < BR_ERR_SEND_FATAL_ALERT)
		snprintf(why, n, "TLS: the server ended the handshake (alert %d)", e - BR_ERR_RECV_FATAL_ALERT);
	else if (e >= BR_ERR_SEND_FATAL_ALERT)
		snprintf(why, n, "TLS: the handshake failed (alert %d sent)", e - BR_ERR_SEND_FATAL_ALERT);
	else if (e == BR_ERR_IO || e == 0)
		snprintf(why, n, "TLS: the connection closed during the handshake (not a TLS server?)");
	else
		snprintf(why, n, "TLS: BearSSL error %d", e);
}

struct tls *tls_open(int fd, const char *host, const struct tls_cfg *cfg, double deadline, char *why, size_t n)
{
	struct tls *t = calloc(1, sizeof *t);
	int own_check = cfg->has_pin || cfg->insecure;
	if (!t) {
		snprintf(why, n, "out of memory");
		return NULL;
	}
	t->fd = fd;
	t->deadline = deadline;
	t->xw.cfg = cfg;
	if (!own_check) {
		char w[160];
		if (!cfg->ca_pem || anchors_load(cfg->ca_pem, cfg->ca_len, &t->a, w, sizeof w)) {
			snprintf(why, n, "TLS: CA bundle %s: %s", cfg->ca_name ? cfg->ca_name : "(none)",
				 cfg->ca_pem ? w : "not given");
			free(t);
			return NULL;
		}
	}
	br_ssl_client_init_full(&t->sc, &t->xc, t->a.ta, t->a.n);
	if (own_check) {
		t->xw.vtable = &xwrap_class;
		br_ssl_engine_set_x509(&t->sc.eng, &t->xw.vtable);
	}
	br_ssl_engine_set_buffer(&t->sc.eng, t->iobuf, sizeof t->iobuf, 1);
	if (!br_ssl_client_reset(&t->sc, host, 0)) {
		tls_why(t, host, why, n);
		tls_close(t);
		return NULL;
	}
	br_sslio_init(&t->io, &t->sc.eng, sock_read, t, sock_write, t);
	if (br_sslio_flush(&t->io) < 0 || !(br_ssl_engine_current_state(&t->sc.eng) & BR_SSL_SENDAPP)) {
		tls_why(t, host, why, n);
		tls_close(t);
		return NULL;
	}
	return t;
}

int tls_write(struct tls *t, const void *buf, size_t len, char *why, size_t n)
{
	if (br_sslio_write_all(&t->io, buf, len) < 0 || br_sslio_flush(&t->io) < 0) {
		tls_why(t, "", why, n);
		return -1;
	}
	return 0;
}

ssize_t tls_read(struct tls *t, void *buf, size_t len)
{
	int r = br_sslio_read(&t->io, buf, len);
	if (r > 0)
		return r;
	return br_ssl_engine_last_error(&t->sc.eng) == BR_ERR_OK ? 0 : -1;
}

void tls_close(struct tls *t)
{
	if (!t)
		return;
	anchors_free(&t->a);
	free(t);
}
