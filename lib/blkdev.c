#include "blkdev.h"
#include "blkstuck.h"
#include "json.h"
#include "fileio.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SIG_READ (68 * 1024)

/* FAT's volume label: 11 bytes at 43 (FAT12/16) or 71 (FAT32), space padded */
static void fat_label(const unsigned char *b, int fat32, char *out, size_t n)
{
	size_t l = 11;
	const unsigned char *p = b + (fat32 ? 71 : 43);
	while (l && p[l - 1] == ' ')
		l--;
	if (l >= n)
		l = n - 1;
	for (size_t i = 0; i < l; i++)
		out[i] = (char)(p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '?');
	out[l] = 0;
}

int blkdev_signature(int fd, uint64_t size, char *out, size_t n, char *label, size_t ln)
{
	static const struct { const char *name; unsigned off; const char *magic; unsigned len; } sig[] = {
		{ "gpt", 512, "EFI PART", 8 },
		{ "gpt", 4096, "EFI PART", 8 },
		{ "luks", 0, "LUKS\xba\xbe", 6 },
		{ "xfs", 0, "XFSB", 4 },
		{ "squashfs", 0, "hsqs", 4 },
		{ "ext2/3/4", 1080, "\x53\xef", 2 },
		{ "btrfs", 65600, "_BHRfS_M", 8 },
		{ "ntfs", 3, "NTFS    ", 8 },
		{ "exfat", 3, "EXFAT   ", 8 },
		{ "vfat", 54, "FAT12   ", 8 },
		{ "vfat", 54, "FAT16   ", 8 },
		{ "vfat", 82, "FAT32   ", 8 },
		{ "swap", 4086, "SWAPSPACE2", 10 },
		{ "swap", 4086, "SWAP-SPACE", 10 },
		{ "lvm2", 512, "LABELONE", 8 },
		{ "lvm2", 1024, "LABELONE", 8 },
		{ "iso9660", 32769, "CD001", 5 },
		{ "linux_raid", 4096, "\xfc\x4e\x2b\xa9", 4 },
		{ "linux_raid", 0, "\xfc\x4e\x2b\xa9", 4 },
		{ "bcache", 4120, "\xc6\x85\x73\xf6\x4e\x1a\x45\xca", 8 },
		{ "mbr", 510, "\x55\xaa", 2 },
	};
	unsigned char *buf = malloc(SIG_READ);
	ssize_t got = 0;
	out[0] = 0;
	if (!buf)
		return 0;
	while (got < SIG_READ) {
		/* a disk that does not answer is not waited for forever */
		ssize_t r = blkstall_pread(fd, buf + got, (size_t)(SIG_READ - got), got, BLKSTALL_READ_S);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ETIMEDOUT) {
			free(buf);
			return -1;
		}
		if (r <= 0)
			break;
		got += r;
	}
	for (size_t i = 0; i < sizeof sig / sizeof sig[0]; i++) {
		if ((ssize_t)(sig[i].off + sig[i].len) > got || sig[i].off + sig[i].len > size)
			continue;
		if (!memcmp(buf + sig[i].off, sig[i].magic, sig[i].len)) {
			snprintf(out, n, "%s", sig[i].name);
			if (label && !strcmp(sig[i].name, "vfat"))
				fat_label(buf, sig[i].off == 82, label, ln);
			break;
		}
	}
	free(buf);
	return 0;
}

/* "[mq-deadline] none" -> "mq-deadline" */
static void active_scheduler(const char *line, char *out, size_t n)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
	if (a && b)
		snprintf(out, n, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(out, n, "%s", line);
}

static void sysfs_str(const char *name, const char *file, char *out, size_t n)
{
	char p[512];
	snprintf(p, sizeof p, "/sys/block/%s/%s", name, file);
	if (read_line(p, out, n))
		out[0] = 0;
}

static long long sysfs_num(const char *name, const char *file)
{
	char p[512];
	long long v;
	snprintf(p, sizeof p, "/sys/block/%s/%s", name, file);
	return read_num(p, &v) ? -1 : v;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* SCSI VPD page 0x80: 4-byte header, then the serial */
static void vpd_serial(const char *name, char *out, size_t n)
{
	char p[512];
	unsigned char b[256];
	ssize_t r;
	int fd;
	snprintf(p, sizeof p, "/sys/block/%s/device/vpd_pg80", name);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	r = read(fd, b, sizeof b);
	close(fd);
	if (r > 4) {
		size_t len = (size_t)r - 4, j = 0;
		for (size_t i = 0; i < len && j + 1 < n; i++)
			if (isgraph(b[4 + i]))
				out[j++] = (char)b[4 + i];
		out[j] = 0;
	}
}

#define MAX_PARTS 64

/* the sysfs directories of NAME's partitions (entries with a "partition" file) */
static int partition_dirs(const char *name, char dirs[][300], int max)
{
	char dir[300];
	DIR *d;
	struct dirent *e;
	int n = 0;
	snprintf(dir, sizeof dir, "/sys/block/%s", name);
	d = opendir(dir);
	while (d && (e = readdir(d)) && n < max) {
		char p[600];
		if (strncmp(e->d_name, name, strlen(name)))
			continue;
		snprintf(p, sizeof p, "%s/%s/partition", dir, e->d_name);
		if (!access(p, F_OK))
			snprintf(dirs[n++], sizeof dirs[0], "%s/%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

/* Is the device (dev_t list: the disk and its partitions) mounted or used as swap? */
static void find_mounts(const char *name, char *out, size_t n)
{
	char line[4096];
	unsigned devs[64][2];
	int nd = 0, np;
	FILE *f;
	char parts[MAX_PARTS][300];
	out[0] = 0;
	/* the disk's dev and every partition's */
	{
		char dev[32];
		sysfs_str(name, "dev", dev, sizeof dev);
		if (sscanf(dev, "%u:%u", &devs[nd][0], &devs[nd][1]) == 2)
			nd++;
	}
	np = partition_dirs(name, parts, MAX_PARTS);
	for (int i = 0; i < np && nd < 64; i++) {
		char p[600], dev[32];
		snprintf(p, sizeof p, "%s/dev", parts[i]);
		if (!read_line(p, dev, sizeof dev) && sscanf(dev, "%u:%u", &devs[nd][0], &devs[nd][1]) == 2)
			nd++;
	}
	f = fopen("/proc/self/mountinfo", "r");
	while (f && fgets(line, sizeof line, f)) {
		unsigned ma, mi;
		char mnt[1024];
		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, mnt) != 3)
			continue;
		for (int i = 0; i < nd; i++)
			if (devs[i][0] == ma && devs[i][1] == mi) {
				snprintf(out, n, "mounted on %s", mnt);
				fclose(f);
				return;
			}
	}
	if (f)
		fclose(f);
	f = fopen("/proc/swaps", "r");
	while (f && fgets(line, sizeof line, f)) {
		char dev[512];
		struct stat st;
		if (sscanf(line, "%511s", dev) != 1 || stat(dev, &st) || !S_ISBLK(st.st_mode))
			continue;
		for (int i = 0; i < nd; i++)
			if (major(st.st_rdev) == devs[i][0] && minor(st.st_rdev) == devs[i][1]) {
				snprintf(out, n, "in use as swap (%s)", dev);
				fclose(f);
				return;
			}
	}
	if (f)
		fclose(f);
}

static int count_holders(const char *name)
{
	char dir[512], parts[MAX_PARTS][300];
	int n, np = partition_dirs(name, parts, MAX_PARTS);
	snprintf(dir, sizeof dir, "/sys/block/%s/holders", name);
	n = count_entries(dir);
	for (int i = 0; i < np; i++) {
		char p[600];
		snprintf(p, sizeof p, "%s/holders", parts[i]);
		n += count_entries(p);
	}
	return n;
}

static int count_partitions(const char *name)
{
	char parts[MAX_PARTS][300];
	return partition_dirs(name, parts, MAX_PARTS);
}

void blkdev_scheduler(const struct blkdev *d, char *out, size_t n)
{
	char b[256];
	sysfs_str(d->name, "queue/scheduler", b, sizeof b);
	active_scheduler(b, out, n);
}

static void probe_sysfs(struct blkdev *d)
{
	char b[256];
	long long v;
	const char *n = d->name;
	sysfs_str(n, "device/model", d->model, sizeof d->model);
	sysfs_str(n, "device/vendor", d->vendor, sizeof d->vendor);
	sysfs_str(n, "serial", d->serial, sizeof d->serial);             /* virtio */
	if (!d->serial[0])
		sysfs_str(n, "device/serial", d->serial, sizeof d->serial); /* nvme, mmc */
	if (!d->serial[0])
		vpd_serial(n, d->serial, sizeof d->serial);                  /* scsi, sata */
	if (!d->model[0])
		sysfs_str(n, "device/name", d->model, sizeof d->model);      /* mmc */
	v = sysfs_num(n, "size");
	if (v >= 0)
		d->size = (uint64_t)v * 512;
	v = sysfs_num(n, "queue/logical_block_size");
	d->lbs = v > 0 ? (unsigned)v : 512;
	v = sysfs_num(n, "queue/physical_block_size");
	d->pbs = v > 0 ? (unsigned)v : d->lbs;
	d->rotational = (int)sysfs_num(n, "queue/rotational");
	d->nr_requests = (int)sysfs_num(n, "queue/nr_requests");
	d->queue_depth = (int)sysfs_num(n, "device/queue_depth");
	blkdev_scheduler(d, d->scheduler, sizeof d->scheduler);
	d->discard_max = sysfs_num(n, "queue/discard_max_bytes");
	d->discard_gran = sysfs_num(n, "queue/discard_granularity");
	sysfs_str(n, "queue/write_cache", d->write_cache, sizeof d->write_cache);
	/* a zoned device (SMR disk, NVMe ZNS): host-managed ones take writes only at each
	 * zone's write pointer */
	sysfs_str(n, "queue/zoned", b, sizeof b);
	if (!strcmp(b, "host-managed") || !strcmp(b, "host-aware")) {
		snprintf(d->zoned, sizeof d->zoned, "%s", b);
		v = sysfs_num(n, "queue/chunk_sectors");
		d->zone_size = v > 0 ? (uint64_t)v * 512 : 0;
		d->nr_zones = sysfs_num(n, "queue/nr_zones");
		d->max_open_zones = sysfs_num(n, "queue/max_open_zones");
		d->max_active_zones = sysfs_num(n, "queue/max_active_zones");
	}
	d->readonly = sysfs_num(n, "ro") == 1;
	d->removable = sysfs_num(n, "removable") == 1;
	d->is_virtual = blkdev_is_virtual(n);
	d->partitions = count_partitions(n);
	d->holders = count_holders(n);
	find_mounts(n, d->mounted, sizeof d->mounted);
}

int blkdev_probe(const char *arg, struct blkdev *d, char *err, size_t errlen)
{
	struct stat st;
	char sys[300];
	int fd;
	memset(d, 0, sizeof *d);
	d->rotational = d->nr_requests = d->queue_depth = -1;
	d->discard_max = d->discard_gran = -1;
	d->nr_zones = d->max_open_zones = d->max_active_zones = -1;
	if (strchr(arg, '/')) {
		snprintf(d->path, sizeof d->path, "%s", arg);
	} else {
		/* vdb is /dev/vdb; a name that is no device but a file here is that file (fio's
		 * --filename=testfile) */
		snprintf(d->path, sizeof d->path, "/dev/%s", arg);
		if (stat(d->path, &st) && errno == ENOENT && !stat(arg, &st) && S_ISREG(st.st_mode))
			snprintf(d->path, sizeof d->path, "%s", arg);
	}
	if (stat(d->path, &st)) {
		if (errno == ENOENT && !strchr(arg, '/'))   /* fio's --filename=test --size=4g */
			snprintf(err, errlen, "%s: %s (a bare name is a device; a new file here is ./%s)", d->path,
				 strerror(errno), arg);
		else
			snprintf(err, errlen, "%s: %s", d->path, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		d->is_file = 1;
		snprintf(d->name, sizeof d->name, "%s", arg);
		d->size = (uint64_t)st.st_size;
		d->lbs = 512;
		d->pbs = st.st_blksize > 0 ? (unsigned)st.st_blksize : 4096;
	} else if (S_ISBLK(st.st_mode)) {
		/* the name under /sys/block (also for /dev/disk/by-id/... symlinks) */
		char link[512], *base;
		ssize_t l;
		snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
		l = readlink(sys, link, sizeof link - 1);
		if (l <= 0) {
			snprintf(err, errlen, "%s: block device not in /sys/dev/block", d->path);
			return -1;
		}
		link[l] = 0;
		base = strrchr(link, '/');
		snprintf(d->name, sizeof d->name, "%s", base ? base + 1 : link);
		snprintf(sys, sizeof sys, "/sys/block/%s", d->name);
		if (access(sys, F_OK)) {
			snprintf(err, errlen, "%s: is a partition (%s); name the whole disk", d->path, d->name);
			return -1;
		}
		probe_sysfs(d);
	} else if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && (minor(st.st_rdev) == 3 || minor(st.st_rdev) == 5)) {
		/* fio's /dev/null and /dev/zero targets: what a system call costs, no device
		 * under it; nothing to read for signatures, nothing they could hold */
		d->is_null = 1;
		d->discard_max = 0;
		snprintf(d->name, sizeof d->name, "%s", minor(st.st_rdev) == 3 ? "null" : "zero");
		d->lbs = 512;
		d->pbs = 4096;
		d->signature_checked = 1;
		return 0;
	} else {
		snprintf(err, errlen, "%s: neither a block device nor a regular file (nor /dev/null, /dev/zero)", d->path);
		return -1;
	}
	/* a disk that stopped answering in this run is not read (signature_checked stays 0) */
	fd = blkstall_stuck(d->name) ? -1 : open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		uint64_t sz;
		if (!d->is_file && !ioctl(fd, BLKGETSIZE64, &sz))
			d->size = sz;
		if (blkdev_signature(fd, d->size, d->signature, sizeof d->signature, d->label, sizeof d->label) < 0) {
			if (!d->is_file)      /* it did not answer: not read again in this run */
				blkstall_mark(d->name);
		} else {
			d->signature_checked = 1;
		}
		close(fd);
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct blkdev *)a)->name, ((const struct blkdev *)b)->name);
}

int blkdev_list(struct blkdev **out, int include_virtual)
{
	struct dirent **v;
	int n = scandir("/sys/block", &v, NULL, alphasort), k = 0;
	struct blkdev *list = calloc(n > 0 ? (size_t)n : 1, sizeof *list);
	char err[256];
	for (int i = 0; i < n; i++) {
		if (list && v[i]->d_name[0] != '.' && (include_virtual || !blkdev_is_virtual(v[i]->d_name)) &&
		    !blkdev_probe(v[i]->d_name, &list[k], err, sizeof err) && list[k].size > 0)
			k++;
		free(v[i]);
	}
	if (n > 0)
		free(v);
	if (list)
		qsort(list, (size_t)k, sizeof *list, by_name);
	*out = list;
	return k;
}

struct json *blkdev_json(const struct blkdev *d)
{
	struct json *j = json_obj();
	json_add_str(j, "name", d->name);
	json_add_str(j, "path", d->path);
	json_add_str(j, "type", d->is_file ? "file" : d->is_null ? "char" : "block");
	if (d->model[0])
		json_add_str(j, "model", d->model);
	if (d->vendor[0])
		json_add_str(j, "vendor", d->vendor);
	if (d->serial[0])
		json_add_str(j, "serial", d->serial);
	json_add_int(j, "size_bytes", (long long)d->size);
	json_add_int(j, "logical_block_size", d->lbs);
	json_add_int(j, "physical_block_size", d->pbs);
	if (d->rotational >= 0)
		json_add_bool(j, "rotational", d->rotational);
	if (d->nr_requests >= 0)
		json_add_int(j, "nr_requests", d->nr_requests);
	if (d->queue_depth >= 0)
		json_add_int(j, "queue_depth", d->queue_depth);
	if (d->scheduler[0])
		json_add_str(j, "scheduler", d->scheduler);
	if (d->discard_max >= 0)
		json_add_int(j, "discard_max_bytes", d->discard_max);
	if (d->discard_gran >= 0)
		json_add_int(j, "discard_granularity", d->discard_gran);
	if (d->write_cache[0])
		json_add_str(j, "write_cache", d->write_cache);
	if (d->zoned[0]) {
		json_add_str(j, "zoned", d->zoned);
		if (d->zone_size)
			json_add_int(j, "zone_size_bytes", (long long)d->zone_size);
		if (d->nr_zones >= 0)
			json_add_int(j, "nr_zones", d->nr_zones);
		if (d->max_open_zones >= 0)
			json_add_int(j, "max_open_zones", d->max_open_zones);
		if (d->max_active_zones >= 0)
			json_add_int(j, "max_active_zones", d->max_active_zones);
	}
	json_add_bool(j, "readonly", d->readonly);
	json_add_int(j, "partitions", d->partitions);
	json_add_int(j, "holders", d->holders);
	if (d->signature_checked)
		json_add_str(j, "signature", d->signature[0] ? d->signature : "none");
	if (d->label[0])
		json_add_str(j, "label", d->label);
	json_add_str(j, "mounted", d->mounted[0] ? d->mounted : "no");
	return j;
}

int blkdev_stat_fields(const char *line, unsigned long long v[BLKSTAT_FIELDS])
{
	int k = 0, used;
	memset(v, 0, BLKSTAT_FIELDS * sizeof *v);
	while (k < BLKSTAT_FIELDS && sscanf(line, " %llu%n", &v[k], &used) == 1) {
		line += used;
		k++;
	}
	return k;
}
