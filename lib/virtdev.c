#include "blkdev.h"

#include <string.h>

int blkdev_is_virtual(const char *n)
{
	static const char *const prefixes[] = {
		"loop", "ram", "zram", "dm-", "md", "nbd", "nullb", "sr", "fd", NULL,
	};
	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(n, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}
