/* fio's I/O logs, v2 ("filename action [offset length]", with "wait" lines between) and
 * v3 (each line led by its time in microseconds from the start): see replay.h. */
#include "replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES (16u << 20)       /* 384 MiB of entries: a log past it is refused */
#define MAX_IO_LEN (64ull << 20)      /* --bs's upper bound */

static const char *const opname[] = { "read", "write", "trim", "sync", "datasync" };

static int bad(char *err, size_t n, const char *path, unsigned line, const char *fmt, const char *what)
{
	int l = snprintf(err, n, "--read_iolog=%s:%u: ", path, line);
	if (l > 0 && (size_t)l < n)
		snprintf(err + l, n - (size_t)l, fmt, what);
	return -1;
}

static int push(struct replay *r, size_t *cap, const struct replay_io *e)
{
	if (r->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 4096;
		struct replay_io *ni;
		if (nc > MAX_ENTRIES)
			nc = MAX_ENTRIES;
		if (r->n == nc || !(ni = realloc(r->io, nc * sizeof *ni)))
			return -1;
		r->io = ni;
		*cap = nc;
	}
	r->io[r->n++] = *e;
	return 0;
}

/* a read/write/trim line's offset and length (w[2], w[3]), scaled and aligned as fio's
 * replay_scale and replay_align, checked against the device: 0, or -1 with err */
static int read_extent(const struct replay_fit *fit, char **w, struct replay_io *e, const char *path, unsigned ln,
		       char *err, size_t n)
{
	unsigned long long v, len;
	char *end, what[96];
	errno = 0;
	v = strtoull(w[2], &end, 10);
	if (errno || *end || w[2][0] == '-')
		return bad(err, n, path, ln, "offset '%s': not a number of bytes", w[2]);
	len = strtoull(w[3], &end, 10);
	if (errno || *end || w[3][0] == '-' || !len || len > MAX_IO_LEN)
		return bad(err, n, path, ln, "length '%s': not 1 byte to 64 MiB", w[3]);
	if (fit->scale > 1)
		v /= fit->scale;          /* fio's replay_scale */
	if (fit->align)
		v &= ~(fit->align - 1);   /* fio's replay_align */
	snprintf(what, sizeof what, "%s at %llu of %llu bytes", w[1], v, len);
	if (v + len > fit->dev_size[e->file])
		return bad(err, n, path, ln, "%s: beyond the end of the device", what);
	if (fit->direct && fit->lbs[e->file] && (v % fit->lbs[e->file] || len % fit->lbs[e->file]))
		return bad(err, n, path, ln, "%s: not aligned to the device's logical block (--direct=1)", what);
	e->off = v;
	e->len = (uint32_t)len;
	return 0;
}

int replay_load(const char *path, const struct replay_fit *fit, struct replay *r, char *err, size_t n)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t lcap = 0, cap = 0;
	unsigned ln = 0;
	uint64_t wait_us = 0;
	int rc = -1;
	memset(r, 0, sizeof *r);
	r->min_len = UINT64_MAX;
	snprintf(r->path, sizeof r->path, "%s", path);
	if (!f) {
		snprintf(err, n, "--read_iolog=%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &lcap, f) > 0) {
		char *w[6], *save = NULL, *t, *end;
		int nw = 0;
		struct replay_io e = { 0 };
		unsigned long long v;
		ln++;
		line[strcspn(line, "\r\n")] = 0;
		if (ln == 1) {
			if (!strcmp(line, "fio version 2 iolog"))
				r->version = 2;
			else if (!strcmp(line, "fio version 3 iolog"))
				r->version = 3;
			else {
				bad(err, n, path, ln, "'%.60s': not fio's iolog (its first line is \"fio version 2 iolog\" or "
				    "\"fio version 3 iolog\"; blktrace files are not read here)", line);
				goto out;
			}
			continue;
		}
		for (t = strtok_r(line, " \t", &save); t && nw < 6; t = strtok_r(NULL, " \t", &save))
			w[nw++] = t;
		if (!nw)
			continue;
		if (r->version == 3) {
			errno = 0;
			v = strtoull(w[0], &end, 10);
			if (errno || *end || end == w[0] || w[0][0] == '-') {
				bad(err, n, path, ln, "'%s': not a timestamp (microseconds)", w[0]);
				goto out;
			}
			e.t_us = v;
			memmove(w, w + 1, (size_t)--nw * sizeof *w);
		} else {
			e.t_us = wait_us;
		}
		if (nw != 4 && !(nw == 2 && (!strcmp(w[1], "add") || !strcmp(w[1], "open") || !strcmp(w[1], "close")))) {
			bad(err, n, path, ln, "%s: not \"[timestamp] filename action offset length\"",
			    nw > 1 ? w[1] : w[0]);
			goto out;
		}
		/* the file: the log's k-th (in the order it names them) is the job's k-th */
		for (e.file = 0; e.file < r->nfiles && strcmp(r->file[e.file], w[0]); e.file++)
			;
		if (e.file == r->nfiles) {
			if (r->nfiles == fit->nfiles) {
				char what[400];
				snprintf(what, sizeof what, "%.100s: a file more than the job's %d: give --filename as many (a:b "
					 "for two), the log's taken in its order", w[0], fit->nfiles);
				bad(err, n, path, ln, "%s", what);
				goto out;
			}
			snprintf(r->file[r->nfiles++], sizeof r->file[0], "%s", w[0]);
		}
		if (nw == 2)
			continue;     /* add, open, close */
		for (e.op = 0; e.op <= RP_DATASYNC && strcmp(w[1], opname[e.op]); e.op++)
			;
		if (!strcmp(w[1], "wait") && r->version == 2) {
			errno = 0;
			v = strtoull(w[2], &end, 10);
			if (errno || *end || w[2][0] == '-') {
				bad(err, n, path, ln, "wait '%s': not microseconds", w[2]);
				goto out;
			}
			if (v >= 100)      /* fio's: shorter waits are dropped */
				wait_us += v;
			continue;
		}
		if (e.op > RP_DATASYNC) {
			bad(err, n, path, ln, "'%s': not an action (read, write, trim, sync, datasync; v2 also wait)",
			    w[1]);
			goto out;
		}
		if (e.op < RP_SYNC && read_extent(fit, w, &e, path, ln, err, n))
			goto out;
		if (fit->skip >> e.op & 1)
			continue;        /* fio's replay_skip */
		if (e.op < RP_SYNC) {
			if (e.len > r->max_len)
				r->max_len = e.len;
			if (e.len < r->min_len)
				r->min_len = e.len;
			if (e.off + e.len > r->end)
				r->end = e.off + e.len;
		}
		r->count[e.op]++;
		if (push(r, &cap, &e)) {
			snprintf(err, n, "--read_iolog=%s: more than %u entries, or out of memory", path, MAX_ENTRIES);
			goto out;
		}
	}
	if (ferror(f)) {
		snprintf(err, n, "--read_iolog=%s: %s", path, strerror(errno));
		goto out;
	}
	if (!r->version) {
		snprintf(err, n, "--read_iolog=%s: empty", path);
		goto out;
	}
	if (!r->count[RP_READ] && !r->count[RP_WRITE] && !r->count[RP_TRIM]) {
		snprintf(err, n, "--read_iolog=%s: no read, write or trim to replay%s", path,
			 fit->skip ? " (after --replay_skip)" : "");
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	if (rc)
		replay_free(r);
	return rc;
}

int replay_files(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, names[REPLAY_FILES][256];
	size_t lcap = 0, l = 0;
	int nn = 0, v3 = 0, ln = 0;
	out[0] = 0;
	if (!f)
		return -1;
	while (getline(&line, &lcap, f) > 0 && nn < REPLAY_FILES) {
		char *w[3], *save = NULL;
		int nw = 0, seen = 0;
		line[strcspn(line, "\r\n")] = 0;
		if (ln++ == 0) {
			v3 = !strcmp(line, "fio version 3 iolog");
			if (!v3 && strcmp(line, "fio version 2 iolog"))
				break;
			continue;
		}
		for (char *t = strtok_r(line, " \t", &save); t && nw < 3; t = strtok_r(NULL, " \t", &save))
			w[nw++] = t;
		if (nw < 2 + v3 || strcmp(w[1 + v3], "add") || strchr(w[v3], ':'))
			continue;
		for (int k = 0; k < nn && !seen; k++)
			seen = !strcmp(names[k], w[v3]);
		if (!seen && strlen(w[v3]) < sizeof names[0]) {
			snprintf(names[nn++], sizeof names[0], "%s", w[v3]);
			l += (size_t)snprintf(out + l, l < n ? n - l : 0, "%s%s", l ? ":" : "", w[v3]);
		}
	}
	free(line);
	fclose(f);
	return nn && l < n ? 0 : -1;
}

void replay_free(struct replay *r)
{
	free(r->io);
	r->io = NULL;
	r->n = 0;
}

void iolog_out_start(FILE *f)
{
	fputs("fio version 3 iolog\n", f);
}

void iolog_out_file(FILE *f, const char *file, uint64_t t_us, const char *what)
{
	fprintf(f, "%" PRIu64 " %s %s\n", t_us, file, what);
}

void iolog_out_io(FILE *f, const char *file, uint64_t t_us, int op, uint64_t off, uint64_t len)
{
	fprintf(f, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", t_us, file, opname[op], off, len);
}
