#include "bootopts.h"

#include <stddef.h>

const struct opt boot_opts[] = {
	{ "after", 0, OPT_ENUM, offsetof(struct boot_cfg, after), "poweroff", 0, 0,
	  "poweroff|reboot|shell", "what init does when the suite has ended", 0 },
	{ "timeout", 0, OPT_TIME, offsetof(struct boot_cfg, timeout), "3600", 1, 7 * 86400, NULL,
	  "watchdog: the suite is killed after this long", 0 },
	{ "devwait", 0, OPT_TIME, offsetof(struct boot_cfg, devwait), "5", 0, 600, NULL,
	  "longest wait for disks and NICs to appear", 0 },
	{ "modules", 0, OPT_BOOL, offsetof(struct boot_cfg, modules), "1", 0, 0, NULL,
	  "load kernel modules for the hardware found", 0 },
	OPT_END,
};
