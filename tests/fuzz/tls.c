/* libFuzzer target: what a user or a results partition hands the TLS client before any
 * connection: a certificate pin (sha256//BASE64 or hex) and a CA bundle (PEM, decoded by
 * BearSSL's PEM and X.509 decoders into trust anchors). */
#include "net/tls.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), why[256];
	unsigned char pin[32];
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	tls_parse_pin(s, pin, why, sizeof why);
	tls_check_ca(s, size, why, sizeof why);
	free(s);
	return 0;
}
