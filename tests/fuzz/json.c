/* libFuzzer target: the JSON parser (result documents, iperf3 peers' messages). */
#include "json.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct json *j = json_parse((const char *)data, size, err, sizeof err);
	if (j) {
		size_t len;
		char *s = json_to_string(j, 1, &len);
		struct json *k = json_parse(s, len, err, sizeof err);
		if (!k)
			abort();   /* what we print must parse back */
		json_path(j, "a.0.b");
		json_free(k);
		free(s);
		json_free(j);
	}
	return 0;
}
