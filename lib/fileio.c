#include "fileio.h"

#include <dirent.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

char *read_file(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t r;
		if (n + 65536 + 1 > cap) {
			char *nb;
			cap = cap ? cap * 2 : 65536 * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			close(fd);
			errno = EFBIG;
			return NULL;
		}
	}
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t l;
	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		buf[0] = 0;
		return -1;
	}
	fclose(f);
	l = strlen(buf);
	while (l && isspace((unsigned char)buf[l - 1]))
		buf[--l] = 0;
	return 0;
}

int read_num(const char *path, long long *out)
{
	char b[64], *end;
	if (read_line(path, b, sizeof b))
		return -1;
	*out = strtoll(b, &end, 0);
	return end == b ? -1 : 0;
}

int mount_of(const char *path, char *mp, size_t n, char *opts, size_t on)
{
	char *mi = read_file("/proc/self/mountinfo", 1 << 20, NULL), *save = NULL;
	size_t bl = 0;
	snprintf(mp, n, "/");
	if (on)
		opts[0] = 0;
	if (!mi)
		return -1;
	for (char *line = strtok_r(mi, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char p[4096], o[512];
		size_t l;
		/* id parent major:minor root mount-point options ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s %511s", p, o) != 2)
			continue;
		l = strlen(p);
		if (!strncmp(path, p, l) && (path[l] == '/' || !path[l] || l == 1) && l >= bl) {
			bl = l;
			snprintf(mp, n, "%s", p);
			if (on) {
				/* and the filesystem's own options, after " - FSTYPE SOURCE " */
				const char *dash = strstr(line, " - ");
				char super[512] = "";
				if (dash)
					sscanf(dash + 3, "%*s %*s %511s", super);
				snprintf(opts, on, "%s,%s", o, super);
			}
		}
	}
	free(mi);
	return 0;
}

int run_wait(char *const argv[], int quiet)
{
	pid_t pid = fork();
	int st;
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0)
				dup2(null, 1);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void sys_path(char *out, size_t n, const char *path)
{
	const char *root = getenv("ASSAY_SYSROOT");
	snprintf(out, n, "%s%s", root ? root : "", path);
}

long long read_num_in(const char *dir, const char *name)
{
	char p[1024];
	long long v;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return read_num(p, &v) ? -1 : v;
}

int name_numbered(const char *name, const char *prefix)
{
	size_t l = strlen(prefix);
	return !strncmp(name, prefix, l) && name[l] >= '0' && name[l] <= '9';
}

int dir_by_version(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}
