/* assay kexec: boot the assay image from a running Linux, no kexec-tools needed:
 * kexec_file_load(2) with the kernel, the initramfs and a command line, then
 * reboot(LINUX_REBOOT_CMD_KEXEC).  The VPS path that needs nothing from the provider. */
#include "cli/command.h"
#include "fileio.h"
#include "msg.h"
#include "report/results.h"
#include "imageline.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_kexec_file_load
#define SYS_kexec_file_load 320
#endif

struct kexec_cfg {
	const char *kernel, *initrd, *consoles, *append, *results_to;
	int yes, again, dry_run;
};

static const struct opt kexec_opts[] = {
	{ "kernel", 0, OPT_STR, offsetof(struct kexec_cfg, kernel), "vmlinuz", 0, 0, "a file",
	  "the image's kernel", 0 },
	{ "initrd", 0, OPT_STR, offsetof(struct kexec_cfg, initrd), "initramfs.cpio.xz", 0, 0, "a file",
	  "its initramfs", 0 },
	{ "console", 0, OPT_STR, offsetof(struct kexec_cfg, consoles), "tty0 ttyS0,115200", 0, 0,
	  "consoles, space separated", "the image's consoles; the last gets init's output", 0 },
	{ "append", 0, OPT_STR, offsetof(struct kexec_cfg, append), "", 0, 0, "kernel command line words",
	  "more kernel command line", 0 },
	{ "results-to", 0, OPT_STR, offsetof(struct kexec_cfg, results_to), NULL, 0, 0,
	  "a directory on a local ext4, xfs or vfat filesystem",
	  "bring the results home: the image writes them into DIR/assay-inbox and reboots into this system, "
	  "where 'assay show DIR' unpacks and prints them", 0 },
	{ "dry-run", 'n', OPT_BOOL, offsetof(struct kexec_cfg, dry_run), "0", 0, 0, NULL,
	  "do everything but the jump: print the command line (a loop device is accepted for "
	  "--results-to, to try the image's writer on a host)", OPT_NOARG },
	{ "yes", 'y', OPT_BOOL, offsetof(struct kexec_cfg, yes), "0", 0, 0, NULL,
	  "do not ask (the running system stops at once: nothing is shut down)", OPT_NOARG },
	{ "again", 0, OPT_BOOL, offsetof(struct kexec_cfg, again), "0", 0, 0, NULL,
	  "(in the image) boot again: kexec/vmlinuz and kexec/initramfs.cpio.xz from the ASSAY "
	  "partition, this boot's command line; what assay.after=kexec runs", OPT_NOARG },
	OPT_END,
};

/* this boot's command line, less what must not repeat: assay.after, assay.boot, and
 * the boot loader's own words; the next boot powers off */
static int this_cmdline(char *out, size_t n)
{
	char *b = read_file("/proc/cmdline", 65536, NULL), *save;
	if (!b)
		return -1;
	out[0] = 0;
	for (char *w = strtok_r(b, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		if (!strncmp(w, "assay.after=", 12) || !strncmp(w, "assay.boot=", 11) ||
		    !strncmp(w, "BOOT_IMAGE=", 11) || !strncmp(w, "initrd=", 7))
			continue;
		snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? " " : "", w);
	}
	snprintf(out + strlen(out), n - strlen(out), " assay.after=poweroff");
	free(b);
	return 0;
}

static char results_mount[256];   /* remounted read-only just before the jump */

static const char *lockdown(void)
{
	static char b[128];
	char *a, *z;
	if (read_line("/sys/kernel/security/lockdown", b, sizeof b))
		return NULL;
	a = strchr(b, '[');
	z = a ? strchr(a, ']') : NULL;
	if (!a || !z)
		return NULL;
	*z = 0;
	return strcmp(a + 1, "none") ? a + 1 : NULL;
}

static int kexec_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct kexec_cfg c = *(const struct kexec_cfg *)cfg;
	const char *kernel, *initrd, *consoles, *append;
	char line[2048];
	int yes, again, kfd, ifd;
	long r;

	/* its own options, then after -- assay run's (assay.KEY=VALUE in the image) */
	kernel = c.kernel;
	initrd = c.initrd;
	consoles = c.consoles;
	append = c.append;
	yes = c.yes;
	again = c.again;
	if (again) {
		/* the files from the ASSAY partition, the command line of this boot */
		static char k[300], rd[300];
		char dev[300];
		if (results_find(dev, sizeof dev)) {
			errmsg("kexec: --again: no results partition (FAT labelled ASSAY) with kexec/vmlinuz");
			return EXIT_USAGE;
		}
		mkdir("/run/assay-kexec", 0755);
		if (mount(dev, "/run/assay-kexec", "vfat", MS_RDONLY, "codepage=437,iocharset=iso8859-1")) {
			errmsg("kexec: --again: cannot mount %s read-only:", dev);
			return EXIT_SYS;
		}
		snprintf(k, sizeof k, "/run/assay-kexec/kexec/vmlinuz");
		snprintf(rd, sizeof rd, "/run/assay-kexec/kexec/initramfs.cpio.xz");
		kernel = k;
		initrd = rd;
		if (this_cmdline(line, sizeof line)) {
			errmsg("kexec: --again: cannot read /proc/cmdline:");
			return EXIT_SYS;
		}
	} else {
		imageline_start(line, sizeof line, consoles, "kexec", append);
	}
	if (again && *append)
		snprintf(line + strlen(line), sizeof line - strlen(line), " assay.boot=kexec %s", append);
	else if (again)
		snprintf(line + strlen(line), sizeof line - strlen(line), " assay.boot=kexec");
	if (c.results_to && again) {
		errmsg("kexec: --results-to with --again: the image's own run keeps its results on the ASSAY partition");
		return EXIT_USAGE;
	}
	if (c.results_to && imageline_results(line, sizeof line, "kexec", c.results_to, c.dry_run, results_mount,
					      sizeof results_mount))
		return EXIT_USAGE;
	if (imageline_run_opts(line, sizeof line, "kexec", a->nrest, a->rest))
		return EXIT_USAGE;

	kfd = open(kernel, O_RDONLY | O_CLOEXEC);
	if (kfd < 0) {
		errmsg("kexec: --kernel %s:", kernel);
		return EXIT_USAGE;
	}
	ifd = open(initrd, O_RDONLY | O_CLOEXEC);
	if (ifd < 0) {
		errmsg("kexec: --initrd %s:", initrd);
		close(kfd);
		return EXIT_USAGE;
	}
	printf("kernel:  %s\ninitrd:  %s\ncmdline: %s\n", kernel, initrd, line);
	if (c.dry_run) {
		printf("--dry-run: nothing loaded\n");
		close(kfd);
		close(ifd);
		return EXIT_OK;
	}
	if (!yes) {
		char ans[16] = "";
		printf("This stops the running system at once (no shutdown) and boots assay. Type 'yes': ");
		fflush(stdout);
		if (!fgets(ans, sizeof ans, stdin) || strcmp(ans, "yes\n")) {
			printf("not confirmed: nothing done\n");
			close(kfd);
			close(ifd);
			return EXIT_FAIL;
		}
	}
	r = syscall(SYS_kexec_file_load, kfd, ifd, strlen(line) + 1, line, 0UL);
	if (r) {
		int e = errno;
		const char *ld = lockdown();
		if (e == ENOSYS)
			errmsg("kexec: this kernel has no kexec_file_load (needs CONFIG_KEXEC_FILE): use 'assay "
			     "boot-once' with the same options (GRUB's next boot, once), or boot the ISO");
		else if (e == EPERM && ld)
			errmsg("kexec: kernel lockdown (%s) forbids loading an unsigned kernel: try the "
			     "Debian-kernel image (build/vmlinuz and build/initramfs.cpio.xz: Debian signs its "
			     "kernel), or 'assay boot-once' with it (GRUB boots signed kernels), or boot the ISO", ld);
		else if (e == EPERM)
			errmsg("kexec: not permitted: run as root (CAP_SYS_BOOT), and check "
			     "/proc/sys/kernel/kexec_load_disabled is 0 (if it is 1: 'assay boot-once' instead)");
		else if (e == EKEYREJECTED || e == EBADMSG)
			errmsg("kexec: the kernel demands a signed image (KEXEC_SIG): try the Debian-kernel image "
			     "(build/vmlinuz, signed by Debian), or 'assay boot-once', or boot the ISO");
		else if (e == ENOEXEC)
			errmsg("kexec: %s is not a bzImage this kernel can kexec", kernel);
		else {
			errno = e;
			errmsg("kexec: kexec_file_load:");
		}
		close(kfd);
		close(ifd);
		return EXIT_FAIL;
	}
	close(kfd);
	close(ifd);
	fflush(NULL);
	sync();
	/* the filesystem the results come home to, clean when the system comes back (vfat
	 * keeps a dirty bit while mounted); busy is fine: it is synced, its journal covers it */
	if (results_mount[0] && mount(NULL, results_mount, NULL, MS_REMOUNT | MS_RDONLY, NULL))
		info("kexec: %s stays mounted read-write (%s): it is synced", results_mount, strerror(errno));
	reboot(LINUX_REBOOT_CMD_KEXEC);
	errmsg("kexec: reboot into the loaded kernel failed:");
	return EXIT_SYS;
}

const struct command kexec_command = {
	.name = "kexec",
	.summary = "boot the assay image from a running Linux (no kexec-tools)",
	.usage = "[--kernel F] [--initrd F] [--results-to DIR] [--yes] [--dry-run] [-- ASSAY-RUN-OPTIONS...]",
	.help = "Boot the assay image from this running Linux (kexec_file_load + reboot; no kexec-tools).\n"
		"Options after -- become assay.* keys: -- --suite=standard --mode=rewrite gives\n"
		"assay.suite=standard assay.mode=rewrite.",
	.opts = kexec_opts,
	.cfg_size = sizeof(struct kexec_cfg),
	.flags = CMD_REST,
	.main = kexec_main,
};
