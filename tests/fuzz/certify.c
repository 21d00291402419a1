/* libFuzzer target: certify rules (a rules file read from a results partition is outside
 * input): the bytes before the first NUL as rules, checked, then evaluated against the
 * JSON document after it (a result, perhaps hostile too) and against itself as baseline. */
#include "json.h"
#include "report/certify.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t rl = nul ? (size_t)(nul - data) : size;
	char *rules = malloc(rl + 1), err[512], disks[256];
	struct json *doc = NULL, *out;
	static FILE *null;
	if (!rules)
		return 0;
	if (!null)
		null = fopen("/dev/null", "w");
	memcpy(rules, data, rl);
	rules[rl] = 0;
	if (nul)
		doc = json_parse((const char *)nul + 1, size - rl - 1, err, sizeof err);
	if (!doc)
		doc = json_obj();
	certify_disk_profiles(rules, disks, sizeof disks);
	if (!certify_check("fuzz", rules, err, sizeof err)) {
		out = json_obj();
		certify_text("fuzz", rules, doc, doc, 10, 0, out, null, err, sizeof err);
		json_free(out);
	}
	json_free(doc);
	free(rules);
	return 0;
}
