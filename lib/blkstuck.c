/* Stuck disks and reads that give up: see blkstuck.h. */
#include "blkstuck.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static char stuck[BLKSTUCK_MAX][32];
static int nstuck;

void blkstall_mark(const char *disk)
{
	if (blkstall_stuck(disk) || nstuck == BLKSTUCK_MAX || strlen(disk) >= sizeof stuck[0])
		return;
	strcpy(stuck[nstuck++], disk);
}

int blkstall_stuck(const char *name)
{
	const char *base = strncmp(name, "/dev/", 5) ? name : name + 5;
	for (int i = 0; i < nstuck; i++) {
		size_t l = strlen(stuck[i]);
		const char *p = base + l;
		if (strncmp(base, stuck[i], l))
			continue;
		if (!*p)
			return 1;
		/* a partition: vda1, sda12; nvme0n1p1, mmcblk0p2 (a name ending in a digit) */
		if (l && stuck[i][l - 1] >= '0' && stuck[i][l - 1] <= '9' && *p++ != 'p')
			continue;
		if (*p && strspn(p, "0123456789") == strlen(p))
			return 1;
	}
	return 0;
}

/* The read runs in a child process: a thread stuck in the kernel would hold its process,
 * a child left behind holds only itself.  It reads with O_DIRECT when it can: a buffered
 * read that never ends leaves a locked page in the device's cache, and the device's last
 * close (and a sync) would then wait for it too. */
#define DATA_OFF 4096           /* the data's place in the shared pages: O_DIRECT's alignment */
ssize_t blkstall_pread(int fd, void *buf, size_t n, off_t off, double timeout_s)
{
	struct { ssize_t r; int err; } *res;
	size_t len = DATA_OFF + n;
	int pfd[2], ms = (int)(timeout_s * 1000), r;
	struct pollfd pf;
	pid_t pid;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return pread(fd, buf, n, off);
	res = m;
	if (pipe2(pfd, O_CLOEXEC)) {
		munmap(m, len);
		return pread(fd, buf, n, off);
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(pfd[0]);
		close(pfd[1]);
		munmap(m, len);
		return pread(fd, buf, n, off);
	}
	if (pid == 0) {
		char self[64];
		int dfd;
		close(pfd[0]);
		snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
		dfd = n % 4096 || off % 4096 ? -1 : open(self, O_RDONLY | O_DIRECT | O_CLOEXEC);
		while ((res->r = pread(dfd >= 0 ? dfd : fd, (char *)m + DATA_OFF, n, off)) < 0 && errno == EINTR)
			;
		if (res->r < 0 && dfd >= 0 && errno == EINVAL)   /* no O_DIRECT there (tmpfs) */
			while ((res->r = pread(fd, (char *)m + DATA_OFF, n, off)) < 0 && errno == EINTR)
				;
		res->err = res->r < 0 ? errno : 0;
		_exit(write(pfd[1], "", 1) == 1 ? 0 : 1);
	}
	close(pfd[1]);
	pf.fd = pfd[0];
	pf.events = POLLIN;
	while ((r = poll(&pf, 1, ms)) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	if (r <= 0 || !(pf.revents & POLLIN)) {
		kill(pid, SIGKILL);     /* not waited for: it may never end */
		munmap(m, len);
		errno = ETIMEDOUT;
		return -1;
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (res->r > 0)
		memcpy(buf, (char *)m + DATA_OFF, (size_t)res->r);
	r = res->err;
	{
		ssize_t got = res->r;
		munmap(m, len);
		errno = r;
		return got;
	}
}
