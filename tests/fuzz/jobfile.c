/* libFuzzer target: a fio job file ([sections], key=value lines, include, $-variables and
 * fio's arithmetic in values) read into the disk command's words, then parsed by the
 * option table as assay disk does.  Nothing is probed or run. */
#include "disk/plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct disk_cfg c;
	char *text = malloc(size + 1), err[512], *pos[16];
	int npos = 0;
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	memset(&c, 0, sizeof c);
	c.jobfile = "fuzz.fio";
	opt_defaults(disk_opts, &c);
	if (!order_words(&c, text, err, sizeof err)) {
		opt_defaults(disk_opts, &c);
		memset(c.common.given, 0, sizeof c.common.given);
		opt_parse_given(disk_opts, &c, c.ntok, c.tok, pos, &npos, 16, c.common.given);
	}
	for (int i = 0; i < c.ntok; i++)   /* every word came from the file (no command line) */
		free(c.tok[i]);
	free(c.tok);
	free(text);
	return 0;
}
