/* libFuzzer target: a fio I/O log (trace format v2 or v3) as --read_iolog reads it, fitted
 * to a job's files (sizes, block sizes, direct I/O, replay_align/scale), and the files it
 * names (--read_iolog without --filename). */
#include "disk/replay.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct replay_fit fit = { .nfiles = 2, .dev_size = { 1ull << 30, 4096 }, .lbs = { 512, 4096 },
				  .direct = data && size && (data[0] & 1), .align = size > 1 && (data[1] & 1) ? 4096 : 0,
				  .scale = size > 1 && (data[1] & 2) ? 8 : 1 };
	struct replay r;
	char err[512], files[1024];
	FILE *f;
	if (!path[0])
		snprintf(path, sizeof path, "/dev/shm/assay-fuzz-iolog.%d", (int)getpid());
	if (!(f = fopen(path, "w")))
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	memset(&r, 0, sizeof r);
	if (!replay_load(path, &fit, &r, err, sizeof err))
		replay_free(&r);
	replay_files(path, files, sizeof files);
	return 0;
}
