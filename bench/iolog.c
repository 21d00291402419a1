/* fio's I/O logs: see iolog.h.  The values are fio's: latencies in ns; per I/O, the
 * bandwidth is bytes x 10^6 / clat ns (bytes per ms) and the IOPS 1; per window, the
 * bandwidth is KiB/s and the IOPS I/Os per second over the window, the latencies the
 * window's mean (or maximum). */
#include "iolog.h"

#include <stdlib.h>
#include <string.h>

const char *const iolog_file_kind[LOGF_N] = { "bw", "iops", "slat", "clat", "lat" };
const int iolog_file_opt[LOGF_N] = { IOLOG_BW, IOLOG_IOPS, IOLOG_LAT, IOLOG_LAT, IOLOG_LAT };

#define CHUNK 65536u

struct io_ent {                 /* one I/O */
	uint64_t off, slat, clat;
	uint32_t t_ms, len;
	uint8_t ddir;
};

struct win_ent {                /* one direction over one window */
	struct iolog_win w;
	uint64_t len_ns;            /* the window's length (the last one may be shorter) */
	uint32_t t_ms;              /* its end */
	uint8_t ddir, full;
};

void iolog_init(struct iolog *l, const struct iolog_cfg *cfg, unsigned dirs, uint64_t cap_bytes)
{
	memset(l, 0, sizeof *l);
	l->cfg = cfg;
	l->on = iolog_wanted(cfg);
	l->dirs = dirs;
	l->win_ns = (uint64_t)cfg->avg_ms * 1000000u;
	l->isz = l->win_ns ? sizeof(struct win_ent) : sizeof(struct io_ent);
	l->max_n = cap_bytes / l->isz;
}

void iolog_start(struct iolog *l, uint64_t t)
{
	l->n = 0;
	l->truncated = 0;
	l->start_ns = t;
	l->win_end = t + l->win_ns;
	memset(l->acc, 0, sizeof l->acc);
}

/* room for one more entry, or NULL (the log is full: it stops there) */
static void *push(struct iolog *l)
{
	uint64_t c = l->n / CHUNK;
	if (l->truncated)
		return NULL;
	if (l->n >= l->max_n)
		goto full;
	if (c == l->nchunk) {
		if (l->nchunk == l->chunk_cap) {
			uint64_t cap = l->chunk_cap ? 2 * l->chunk_cap : 16;
			char **a = realloc(l->chunk, cap * sizeof *a);
			if (!a)
				goto full;
			l->chunk = a;
			l->chunk_cap = cap;
		}
		if (!(l->chunk[c] = malloc(CHUNK * l->isz)))
			goto full;
		l->nchunk++;
	}
	return l->chunk[c] + (l->n++ % CHUNK) * l->isz;
full:
	l->truncated = 1;
	return NULL;
}

static const void *entry(const struct iolog *l, uint64_t i)
{
	return l->chunk[i / CHUNK] + (i % CHUNK) * l->isz;
}

static void close_window(struct iolog *l, uint64_t t_end, uint64_t len_ns, int full)
{
	for (int d = 0; d < 2; d++) {
		struct win_ent *e;
		if (!(l->dirs & (1u << d)) || !(e = push(l)))
			continue;
		e->w = l->acc[d];
		e->len_ns = len_ns;
		e->t_ms = (uint32_t)((t_end - l->start_ns) / 1000000u);
		e->ddir = (uint8_t)d;
		e->full = (uint8_t)full;
	}
	memset(l->acc, 0, sizeof l->acc);
}

void iolog_io(struct iolog *l, int ddir, uint64_t off, uint64_t len, uint64_t slat, uint64_t clat,
	      uint64_t t_done)
{
	if (!l->on)
		return;
	if (l->win_ns) {
		struct iolog_win *w = &l->acc[ddir];
		uint64_t v[3] = { slat, clat, slat + clat };
		for (; t_done >= l->win_end; l->win_end += l->win_ns)
			close_window(l, l->win_end, l->win_ns, 1);
		w->ios++;
		w->bytes += len;
		for (int k = 0; k < 3; k++) {
			w->sum[k] += v[k];
			if (v[k] > w->max[k])
				w->max[k] = v[k];
		}
	} else {
		struct io_ent *e = push(l);
		if (!e)
			return;
		e->off = off;
		e->slat = slat;
		e->clat = clat;
		e->t_ms = (uint32_t)((t_done - l->start_ns) / 1000000u);
		e->len = (uint32_t)len;
		e->ddir = (uint8_t)ddir;
	}
}

void iolog_end(struct iolog *l, uint64_t t)
{
	uint64_t begin;
	if (!l->on || !l->win_ns)
		return;
	for (; t >= l->win_end; l->win_end += l->win_ns)
		close_window(l, l->win_end, l->win_ns, 1);
	begin = l->win_end - l->win_ns;
	if (t > begin && (l->acc[0].ios || l->acc[1].ios))
		close_window(l, t, t - begin, 0);
}

int iolog_print(const struct iolog *l, int kind, FILE *f)
{
	for (uint64_t i = 0; i < l->n; i++) {
		unsigned long long t, v, bs = 0, off = 0;
		int d;
		if (l->win_ns) {
			const struct win_ent *e = entry(l, i);
			if (kind >= LOGF_SLAT) {
				int k = kind - LOGF_SLAT;
				if (!e->w.ios)
					continue;
				v = l->cfg->max_value ? e->w.max[k] : e->w.sum[k] / e->w.ios;
			} else if (!e->full) {
				continue;    /* as fio: a rate only over a whole window */
			} else if (kind == LOGF_BW) {
				v = (unsigned long long)((double)e->w.bytes * 1e9 / 1024.0 / (double)e->len_ns);
			} else {
				v = (unsigned long long)((double)e->w.ios * 1e9 / (double)e->len_ns);
			}
			t = e->t_ms;
			d = e->ddir;
		} else {
			const struct io_ent *e = entry(l, i);
			switch (kind) {
			case LOGF_BW:
				v = (unsigned long long)e->len * 1000000ull / (e->clat ? e->clat : 1);
				break;
			case LOGF_IOPS: v = 1; break;
			case LOGF_SLAT: v = e->slat; break;
			case LOGF_CLAT: v = e->clat; break;
			default: v = e->slat + e->clat; break;
			}
			t = e->t_ms;
			d = e->ddir;
			bs = e->len;
			off = e->off;
		}
		if (l->cfg->offset)
			fprintf(f, "%llu, %llu, %d, %llu, %llu, 0\n", t, v, d, bs, off);
		else
			fprintf(f, "%llu, %llu, %d, %llu, 0\n", t, v, d, bs);
	}
	return ferror(f) ? -1 : 0;
}

void iolog_free(struct iolog *l)
{
	for (uint64_t c = 0; c < l->nchunk; c++)
		free(l->chunk[c]);
	free(l->chunk);
	l->chunk = NULL;
	l->nchunk = l->chunk_cap = l->n = 0;
}

int iolog_path(const struct iolog_cfg *c, const char *job_name, int kind, int thread, int rep,
	       int nrep, char *buf, size_t n)
{
	const char *p = c->prefix[iolog_file_opt[kind]];
	char th[16] = "", rp[16] = "";
	int r;
	if (c->per_job)
		snprintf(th, sizeof th, ".%d", thread);
	if (nrep > 1)
		snprintf(rp, sizeof rp, ".r%d", rep);
	r = snprintf(buf, n, "%s_%s%s%s.log", p && *p ? p : job_name, iolog_file_kind[kind], th, rp);
	return r < 0 || (size_t)r >= n ? -1 : 0;
}
