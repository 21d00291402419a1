/* Options of the image's PID 1, read from the kernel command line as assay.KEY=VALUE.
 * The table lives here so that `assay run --cmdline` knows which keys belong to init
 * (and reports every other unknown key exactly once). */
#ifndef ASSAY_BOOTOPTS_H
#define ASSAY_BOOTOPTS_H

#include "opt.h"

enum after { AFTER_POWEROFF, AFTER_REBOOT, AFTER_SHELL, AFTER_KEXEC };

struct boot_cfg {
	int after;           /* what to do when the suite ends */
	double timeout;      /* watchdog for the whole suite */
	double devwait;      /* bound on waiting for disks and NICs */
	int modules;         /* load modules for the hardware found */
	int run;             /* run the suite at all */
	const char *boot;    /* how the image was booted (iso, pxe, kexec, qemu), for the log */
	const char *net;     /* dhcp, none, or IF:ADDR/PREFIX[:GW[:DNS]] */
	double pause;        /* seconds the last screen stays up before a reboot */
};

extern const struct opt boot_opts[];

#endif
