/* Whole-file reads and full writes, shared by assay and init. */
#ifndef ASSAY_FILEIO_H
#define ASSAY_FILEIO_H

#include <stddef.h>

/* Write all n bytes (retrying on EINTR and short writes); 0, or -1 with errno. */
int write_all(int fd, const void *p, size_t n);
/* Read a whole file, at most max bytes, NUL-terminated; NULL with errno (EFBIG when it
 * is larger than max: never truncated silently).  len may be NULL. */
char *read_file(const char *path, size_t max, size_t *len);
/* First line of a file, trailing space removed; 0 on success. */
int read_line(const char *path, char *buf, size_t n);
/* a number (decimal, 0x hex) on a file's first line; 0 on success */
int read_num(const char *path, long long *out);

/* run argv (PATH searched; quiet: its stdout to /dev/null) and wait: its exit status,
 * 127 when it could not be run, -1 when killed or it could not start */
int run_wait(char *const argv[], int quiet);
/* the mount point of path's filesystem (the longest mountinfo entry over it, path
 * absolute and resolved) and its options (the mount's, then the filesystem's); 0, or -1
 * when mountinfo is unreadable */
int mount_of(const char *path, char *mp, size_t n, char *opts, size_t on);

/* A path under the system's roots: /sys/..., /proc/..., /dev/kmsg.  ASSAY_SYSROOT (tests
 * only) puts every one of them under a fixture tree. */
void sys_path(char *out, size_t n, const char *path);
/* the number in the file DIR/NAME (a sysfs counter), or -1 */
long long read_num_in(const char *dir, const char *name);
/* is name prefix and a number after it (cpu3, mc0, hwmon1)? */
int name_numbered(const char *name, const char *prefix);
/* scandir's order for device directories: nvme2 before nvme10 */
struct dirent;
int dir_by_version(const struct dirent **a, const struct dirent **b);

#endif
