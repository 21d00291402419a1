/* faultfs: a FUSE file system with one file, MNT/disk, whose bytes are those of a backing
 * file except that reads (or writes) touching chosen ranges fail with EIO -- a disk with
 * bad sectors for host tests, once a loop device is set up over MNT/disk.  MNT/stats
 * tells how many requests failed.  Every request reaches this program as it was asked
 * (direct_io: no page cache in between), so one 4k read of the loop device is one read
 * here.
 *
 * usage: faultfs MNT BACKING [--fail-read OFF+LEN]... [--fail-write OFF+LEN]... [--discard=punch|keep]
 * A discard of the loop device (a punched hole) is refused (a disk that cannot discard);
 * with --discard=punch it frees the backing file's blocks, which then read as zeros; with
 * --discard=keep it succeeds and keeps the data (a disk whose discarded blocks do not read
 * back as zeros).
 * Runs in the foreground until MNT is unmounted (umount MNT) or it gets SIGTERM. */
#define _GNU_SOURCE   /* fallocate */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_RANGES 16

struct range {
	uint64_t off, len;
	int wr;                 /* fails writes (else reads) */
};

static struct {
	int fd;
	uint64_t size;
	struct range r[MAX_RANGES];
	int n;
	long failed[2];         /* reads, writes */
	long requests[2];
	int discard;            /* a punched hole: 0 refused, 1 done, 2 succeeds and keeps the data */
	long discards;
} fs;

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	memset(st, 0, sizeof *st);
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (!strcmp(path, "/disk")) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t)fs.size;
	} else if (!strcmp(path, "/stats")) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = 4096;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "disk", NULL, 0, 0);
	fill(buf, "stats", NULL, 0, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/disk") && strcmp(path, "/stats"))
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

/* a request of len bytes at off in direction wr: -EIO if it touches a failing range */
static int fault(int wr, uint64_t off, uint64_t len)
{
	fs.requests[wr]++;
	for (int i = 0; i < fs.n; i++) {
		struct range *r = &fs.r[i];
		if (r->wr == wr && off < r->off + r->len && r->off < off + len) {
			fs.failed[wr]++;
			return -EIO;
		}
	}
	return 0;
}

static int fs_read(const char *path, char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
	ssize_t r;
	if (!strcmp(path, "/stats")) {
		char s[256];
		int n = snprintf(s, sizeof s, "reads %ld\nwrites %ld\nreads_failed %ld\nwrites_failed %ld\ndiscards %ld\n",
				 fs.requests[0], fs.requests[1], fs.failed[0], fs.failed[1], fs.discards);
		if (off >= n)
			return 0;
		if ((size_t)(n - off) < len)
			len = (size_t)(n - off);
		memcpy(buf, s + off, len);
		return (int)len;
	}
	if ((r = fault(0, (uint64_t)off, len)))
		return (int)r;
	r = pread(fs.fd, buf, len, off);
	return r < 0 ? -errno : (int)r;
}

static int fs_write(const char *path, const char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
	ssize_t r;
	if (strcmp(path, "/disk"))
		return -EACCES;
	if ((uint64_t)off + len > fs.size)
		return -ENOSPC;
	if ((r = fault(1, (uint64_t)off, len)))
		return (int)r;
	r = pwrite(fs.fd, buf, len, off);
	return r < 0 ? -errno : (int)r;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	return fdatasync(fs.fd) ? -errno : 0;
}

static int fs_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	if (strcmp(path, "/disk"))
		return -EACCES;
	if (!(mode & FALLOC_FL_PUNCH_HOLE) || !fs.discard)
		return -EOPNOTSUPP;
	fs.discards++;
	if (fs.discard == 2)
		return 0;
	return fallocate(fs.fd, mode, off, len) ? -errno : 0;
}

static const struct fuse_operations ops = {
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.fsync = fs_fsync,
	.fallocate = fs_fallocate,
};

static void usage(const char *why)
{
	fprintf(stderr, "faultfs: %s\nusage: faultfs MNT BACKING [--fail-read OFF+LEN]... "
		"[--fail-write OFF+LEN]... [--discard=punch|keep]\n", why);
	exit(2);
}

int main(int argc, char **argv)
{
	char *fargv[8];
	struct stat st;
	int fargc = 0;
	if (argc < 3)
		usage("a mount point and a backing file are needed");
	for (int i = 3; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--discard=punch") || !strcmp(argv[i], "--discard=keep")) {
			fs.discard = argv[i][10] == 'p' ? 1 : 2;
			continue;
		}
		if (i + 1 >= argc)
			usage("an option without its value");
		if (strcmp(argv[i], "--fail-read") && strcmp(argv[i], "--fail-write"))
			usage("unknown option");
		if (fs.n == MAX_RANGES)
			usage("too many ranges");
		fs.r[fs.n].wr = !strcmp(argv[i], "--fail-write");
		fs.r[fs.n].off = strtoull(argv[++i], &end, 0);
		if (*end != '+')
			usage("a range is OFF+LEN (bytes)");
		fs.r[fs.n].len = strtoull(end + 1, &end, 0);
		if (*end || !fs.r[fs.n].len)
			usage("a range is OFF+LEN (bytes)");
		fs.n++;
	}
	fs.fd = open(argv[2], O_RDWR);
	if (fs.fd < 0 || fstat(fs.fd, &st)) {
		perror(argv[2]);
		return 1;
	}
	fs.size = (uint64_t)st.st_size;
	fargv[fargc++] = argv[0];
	fargv[fargc++] = "-f";          /* foreground */
	fargv[fargc++] = "-s";          /* one thread: the counters need no lock */
	fargv[fargc++] = "-o";
	fargv[fargc++] = "fsname=faultfs";
	fargv[fargc++] = argv[1];
	fargv[fargc] = NULL;
	return fuse_main(fargc, fargv, &ops, NULL);
}
