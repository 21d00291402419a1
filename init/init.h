/* PID 1 of the assay image.  Each step logs, warns and carries on: nothing here exits. */
#ifndef ASSAY_INIT_H
#define ASSAY_INIT_H

#include <stddef.h>

#include "bootopts.h"

/* log.c: "init: ..." lines on the console */
void ilog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void consoles_open(void);
void console_write(const char *p, size_t n);
double uptime(void);

/* mounts.c */
void mount_all(void);
void console_setup(void);

/* cmdline.c */
void cmdline_read(struct boot_cfg *c);

/* modules.c: coldplug with libkmod; returns the number of modules loaded */
int modules_coldplug(void);
void modules_load_names(const char *const *names);
void devices_report_unbound(void);

/* devices.c */
void devices_wait(double bound_s, int modules_loaded);
void net_up(void);
/* rtnl.c: rtnetlink; 0 or -1 with errno */
int rtnl_link_up(const char *ifname);
int rtnl_addr_add(const char *ifname, const char *cidr);
int rtnl_default_route(const char *ifname, const char *gw);
/* netconf.c: DHCP, a static address, or none */
void net_configure(const char *how);

/* spawn.c: runs /bin/assay run with a watchdog, copies its output to the console;
 * returns its status (124 on timeout, 128+N when killed by signal N). */
struct capture {
	char *buf;
	size_t len, cap;
};
int suite_run(const struct boot_cfg *c, struct capture *out);

/* power.c */
void signals_setup(void);
int power_requested(void);      /* an action asked for by a signal, or -1 */
_Noreturn void final_action(int after, double pause_s);

#endif
