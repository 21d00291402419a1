/* PID 1 of the assay image.  main() reads like the boot sequence.  Nothing here exits:
 * every step logs what went wrong and the sequence goes on to power-off. */
#include "init.h"
#include "msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	struct boot_cfg cfg;
	struct capture out = { 0 };
	int status, loaded = 0;

	msg_prog = "init";
	if (getpid() != 1) {
		fprintf(stderr, "init: not PID 1: refusing to run (this is the assay image's init; "
				"on a host use build/assay)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signals_setup();
	mount_all();
	console_setup();
	consoles_open();
	msg_sink = console_write;   /* warnings too reach every console */
	cmdline_read(&cfg);
	ilog("assay %s image, booted by %s, init started at %.2f s", ASSAY_VERSION, cfg.boot, uptime());
	if (cfg.modules) {
		static const char *const fs[] = { "vfat", "nls_cp437", "nls_iso8859_1", NULL };
		loaded = modules_coldplug();
		modules_load_names(fs);
		consoles_open();
	}
	devices_wait(cfg.devwait, loaded > 0);
	devices_report_unbound();
	net_up();
	net_configure(cfg.net);

	if (cfg.run) {
		status = suite_run(&cfg, &out);
		ilog("suite status %d", status);
		free(out.buf);
	} else {
		ilog("suite not run (assay.run=0)");
		ilog("suite status 0");
	}

	/* a reboot asked by assay.after waits assay.pause seconds: the last screen is read */
	final_action(power_requested() >= 0 ? power_requested() : cfg.after,
		     power_requested() >= 0 ? 0 : cfg.pause);
}
