/* The results inbox: a file the running system preallocates and maps, whose blocks the
 * image writes raw (inbox.h).  Every block of a fresh inbox says what it is:
 *     ASSAY-INBOX-FREE <nonce> <index, 8 hex digits>\n     (block 0 adds dir=DIR\n)
 * and zeros; the image writes nothing unless every block it maps still says exactly that.
 * It writes the files from block 1 on, syncs, then block 0, the header that makes them
 * count, and syncs again: a power cut before the header leaves a fresh inbox, never a
 * half-written result, and nothing outside the inbox is ever written. */
#include "inbox.h"
#include "results.h"
#include "blkdev.h"
#include "crc32.h"
#include "fileio.h"
#include "json.h"
#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define FREE_MAGIC "ASSAY-INBOX-FREE"
#define DONE_MAGIC "ASSAY-INBOX-DONE"

/* block index of a fresh inbox, into b (INBOX_BLOCK bytes) */
static void free_block(char *b, const char *nonce, unsigned index, const char *dir)
{
	int l;
	memset(b, 0, INBOX_BLOCK);
	l = snprintf(b, INBOX_BLOCK, FREE_MAGIC " %s %08x\n", nonce, index);
	if (index == 0 && dir)
		snprintf(b + l, INBOX_BLOCK - (size_t)l, "dir=%.*s\n", PATH_MAX, dir);
}

/* ---- the map: logical offsets of the file to bytes on the disk ---- */

/* read or write len bytes at logical offset off of the inbox through the map (O_DIRECT:
 * buf aligned, off and len multiples of 512); 0, or -1 with errno */
static int mapped_io(int fd, const struct inbox_map *m, unsigned long long off, char *buf, size_t len, int wr)
{
	unsigned long long lo = 0;
	for (int i = 0; i < m->n && len; i++) {
		unsigned long long end = lo + m->ext[i].len;
		while (len && off >= lo && off < end) {
			size_t piece = end - off < len ? (size_t)(end - off) : len;
			off_t at = (off_t)(m->ext[i].physical + (off - lo));
			ssize_t r = wr ? pwrite(fd, buf, piece, at) : pread(fd, buf, piece, at);
			if (r < 0 && errno == EINTR)
				continue;
			if (r != (ssize_t)piece) {
				if (r >= 0)
					errno = EIO;
				return -1;
			}
			buf += piece;
			off += piece;
			len -= piece;
		}
		lo = end;
	}
	if (len) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

void inbox_spec(const struct inbox_map *m, char *out, size_t n)
{
	size_t l = (size_t)snprintf(out, n, "inbox:%s:%llu:", m->nonce, m->disk_size);
	for (int i = 0; i < m->n && l < n; i++)
		l += (size_t)snprintf(out + l, n - l, "%s%llu+%llu", i ? "," : "", m->ext[i].physical, m->ext[i].len);
}

int inbox_parse(const char *spec, struct inbox_map *m, char *err, size_t n)
{
	const char *p;
	char *end;
	unsigned long long total = 0;
	memset(m, 0, sizeof *m);
	if (strncmp(spec, "inbox:", 6) || strlen(spec + 6) < 17 || spec[6 + 16] != ':') {
		snprintf(err, n, "results=%.80s: not inbox:NONCE:DISKSIZE:OFFSET+LENGTH,...", spec);
		return -1;
	}
	snprintf(m->nonce, sizeof m->nonce, "%.16s", spec + 6);
	if (strspn(m->nonce, "0123456789abcdef") != 16) {
		snprintf(err, n, "results=%.80s: the nonce is not 16 hex digits", spec);
		return -1;
	}
	p = spec + 6 + 17;
	m->disk_size = strtoull(p, &end, 10);
	if (end == p || *end != ':' || !m->disk_size) {
		snprintf(err, n, "results=%.80s: no disk size", spec);
		return -1;
	}
	for (p = end + 1; *p; p = *end ? end + 1 : end) {
		if (m->n == INBOX_MAX_EXTENTS) {
			snprintf(err, n, "results=...: more than %d extents", INBOX_MAX_EXTENTS);
			return -1;
		}
		m->ext[m->n].physical = strtoull(p, &end, 10);
		if (end == p || *end != '+') {
			snprintf(err, n, "results=...: extent %d is not OFFSET+LENGTH", m->n + 1);
			return -1;
		}
		p = end + 1;
		m->ext[m->n].len = strtoull(p, &end, 10);
		if (end == p || (*end && *end != ',') || m->ext[m->n].len % 512 || m->ext[m->n].physical % 512 ||
		    m->ext[m->n].physical + m->ext[m->n].len > m->disk_size) {
			snprintf(err, n, "results=...: extent %d is not 512-byte aligned inside the disk", m->n + 1);
			return -1;
		}
		total += m->ext[m->n++].len;
	}
	if (total < INBOX_SIZE) {
		snprintf(err, n, "results=...: the extents map %llu bytes, the inbox is %u", total, INBOX_SIZE);
		return -1;
	}
	return 0;
}

int inbox_on_disk(const char *spec, unsigned long long disk_size)
{
	struct inbox_map m;
	char err[200];
	return spec && !strncmp(spec, "inbox:", 6) && !inbox_parse(spec, &m, err, sizeof err) && m.disk_size == disk_size;
}

/* ---- kexec's side ---- */

static const struct fs_type {
	unsigned long magic;
	const char *name, *refuse;
} fs_types[] = {
	{ 0xEF53, "ext4", NULL },
	{ 0x58465342, "xfs", NULL },
	{ 0x4d44, "vfat", NULL },
	{ 0x9123683E, "btrfs", "copy-on-write with checksums: a raw write would fail its checksum" },
	{ 0x2fc12fc1, "zfs", "copy-on-write with checksums" },
	{ 0xca451a4e, "bcachefs", "copy-on-write with checksums" },
	{ 0xF2F52010, "f2fs", "log-structured: it may move a file's blocks" },
	{ 0x3434, "nilfs2", "log-structured: it may move a file's blocks" },
	{ 0x6969, "nfs", "a network filesystem: not on a disk of this machine" },
	{ 0xFF534D42, "cifs", "a network filesystem: not on a disk of this machine" },
	{ 0xFE534D42, "smb2", "a network filesystem: not on a disk of this machine" },
	{ 0x65735546, "fuse", "a user-space filesystem: its blocks cannot be mapped" },
	{ 0x01021994, "tmpfs", "in memory: gone when the machine jumps into the image" },
	{ 0x858458f6, "ramfs", "in memory: gone when the machine jumps into the image" },
	{ 0x794c7630, "overlay", "a layer over other filesystems: its blocks cannot be mapped" },
	{ 0x2011BAB0, "exfat", "no block map (FIEMAP) to write it through" },
	{ 0x5346544e, "ntfs", "no block map assay trusts to write it through" },
};

/* the filesystem type of path's filesystem; refuse set when it cannot be written raw */
static const struct fs_type *fs_type_of(const char *path, unsigned long *magic)
{
	struct statfs sf;
	if (statfs(path, &sf))
		return NULL;
	*magic = (unsigned long)sf.f_type;
	for (size_t i = 0; i < sizeof fs_types / sizeof fs_types[0]; i++)
		if (fs_types[i].magic == (unsigned long)sf.f_type)
			return &fs_types[i];
	return NULL;
}

/* the disk under dir's filesystem: its name, the filesystem's start on it, its size */
static int disk_of(dev_t dev, int allow_loop, struct inbox_map *m, unsigned long long *start, char *err, size_t n)
{
	char sys[64], real[PATH_MAX], p[PATH_MAX + 32], *slash;
	long long v;
	struct stat st;
	snprintf(sys, sizeof sys, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(sys, real)) {
		snprintf(err, n, "not on a block device (device %u:%u)", major(dev), minor(dev));
		return -1;
	}
	snprintf(p, sizeof p, "%s/dm", real);
	if (!stat(p, &st)) {
		snprintf(err, n, "on device-mapper (%s: LVM, encryption): the image cannot map its blocks",
			 strrchr(real, '/') + 1);
		return -1;
	}
	snprintf(p, sizeof p, "%s/md", real);
	if (!stat(p, &st)) {
		snprintf(err, n, "on software RAID (%s): the image would write one member of it", strrchr(real, '/') + 1);
		return -1;
	}
	*start = 0;
	snprintf(p, sizeof p, "%s/partition", real);
	if (!stat(p, &st)) {
		snprintf(p, sizeof p, "%s/start", real);
		if (read_num(p, &v) || v < 0) {
			snprintf(err, n, "cannot read %s", p);
			return -1;
		}
		*start = (unsigned long long)v * 512;
		slash = strrchr(real, '/');
		*slash = 0;     /* the partition's parent: the disk */
	}
	snprintf(m->disk, sizeof m->disk, "%s", strrchr(real, '/') + 1);
	if (!allow_loop && blkdev_is_virtual(m->disk)) {
		snprintf(err, n, "on %s, not a disk of the machine: the image would not find it", m->disk);
		return -1;
	}
	snprintf(p, sizeof p, "%s/size", real);
	if (read_num(p, &v) || v <= 0) {
		snprintf(err, n, "cannot read the size of %s", m->disk);
		return -1;
	}
	m->disk_size = (unsigned long long)v * 512;
	return 0;
}

/* add bytes at physical to the map (joined to the last piece when contiguous); 0, or -1
 * when the map is full */
static int map_add(struct inbox_map *m, unsigned long long physical, unsigned long long len)
{
	if (m->n && m->ext[m->n - 1].physical + m->ext[m->n - 1].len == physical) {
		m->ext[m->n - 1].len += len;
		return 0;
	}
	if (m->n == INBOX_MAX_EXTENTS)
		return -1;
	m->ext[m->n].physical = physical;
	m->ext[m->n++].len = len;
	return 0;
}

/* the extents by FIBMAP, block by block, where there is no FIEMAP (vfat) */
static int map_fibmap(int fd, unsigned long long start, struct inbox_map *m, char *err, size_t n)
{
	int bs = 0;
	if (ioctl(fd, FIGETBSZ, &bs) || bs < 512 || bs % 512 || INBOX_SIZE % (unsigned)bs) {
		snprintf(err, n, "its blocks cannot be mapped (no FIEMAP, FIGETBSZ: %s)", bs ? "odd size" : strerror(errno));
		return -1;
	}
	m->n = 0;
	for (unsigned b = 0; b < INBOX_SIZE / (unsigned)bs; b++) {
		int blk = (int)b;
		if (ioctl(fd, FIBMAP, &blk) || blk <= 0) {
			snprintf(err, n, "its blocks cannot be mapped (FIBMAP of block %u: %s)", b,
				 blk ? strerror(errno) : "a hole");
			return -1;
		}
		if (map_add(m, start + (unsigned long long)blk * (unsigned)bs, (unsigned)bs)) {
			snprintf(err, n, "it is in more than %d pieces on the disk (a fragmented filesystem)",
				 INBOX_MAX_EXTENTS);
			return -1;
		}
	}
	return 0;
}

/* the inbox's extents (FIEMAP, synced), each one a plain written block range */
static int map_file(int fd, unsigned long long start, struct inbox_map *m, char *err, size_t n)
{
	size_t sz = sizeof(struct fiemap) + 64 * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, sz);
	unsigned long long next = 0;
	const unsigned bad = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_ENCODED |
			     FIEMAP_EXTENT_DATA_ENCRYPTED | FIEMAP_EXTENT_NOT_ALIGNED | FIEMAP_EXTENT_DATA_INLINE |
			     FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_SHARED;
	if (!fm) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	fm->fm_length = ~0ULL;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	fm->fm_extent_count = 64;
	if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
		int e = errno;
		free(fm);
		if (e == EOPNOTSUPP || e == ENOTTY)
			return map_fibmap(fd, start, m, err, n);
		snprintf(err, n, "its blocks cannot be mapped (FIEMAP: %s)", strerror(e));
		return -1;
	}
	m->n = 0;
	for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &fm->fm_extents[i];
		if (e->fe_flags & bad) {
			snprintf(err, n, "its blocks are not plain (extent flags 0x%x: %s)", e->fe_flags,
				 e->fe_flags & FIEMAP_EXTENT_SHARED ? "shared, copy-on-write"
				 : e->fe_flags & FIEMAP_EXTENT_DATA_ENCRYPTED ? "encrypted"
				 : e->fe_flags & (FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL) ? "inline"
				 : "not on the disk as they are");
			free(fm);
			return -1;
		}
		if (e->fe_logical != next || e->fe_physical % 512 || e->fe_length % 512) {
			snprintf(err, n, "its blocks are not a plain sequence (a hole or unaligned extent)");
			free(fm);
			return -1;
		}
		if (e->fe_logical >= INBOX_SIZE)
			break;
		if (map_add(m, start + e->fe_physical, e->fe_length)) {
			snprintf(err, n, "it is in more than %d pieces on the disk (a fragmented filesystem)",
				 INBOX_MAX_EXTENTS);
			free(fm);
			return -1;
		}
		next = e->fe_logical + e->fe_length;
	}
	free(fm);
	if (next < INBOX_SIZE) {
		snprintf(err, n, "only %llu of its %u bytes are mapped", next, INBOX_SIZE);
		return -1;
	}
	/* the last extent may run past the file's end (whole filesystem blocks): clip */
	for (int i = 0, lo = 0; i < m->n; lo += (int)m->ext[i].len, i++)
		if ((unsigned long long)lo + m->ext[i].len > INBOX_SIZE)
			m->ext[i].len = INBOX_SIZE - (unsigned long long)lo;
	return 0;
}

/* the fresh inbox's bytes (INBOX_SIZE, aligned for O_DIRECT) */
static char *fresh(const char *nonce, const char *dir)
{
	char *buf;
	if (posix_memalign((void **)&buf, INBOX_BLOCK, INBOX_SIZE))
		return NULL;
	for (unsigned i = 0; i < INBOX_SIZE / INBOX_BLOCK; i++)
		free_block(buf + (size_t)i * INBOX_BLOCK, nonce, i, dir);
	return buf;
}

/* the file written, synced, renamed into place */
static int write_fresh(const char *dir, const char *buf, char *err, size_t n)
{
	char tmp[PATH_MAX + 32], final[PATH_MAX + 32];
	int fd, dfd;
	snprintf(tmp, sizeof tmp, "%s/." INBOX_NAME ".new", dir);
	snprintf(final, sizeof final, "%s/" INBOX_NAME, dir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, buf, INBOX_SIZE) || fsync(fd)) {
		int e = errno;
		snprintf(err, n, "cannot write %s: %s%s", fd < 0 ? dir : tmp, strerror(e),
			 e == ENOSPC ? " (the inbox needs 4 MiB free)" : e == EROFS ? " (mounted read-only)" : "");
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	close(fd);
	if (rename(tmp, final)) {
		snprintf(err, n, "cannot rename %s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

/* the map proven: the disk read raw at the mapped places holds the file's bytes */
static int check_raw(const struct inbox_map *m, const char *want, char *err, size_t n)
{
	char dev[96], *buf;
	int fd, r;
	snprintf(dev, sizeof dev, "/dev/%s", m->disk);
	fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, n, "cannot read %s to check the map: %s", dev, strerror(errno));
		return -1;
	}
	if (posix_memalign((void **)&buf, INBOX_BLOCK, INBOX_SIZE)) {
		close(fd);
		snprintf(err, n, "out of memory");
		return -1;
	}
	r = mapped_io(fd, m, 0, buf, INBOX_SIZE, 0);
	close(fd);
	if (r || memcmp(buf, want, INBOX_SIZE)) {
		snprintf(err, n, "%s read raw where FIEMAP says the inbox is does not hold it%s%s: the map cannot be "
			 "trusted", dev, r ? ": " : "", r ? strerror(errno) : "");
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

int inbox_prepare(const char *dir, int allow_loop, struct inbox_map *m, char *err, size_t n)
{
	char real[PATH_MAX], msg[600], path[PATH_MAX + 32], opts[512], *buf;
	const struct fs_type *ft;
	unsigned long magic = 0;
	unsigned long long start;
	unsigned char rnd[8];
	struct stat st;
	int fd;
	memset(m, 0, sizeof *m);
	if (mkdir(dir, 0755) == 0)
		info("--results-to=%s: created", dir);
	if (!realpath(dir, real) || stat(real, &st)) {
		snprintf(err, n, "--results-to=%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, n, "--results-to=%s: not a directory", dir);
		return -1;
	}
	ft = fs_type_of(real, &magic);
	if (!ft || ft->refuse) {
		snprintf(err, n, "--results-to=%s: %s%s%s", dir, ft ? ft->name : "", ft ? " is " : "",
			 ft ? ft->refuse : "a filesystem the image cannot write raw");
		if (!ft)
			snprintf(err + strlen(err), n - strlen(err), " (type 0x%lx; ext4, xfs and vfat can)", magic);
		return -1;
	}
	snprintf(m->fstype, sizeof m->fstype, "%s", ft->name);
	mount_of(real, m->mountpoint, sizeof m->mountpoint, opts, sizeof opts);
	if (strstr(opts, "data=journal")) {
		snprintf(err, n, "--results-to=%s: mounted with data=journal: a journal replay could undo the image's "
			 "writes", dir);
		return -1;
	}
	if (disk_of(st.st_dev, allow_loop, m, &start, msg, sizeof msg)) {
		snprintf(err, n, "--results-to=%s: %s", dir, msg);
		return -1;
	}
	/* results of an earlier trip not read yet: into files first */
	if (inbox_unpack(real, msg, sizeof msg) < 0) {
		snprintf(err, n, "--results-to=%s: %s", dir, msg);
		return -1;
	}
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, rnd, sizeof rnd) != (ssize_t)sizeof rnd) {
		snprintf(err, n, "cannot read /dev/urandom for the inbox's nonce");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	for (int i = 0; i < 8; i++)
		snprintf(m->nonce + 2 * i, 3, "%02x", rnd[i]);
	if (!(buf = fresh(m->nonce, real))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (write_fresh(real, buf, msg, sizeof msg)) {
		snprintf(err, n, "--results-to=%s: %s", dir, msg);
		free(buf);
		return -1;
	}
	snprintf(path, sizeof path, "%s/" INBOX_NAME, real);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || map_file(fd, start, m, msg, sizeof msg) || check_raw(m, buf, msg, sizeof msg)) {
		if (fd < 0)
			snprintf(msg, sizeof msg, "cannot open %s: %s", path, strerror(errno));
		snprintf(err, n, "--results-to=%s: %s", dir, msg);
		if (fd >= 0)
			close(fd);
		unlink(path);
		free(buf);
		return -1;
	}
	close(fd);
	free(buf);
	return 0;
}

/* ---- the image's side ---- */

/* is the inbox on this disk, every block as kexec left it?  1 yes, 0 not this disk,
 * -1 this disk but changed (why in err); dir gets the directory it was made in */
static int inbox_here(int fd, const struct inbox_map *m, char *buf, char *dir, size_t dn, char *err, size_t n)
{
	char want[INBOX_BLOCK], head[64];
	if (mapped_io(fd, m, 0, buf, INBOX_SIZE, 0))
		return 0;
	snprintf(head, sizeof head, FREE_MAGIC " %s 00000000\n", m->nonce);
	if (strncmp(buf, head, strlen(head)))
		return 0;
	dir[0] = 0;
	if (!strncmp(buf + strlen(head), "dir=", 4))
		snprintf(dir, dn, "%.*s", (int)strcspn(buf + strlen(head) + 4, "\n"), buf + strlen(head) + 4);
	free_block(want, m->nonce, 0, dir);
	for (unsigned i = 0; i < INBOX_SIZE / INBOX_BLOCK; i++) {
		if (i)
			free_block(want, m->nonce, i, NULL);
		if (memcmp(buf + (size_t)i * INBOX_BLOCK, want, INBOX_BLOCK)) {
			snprintf(err, n, "block %u of the inbox is not as assay kexec left it: nothing written", i);
			return -1;
		}
	}
	return 1;
}

/* the payload: header block, then the files from block 1 on; its padded length */
static size_t build(char *buf, const struct inbox_map *m, const char *dir, const char *base, const char *js, size_t jl,
		    const char *txt, size_t tl)
{
	size_t hl;
	memset(buf, 0, INBOX_SIZE);
	memcpy(buf + INBOX_BLOCK, js, jl);
	memcpy(buf + INBOX_BLOCK + jl, txt, tl);
	hl = (size_t)snprintf(buf, INBOX_BLOCK, DONE_MAGIC " %s\ndir=%s\nfile %s.json %u %zu %08x\nfile %s.txt %zu %zu %08x\n",
			      m->nonce, dir, base, INBOX_BLOCK, jl, crc32_update(0, js, jl), base,
			      INBOX_BLOCK + jl, tl, crc32_update(0, txt, tl));
	snprintf(buf + hl, INBOX_BLOCK - hl, "end %08x\n", crc32_update(0, buf, hl));
	return (INBOX_BLOCK + jl + tl + INBOX_BLOCK - 1) / INBOX_BLOCK * INBOX_BLOCK;
}

int inbox_store(const char *spec, const struct json *doc, const char *txt, size_t txtlen, char *where, size_t wn,
		char *err, size_t n)
{
	struct inbox_map m;
	struct blkdev *list;
	char *buf = NULL, dir[PATH_MAX] = "", base[160], *js = NULL, busy[100] = "";
	size_t jl = 0, len;
	int nd, fd = -1, found = 0, r = -1;
	if (inbox_parse(spec, &m, err, n))
		return -1;
	if (posix_memalign((void **)&buf, INBOX_BLOCK, INBOX_SIZE)) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	nd = blkdev_list(&list, 1);
	for (int i = 0; i < nd && !found; i++) {
		if (list[i].size != m.disk_size)
			continue;
		/* O_EXCL: nothing has it mounted */
		fd = open(list[i].path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EBUSY)
				snprintf(busy, sizeof busy, " (%s is in use: mounted?)", list[i].name);
			continue;
		}
		found = inbox_here(fd, &m, buf, dir, sizeof dir, err, n);
		if (found)
			snprintf(m.disk, sizeof m.disk, "%s", list[i].name);
		else
			close(fd);
	}
	free(list);
	if (found <= 0) {
		if (!found)
			snprintf(err, n, "the inbox assay kexec made (nonce %s) is on no disk of %llu bytes here%s", m.nonce,
				 m.disk_size, busy);
		free(buf);
		return -1;
	}
	results_base(doc, base, sizeof base);
	js = json_to_string(doc, 1, &jl);
	if (!js || INBOX_BLOCK + jl + txtlen > INBOX_SIZE) {
		snprintf(err, n, js ? "the results (%zu bytes) are larger than the inbox (%u)" : "out of memory",
			 INBOX_BLOCK + jl + txtlen, INBOX_SIZE);
		goto out;
	}
	len = build(buf, &m, dir, base, js, jl, txt, txtlen);
	/* the files, synced; only then the header that makes them count */
	if (mapped_io(fd, &m, INBOX_BLOCK, buf + INBOX_BLOCK, len - INBOX_BLOCK, 1) || fdatasync(fd) ||
	    mapped_io(fd, &m, 0, buf, INBOX_BLOCK, 1) || fdatasync(fd)) {
		snprintf(err, n, "writing the inbox on %s: %s", m.disk, strerror(errno));
		goto out;
	}
	snprintf(where, wn, "%s/%s on %s: assay show %s", dir, INBOX_NAME, m.disk, dir);
	r = 0;
out:
	close(fd);
	free(js);
	free(buf);
	return r;
}

/* ---- show's side ---- */

/* a file name the header may give: base.json or base.txt, no path */
static int safe_name(const char *s)
{
	size_t l = strlen(s);
	return l > 5 && l < 150 && s[0] != '.' && !strchr(s, '/') && strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ-_.") == l && (!strcmp(s + l - 5, ".json") || !strcmp(s + l - 4, ".txt"));
}

/* the report of a result just unpacked, written beside it as NAME.html; what to add to
 * the list of files (", DIR/NAME.html", or why not); its length */
static void html_beside(const char *dir, const char *json_name, const char *text, size_t len, char *out,
			  size_t n)
{
	char err[300], name[170];
	struct json *doc = json_parse(text, len, err, sizeof err);
	snprintf(name, sizeof name, "%.*s.html", (int)(strlen(json_name) - 5), json_name);
	if (doc && !report_html_file(dir, name, doc, err, sizeof err)) {
		json_free(doc);
		snprintf(out, n, ", %s/%s", dir, name);
		return;
	}
	json_free(doc);
	snprintf(out, n, " (no report: %s)", err);
}

/* the DONE header's files checked and written into dir; 0, or -1 with msg */
static int unpack_files(const char *dir, char *buf, size_t len, char *msg, size_t n)
{
	char *end = strstr(buf, "\nend "), *line, *save = NULL;
	unsigned crc;
	size_t names = 0, json_off = 0, json_len = 0;
	char json_name[160] = "";
	if (!end || memchr(buf, 0, (size_t)(end - buf)) || sscanf(end + 5, "%8x", &crc) != 1 ||
	    crc32_update(0, buf, (size_t)(end - buf) + 1) != crc) {
		snprintf(msg, n, "%s/" INBOX_NAME ": damaged: its header's checksum does not match", dir);
		return -1;
	}
	end[1] = 0;
	for (int pass = 0; pass < 2; pass++) {   /* check every file, then write them */
		char *copy = strdup(buf);
		if (!copy) {
			snprintf(msg, n, "out of memory");
			return -1;
		}
		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char name[160];
			unsigned long long off, bytes;
			unsigned fcrc;
			if (strncmp(line, "file ", 5))
				continue;
			if (sscanf(line, "file %159s %llu %llu %8x", name, &off, &bytes, &fcrc) != 4 || !safe_name(name) ||
			    off < INBOX_BLOCK || off > len || bytes > len - off ||
			    crc32_update(0, buf + off, (size_t)bytes) != fcrc) {
				snprintf(msg, n, "%s/" INBOX_NAME ": damaged: '%.100s' does not check", dir, line);
				free(copy);
				return -1;
			}
			if (pass && results_write_file(dir, name, buf + off, (size_t)bytes, msg, n)) {
				free(copy);
				return -1;
			}
			if (pass)
				names += (size_t)snprintf(msg + names, n > names ? n - names : 0, "%s%s/%s",
							  names ? ", " : "unpacked ", dir, name);
			if (pass && strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".json")) {
				snprintf(json_name, sizeof json_name, "%s", name);
				json_off = (size_t)off, json_len = (size_t)bytes;
			}
		}
		free(copy);
	}
	if (json_name[0])   /* the report last: the results are home whatever becomes of it */
		html_beside(dir, json_name, buf + json_off, json_len, msg + names, n > names ? n - names : 0);
	return 0;
}

int inbox_unpack(const char *dir, char *msg, size_t n)
{
	char path[PATH_MAX + 32];
	size_t len;
	char *buf;
	int r;
	snprintf(path, sizeof path, "%s/" INBOX_NAME, dir);
	msg[0] = 0;
	buf = read_file(path, INBOX_SIZE + 1, &len);
	if (!buf) {
		if (errno == ENOENT)
			return 0;
		snprintf(msg, n, "%s: %s", path, errno == EFBIG ? "larger than an inbox" : strerror(errno));
		return -1;
	}
	if (!strncmp(buf, FREE_MAGIC " ", 17)) {
		snprintf(msg, n, "%s holds no results: the run did not get to write them (cut off, or it has not "
			 "run yet)", path);
		free(buf);
		return 0;
	}
	if (len < INBOX_BLOCK || strncmp(buf, DONE_MAGIC " ", 17)) {
		snprintf(msg, n, "%s: damaged: not an inbox of assay's", path);
		free(buf);
		return -1;
	}
	r = unpack_files(dir, buf, len, msg, n);
	free(buf);
	if (r)
		return -1;
	if (unlink(path)) {
		snprintf(msg + strlen(msg), n - strlen(msg), "; cannot remove %s: %s", path, strerror(errno));
		return -1;
	}
	return 1;
}
