#include "init.h"
#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct mnt {
	const char *src, *dst, *type;
	unsigned long flags;
	const char *data;
} mounts[] = {
	{ "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
	{ "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
	{ "devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755" },
	{ "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777" },
	{ "tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755" },
};

void mount_all(void)
{
	for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++) {
		const struct mnt *m = &mounts[i];
		mkdir(m->dst, 0755);
		if (mount(m->src, m->dst, m->type, m->flags, m->data) && errno != EBUSY)
			warn("mount %s on %s:", m->type, m->dst);
	}
}

/* The kernel opens /dev/console for us when the initramfs has the node; when it did not,
 * open it now that devtmpfs is mounted. */
void console_setup(void)
{
	int fd;
	if (fcntl(1, F_GETFD) >= 0 && fcntl(2, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fcntl(i, F_GETFD) < 0)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}
