/* libFuzzer target: extracting a result block from a console log. */
#include "report/report.h"
#include "json.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), why[300];
	struct json *doc = NULL;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	if (!extract_doc(buf, size, &doc, why, sizeof why))
		json_free(doc);
	free(buf);
	return 0;
}
