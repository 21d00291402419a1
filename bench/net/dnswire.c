#include "dnswire.h"
#include "bytes.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct { const char *name; uint16_t type; } types[] = {
	{ "A", 1 }, { "NS", 2 }, { "CNAME", 5 }, { "SOA", 6 }, { "PTR", 12 }, { "MX", 15 },
	{ "TXT", 16 }, { "AAAA", 28 }, { "SRV", 33 }, { "NAPTR", 35 }, { "DS", 43 }, { "RRSIG", 46 },
	{ "DNSKEY", 48 }, { "SVCB", 64 }, { "HTTPS", 65 }, { "ANY", 255 }, { "CAA", 257 },
};

int dns_build_query(const char *name, const char *type, uint16_t id, unsigned char *buf, size_t *len,
		    char *err, size_t n)
{
	size_t off = 12, nl = strlen(name);
	long t = -1;
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (!strcasecmp(type, types[i].name))
			t = types[i].type;
	if (t < 0 && !strncasecmp(type, "TYPE", 4)) {
		char *end;
		t = strtol(type + 4, &end, 10);
		if (*end || t < 0 || t > 65535)
			t = -1;
	}
	if (t < 0) {
		snprintf(err, n, "unknown query type '%s'", type);
		return -1;
	}
	if (nl == 0 || nl > 253 + (name[nl - 1] == '.')) {
		snprintf(err, n, "'%s': not a domain name", name);
		return -1;
	}
	memset(buf, 0, 12);
	buf[0] = (unsigned char)(id >> 8);
	buf[1] = (unsigned char)id;
	buf[2] = 0x01;            /* RD */
	buf[5] = 1;               /* QDCOUNT */
	if (strcmp(name, ".")) {
		const char *p = name;
		while (*p) {
			const char *dot = strchr(p, '.');
			size_t l = dot ? (size_t)(dot - p) : strlen(p);
			if (l == 0 || l > 63) {
				snprintf(err, n, "'%s': a label is empty or longer than 63", name);
				return -1;
			}
			buf[off++] = (unsigned char)l;
			memcpy(buf + off, p, l);
			off += l;
			p += l;
			if (*p == '.')
				p++;
		}
	}
	buf[off++] = 0;
	buf[off++] = (unsigned char)(t >> 8);
	buf[off++] = (unsigned char)t;
	buf[off++] = 0;
	buf[off++] = 1;           /* IN */
	*len = off;
	return 0;
}

/* end offset of the question at 12, 0 when malformed */
static size_t question_end(const unsigned char *b, size_t len)
{
	size_t off = 12;
	for (int labels = 0; labels < 128; labels++) {
		unsigned l;
		if (off >= len)
			return 0;
		l = b[off];
		if (l == 0) {
			off++;
			return off + 4 <= len ? off + 4 : 0;
		}
		if (l > 63)           /* compression or an extended label: not in a question */
			return 0;
		off += 1 + l;
		if (off - 12 > 255)
			return 0;
	}
	return 0;
}

int dns_parse_reply(const unsigned char *b, size_t len, struct dns_reply *out)
{
	if (len < 12 || !(b[2] & 0x80))
		return -1;
	out->id = get_be16(b);
	out->rcode = b[3] & 15;
	out->truncated = !!(b[2] & 0x02);
	out->qdcount = get_be16(b + 4);
	out->ancount = get_be16(b + 6);
	if (out->qdcount < 1 || !question_end(b, len))
		return -1;
	return 0;
}

int dns_same_question(const unsigned char *q, size_t qlen, const unsigned char *r, size_t rlen)
{
	size_t qe = question_end(q, qlen), re = question_end(r, rlen);
	if (!qe || qe != re)
		return 0;
	for (size_t i = 12; i < qe; i++)
		if (tolower(q[i]) != tolower(r[i]))
			return 0;
	return 1;
}

const char *dns_rcode_name(int rc)
{
	static const char *const names[16] = {
		"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED", "YXDOMAIN", "YXRRSET",
		"NXRRSET", "NOTAUTH", "NOTZONE", "RCODE11", "RCODE12", "RCODE13", "RCODE14", "RCODE15",
	};
	return names[rc & 15];
}
