#include "bootopts.h"

#include <stddef.h>

const struct opt boot_opts[] = {
	{ "after", 0, OPT_ENUM, offsetof(struct boot_cfg, after), "poweroff", 0, 0,
	  "poweroff|reboot|shell|kexec", "what init does when the suite has ended (kexec: boot "
	  "again from kexec/ on the ASSAY partition)", 0 },
	{ "pause", 0, OPT_TIME, offsetof(struct boot_cfg, pause), "10", 0, 3600, NULL,
	  "how long the run's last screen stays up before assay.after=reboot reboots", 0 },
	{ "timeout", 0, OPT_TIME, offsetof(struct boot_cfg, timeout), "3600", 1, 7 * 86400, NULL,
	  "watchdog: the suite is killed after this long", 0 },
	{ "devwait", 0, OPT_TIME, offsetof(struct boot_cfg, devwait), "5", 0, 600, NULL,
	  "longest wait for disks and NICs to appear", 0 },
	{ "modules", 0, OPT_BOOL, offsetof(struct boot_cfg, modules), "1", 0, 0, NULL,
	  "load kernel modules for the hardware found", 0 },
	{ "run", 0, OPT_BOOL, offsetof(struct boot_cfg, run), "1", 0, 0, NULL,
	  "run the suite (0: straight to what assay.after says)", 0 },
	{ "net", 0, OPT_STR, offsetof(struct boot_cfg, net), "dhcp", 0, 0,
	  "dhcp, none, or IF:ADDR/PREFIX[:GATEWAY[:DNS]]", "how the NICs get addresses", 0 },
	{ "boot", 0, OPT_STR, offsetof(struct boot_cfg, boot), "direct", 0, 0, "a word",
	  "how the image was booted, shown on the console (iso, pxe, kexec, ...)", 0 },
	OPT_END,
};
