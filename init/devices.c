/* Wait, bounded, for disks and NICs to settle; bring the links up. */
#include "init.h"
#include "blkdev.h"
#include "msg.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* nothing new for this long: settled.  Modules probe their devices after init has
 * started; a kernel with its drivers built in has probed them before */
#define QUIET_MODULES_S 0.5
#define QUIET_BUILTIN_S 0.1

/* " a b c": the entries of a directory, sorted; skip_virtual leaves out loop, nullb... */
static int list_dir(const char *path, char *names, size_t n, int skip_virtual)
{
	struct dirent **v;
	int count = scandir(path, &v, NULL, alphasort), shown = 0;
	size_t len = 0;
	names[0] = 0;
	for (int i = 0; i < count; i++) {
		if (v[i]->d_name[0] != '.' && !(skip_virtual && blkdev_is_virtual(v[i]->d_name))) {
			int w = snprintf(names + len, n - len, " %s", v[i]->d_name);
			if (w > 0 && (size_t)w < n - len)
				len += (size_t)w;
			shown++;
		}
		free(v[i]);
	}
	if (count > 0)
		free(v);
	return shown;
}

void devices_wait(double bound, int modules_loaded)
{
	char blk[1024], net[1024], prev[2048] = "", cur[2048];
	double t0 = uptime(), changed = t0;
	int nb = 0, nn = 0;
	for (;;) {
		struct timespec ts = { 0, 50 * 1000000 };
		nb = list_dir("/sys/block", blk, sizeof blk, 1);
		nn = list_dir("/sys/class/net", net, sizeof net, 0);
		snprintf(cur, sizeof cur, "%s|%s", blk, net);
		if (strcmp(cur, prev)) {
			snprintf(prev, sizeof prev, "%s", cur);
			changed = uptime();
		}
		if (uptime() - changed >= (modules_loaded ? QUIET_MODULES_S : QUIET_BUILTIN_S))
			break;
		if (uptime() - t0 >= bound) {
			warn("devices still appearing after %.1f s (assay.devwait): going on", bound);
			break;
		}
		nanosleep(&ts, NULL);
	}
	ilog("disks:%s; NICs:%s (settled at %.2f s)", nb ? blk : " none", nn ? net : " none",
	     uptime());
}

/* every NIC up (rtnetlink): lo gets 127.0.0.1 from the kernel, IPv6 SLAAC starts */
void net_up(void)
{
	struct dirent **v;
	int n = scandir("/sys/class/net", &v, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (v[i]->d_name[0] != '.' && rtnl_link_up(v[i]->d_name))
			warn("%s: cannot bring the link up:", v[i]->d_name);
		free(v[i]);
	}
	if (n > 0)
		free(v);
}
