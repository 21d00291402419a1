#ifndef ASSAY_REPLAY_H
#define ASSAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* fio's I/O logs (its "trace file format" v2 and v3): read one to replay it
 * (--read_iolog), write one of what a job issues (--write_iolog). */
enum { RP_READ, RP_WRITE, RP_TRIM, RP_SYNC, RP_DATASYNC };   /* reads to trims: enum ddir */

#define REPLAY_FILES 16     /* the files one log may name (a job's several: fio's a:b) */

struct replay_io {
	uint64_t off;
	uint64_t t_us;       /* v3: the timestamp; v2: the waits before it, added up */
	uint32_t len;
	uint8_t op;          /* RP_* */
	uint8_t file;        /* which of the log's files, in the order it names them */
};

struct replay {
	struct replay_io *io;
	size_t n;
	int version;               /* 2 or 3 */
	uint64_t count[5];         /* entries of each op */
	uint64_t max_len, min_len; /* of the reads, writes and trims */
	uint64_t end;              /* the highest offset + length */
	char file[REPLAY_FILES][256];  /* the files the log names, in its order */
	int nfiles;
	char path[256];            /* the log's own */
};

/* what a log's entries must fit: the job's files (the log's k-th goes to the job's k-th),
 * each one's size and logical block (direct I/O: offsets and lengths multiples of it), the
 * ops to leave out (1 << RP_*), fio's replay_align (a power of 2, 0: none) and
 * replay_scale (offsets divided by it, 1: as they are) */
struct replay_fit {
	int nfiles;
	uint64_t dev_size[REPLAY_FILES];
	unsigned lbs[REPLAY_FILES];
	int direct;
	unsigned skip;
	uint64_t align, scale;
};

/* read the log at path; 0, or -1 with why in err (naming the line) */
int replay_load(const char *path, const struct replay_fit *fit, struct replay *r, char *err, size_t n);
/* the files an iolog adds ("NAME add"), in its order, joined with ':' (fio's: a job with
 * --read_iolog and no --filename replays on them); 0, or -1 when it names none */
int replay_files(const char *path, char *out, size_t n);
void replay_free(struct replay *r);

/* fio's write_iolog: the header, each file's lines (what: "add", "open", "close"), one
 * line per I/O (t_us from the job's start) */
void iolog_out_start(FILE *f);
void iolog_out_file(FILE *f, const char *file, uint64_t t_us, const char *what);
void iolog_out_io(FILE *f, const char *file, uint64_t t_us, int op, uint64_t off, uint64_t len);

#endif
