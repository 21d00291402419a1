/* assay boot-once: where kexec cannot be used, boot the image once through GRUB.  The
 * kernel and initramfs go to BOOT/assay/ (names with a nonce), an entry "assay-once" to
 * BOOT/grub/custom.cfg (between marker lines; the rest of the file is kept), and
 * grub-reboot makes it the next boot only: GRUB clears next_entry as it boots it, so the
 * boot after that is the system's own default, untouched.  With --results-to the results
 * come home as with kexec (report/inbox.c).  It does not reboot: the user does. */
#include "cli/command.h"
#include "imageline.h"
#include "report/results.h"
#include "fileio.h"
#include "msg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BEGIN_MARK "### BEGIN assay boot-once (assay boot-once --remove takes it out)"
#define END_MARK "### END assay boot-once"
#define ENTRY_ID "assay-once"

struct bootonce_cfg {
	const char *kernel, *initrd, *boot, *consoles, *results_to;
	int yes, dry_run, remove, allow_loop;
};

static const struct opt bootonce_opts[] = {
	{ "kernel", 0, OPT_STR, offsetof(struct bootonce_cfg, kernel), "vmlinuz", 0, 0, "a file",
	  "the image's kernel (under Secure Boot: the Debian-kernel image, which Debian signs)", 0 },
	{ "initrd", 0, OPT_STR, offsetof(struct bootonce_cfg, initrd), "initramfs.cpio.xz", 0, 0, "a file",
	  "its initramfs", 0 },
	{ "boot", 0, OPT_STR, offsetof(struct bootonce_cfg, boot), "/boot", 0, 0, "a directory",
	  "the boot directory holding grub/grub.cfg", 0 },
	{ "console", 0, OPT_STR, offsetof(struct bootonce_cfg, consoles), "tty0 ttyS0,115200", 0, 0,
	  "consoles, space separated", "the image's consoles; the last gets init's output", 0 },
	{ "results-to", 0, OPT_STR, offsetof(struct bootonce_cfg, results_to), NULL, 0, 0,
	  "a directory on a local ext4, xfs or vfat filesystem",
	  "bring the results home (as assay kexec --results-to): the image writes them into "
	  "DIR/assay-inbox and reboots into this system; 'assay show DIR' there", 0 },
	{ "yes", 'y', OPT_BOOL, offsetof(struct bootonce_cfg, yes), "0", 0, 0, NULL, "do not ask", OPT_NOARG },
	{ "dry-run", 'n', OPT_BOOL, offsetof(struct bootonce_cfg, dry_run), "0", 0, 0, NULL,
	  "check and print the entry; change nothing", OPT_NOARG },
	{ "allow-loop", 0, OPT_BOOL, offsetof(struct bootonce_cfg, allow_loop), "0", 0, 0, NULL,
	  "--results-to on a loop device: accept it (a disk image prepared here, booted elsewhere: "
	  "its offsets are the image file's, as the test does)", OPT_NOARG },
	{ "remove", 0, OPT_BOOL, offsetof(struct bootonce_cfg, remove), "0", 0, 0, NULL,
	  "take the entry and BOOT/assay/ out again (and a pending next boot of it)", OPT_NOARG },
	OPT_END,
};

/* the first of the names found in PATH, or NULL */
static const char *find_tool(const char *const *names)
{
	const char *path = getenv("PATH");
	char buf[4096], *save = NULL;
	static char found[4200];
	snprintf(buf, sizeof buf, "%s", path && *path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
	for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save))
		for (int i = 0; names[i]; i++) {
			snprintf(found, sizeof found, "%s/%s", d, names[i]);
			if (!access(found, X_OK))
				return found;
		}
	return NULL;
}

/* BOOT/grub/grub.cfg (or grub2/): its directory into dir, its text; NULL after the reason */
static char *grub_cfg(const char *boot, char *dir, size_t n)
{
	static const char *const sub[] = { "grub", "grub2" };
	for (int i = 0; i < 2; i++) {
		char p[4200];
		char *t;
		snprintf(dir, n, "%s/%s", boot, sub[i]);
		snprintf(p, sizeof p, "%s/grub.cfg", dir);
		if ((t = read_file(p, 4 << 20, NULL)))
			return t;
	}
	errmsg("boot-once: no %s/grub/grub.cfg: boot-once needs GRUB (elsewhere: boot the ISO)", boot);
	return NULL;
}

/* custom.cfg without our block (its other lines kept); malloc'd, never NULL but on OOM */
static char *custom_without_ours(const char *gdir)
{
	char p[4200], *t, *b, *e, *out;
	snprintf(p, sizeof p, "%s/custom.cfg", gdir);
	t = read_file(p, 1 << 20, NULL);
	if (!t)
		return strdup("");
	b = strstr(t, BEGIN_MARK);
	e = b ? strstr(b, END_MARK) : NULL;
	if (!b || !e)
		return t;
	e += strlen(END_MARK);
	if (*e == '\n')
		e++;
	out = malloc(strlen(t) + 1);
	if (out) {
		memcpy(out, t, (size_t)(b - t));
		strcpy(out + (b - t), e);
	}
	free(t);
	return out;
}

/* copy src to dst (synced); 0, or -1 after the reason */
static int copy_file(const char *src, const char *dst)
{
	size_t len;
	char *buf = read_file(src, 512u << 20, &len);
	int fd, r;
	if (!buf) {
		errmsg("boot-once: %s:", src);
		return -1;
	}
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	r = fd < 0 || write_all(fd, buf, len) || fsync(fd);
	if (r)
		errmsg("boot-once: cannot write %s:", dst);
	if (fd >= 0)
		close(fd);
	free(buf);
	return r ? -1 : 0;
}

/* remove BOOT/assay/'s files of ours (vmlinuz-NONCE, initramfs-NONCE) and the folder */
static void remove_files(const char *boot)
{
	char d[4200], p[4500];
	DIR *dir;
	struct dirent *e;
	snprintf(d, sizeof d, "%s/assay", boot);
	dir = opendir(d);
	while (dir && (e = readdir(dir)))
		if (!strncmp(e->d_name, "vmlinuz-", 8) || !strncmp(e->d_name, "initramfs-", 10)) {
			snprintf(p, sizeof p, "%s/%s", d, e->d_name);
			unlink(p);
		}
	if (dir)
		closedir(dir);
	rmdir(d);
}

/* the path GRUB sees for a file: its path inside its filesystem */
static void grub_path(const char *file, char *out, size_t n)
{
	char mp[4096];
	size_t l;
	mount_of(file, mp, sizeof mp, NULL, 0);
	l = strcmp(mp, "/") ? strlen(mp) : 0;
	snprintf(out, n, "%s", file + l);
}

/* the menu entry's text into out */
static int entry_text(const char *kpath, const char *ipath, const char *cmdline, char *out, size_t n)
{
	char gk[4096], gi[4096];
	grub_path(kpath, gk, sizeof gk);
	grub_path(ipath, gi, sizeof gi);
	return snprintf(out, n, BEGIN_MARK "\nmenuentry \"assay (once)\" --id " ENTRY_ID " {\n"
			"\tsearch --no-floppy --file --set=root %s\n\tlinux %s %s\n\tinitrd %s\n}\n" END_MARK "\n",
			gk, gk, cmdline, gi) >= (int)n ? -1 : 0;
}

static int bootonce_remove(const struct bootonce_cfg *c, const char *gdir, const char *editenv)
{
	char p[4200], err[600];
	char *rest = custom_without_ours(gdir);
	int r = 0;
	if (!rest)
		return EXIT_SYS;
	if (c->dry_run) {
		printf("--dry-run: would remove the entry from %s/custom.cfg and %s/assay/\n", gdir, c->boot);
		free(rest);
		return EXIT_OK;
	}
	snprintf(p, sizeof p, "%s/custom.cfg", gdir);
	if (!*rest)
		unlink(p);
	else if (results_write_file(gdir, "custom.cfg", rest, strlen(rest), err, sizeof err)) {
		errmsg("boot-once: %s", err);
		r = EXIT_SYS;
	}
	free(rest);
	remove_files(c->boot);
	if (editenv) {
		snprintf(p, sizeof p, "%s/grubenv", gdir);
		char *const argv[] = { (char *)editenv, p, "unset", "next_entry", NULL };
		run_wait(argv, 0);
	}
	printf("removed the assay boot-once entry\n");
	return r;
}

/* the checks: GRUB's config reads next_entry and custom.cfg; grub-reboot is here */
static int grub_ready(const char *cfg, const char *gdir, const char **reboot_tool)
{
	static const char *const tools[] = { "grub-reboot", "grub2-reboot", NULL };
	if (!strstr(cfg, "next_entry")) {
		errmsg("boot-once: %s/grub.cfg does not read next_entry (not made by grub-mkconfig?): a one-time "
		       "entry would not be booted", gdir);
		return -1;
	}
	if (!strstr(cfg, "custom.cfg")) {
		errmsg("boot-once: %s/grub.cfg does not read custom.cfg (/etc/grub.d/41_custom): the entry would "
		       "not be seen", gdir);
		return -1;
	}
	*reboot_tool = find_tool(tools);
	if (!*reboot_tool) {
		errmsg("boot-once: grub-reboot not found (Debian: apt-get install grub2-common)");
		return -1;
	}
	return 0;
}

/* the files into BOOT/assay/, the entry into custom.cfg, grub-reboot */
static int install_entry(const struct bootonce_cfg *c, const char *gdir, const char *tool, const char *line)
{
	char dir[4200], kp[4300], ip[4300], rk[4096], ri[4096], entry[16384], err[600], nonce[12];
	char *rest, *all;
	unsigned r32;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC), rc;
	if (fd < 0 || read(fd, &r32, sizeof r32) != (ssize_t)sizeof r32) {
		errmsg("boot-once: cannot read /dev/urandom");
		return EXIT_SYS;
	}
	close(fd);
	snprintf(nonce, sizeof nonce, "%08x", r32);
	remove_files(c->boot);
	snprintf(dir, sizeof dir, "%s/assay", c->boot);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		errmsg("boot-once: cannot create %s:", dir);
		return EXIT_SYS;
	}
	snprintf(kp, sizeof kp, "%s/vmlinuz-%s", dir, nonce);
	snprintf(ip, sizeof ip, "%s/initramfs-%s", dir, nonce);
	if (copy_file(c->kernel, kp) || copy_file(c->initrd, ip))
		return EXIT_SYS;
	/* resolved paths: GRUB's are inside the filesystem holding them */
	if (!realpath(kp, rk) || !realpath(ip, ri) || entry_text(rk, ri, line, entry, sizeof entry)) {
		errmsg("boot-once: the menu entry is too long");
		return EXIT_SYS;
	}
	rest = custom_without_ours(gdir);
	all = rest ? malloc(strlen(rest) + strlen(entry) + 2) : NULL;
	if (!all) {
		errmsg("boot-once: out of memory");
		free(rest);
		return EXIT_SYS;
	}
	sprintf(all, "%s%s%s", rest, *rest && rest[strlen(rest) - 1] != '\n' ? "\n" : "", entry);
	free(rest);
	rc = results_write_file(gdir, "custom.cfg", all, strlen(all), err, sizeof err);
	free(all);
	if (rc) {
		errmsg("boot-once: %s", err);
		return EXIT_SYS;
	}
	{
		char bd[4200];
		char *const argv[] = { (char *)tool, bd, ENTRY_ID, NULL };
		snprintf(bd, sizeof bd, "--boot-directory=%s", c->boot);
		rc = run_wait(argv, 0);
	}
	if (rc) {
		errmsg("boot-once: %s failed (exit %d): the entry is in %s/custom.cfg but not set for the next boot",
		       tool, rc, gdir);
		return EXIT_SYS;
	}
	sync();
	printf("the next boot, once: assay (%s/custom.cfg, entry %s); the one after: this system as before.\n"
	       "Reboot now to run it (reboot).\n", gdir, ENTRY_ID);
	return EXIT_OK;
}

static int bootonce_main(const struct command *self, void *cfg, const struct cmd_args *a)
{
	const struct bootonce_cfg c = *(const struct bootonce_cfg *)cfg;
	char gdir[4200], line[2048], mp[256];
	const char *tool = NULL;
	char *grub;
	int rc;
	if (!(grub = grub_cfg(c.boot, gdir, sizeof gdir)))
		return EXIT_USAGE;
	rc = grub_ready(grub, gdir, &tool);
	free(grub);
	if (c.remove)
		return bootonce_remove(&c, gdir, NULL);
	if (rc)
		return EXIT_USAGE;
	if (access(c.kernel, R_OK) || access(c.initrd, R_OK)) {
		errmsg("boot-once: %s:", access(c.kernel, R_OK) ? c.kernel : c.initrd);
		return EXIT_USAGE;
	}
	imageline_start(line, sizeof line, c.consoles, "boot-once", NULL);
	if (c.results_to && imageline_results(line, sizeof line, "boot-once", c.results_to, c.dry_run || c.allow_loop, mp,
							sizeof mp))
		return EXIT_USAGE;
	if (imageline_run_opts(line, sizeof line, "boot-once", a->nrest, a->rest))
		return EXIT_USAGE;
	printf("kernel:  %s\ninitrd:  %s\ncmdline: %s\nentry:   %s/custom.cfg, booted once by %s\n", c.kernel,
	       c.initrd, line, gdir, tool);
	if (c.dry_run) {
		printf("--dry-run: nothing changed\n");
		return EXIT_OK;
	}
	if (!c.yes) {
		char ans[16] = "";
		printf("This makes assay the next boot, once. Type 'yes': ");
		fflush(stdout);
		if (!fgets(ans, sizeof ans, stdin) || strcmp(ans, "yes\n")) {
			printf("not confirmed: nothing done\n");
			return EXIT_FAIL;
		}
	}
	return install_entry(&c, gdir, tool, line);
}

const struct command bootonce_command = {
	.name = "boot-once",
	.summary = "boot the assay image once through GRUB (where kexec cannot)",
	.usage = "[--kernel F] [--initrd F] [--boot DIR] [--results-to DIR] [--yes] [--dry-run] [--remove] "
		  "[-- ASSAY-RUN-OPTIONS...]",
	.help = "Copy the image to BOOT/assay/, add a GRUB entry to BOOT/grub/custom.cfg and make it the next\n"
		"boot only (grub-reboot); the boot after that is this system's default, untouched.  Reboot\n"
		"yourself.  Options after -- become assay.* keys, as with kexec.",
	.opts = bootonce_opts,
	.cfg_size = sizeof(struct bootonce_cfg),
	.flags = CMD_REST,
	.main = bootonce_main,
};
