/* libFuzzer target: what an iperf3 peer sends and what a saved net result holds: the
 * results message applied to a test of 1-4 streams each way, then the report's JSON and
 * iperf3's text made from it; and the text made from any JSON document. */
#include "../../bench/net/iperf_int.h"
#include "json.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct json *j;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	if (!size || !(j = json_parse((const char *)data + 1, size - 1, err, sizeof err)))
		return 0;
	{
		struct iptest t;
		struct json *r = json_obj();
		memset(&t, 0, sizeof t);
		t.role = data[0] & 1 ? 's' : 'c';
		t.udp = (data[0] >> 1) & 1;
		t.mode = (int)((data[0] >> 2) % 3) - 1;
		t.nstreams = 1 + (data[0] >> 4) % 4;
		t.get_server_output = 1;
		t.deny_fd = -1;
		if (!ip_streams_alloc(&t, err, sizeof err)) {
			for (int i = 0; i < t.nst; i++) {
				t.st[i].id = ip_stream_id(i);
				t.st[i].sender = t.mode == IP_BIDIR ? i < t.nstreams : t.mode == IP_SENDER;
				t.st[i].udp = t.udp;
				t.st[i].iv = calloc(1, sizeof *t.st[i].iv);
				t.st[i].niv = t.st[i].cap = 1;
			}
			if (!ip_apply_results(&t, j, err, sizeof err)) {
				ip_json_intervals(&t, json_add_arr(r, "intervals"));
				ip_json_end(&t, json_add_obj(r, "end"));
				iperf_text(r, 1, null);
			}
			for (int i = 0; i < t.nst; i++)
				free(t.st[i].iv);
			free(t.st);
			free(t.server_output);
		}
		json_free(r);
	}
	iperf_text(j, data[0] & 1, null);
	json_free(j);
	return 0;
}
