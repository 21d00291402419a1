/* The results partition: a FAT filesystem labelled ASSAY (a partition or a whole disk).
 * Each run adds assay/<utc-date>-<machine>.json, .txt and .html, each written atomically
 * (temp file, synced, rename, the directory synced) and only when the FAT's copies agree;
 * nothing else on it is touched. */
#include "results.h"

#include "compare.h"
#include "blkdev.h"
#include "blkstall.h"
#include "bytes.h"
#include "json.h"
#include "msg.h"
#include "machine/sysinfo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MOUNTPOINT "/run/assay-results"

/* a block device (disk or partition) holding FAT labelled ASSAY, e.g. "/dev/vdb" */
int results_find(char *dev, size_t n)
{
	struct dirent **v;
	int count = scandir("/sys/class/block", &v, NULL, alphasort), found = 0;
	for (int i = 0; i < count; i++) {
		char path[300], sig[64], label[32] = "";
		int fd;
		/* a disk that stopped answering is not read again: the read would wait forever */
		if (!found && v[i]->d_name[0] != '.' && !blkstall_stuck(v[i]->d_name)) {
			snprintf(path, sizeof path, "/dev/%s", v[i]->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				if (blkdev_signature(fd, UINT64_MAX, sig, sizeof sig, label, sizeof label) < 0)
					blkstall_mark(v[i]->d_name);
				close(fd);
				if (!strcmp(sig, "vfat") && !strcmp(label, RESULTS_LABEL)) {
					snprintf(dev, n, "%s", path);
					found = 1;
				}
			}
		}
		free(v[i]);
	}
	if (count > 0)
		free(v);
	return found ? 0 : -1;
}

/* write path atomically: temp file in the same directory, synced, rename, dir synced */
int results_write_file(const char *dir, const char *name, const char *data, size_t len, char *err, size_t n)
{
	char tmp[600], final[600];
	int fd, dfd;
	size_t off = 0;
	snprintf(tmp, sizeof tmp, "%s/%s.tmp", dir, name);
	snprintf(final, sizeof final, "%s/%s", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, n, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(err, n, "cannot write %s: %s", tmp, w < 0 ? strerror(errno) : "short write");
			goto fail;
		}
		off += (size_t)w;
	}
	/* FAT's fsync writes the file's directory entry (its size, first cluster) before
	 * the FAT's chain: cut between, fsck finds an entry whose clusters are free.  syncfs
	 * first writes the entry into its buffer, then the device's dirty buffers in order
	 * of their place, the FAT (near the start) before the directory: a cut between
	 * leaves lost clusters, which fsck reclaims.  fsync then finds little to do. */
	if (syncfs(fd) || fsync(fd)) {
		snprintf(err, n, "cannot sync %s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		snprintf(err, n, "cannot close %s: %s", tmp, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, final)) {
		snprintf(err, n, "cannot rename %s: %s", tmp, strerror(errno));
		goto fail;
	}
	/* On FAT a rename is not atomic: Linux writes the new name's entry (no clusters yet)
	 * and the old one's removal in the directory's block, and the clusters into the new
	 * entry at inode writeback.  Cut between the two, the result is an empty file that
	 * readers refuse, so the second follows the first at once (syncfs below); syncing the
	 * inode first (fsync of the file here, or dirsync) would instead leave two names
	 * sharing the clusters, which fsck "repairs" by truncating one (tests/powerloss). */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);       /* the new entry and the old one's removal, together */
		syncfs(dfd);      /* then the clusters and size into the new entry, at once */
		close(dfd);
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);   /* never leave a partial file behind */
	return -1;
}

/* 20261129-193000 from the document's start time */
static void stamp(const struct json *doc, char *out, size_t n)
{
	const char *s = json_get_str(doc, "started_utc", "");
	int Y, M, D, h, m, sec;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &Y, &M, &D, &h, &m, &sec) == 6)
		snprintf(out, n, "%04d%02d%02d-%02d%02d%02d", Y, M, D, h, m, sec);
	else
		snprintf(out, n, "unknown-time");
}

void results_base(const struct json *doc, char *out, size_t n)
{
	char when[32];
	stamp(doc, when, sizeof when);
	snprintf(out, n, "%s-%s", when, json_get_str(doc, "machine.id", "unknown"));
}

int results_write_dir(const char *dir, const struct json *doc, const char *txt, size_t txtlen,
		      char *where, size_t wn, char *err, size_t n)
{
	char base[128], name[160], perr[200];
	char *js;
	size_t jl;
	int r;
	struct json *file_doc;
	results_base(doc, base, sizeof base);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, n, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	js = json_to_string(doc, 1, &jl);
	snprintf(name, sizeof name, "%s.json", base);
	r = results_write_file(dir, name, js, jl, err, n);
	/* the report from the file's text, so it is the page assay report makes of the file
	 * (numbers as printed there, to their last digit) */
	file_doc = r ? NULL : json_parse(js, jl, perr, sizeof perr);
	free(js);
	if (r)
		return -1;
	snprintf(name, sizeof name, "%s.txt", base);
	if (results_write_file(dir, name, txt, txtlen, err, n)) {
		json_free(file_doc);
		return -1;
	}
	snprintf(name, sizeof name, "%s.html", base);
	r = report_html_file(dir, name, file_doc ? file_doc : doc, err, n);
	json_free(file_doc);
	if (r)
		snprintf(where, wn, "%s/%s.{json,txt} (not the report: %s)", dir, base, err);
	else
		snprintf(where, wn, "%s/%s.{json,txt,html}", dir, base);
	return 0;
}

/* Before writing, the FAT's copies must agree (Linux writes both; one that differs is
 * damage a write would build on, overwriting older results): 0, or -1 with the reason
 * (a boot sector that makes no sense is left to mount's own check). */
static int fat_copies_agree(const char *dev, char *err, size_t n)
{
	unsigned char bs[512], *a = NULL, *b = NULL;
	unsigned bps, nfats, fatsz;
	uint64_t off1, off2, len, at;
	int fd = open(dev, O_RDONLY | O_CLOEXEC), r = 0;
	if (fd < 0 || pread(fd, bs, sizeof bs, 0) != (ssize_t)sizeof bs)
		goto out;
	bps = get_le16(bs + 11);
	nfats = bs[16];
	fatsz = get_le16(bs + 22) ? get_le16(bs + 22) : get_le32(bs + 36);
	/* FAT32 with mirroring off (extended flags bit 7): one active FAT, nothing to compare */
	if ((bps != 512 && bps != 1024 && bps != 2048 && bps != 4096) || nfats < 2 || !fatsz ||
	    (!get_le16(bs + 22) && (get_le16(bs + 40) & 0x80)))
		goto out;
	off1 = (uint64_t)get_le16(bs + 14) * bps;
	len = (uint64_t)fatsz * bps;
	off2 = off1 + len;
	if (len > (256u << 20) || !(a = malloc(65536)) || !(b = malloc(65536)))
		goto out;
	for (at = 0; at < len && !r; at += 65536) {
		size_t k = len - at < 65536 ? (size_t)(len - at) : 65536;
		if (pread(fd, a, k, (off_t)(off1 + at)) != (ssize_t)k || pread(fd, b, k, (off_t)(off2 + at)) != (ssize_t)k)
			break;
		if (memcmp(a, b, k)) {
			size_t i = 0;
			while (a[i] == b[i])
				i++;
			snprintf(err, n, "the results partition %s is damaged: its two FAT copies differ at byte %llu "
				 "of the FAT (repair it with fsck.vfat; nothing written to it)", dev,
				 (unsigned long long)(at + i));
			r = -1;
		}
	}
out:
	free(a);
	free(b);
	if (fd >= 0)
		close(fd);
	return r;
}

int results_store(const struct json *doc, const char *txt, size_t txtlen, char *where, size_t wn,
		  char *err, size_t n)
{
	char dev[300];
	int r;
	if (results_find(dev, sizeof dev)) {
		snprintf(err, n, "no results partition (a FAT filesystem labelled %s): results are only "
			 "on the console", RESULTS_LABEL);
		return -1;
	}
	if (fat_copies_agree(dev, err, n))
		return -1;
	mkdir(MOUNTPOINT, 0755);
	if (mount(dev, MOUNTPOINT, "vfat", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "codepage=437,iocharset=iso8859-1,shortname=mixed,errors=remount-ro")) {
		int e = errno;
		snprintf(err, n, "cannot mount the results partition %s: %s%s", dev, strerror(e),
			 e == EROFS || e == EACCES ? " (read-only)" :
			 e == EINVAL ? " (not a valid FAT filesystem?)" : "");
		return -1;
	}
	r = results_write_dir(MOUNTPOINT "/assay", doc, txt, txtlen, where, wn, err, n);
	if (!r) {
		char w2[400];
		snprintf(w2, sizeof w2, "%s (%s)", where, dev);
		snprintf(where, wn, "%s", w2);
	}
	sync();
	if (umount(MOUNTPOINT) && !r) {
		snprintf(err, n, "cannot unmount the results partition %s: %s", dev, strerror(errno));
		r = -1;
	}
	return r;
}

char *results_read(const char *name, size_t max, char *err, size_t n)
{
	char dev[300], path[600];
	struct stat st;
	char *buf = NULL;
	int fd;
	if (strstr(name, "..") || name[0] == '/' || !name[0]) {
		snprintf(err, n, "%s: a name on the results partition (no '..', not absolute)", name);
		return NULL;
	}
	if (results_find(dev, sizeof dev)) {
		snprintf(err, n, "%s: no results partition (a FAT filesystem labelled %s) to read it from", name,
			 RESULTS_LABEL);
		return NULL;
	}
	mkdir(MOUNTPOINT, 0755);
	if (mount(dev, MOUNTPOINT, "vfat", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "codepage=437,iocharset=iso8859-1,shortname=mixed")) {
		snprintf(err, n, "%s: cannot mount the results partition %s read-only: %s", name, dev, strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof path, MOUNTPOINT "/%s", name);
	/* what comes from the partition is hostile: a regular file, bounded, no NUL */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		snprintf(err, n, "%s on the results partition: %s", name, fd < 0 ? strerror(errno) :
			 !S_ISREG(st.st_mode) ? "not a regular file" : "too large");
	} else if ((buf = malloc((size_t)st.st_size + 1))) {
		ssize_t r = read(fd, buf, (size_t)st.st_size);
		if (r != st.st_size || memchr(buf, 0, (size_t)r)) {
			snprintf(err, n, "%s on the results partition: %s", name, r < 0 ? strerror(errno) :
				 r != st.st_size ? "short read" : "holds NUL bytes: not text");
			free(buf);
			buf = NULL;
		} else {
			buf[r] = 0;
		}
	} else {
		snprintf(err, n, "out of memory");
	}
	if (fd >= 0)
		close(fd);
	umount(MOUNTPOINT);
	return buf;
}

/* the one-run HTML page (html.c) written atomically as dir/name */
int report_html_file(const char *dir, const char *name, const struct json *doc, char *err, size_t n)
{
	struct run r = { .doc = (struct json *)doc };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;
	if (!f) {
		snprintf(err, n, "%s/%s: out of memory", dir, name);
		return -1;
	}
	machine_label(doc, r.label, sizeof r.label);
	report_html(&r, 1, 5, f);
	if (fclose(f)) {
		free(buf);
		snprintf(err, n, "%s/%s: out of memory", dir, name);
		return -1;
	}
	rc = results_write_file(dir, name, buf, len, err, n);
	free(buf);
	return rc;
}
