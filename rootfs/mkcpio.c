/* mkcpio: write a newc cpio archive from a spec list, reproducibly.
 *
 * usage: mkcpio SPEC > archive.cpio
 *
 * The spec uses the lines of Linux's usr/gen_init_cpio:
 *   file  NAME LOCATION MODE UID GID
 *   dir   NAME MODE UID GID
 *   nod   NAME MODE UID GID c|b MAJ MIN
 *   slink NAME TARGET MODE UID GID
 * '#' starts a comment.  Entries are written in the order given, every timestamp is
 * $SOURCE_DATE_EPOCH (default 0) and inode numbers count up from 1, so the same spec
 * and the same input files give a byte-identical archive.  No root needed for nodes. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *spec;
static unsigned lineno;
static unsigned long long offset;
static unsigned ino = 1;
static unsigned long mtime;

static void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "mkcpio: %s:%u: ", spec, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void out(const void *p, size_t n)
{
	if (fwrite(p, 1, n, stdout) != n)
		die("write: %s", strerror(errno));
	offset += n;
}

static void pad4(void)
{
	static const char zero[4];
	out(zero, (4 - offset % 4) % 4);
}

static void header(const char *name, unsigned mode, unsigned uid, unsigned gid,
		   unsigned nlink, unsigned long size, unsigned rmaj, unsigned rmin)
{
	char h[128];
	const char *n = name[0] == '/' ? name + 1 : name;
	size_t nlen = strlen(n) + 1;
	if (size > 0xffffffffUL || nlen > 0xffffffffUL)
		die("%s: too large for newc", name);
	snprintf(h, sizeof h, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 ino++, mode, uid, gid, nlink, (unsigned)mtime, (unsigned)size, 0u, 0u, rmaj, rmin,
		 (unsigned)nlen, 0u);
	out(h, 110);
	out(n, nlen);
	pad4();
}

static unsigned num(const char *s, int base, const char *what)
{
	char *end;
	unsigned long v;
	if (!s)
		die("missing %s", what);
	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || *end || v > 0xffffffffUL)
		die("bad %s '%s'", what, s);
	return (unsigned)v;
}

static void do_file(char **f)
{
	struct stat st;
	FILE *in = fopen(f[2], "rb");
	char buf[65536];
	size_t n;
	unsigned long total = 0;
	if (!in || fstat(fileno(in), &st))
		die("%s: %s", f[2], strerror(errno));
	if (!S_ISREG(st.st_mode))
		die("%s: not a regular file", f[2]);
	header(f[1], S_IFREG | num(f[3], 8, "mode"), num(f[4], 10, "uid"), num(f[5], 10, "gid"),
	       1, (unsigned long)st.st_size, 0, 0);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		out(buf, n);
		total += n;
	}
	if (ferror(in) || total != (unsigned long)st.st_size)
		die("%s: read error or changed while reading", f[2]);
	fclose(in);
	pad4();
}

int main(int argc, char **argv)
{
	char line[4096];
	FILE *in;
	const char *e = getenv("SOURCE_DATE_EPOCH");

	if (argc != 2) {
		fprintf(stderr, "usage: mkcpio SPEC > archive.cpio\n");
		return 2;
	}
	spec = argv[1];
	mtime = e && *e ? strtoul(e, NULL, 10) : 0;
	if (mtime > 0xffffffffUL) {
		fprintf(stderr, "mkcpio: SOURCE_DATE_EPOCH=%s: beyond newc's 32-bit time\n", e);
		return 2;
	}
	in = fopen(spec, "r");
	if (!in)
		die("%s", strerror(errno));
	while (fgets(line, sizeof line, in)) {
		char *f[9] = { 0 };
		int nf = 0;
		char *save, *tok;
		lineno++;
		if (!strchr(line, '\n') && !feof(in))
			die("line too long");
		for (tok = strtok_r(line, " \t\n", &save); tok && nf < 9;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			if (tok[0] == '#')
				break;
			f[nf++] = tok;
		}
		if (nf == 0)
			continue;
		if (!strcmp(f[0], "file") && nf == 6) {
			do_file(f);
		} else if (!strcmp(f[0], "dir") && nf == 5) {
			header(f[1], S_IFDIR | num(f[2], 8, "mode"), num(f[3], 10, "uid"),
			       num(f[4], 10, "gid"), 2, 0, 0, 0);
		} else if (!strcmp(f[0], "nod") && nf == 8) {
			unsigned type = !strcmp(f[5], "c") ? S_IFCHR : !strcmp(f[5], "b") ? S_IFBLK : 0;
			if (!type)
				die("node type must be c or b, not '%s'", f[5]);
			header(f[1], type | num(f[2], 8, "mode"), num(f[3], 10, "uid"),
			       num(f[4], 10, "gid"), 1, 0, num(f[6], 10, "major"), num(f[7], 10, "minor"));
		} else if (!strcmp(f[0], "slink") && nf == 6) {
			size_t len = strlen(f[2]);
			header(f[1], S_IFLNK | num(f[3], 8, "mode"), num(f[4], 10, "uid"),
			       num(f[5], 10, "gid"), 1, len, 0, 0);
			out(f[2], len);
			pad4();
		} else {
			die("expected 'file NAME LOCATION MODE UID GID', 'dir NAME MODE UID GID', "
			    "'nod NAME MODE UID GID c|b MAJ MIN' or 'slink NAME TARGET MODE UID GID'");
		}
	}
	if (ferror(in))
		die("read error");
	ino = 0;
	header("TRAILER!!!", 0, 0, 0, 1, 0, 0, 0);
	/* pad to 512 like cpio(1) does */
	while (offset % 512)
		out("", 1);
	if (fflush(stdout))
		die("write: %s", strerror(errno));
	return 0;
}
