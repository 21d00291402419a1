/* DNS messages on the wire: building queries, checking replies (RFC 1035). */
#ifndef ASSAY_DNSWIRE_H
#define ASSAY_DNSWIRE_H

#include <stddef.h>
#include <stdint.h>

#define DNS_MAX_QUERY 512

struct dns_reply {
	uint16_t id;
	int rcode;
	int truncated;
	unsigned qdcount, ancount;
};

/* A query with the RD flag: name ("www.example.com"), type ("A", "AAAA", "MX", ...,
 * "TYPE65"); 0, or -1 naming what is wrong. */
int dns_build_query(const char *name, const char *type, uint16_t id, unsigned char *buf, size_t *len,
		    char *err, size_t n);
/* A reply: at least a header with QR set and one well-formed question; 0 or -1. */
int dns_parse_reply(const unsigned char *buf, size_t len, struct dns_reply *out);
/* Does the reply carry the query's question (names compared case-insensitively)? */
int dns_same_question(const unsigned char *q, size_t qlen, const unsigned char *r, size_t rlen);
const char *dns_rcode_name(int rcode);

#endif
