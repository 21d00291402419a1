/* TLS client connections (BearSSL) for https:// pushes: the server is verified against a
 * CA bundle (PEM), or its certificate against a pinned SHA-256 fingerprint; unverified
 * only when asked (insecure). */
#ifndef ASSAY_TLS_H
#define ASSAY_TLS_H

#include <stddef.h>
#include <sys/types.h>

struct tls_cfg {
	const char *ca_pem;     /* the CA bundle's text (PEM certificates), or NULL */
	size_t ca_len;
	const char *ca_name;    /* where it came from, for messages */
	unsigned char pin[32];  /* the server certificate's SHA-256, when has_pin */
	int has_pin;
	int insecure;           /* no verification at all */
};

/* "sha256:HEX" or "HEX" (64 hex digits, colons allowed as openssl prints them) into pin;
 * 0, or -1 with why */
int tls_parse_pin(const char *s, unsigned char pin[32], char *why, size_t n);
/* how many certificates a PEM bundle holds as trust anchors; -1 with why (none usable,
 * or broken PEM) */
int tls_check_ca(const char *pem, size_t len, char *why, size_t n);

struct tls;
/* the handshake on connected socket fd for host (its name checked against the
 * certificate unless pinned or insecure); NULL with why (fd is closed either way by
 * tls_close or by the caller when NULL) */
struct tls *tls_open(int fd, const char *host, const struct tls_cfg *cfg, double deadline, char *why, size_t n);
/* all of buf, flushed; 0 or -1 with why */
int tls_write(struct tls *t, const void *buf, size_t len, char *why, size_t n);
/* up to len bytes; 0 at the end of the stream, -1 on an error */
ssize_t tls_read(struct tls *t, void *buf, size_t len);
/* close_notify sent where it can be; frees t (not the socket) */
void tls_close(struct tls *t);

#endif
