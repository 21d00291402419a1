/* Coldplug with libkmod: read every device's modalias under /sys/devices and insert the
 * matching modules with their dependencies; repeat while loading made new devices appear
 * (virtio_pci creates virtio devices, which want virtio_blk and virtio_net...). */
#include "init.h"
#include "msg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define MAX_PASSES 8

struct seen {
	char **v;
	size_t n, cap;
};

static int seen_add(struct seen *s, const char *a)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], a))
			return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		char **nv = realloc(s->v, cap * sizeof *nv);
		if (!nv)
			return 0;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n] = strdup(a);
	if (!s->v[s->n])
		return 0;
	s->n++;
	return 1;
}

struct coldplug {
	struct kmod_ctx *ctx;
	struct seen aliases;
	char loaded[1024];
	size_t loaded_len;
	int nloaded;
};

static void load_alias(struct coldplug *cp, const char *alias)
{
	struct kmod_list *list = NULL, *l;
	if (kmod_module_new_from_lookup(cp->ctx, alias, &list) < 0 || !list)
		return;
	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);
		const char *name = kmod_module_get_name(mod);
		int st = kmod_module_get_initstate(mod);
		if (st != KMOD_MODULE_LIVE && st != KMOD_MODULE_BUILTIN && st != KMOD_MODULE_COMING) {
			int r = kmod_module_probe_insert_module(mod, KMOD_PROBE_APPLY_BLACKLIST, NULL,
								NULL, NULL, NULL);
			if (r < 0 && r != -ENODEV && r != -EEXIST) {
				errno = -r;
				warn("module %s (for %s):", name, alias);
			} else if (r == 0) {
				int n = snprintf(cp->loaded + cp->loaded_len,
						 sizeof cp->loaded - cp->loaded_len, " %s", name);
				if (n > 0 && (size_t)n < sizeof cp->loaded - cp->loaded_len)
					cp->loaded_len += (size_t)n;
				cp->nloaded++;
			}
		}
		kmod_module_unref(mod);
	}
	kmod_module_unref_list(list);
}

/* depth-first over /sys/devices, not following symlinks */
static void walk(struct coldplug *cp, int dirfd, int depth)
{
	DIR *d;
	struct dirent *e;
	if (depth > 32)
		return;
	d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (e->d_type == DT_DIR) {
			int fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
			if (fd >= 0)
				walk(cp, fd, depth + 1);
		} else if (e->d_type == DT_REG && !strcmp(e->d_name, "modalias")) {
			char alias[512];
			int fd = openat(dirfd, "modalias", O_RDONLY | O_CLOEXEC);
			ssize_t n = fd < 0 ? -1 : read(fd, alias, sizeof alias - 1);
			if (fd >= 0)
				close(fd);
			if (n <= 0)
				continue;
			alias[n] = 0;
			alias[strcspn(alias, "\n")] = 0;
			if (alias[0] && seen_add(&cp->aliases, alias))
				load_alias(cp, alias);
		}
	}
	closedir(d);
}

static int have_module_tree(void)
{
	struct utsname u;
	char p[300];
	if (uname(&u))
		return 0;
	snprintf(p, sizeof p, "/lib/modules/%s/modules.dep.bin", u.release);
	return !access(p, F_OK);
}

int modules_coldplug(void)
{
	struct coldplug cp = { 0 };
	double t0 = uptime();
	int pass;

	if (!have_module_tree()) {
		ilog("modules: none in this image (a kernel with its drivers built in)");
		return 0;
	}

	cp.ctx = kmod_new(NULL, NULL);
	if (!cp.ctx) {
		struct utsname u;
		uname(&u);
		warn("libkmod: cannot use /lib/modules/%s: no modules loaded", u.release);
		return 0;
	}
	if (kmod_load_resources(cp.ctx) < 0)
		warn("libkmod: no module index in /lib/modules (depmod not run?)");
	for (pass = 0; pass < MAX_PASSES; pass++) {
		int before = cp.nloaded, fd;
		fd = open("/sys/devices", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			warn("cannot read /sys/devices:");
			break;
		}
		walk(&cp, fd, 0);
		if (cp.nloaded == before)
			break;
		usleep(20000);   /* let the new drivers' devices register */
	}
	ilog("modules:%s (%d loaded in %.2f s, %zu device aliases)",
	     cp.nloaded ? cp.loaded : " none", cp.nloaded, uptime() - t0, cp.aliases.n);
	for (size_t i = 0; i < cp.aliases.n; i++)
		free(cp.aliases.v[i]);
	free(cp.aliases.v);
	kmod_unref(cp.ctx);
	return cp.nloaded;
}

static int read_hex(const char *dir, const char *file, unsigned long *out)
{
	char path[512], b[32];
	int fd;
	ssize_t n;
	snprintf(path, sizeof path, "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, b, sizeof b - 1);
	close(fd);
	if (n <= 0)
		return -1;
	b[n] = 0;
	*out = strtoul(b, NULL, 16);
	return 0;
}

/* Storage and network controllers no driver took: a warning each, not a stop. */
void devices_report_unbound(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char dir[300], drv[320];
		unsigned long cls, ven, dev;
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof dir, "/sys/bus/pci/devices/%s", e->d_name);
		if (read_hex(dir, "class", &cls) || ((cls >> 16) != 0x01 && (cls >> 16) != 0x02))
			continue;
		snprintf(drv, sizeof drv, "%s/driver", dir);
		if (!access(drv, F_OK))
			continue;
		read_hex(dir, "vendor", &ven);
		read_hex(dir, "device", &dev);
		warn("no driver for %s controller at PCI %s (%04lx:%04lx, class %06lx): "
		     "no module for it in this image", (cls >> 16) == 1 ? "storage" : "network",
		     e->d_name, ven, dev, cls);
	}
	if (d)
		closedir(d);
	/* virtio devices behind a bound virtio_pci: block, net, scsi */
	d = opendir("/sys/bus/virtio/devices");
	while (d && (e = readdir(d))) {
		char dir[300], drv[320];
		unsigned long type;
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof dir, "/sys/bus/virtio/devices/%s", e->d_name);
		if (read_hex(dir, "device", &type) || (type != 1 && type != 2 && type != 8))
			continue;
		snprintf(drv, sizeof drv, "%s/driver", dir);
		if (access(drv, F_OK))
			warn("no driver for virtio %s device %s: no module for it in this image",
			     type == 1 ? "net" : type == 2 ? "block" : "scsi", e->d_name);
	}
	if (d)
		closedir(d);
}

/* Filesystems are not devices: coldplug does not load them.  The results partition is
 * FAT; load its modules by name (missing ones are a warning: no results partition). */
void modules_load_names(const char *const *names)
{
	struct kmod_ctx *ctx;
	char loaded[256] = "";
	size_t len = 0;
	if (!have_module_tree() || !(ctx = kmod_new(NULL, NULL)))
		return;
	for (int i = 0; names[i]; i++) {
		struct kmod_module *mod;
		int r;
		if (kmod_module_new_from_name(ctx, names[i], &mod) < 0)
			continue;
		r = kmod_module_probe_insert_module(mod, 0, NULL, NULL, NULL, NULL);
		if (r < 0 && r != -EEXIST) {
			errno = -r;
			warn("module %s:", names[i]);
		} else if (r == 0) {
			int n = snprintf(loaded + len, sizeof loaded - len, " %s", names[i]);
			if (n > 0 && (size_t)n < sizeof loaded - len)
				len += (size_t)n;
		}
		kmod_module_unref(mod);
	}
	kmod_unref(ctx);
	if (len)
		ilog("filesystem modules:%s", loaded);
}
