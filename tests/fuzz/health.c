/* libFuzzer target: the parsers of device and kernel data behind assay health (NVMe
 * SMART, error and self-test logs; ATA SMART data, thresholds and logs; kernel log
 * records).  The first byte picks the parser; the rest is its input. */
#include "health/health.h"
#include "json.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json *o = json_obj();
	uint8_t page[1024] = { 0 };
	char *rec;
	if (!size)
		goto out;
	/* the device parsers get the fixed-size pages the commands return: short input
	 * zero-padded, as a device's unused bytes */
	memcpy(page, data + 1, size - 1 < sizeof page ? size - 1 : sizeof page);
	switch (data[0] % 7) {
	case 0: nvme_smart_parse(page, size - 1 < 512 ? size - 1 : 512, o); break;
	case 1: nvme_errlog_parse(data + 1, size - 1, json_add_arr(o, "e")); break;
	case 2: nvme_selftest_parse(page, size - 1 < 564 ? size - 1 : 564, o); break;
	case 3: ata_smart_parse(page, page + 512, o); break;
	case 4: ata_errlog_parse(page, o); break;
	case 5: ata_selftest_parse(page, o); break;
	default:
		rec = malloc(size);
		memcpy(rec, data + 1, size - 1);
		rec[size - 1] = 0;
		kmsg_record(rec, json_add_arr(o, "k"));
		free(rec);
	}
	free(json_to_string(o, 0, NULL));
out:
	json_free(o);
	return 0;
}
