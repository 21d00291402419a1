/* fio's I/O logs: see iolog.h.  The values are fio's: latencies in ns; per I/O, the
 * bandwidth is bytes x 10^6 / clat ns (bytes per ms) and the IOPS 1; per window, the
 * bandwidth is KiB/s and the IOPS I/Os per second over the window, the latencies the
 * window's mean (or maximum). */
#include "iolog.h"

#include "hist.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const iolog_file_kind[LOGF_N] = { "bw", "iops", "slat", "clat", "lat", "clat_hist" };
const int iolog_file_opt[LOGF_N] = { IOLOG_BW, IOLOG_IOPS, IOLOG_LAT, IOLOG_LAT, IOLOG_LAT, IOLOG_HIST };
const char *const iolog_opt_name[IOLOG_NOPT] = { "write_bw_log", "write_iops_log", "write_lat_log",
						 "write_hist_log" };

#define CHUNK 65536u

struct io_ent {                 /* one I/O */
	uint64_t off, slat, clat;
	uint32_t t_ms, len;
	uint8_t ddir, has_slat;
	uint16_t prio;              /* its priority (class << 13 | level) */
};

struct win_ent {                /* one direction over one window */
	struct iolog_win w;
	uint64_t len_ns;            /* the window's length (the last one may be shorter) */
	uint32_t t_ms;              /* its end */
	uint8_t ddir, full;
};

struct hist_ent {               /* one direction's buckets over one window */
	uint32_t t_ms;
	uint8_t ddir;
	uint32_t n[];               /* nbins counts */
};

void iolog_init(struct iolog *l, const struct iolog_cfg *cfg, unsigned dirs, uint64_t cap_bytes)
{
	memset(l, 0, sizeof *l);
	l->cfg = cfg;
	l->on = cfg->prefix[IOLOG_BW] || cfg->prefix[IOLOG_IOPS] || cfg->prefix[IOLOG_LAT];
	l->dirs = dirs;
	l->win_ns = (uint64_t)cfg->avg_ms * 1000000u;
	l->isz = l->win_ns ? sizeof(struct win_ent) : sizeof(struct io_ent);
	l->max_n = cap_bytes / l->isz;
}

void iolog_init_hist(struct iolog *l, const struct iolog_cfg *cfg, unsigned dirs, uint64_t cap_bytes,
		     const struct hist *const clat[IOLOG_NDIR])
{
	memset(l, 0, sizeof *l);
	l->cfg = cfg;
	l->hist = 1;
	l->dirs = dirs;
	memcpy(l->clat, clat, sizeof l->clat);
	l->nbins = HIST_NR >> cfg->hist_coarse;
	l->win_ns = (uint64_t)cfg->hist_ms * 1000000u;
	l->isz = (sizeof(struct hist_ent) + l->nbins * sizeof(uint32_t) + 7) & ~(size_t)7;
	l->max_n = cap_bytes / l->isz;
	l->on = cfg->prefix[IOLOG_HIST] && l->win_ns && (l->prev = calloc(IOLOG_NDIR * HIST_NR, sizeof *l->prev));
}

void iolog_start(struct iolog *l, uint64_t t)
{
	struct timespec now;
	/* fio's log_unix_epoch: times from the Unix epoch, not from the start (ms) */
	l->epoch_ms = 0;
	if (l->cfg && l->cfg->unix_epoch && !clock_gettime(CLOCK_REALTIME, &now))
		l->epoch_ms = (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
	l->n = 0;
	l->truncated = 0;
	l->start_ns = t;
	l->win_end = t + l->win_ns;
	memset(l->acc, 0, sizeof l->acc);
	if (l->prev)     /* the histograms start again too */
		memset(l->prev, 0, IOLOG_NDIR * HIST_NR * sizeof *l->prev);
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
	for (int d = 0; d < IOLOG_NDIR; d++) {
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

/* histogram log: a row per direction of what the buckets gained since the last (any
 * gain: a window with none logs none); 1 when something was logged */
static int hist_close(struct iolog *l, uint64_t t_end)
{
	int any = 0;
	for (int d = 0; d < IOLOG_NDIR; d++) {
		const uint64_t *b = l->clat[d]->bins;
		uint64_t *prev = l->prev + d * HIST_NR, tot = 0;
		struct hist_ent *e;
		for (unsigned i = 0; i < HIST_NR; i++)
			tot += b[i] - prev[i];
		if (!(l->dirs & (1u << d)) || !tot || !(e = push(l)))
			continue;
		any = 1;
		e->t_ms = (uint32_t)((t_end - l->start_ns) / 1000000u);
		e->ddir = (uint8_t)d;
		for (unsigned c = 0, stride = 1u << l->cfg->hist_coarse; c < l->nbins; c++) {
			uint64_t sum = 0;
			for (unsigned k = c * stride; k < (c + 1) * stride; k++)
				sum += b[k] - prev[k];
			e->n[c] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
		}
		memcpy(prev, b, HIST_NR * sizeof *prev);
	}
	return any;
}

void iolog_hist_tick(struct iolog *l, uint64_t t)
{
	if (!l->on)
		return;
	/* a window with no completion has nothing to log: skip to the one t is in */
	if (t >= l->win_end) {
		hist_close(l, l->win_end);
		l->win_end += (t - l->win_end) / l->win_ns * l->win_ns + l->win_ns;
	}
}

void iolog_io(struct iolog *l, int ddir, uint64_t off, uint64_t len, uint64_t slat, uint64_t clat,
	      uint64_t t_done, unsigned flags)
{
	if (!l->on)
		return;
	if (l->win_ns) {
		struct iolog_win *w = &l->acc[ddir];
		uint64_t v[3] = { slat, clat, slat + clat };
		for (; t_done >= l->win_end; l->win_end += l->win_ns)
			close_window(l, l->win_end, l->win_ns, 1);
		w->ios += !!(flags & IOLOG_F_RATE);
		w->bytes += flags & IOLOG_F_RATE ? len : 0;
		w->nlat++;
		w->nslat += !!(flags & IOLOG_F_SLAT);
		for (int k = !(flags & IOLOG_F_SLAT); k < 3; k++) {
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
		e->has_slat = !!(flags & IOLOG_F_SLAT);
		{
			unsigned i = flags >> 8;
			e->prio = (uint16_t)(i && ddir < 2 ? l->cfg->cmdprio[ddir][i] : l->cfg->prio);
		}
	}
}

void iolog_end(struct iolog *l, uint64_t t)
{
	uint64_t begin;
	if (l->on && l->hist) {
		iolog_hist_tick(l, t);
		hist_close(l, t);    /* the last, partial window */
		return;
	}
	if (!l->on || !l->win_ns)
		return;
	for (; t >= l->win_end; l->win_end += l->win_ns)
		close_window(l, l->win_end, l->win_ns, 1);
	begin = l->win_end - l->win_ns;
	for (int d = 0; d < IOLOG_NDIR; d++)
		if (t > begin && l->acc[d].nlat) {
			close_window(l, t, t - begin, 0);
			break;
		}
}

int iolog_print(const struct iolog *l, int kind, FILE *f)
{
	for (uint64_t i = 0; l->hist && i < l->n; i++) {
		const struct hist_ent *e = entry(l, i);
		fprintf(f, "%llu, %d, %llu", (unsigned long long)e->t_ms + l->epoch_ms, e->ddir,
			(unsigned long long)l->cfg->bs);
		for (unsigned c = 0; c < l->nbins; c++)
			fprintf(f, ", %u", e->n[c]);
		fputc('\n', f);
	}
	for (uint64_t i = 0; !l->hist && i < l->n; i++) {
		unsigned long long t, v, bs = 0, off = 0;
		unsigned prio = 0;   /* fio's: a window's line has none */
		int d;
		if (l->win_ns) {
			const struct win_ent *e = entry(l, i);
			if (kind >= LOGF_SLAT) {
				int k = kind - LOGF_SLAT;
				uint64_t n = k ? e->w.nlat : e->w.nslat;
				if (!n)
					continue;
				v = l->cfg->max_value ? e->w.max[k] : e->w.sum[k] / n;
			} else if (!e->full || !e->w.ios) {
				continue;    /* as fio: a rate only over a whole window with I/O that way */
			} else if (kind == LOGF_BW) {
				v = (unsigned long long)((double)e->w.bytes * 1e9 / 1024.0 / (double)e->len_ns);
			} else {
				v = (unsigned long long)((double)e->w.ios * 1e9 / (double)e->len_ns);
			}
			t = e->t_ms;
			d = e->ddir;
		} else {
			const struct io_ent *e = entry(l, i);
			if (kind == LOGF_SLAT && !e->has_slat)
				continue;
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
			prio = e->prio;
		}
		t += l->epoch_ms;
		if (l->cfg->offset)
			fprintf(f, "%llu, %llu, %d, %llu, %llu, ", t, v, d, bs, off);
		else
			fprintf(f, "%llu, %llu, %d, %llu, ", t, v, d, bs);
		/* fio's last column: the priority with log_prio, else whether it is realtime's */
		fprintf(f, l->cfg->log_prio ? "0x%04x\n" : "%u\n", l->cfg->log_prio ? prio : (prio >> 13) == 1);
	}
	return ferror(f) ? -1 : 0;
}

void iolog_free(struct iolog *l)
{
	for (uint64_t c = 0; c < l->nchunk; c++)
		free(l->chunk[c]);
	free(l->chunk);
	free(l->prev);
	l->prev = NULL;
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
