/* libFuzzer target: DNS reply checks (dns_parse_reply, dns_same_question). */
#include "net/dnswire.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dns_reply r;
	unsigned char q[DNS_MAX_QUERY];
	size_t ql;
	char err[128];
	if (!dns_parse_reply(data, size, &r) && dns_build_query("a.test", "A", r.id, q, &ql, err, sizeof err) == 0)
		dns_same_question(q, ql, data, size);
	return 0;
}
