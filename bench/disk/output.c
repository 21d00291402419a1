/* The disk engine's output: fio's JSON job objects (key names and units as fio 3.33's
 * stat.c) plus ours under "assay", and fio's text layout drawn from that JSON. */
#include "clock.h"
#include "job.h"
#include "ioengine.h"
#include "json.h"
#include "msg.h"

#include <fcntl.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct json *moments_json(const struct moments *m, int with_n)
{
	struct json *o = json_obj();
	json_add_int(o, "min", m->n ? (long long)m->min : 0);
	json_add_int(o, "max", (long long)m->max);
	json_add_num(o, "mean", m->mean);
	json_add_num(o, "stddev", moments_stddev(m));
	if (with_n)
		json_add_int(o, "N", (long long)m->n);
	return o;
}

/* a latency's moments, and its percentiles at the job's list when they are asked for */
static struct json *lat_json(const struct hist *h, const struct job *j, int pcts)
{
	struct json *o = moments_json(&h->m, 1), *p;
	char key[32];
	if (!h->m.n || !pcts)
		return o;
	p = json_add_obj(o, "percentile");
	for (int i = 0; i < j->o.npcts; i++) {
		snprintf(key, sizeof key, "%f", j->o.pcts[i]);
		json_add_int(p, key, (long long)hist_percentile(h, j->o.pcts[i]));
	}
	if (j->bins) {
		/* fio's json+: every non-empty bucket, keyed by the value it reports */
		p = json_add_obj(o, "bins");
		for (unsigned i = 0; i < HIST_NR; i++)
			if (h->bins[i]) {
				snprintf(key, sizeof key, "%llu", (unsigned long long)hist_val(i));
				json_add_int(p, key, (long long)h->bins[i]);
			}
	}
	return o;
}

/* min/max/mean/stddev/samples of per-interval values */
static void sample_stats(struct json *o, const char *prefix, const char *sd_name, const double *v,
			 uint32_t n)
{
	double mn = 0, mx = 0, mean = 0, ss = 0;
	char k[48];
	for (uint32_t i = 0; i < n; i++) {
		mn = i ? fmin(mn, v[i]) : v[i];
		mx = i ? fmax(mx, v[i]) : v[i];
		mean += v[i] / n;
	}
	for (uint32_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	snprintf(k, sizeof k, "%s_min", prefix);
	json_add_num(o, k, mn);
	snprintf(k, sizeof k, "%s_max", prefix);
	json_add_num(o, k, mx);
	snprintf(k, sizeof k, "%s_mean", prefix);
	json_add_num(o, k, mean);
	snprintf(k, sizeof k, "%s_%s", prefix, sd_name);
	json_add_num(o, k, n > 1 ? sqrt(ss / (n - 1)) : 0);
	snprintf(k, sizeof k, "%s_samples", prefix);
	json_add_int(o, k, n);
}

/* workers' samples summed interval by interval (they start together) */
/* the threads' samples of direction d summed interval by interval (they start together):
 * IOPS and KiB/s per interval; n intervals (the fewest any thread has); -1 without
 * memory */
static int sum_samples(struct worker *const *w, int nw, int d, double sample_ms, double **iops,
		       double **bw, uint32_t *np)
{
	uint32_t n = UINT32_MAX;
	for (int i = 0; i < nw; i++)
		n = w[i]->smp.n < n ? w[i]->smp.n : n;
	if (n == UINT32_MAX)
		n = 0;
	*iops = calloc(n + 1, sizeof **iops);
	*bw = calloc(n + 1, sizeof **bw);
	if (!*iops || !*bw) {
		free(*iops);
		free(*bw);
		return -1;
	}
	/* d == DDIR_N: both directions (fio's unified_rw_reporting) */
	for (uint32_t s = 0; s < n; s++)
		for (int i = 0; i < nw; i++)
			for (int k = d == DDIR_N ? 0 : d; k <= (d == DDIR_N ? DDIR_N - 1 : d); k++) {
				(*iops)[s] += w[i]->smp.ios[k][s] / (sample_ms / 1000.0);
				(*bw)[s] += (double)w[i]->smp.bytes[k][s] / 1024.0 / (sample_ms / 1000.0);
			}
	*np = n;
	return 0;
}

/* fio's per-priority latency (--cmdprio_percentage, --cmdprio_bssplit): the job's priority,
 * then each cmdprio one, each one kind of latency (clat, or lat with --lat_percentiles);
 * those with I/Os, only when two or more had (fio's) */
static void prios_json(struct json *o, const struct ddir_stats *st, int d, const struct job *j)
{
	struct json *a;
	int with = 0;
	if (d >= DDIR_TRIM || !j->cmdprio_pct[d])
		return;
	for (int k = 0; k < j->cmdprio_nval[d]; k++)
		with += st->prio[k].m.n > 0;
	if (with < 2)
		return;
	a = json_add_arr(o, "prios");
	for (int k = 0; k < j->cmdprio_nval[d]; k++) {
		unsigned v = j->cmdprio_val[d][k];
		struct json *e;
		if (!st->prio[k].m.n)
			continue;
		e = json_obj();
		json_add_int(e, "prioclass", v >> 13);
		json_add_int(e, "prio", v & 7);
		json_add(e, j->o.lat_pcts ? "lat_ns" : "clat_ns", lat_json(&st->prio[k], j, j->o.clat_pcts || j->o.lat_pcts));
		json_push(a, e);
	}
}

static void ddir_json(struct json *job, const char *key, const struct ddir_stats *st, uint64_t runtime_ns,
		      struct worker *const *w, int nw, int d, const struct job *j, double group_kib)
{
	struct json *o = json_add_obj(job, key);
	double rt = (double)runtime_ns / 1e9;
	uint32_t n;
	double *iops, *bw;
	json_add_int(o, "io_bytes", (long long)st->bytes);
	json_add_int(o, "io_kbytes", (long long)(st->bytes / 1024));
	json_add_int(o, "bw_bytes", rt > 0 ? (long long)((double)st->bytes / rt) : 0);
	json_add_int(o, "bw", rt > 0 ? (long long)((double)st->bytes / 1024 / rt) : 0);
	/* fio's: failed I/Os a job went on after (--continue_on_error) count as issued */
	json_add_num(o, "iops", rt > 0 ? (double)(st->ios + st->errs) / rt : 0);
	json_add_int(o, "runtime", (long long)(runtime_ns / 1000000));
	json_add_int(o, "total_ios", (long long)(st->ios + st->errs));
	json_add_int(o, "short_ios", (long long)st->short_ios);
	json_add_int(o, "drop_ios", 0);
	json_add(o, "slat_ns", lat_json(&st->slat, j, j->o.slat_pcts));
	json_add(o, "clat_ns", lat_json(&st->clat, j, j->o.clat_pcts));
	json_add(o, "lat_ns", lat_json(&st->lat, j, j->o.lat_pcts));
	prios_json(o, st, d, j);
	if (!sum_samples(w, nw, d, j->sample_ms, &iops, &bw, &n)) {
		double mean = 0;
		uint32_t k = 0;
		/* fio's: an interval without I/O that way is no sample (a write job has no read
		 * samples; assay.samples keeps every interval) */
		for (uint32_t s = 0; s < n; s++)
			if (iops[s] > 0) {
				iops[k] = iops[s];
				bw[k++] = bw[s];
			}
		n = k;
		sample_stats(o, "bw", "dev", bw, n);
		/* fio's per=: the mean sampled bandwidth as a share of the group's (all its
		 * jobs' bytes over their runtimes), at most 100; 0 without samples */
		for (uint32_t s = 0; s < n; s++)
			mean += bw[s] / n;
		json_add_num(o, "bw_agg", n && group_kib > 0 ? fmin(100.0, 100.0 * mean / group_kib) : 0);
		sample_stats(o, "iops", "stddev", iops, n);
		free(iops);
		free(bw);
	}
}

/* jobs[].assay.samples: the series behind iops_min/max/mean (a drop after a burst shows
 * a provider's throttling) */
static void samples_json(struct json *as, const struct ddir_stats *st, struct worker *const *w, int nw,
			 const struct job *j)
{
	struct json *o = json_add_obj(as, "samples");
	json_add_num(o, "interval_ms", j->sample_ms);
	for (int d = 0; d < DDIR_N; d++) {
		double *iops, *bw;
		uint32_t n;
		struct json *dj, *a, *b;
		if (!st[d].ios || sum_samples(w, nw, d, j->sample_ms, &iops, &bw, &n))
			continue;
		dj = json_add_obj(o, ddir_name[d]);
		a = json_add_arr(dj, "iops");
		b = json_add_arr(dj, "bw_bytes");
		for (uint32_t s = 0; s < n; s++) {
			json_push(a, json_num(iops[s]));
			json_push(b, json_num(bw[s] * 1024.0));
		}
		free(iops);
		free(bw);
	}
}

/* a worker counter (the field at off) over the report's threads */
static uint64_t sum_field(struct worker *const *w, int nw, size_t off)
{
	uint64_t n = 0;
	for (int i = 0; i < nw; i++)
		n += *(const uint64_t *)((const char *)w[i] + off);
	return n;
}

static void within_json(struct json *o, const struct hist *h)
{
	static const char *const names[HIST_NTHRESH] = { "100us", "250us", "500us", "1ms", "10ms", "100ms" };
	for (int i = 0; i < HIST_NTHRESH; i++)
		json_add_num(o, names[i], h->m.n ? (double)hist_below(h, hist_thresh_ns[i]) / (double)h->m.n : 0);
}

/* fio's keys of "iodepth_level" and of "latency_ns"/"latency_us" (the first 10) and
 * "latency_ms" (all 12) */
static const char *const depth_keys[7] = { "1", "2", "4", "8", "16", "32", ">=64" };
static const char *const lat_keys[12] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
					  "1000", "2000", ">=2000" };

/* fio's distributions, in % of the job's I/Os: "iodepth_level" (depth in flight at
 * submit) and "latency_ns"/"latency_us"/"latency_ms" (completion latency buckets) */
static void dist_json(struct json *o, const struct ddir_stats *st, struct worker *const *w, int nw)
{
	static const char *const units[3] = { "latency_ns", "latency_us", "latency_ms" };
	uint64_t dm[7] = { 0 }, dn = 0, n = st[DDIR_READ].clat.m.n + st[DDIR_WRITE].clat.m.n + st[DDIR_TRIM].clat.m.n;
	struct json *d = json_add_obj(o, "iodepth_level");
	for (int i = 0; i < nw; i++)
		for (int k = 0; k < 7; k++)
			dm[k] += w[i]->depth_map[k], dn += w[i]->depth_map[k];
	for (int k = 0; k < 7; k++)
		json_add_num(d, depth_keys[k], dn ? 100.0 * (double)dm[k] / (double)dn : 0);
	/* fio's iodepth_submit/iodepth_complete: % of the submit (reap) calls by how many
	 * I/Os each sent (took) */
	for (int q = 0; q < 2; q++) {
		static const char *const keys[7] = { "0", "4", "8", "16", "32", "64", ">=64" };
		uint64_t cm[7] = { 0 }, cn = 0;
		struct json *c = json_add_obj(o, q ? "iodepth_complete" : "iodepth_submit");
		for (int i = 0; i < nw; i++)
			for (int k = 0; k < 7; k++) {
				uint64_t v = q ? w[i]->complete_map[k] : w[i]->submit_map[k];
				cm[k] += v;
				cn += v;
			}
		for (int k = 0; k < 7; k++)
			json_add_num(c, keys[k], cn ? 100.0 * (double)cm[k] / (double)cn : 0);
	}
	for (int u = 0, b = 0; u < 3; u++) {
		struct json *l = json_add_obj(o, units[u]);
		for (int k = 0; k < (u == 2 ? 12 : 10); k++, b++) {
			uint64_t c = st[DDIR_READ].clat.lat[b] + st[DDIR_WRITE].clat.lat[b] + st[DDIR_TRIM].clat.lat[b];
			json_add_num(l, lat_keys[k], n ? 100.0 * (double)c / (double)n : 0);
		}
	}
}

static const char *rw_name(int rw)
{
	return rw_names[rw];
}

/* fio's "job options" hold strings: a number as its shortest text */
static void opt_num(struct json *o, const char *k, double v)
{
	char b[32];
	snprintf(b, sizeof b, "%.15g", v);
	json_add_str(o, k, b);
}

/* what a job's report (or one of its threads', without group_reporting) is made of */
struct jview {
	const struct job_result *r;
	const struct job *j;
	const struct ddir_stats *st;       /* per direction */
	struct ddir_stats *mix;            /* fio's unified_rw_reporting: all of them (NULL: none) */
	const struct moments *sync_lat;
	uint64_t sync_ios, runtime_ns;
	const uint64_t *dir_ns;
	struct worker *const *w;
	int nw, workers_in_it;
	double usr_s, sys_s;
	long ctx;
	const struct errlog *el;           /* the errors gone on after */
};

/* fio's "job options": the shape of the job, as applied */
static void options_shape(struct json *opt, const struct jview *v)
{
	const struct job *j = v->j;
	struct worker *const *w = v->w;
	int nw = v->nw;
	json_add_str(opt, "name", j->name);
	if (nw && w[0]->dev) {
		char names[MAX_FILES * 256];
		size_t l = 0;
		for (int k = 0; k < j->nfiles && w[0]->f[k].dev; k++)   /* fio's a:b */
			l += (size_t)snprintf(names + l, l < sizeof names ? sizeof names - l : 0, "%s%s", k ? ":" : "",
					      w[0]->f[k].dev->path);
		json_add_str(opt, "filename", j->nfiles > 1 ? names : w[0]->dev->path);
		if (j->nfiles > 1) {
			static const char *const fst[] = { "roundrobin", "sequential", "random" };
			char fs[32];
			snprintf(fs, sizeof fs, j->fst_n > 1 ? "%s:%d" : "%s", fst[j->fst], j->fst_n);
			json_add_str(opt, "file_service_type", fs);
		}
	}
	if (j->seq_hole || j->rand_run > 1) {   /* fio's offset modifier, as given */
		char rwm[64];
		snprintf(rwm, sizeof rwm, "%s:%s%llu", rw_name(j->rw), j->seq_back ? "-" : "",
			 j->seq_hole ? (unsigned long long)j->seq_hole : (unsigned long long)j->rand_run);
		json_add_str(opt, "rw", rwm);
		if (j->rw_identical)
			json_add_str(opt, "rw_sequencer", "identical");
	} else {
		json_add_str(opt, "rw", rw_name(j->rw));
	}
	if (j->o.number_ios)
		json_add_int(opt, "number_ios", (long long)j->o.number_ios);
	if (j->bs_pair)
		json_add_str(opt, "bs", j->bs_desc);      /* reads,writes */
	else
		opt_num(opt, "bs", (double)j->bs);
	opt_num(opt, "iodepth", j->o.iodepth);
	opt_num(opt, "numjobs", j->o.numjobs);
	if (j->rw == RW_RANDRW || j->rw == RW_READWRITE) {
		opt_num(opt, "rwmixread", j->o.rwmixread);
	}
	json_add_str(opt, "direct", j->o.direct ? "1" : "0");
	opt_num(opt, "size", (double)j->size);
	opt_num(opt, "offset", (double)j->offset);
	if (j->zone_size) {   /* fio's strided zones */
		json_add_str(opt, "zonemode", "strided");
		opt_num(opt, "zonesize", (double)j->zone_size);
		opt_num(opt, "zonerange", (double)j->zone_range);
		opt_num(opt, "zoneskip", (double)j->zone_skip);
	}
	if (j->zbd) {
		json_add_str(opt, "zonemode", "zbd");
		opt_num(opt, "zonesize", (double)j->zbd_zone);
	}
	if (j->o.runtime > 0) {
		opt_num(opt, "runtime", j->o.runtime);
	}
	if (j->o.time_based)
		json_add_str(opt, "time_based", "1");
	if (j->o.end_fsync)
		json_add_str(opt, "end_fsync", "1");
	if (j->o.fdatasync) {
		opt_num(opt, j->fsync_full ? "fsync" : "fdatasync", j->o.fdatasync);
	}
}

/* fio's "job options": the engine and what was asked beyond the shape */
static void options_more(struct json *opt, const struct jview *v)
{
	const struct job *j = v->j;
	json_add_str(opt, "ioengine", JOB_ENGINE(j)->name);
	if (j->offload)
		json_add_str(opt, "io_submit_mode", "offload");
	for (int d = 0; d < DDIR_N; d++) {
		/* the caps as applied, per thread */
		if (j->o.rate_gap_ns[d])
			opt_num(opt, (const char *[]){ "rate_iops_read", "rate_iops_write", "rate_iops_trim" }[d],
				round(1e9 / (double)j->o.rate_gap_ns[d]));
		if (j->o.rate_bps[d])
			opt_num(opt, (const char *[]){ "rate_read", "rate_write", "rate_trim" }[d], (double)j->o.rate_bps[d]);
	}
	if (j->var_bs && !j->bs_pair)
		json_add_str(opt, j->range_hi[0] || j->range_hi[1] ? "bsrange" : "bssplit", j->bs_desc);
	if (j->var_bs && j->o.bs_is_seq_rand)
		json_add_str(opt, "bs_is_seq_rand", "1");
	if (j->o.serialize_overlap)
		json_add_str(opt, "serialize_overlap", "1");
	if (j->dedupe_ws) {
		json_add_str(opt, "dedupe_mode", "working_set");
		opt_num(opt, "dedupe_working_set_percentage", j->o.dedupe_ws_pct);
		if (j->o.dedupe_global)
			json_add_str(opt, "dedupe_global", "1");
	}
	if (j->o.trim_pct) {
		opt_num(opt, "trim_percentage", j->o.trim_pct);
		if (!j->o.trim_zero)
			json_add_str(opt, "trim_verify_zero", "0");
	}
	if (j->o.think_issue)
		json_add_str(opt, "thinktime_blocks_type", "issue");
	if (j->o.rate_ign_think)
		json_add_str(opt, "rate_ignore_thinktime", "1");
	if (j->o.loops > 1)
		opt_num(opt, "loops", j->o.loops);
	if (j->o.io_size)
		opt_num(opt, "io_size", (double)j->o.io_size);
	if (j->offset_inc)
		opt_num(opt, "offset_increment", (double)j->offset_inc);
	if (j->o.exitall)
		json_add_str(opt, "exitall", "1");
	if (j->o.startdelay > 0)
		opt_num(opt, "startdelay", j->o.startdelay);
	if (j->o.zero_buffers)
		json_add_str(opt, "zero_buffers", "1");
	if (j->sync_flags)
		json_add_str(opt, "sync", j->sync_flags == O_DSYNC ? "dsync" : "sync");
	if (j->o.fsync_on_close)
		json_add_str(opt, "fsync_on_close", "1");
	if (j->ss.kind) {
		json_add_str(opt, "steadystate", j->ss_desc);
		opt_num(opt, "steadystate_duration", j->ss.dur);
		if (j->ss.ramp)
			opt_num(opt, "steadystate_ramp_time", j->ss.ramp);
	}
	if (j->coe) {
		static const char *const coe_names[] = { "none", "read", "write", "io", "verify", "read,verify",
							 "write,verify", "all" };
		json_add_str(opt, "continue_on_error", coe_names[j->coe & 7]);
	}
	if (j->verify) {
		json_add_str(opt, "verify", verify_name(j->verify));
		if (!j->o.do_verify)
			json_add_str(opt, "do_verify", "0");
		if (j->o.verify_only)
			json_add_str(opt, "verify_only", "1");
		if (j->o.verify_fatal)
			json_add_str(opt, "verify_fatal", "1");
	}
	if (j->replay) {
		json_add_str(opt, "read_iolog", j->replay->path);
		if (j->o.replay_no_stall)
			json_add_str(opt, "replay_no_stall", "1");
		if (j->replay_time_pct != 100)
			json_add_int(opt, "replay_time_scale", j->replay_time_pct);
	}
	if (j->iolog_out[0])
		json_add_str(opt, "write_iolog", j->iolog_out);
	if (j->pattern_len) {   /* the data written, as hex */
		char hx[2 * PATTERN_MAX + 3] = "0x";
		for (int i = 0; i < j->pattern_len; i++)
			snprintf(hx + 2 + 2 * i, 3, "%02x", j->pattern[i]);
		json_add_str(opt, j->verify == VM_PATTERN ? "verify_pattern" : "buffer_pattern", hx);
	}
	if (j->o.pct_seq[0] || j->o.pct_seq[1]) {
		char b2[32];
		snprintf(b2, sizeof b2, "%d,%d", 100 - j->o.pct_seq[0], 100 - j->o.pct_seq[1]);
		json_add_str(opt, "percentage_random", b2);
	}
	if (j->dist_desc[0])
		json_add_str(opt, "random_distribution", j->dist_desc);
	for (int k = 0; k < IOLOG_NOPT; k++)    /* as given (fio's): "" for the job's name */
		if (j->log.prefix[k])
			json_add_str(opt, iolog_opt_name[k], j->log.prefix[k]);
	if (j->log.hist_ms) {
		opt_num(opt, "log_hist_msec", j->log.hist_ms);
		if (j->log.hist_coarse)
			opt_num(opt, "log_hist_coarseness", j->log.hist_coarse);
	}
	if (j->log.avg_ms)
		opt_num(opt, "log_avg_msec", j->log.avg_ms);
	if (j->log.max_value)
		json_add_str(opt, "log_max_value", "1");
	if (j->log.offset)
		json_add_str(opt, "log_offset", "1");
	if (iolog_wanted(&j->log) && !j->log.per_job)
		json_add_str(opt, "per_job_logs", "0");
	if (j->o.think_ns) {   /* microseconds, as fio's */
		opt_num(opt, "thinktime", (double)(j->o.think_ns / 1000));
		opt_num(opt, "thinktime_blocks", j->think_blocks);
		if (j->o.think_spin_ns)
			opt_num(opt, "thinktime_spin", (double)(j->o.think_spin_ns / 1000));
	}
	if (j->ncpus) {
		size_t l = 0;
		char cl[1400];
		for (int i = 0; i < j->ncpus && l < sizeof cl; i++)
			l += (size_t)snprintf(cl + l, sizeof cl - l, "%s%d", i ? "," : "", j->cpus[i]);
		json_add_str(opt, "cpus_allowed", cl);
		if (j->cpus_split)
			json_add_str(opt, "cpus_allowed_policy", "split");
	}
	if (j->rate_poisson && (j->o.rate_gap_ns[0] || j->o.rate_gap_ns[1] || j->o.rate_bps[0] || j->o.rate_bps[1]))
		json_add_str(opt, "rate_process", "poisson");
	if (!j->o.clat_pcts)
		json_add_str(opt, "clat_percentiles", "0");
	if (j->o.lat_pcts)
		json_add_str(opt, "lat_percentiles", "1");
	if (j->o.slat_pcts)
		json_add_str(opt, "slat_percentiles", "1");
	if (j->o.npcts != HIST_NPCT || memcmp(j->o.pcts, hist_default_pcts, sizeof hist_default_pcts)) {
		size_t l = 0;
		char pl[MAX_PCTS * 24];
		for (int i = 0; i < j->o.npcts && l < sizeof pl; i++)
			l += (size_t)snprintf(pl + l, sizeof pl - l, "%s%g", i ? ":" : "", j->o.pcts[i]);
		json_add_str(opt, "percentile_list", pl);
	}

}

/* the directions' figures, sync, CPU, errors, the latency target's depth (fio's keys) */
static void job_figures(struct json *o, const struct jview *v)
{
	const struct job *j = v->j;
	const struct job_result *r = v->r;
	const struct ddir_stats *st = v->st;
	struct ddir_stats *mix = v->mix;
	const uint64_t *dir_ns = v->dir_ns;
	struct worker *const *w = v->w;
	int nw = v->nw;
	uint64_t runtime_ns = v->runtime_ns;
	const struct errlog *el = v->el;
	struct json *sy;
	if (j->o.unified != 1) {
		ddir_json(o, "read", &st[DDIR_READ], dir_ns[DDIR_READ], w, nw, DDIR_READ, j, r->group_kib[DDIR_READ]);
		ddir_json(o, "write", &st[DDIR_WRITE], dir_ns[DDIR_WRITE], w, nw, DDIR_WRITE, j,
			  r->group_kib[DDIR_WRITE]);
		ddir_json(o, "trim", &st[DDIR_TRIM], dir_ns[DDIR_TRIM], w, nw, DDIR_TRIM, j, r->group_kib[DDIR_TRIM]);
	}
	if (mix) {   /* fio's: the longest direction's runtime */
		uint64_t mix_ns = 0;
		for (int d = 0; d < DDIR_N; d++)
			mix_ns = dir_ns[d] > mix_ns ? dir_ns[d] : mix_ns;
		ddir_json(o, "mixed", mix, mix_ns, w, nw, DDIR_N, j,
			  r->group_kib[DDIR_READ] + r->group_kib[DDIR_WRITE] + r->group_kib[DDIR_TRIM]);
	}
	sy = json_add_obj(o, "sync");
	json_add_int(sy, "total_ios", (long long)v->sync_ios);
	json_add(sy, "lat_ns", moments_json(v->sync_lat, 1));
	/* fio's: a job of several threads reported as one adds their runtimes up (its
	 * sum_thread_stats), and its CPU % is over that: a thread's average */
	if (v->workers_in_it > 1 && v->r->threads_ns)
		runtime_ns = v->r->threads_ns;
	json_add_int(o, "job_runtime", (long long)(runtime_ns / 1000000));
	/* fio's meaning: the job threads' own CPU time over the job's runtime */
	json_add_num(o, "usr_cpu", runtime_ns ? 100.0 * v->usr_s / ((double)runtime_ns / 1e9) : 0);
	json_add_num(o, "sys_cpu", runtime_ns ? 100.0 * v->sys_s / ((double)runtime_ns / 1e9) : 0);
	json_add_int(o, "ctx", v->ctx);
	if (j->coe || r->errs.n) {
		/* fio's, with continue_on_error: the errors gone on after, the first's errno */
		json_add_int(o, "total_err", el ? (long long)el->n : 0);
		json_add_int(o, "first_error", el && el->n ? el->first : 0);
	}
	{
		struct cpu_use u = { 0 };
		for (int i = 0; i < nw; i++)
			worker_cpu(w[i], 0, &u);
		json_add_int(o, "majf", u.majf);
		json_add_int(o, "minf", u.minf);
	}
	dist_json(o, st, w, nw);
	{
		/* fio's, always there: the depth found (the threads' shallowest; without a
		 * target, the iodepth), target ns, percentile, window us */
		int depth = 0;
		for (int i = 0; j->o.lat_target_ns && i < nw; i++)
			if (!depth || w[i]->lat_depth < depth)
				depth = w[i]->lat_depth;
		json_add_int(o, "latency_depth", j->o.lat_target_ns ? depth : j->o.iodepth);
		json_add_int(o, "latency_target", (long long)j->o.lat_target_ns);
		json_add_num(o, "latency_percentile", j->o.lat_target_ns ? j->lat_pct : 100.0);
		json_add_int(o, "latency_window", (long long)(j->o.lat_window_ns / 1000));
	}

}

/* the read-back's figures (fio's verify), for the job or its one thread */
static void verify_json(struct json *as, const struct jview *jv)
{
	const struct job_result *r = jv->r;
	const struct job *j = jv->j;
	struct worker *const *w = jv->w;
	int nw = jv->nw;
	if (r->ver.ran && (nw != 1 || r->nworkers == 1 || w[0]->ver.ran)) {
		/* one thread's report (no group_reporting): its own read-back */
		int own = nw == 1 && r->nworkers > 1;
		struct json *v = json_add_obj(as, "verify");
		uint64_t bad = own ? w[0]->ver.bad : r->ver.bad;
		json_add_str(v, "algorithm", verify_name(j->verify));
		json_add_int(v, "blocks", (long long)(own ? w[0]->ver.blocks : r->ver.blocks));
		json_add_int(v, "block_size", (long long)j->bs);
		json_add_int(v, "bad", (long long)bad);
		if (j->o.trim_pct)   /* discarded before the read-back: read back as zeros (trim_verify_zero) */
			json_add_int(v, "trimmed", (long long)(own ? w[0]->ver.trimmed : r->ver.trimmed));
		if (rw_writes(j->rw) || j->o.verify_only)   /* a read job checks as it reads: no time of its own */
			json_add_num(v, "seconds", own ? (double)(w[0]->ver.ns + w[0]->ver.bl_ns) / 1e9 : r->ver.seconds);
		if (bad)
			json_add_str(v, "first_bad", own ? w[0]->ver.first : r->ver.first);
	}
}

/* what the replayed log held */
static void replay_json(struct json *as, const struct replay *rp)
{
	struct json *v;
	if (!rp)
		return;
	v = json_add_obj(as, "replay");
	json_add_str(v, "log", rp->path);
	json_add_str(v, "log_file", rp->file[0]);
	json_add_int(v, "version", rp->version);
	json_add_int(v, "entries", (long long)rp->n);
	json_add_int(v, "reads", (long long)rp->count[RP_READ]);
	json_add_int(v, "writes", (long long)rp->count[RP_WRITE]);
	json_add_int(v, "trims", (long long)rp->count[RP_TRIM]);
	json_add_int(v, "syncs", (long long)(rp->count[RP_SYNC] + rp->count[RP_DATASYNC]));
	json_add_num(v, "log_seconds", rp->n ? (double)(rp->io[rp->n - 1].t_us - rp->io[0].t_us) / 1e6 : 0);
}

/* assay's own: status, errors by offset, mode, timing, CPU, samples, engine details */
static void job_assay(struct json *o, const struct jview *v)
{
	const struct job_result *r = v->r;
	const struct job *j = v->j;
	const struct ddir_stats *st = v->st;
	struct ddir_stats *mix = v->mix;
	struct worker *const *w = v->w;
	int nw = v->nw, workers_in_it = v->workers_in_it;
	uint64_t runtime_ns = v->runtime_ns;
	const struct errlog *el = v->el;
	struct json *as, *wi;
	char b[64];
	as = json_add_obj(o, "assay");
	json_add_str(as, "status", r->skipped ? "skipped" : r->err ? "failed" : "ok");
	if (r->skipped)
		json_add_str(as, "skipped", r->skipped);
	if (r->err)
		json_add_str(as, "error", r->errmsg);
	if (el && (el->n || j->coe)) {
		/* the failed I/Os themselves, the first MAX_BAD by offset: where the bad sectors are
		 * (with --continue_on_error always there, empty when none failed) */
		const struct bad_io *bad = el->bad;
		struct json *a;
		if (el->n)
			json_add_str(as, "first_error", el->first_msg);
		a = json_add_arr(as, "errors");
		for (int i = 0; i < el->nbad; i++) {
			struct json *e = json_push(a, json_obj());
			json_add_str(e, "op", bad[i].ddir < DDIR_N ? ddir_name[bad[i].ddir] : "verify");
			json_add_int(e, "offset", (long long)bad[i].off);
			json_add_int(e, "length", (long long)bad[i].len);
			json_add_int(e, "errno", bad[i].err);
		}
	}
	json_add_str(as, "mode", mode_names[j->o.mode]);
	json_add_int(as, "randseed", (long long)j->randseed);
	json_add_int(as, "repeat", r->repeat);
	json_add_int(as, "threads", workers_in_it ? workers_in_it : j->o.numjobs);
	/* when its threads measured, in ms from the start of the run: a group's jobs overlap */
	{
		uint64_t s0 = UINT64_MAX, s1 = 0;
		for (int i = 0; i < nw; i++)
			if (w[i]->end_ns > w[i]->start_ns) {
				s0 = w[i]->start_ns < s0 ? w[i]->start_ns : s0;
				s1 = w[i]->end_ns > s1 ? w[i]->end_ns : s1;
			}
		if (s1 && s0 >= r->t0_ns) {
			json_add_num(as, "start_ms", (double)(s0 - r->t0_ns) / 1e6);
			json_add_num(as, "end_ms", (double)(s1 - r->t0_ns) / 1e6);
		}
	}
	cpuload_json(&r->load, as);
	/* the whole process, io_uring's io-wq workers included, over the job */
	json_add_num(as, "process_cpu_pct", r->load.usr_pct + r->load.sys_pct);
	/* the summary's figures, whatever --percentile_list and --clat_percentiles say */
	for (int p = 0; p < 2; p++) {
		struct json *hp = json_add_obj(as, p ? "clat_p99_ns" : "clat_p50_ns");
		for (int d = 0; d < DDIR_N; d++)
			if (st[d].clat.m.n)
				json_add_int(hp, ddir_name[d],
					     (long long)hist_percentile(&st[d].clat, p ? 99 : 50));
		if (mix && mix->clat.m.n)
			json_add_int(hp, "mixed", (long long)hist_percentile(&mix->clat, p ? 99 : 50));
	}
	samples_json(as, st, w, nw, j);
	wi = json_add_obj(as, "within");
	within_json(json_add_obj(wi, "read"), &st[DDIR_READ].clat);
	within_json(json_add_obj(wi, "write"), &st[DDIR_WRITE].clat);
	if (rw_trims(j->rw))
		within_json(json_add_obj(wi, "trim"), &st[DDIR_TRIM].clat);
	if (nw > 0 && w[0]->uring_flags[0] && !w[0]->engine_fallback)
		json_add_str(as, "io_uring_setup", w[0]->uring_flags);
	if (nw > 0 && w[0]->engine_fallback) {
		snprintf(b, sizeof b, "psync (%s: %s)", JOB_ENGINE(j)->name,
			 strerror(w[0]->engine_fallback));
		json_add_str(as, "ioengine_used", b);
	}
	if (j->o.warmup_ios)
		json_add_int(as, "warmup_ios", j->o.warmup_ios);
	if (JOB_ENGINE_HAS(j, IOE_HELPERS) && nw > 0 && !w[0]->engine_fallback) {
		/* the helper threads' CPU (fio's usr/sys leave it out: its job thread's only) */
		struct json *h = json_add_obj(as, "posixaio_helpers");
		double rt = runtime_ns ? (double)runtime_ns / 1e9 : 0;
		struct cpu_use u = { 0 };
		for (int i = 0; i < nw; i++)
			worker_cpu(w[i], 1, &u);
		json_add_num(h, "usr_cpu", rt > 0 ? 100.0 * u.usr / rt : 0);
		json_add_num(h, "sys_cpu", rt > 0 ? 100.0 * u.sys / rt : 0);
		json_add_int(h, "ctx", u.ctx);
	}
	if (j->o.hipri && psync_vec(j) == 2)   /* I/Os issued polled (RWF_HIPRI) */
		json_add_int(as, "hipri_ios", (long long)sum_field(w, nw, offsetof(struct worker, hipri_ios)));
	if (j->o.userspace_reap)   /* completions read from the ring itself (fio's userspace_reap) */
		json_add_int(as, "userspace_reaps", (long long)sum_field(w, nw, offsetof(struct worker, ring_reaps)));
	if (j->zt) {   /* fio's zonemode=zbd: the zones, and the resets the job made */
		struct json *z = json_add_obj(as, "zbd");
		zbd_describe(j->zt, z);
		if (j->per_thread && j->nftg > 1)   /* each thread's file its zones: "zones" is one's */
			json_add_int(z, "files", j->nftg);
		json_add_int(z, "zone_resets", (long long)sum_field(w, nw, offsetof(struct worker, zbd.resets)));
	}
	verify_json(as, v);
	replay_json(as, j->replay);
	if (j->o.mode == MODE_REWRITE && rw_writes(j->rw))
		json_add_str(as, "note", "rewrite: each write reads the block and writes the same bytes "
					 "back; write figures include that read");
}

static void one_job(const struct job_result *r, struct json *jobs, const struct ddir_stats *st,
		    const struct moments *sync_lat, uint64_t sync_ios, uint64_t runtime_ns, const uint64_t *dir_ns,
		    struct worker *const *w, int nw, int workers_in_it, double usr_s, double sys_s, long ctx)
{
	const struct job *j = &r->job;
	struct json *o = json_push(jobs, json_obj()), *opt;
	struct jview v = { r, j, st, NULL, sync_lat, sync_ios, runtime_ns, dir_ns, w, nw, workers_in_it, usr_s, sys_s,
			   ctx, nw == r->nworkers ? &r->errs : nw ? &w[0]->errs : NULL };
	if (j->o.unified) {   /* fio's unified_rw_reporting: reads and writes as one ("mixed") */
		v.mix = malloc(sizeof *v.mix);
		if (v.mix) {
			ddir_stats_init(v.mix);
			ddir_stats_merge(v.mix, &st[DDIR_READ]);
			ddir_stats_merge(v.mix, &st[DDIR_WRITE]);
			ddir_stats_merge(v.mix, &st[DDIR_TRIM]);
		}
	}
	json_add_str(o, "jobname", j->name);
	if (j->desc[0])
		json_add_str(o, "desc", j->desc);   /* fio's, when the job has a description */
	json_add_int(o, "groupid", r->group);
	json_add_int(o, "error", r->err);
	json_add_int(o, "eta", 0);          /* fio's: seconds left, 0 at the end */
	json_add_int(o, "elapsed", (long long)((runtime_ns + 999999999ull) / 1000000000ull));
	opt = json_add_obj(o, "job options");
	options_shape(opt, &v);
	options_more(opt, &v);
	job_figures(o, &v);
	if (r->ss.cfg)
		ss_json(&r->ss, o);
	job_assay(o, &v);
	free(v.mix);
}

void job_json(const struct job_result *r, int group, struct json *jobs)
{
	struct worker *ws[256];
	int nw = r->nworkers < 256 ? r->nworkers : 256;
	for (int i = 0; i < nw; i++)
		ws[i] = &r->w[i];
	if (group || nw <= 1) {
		one_job(r, jobs, r->agg, &r->sync_lat, r->sync_ios, r->runtime_ns, r->dir_ns, ws, nw, nw, r->usr_s,
			r->sys_s, r->ctx);
		return;
	}
	for (int i = 0; i < nw; i++) {
		const struct worker *w = &r->w[i];
		uint64_t dn[DDIR_N];
		for (int d = 0; d < DDIR_N; d++)
			dn[d] = worker_dir_ns(w, d);
		struct cpu_use u = { 0 };
		worker_cpu(w, 0, &u);
		one_job(r, jobs, w->st, &w->sync_lat, w->sync_ios, worker_runtime(w), dn, &ws[i], 1, 1, u.usr, u.sys, u.ctx);
	}
}

/* ---- text, fio's layout ---- */

const char *scale_bytes(double v, char *b, size_t n, int si)
{
	static const char *const bin[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	static const char *const dec[] = { "B", "kB", "MB", "GB", "TB" };
	double base = si ? 1000 : 1024;
	int i = 0;
	while (v >= base * 0.9999 && i < 4)
		v /= base, i++;
	snprintf(b, n, v >= 100 || i == 0 ? "%.0f%s" : v >= 10 ? "%.1f%s" : "%.2f%s", v,
		 si ? dec[i] : bin[i]);
	return b;
}

const char *scale_count(double v, char *b, size_t n)
{
	if (v >= 1e6)
		snprintf(b, n, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(b, n, "%.1fk", v / 1e3);
	else
		snprintf(b, n, "%.0f", v);
	return b;
}

/* fio picks nsec/usec/msec by the size of the figures */
static double lat_unit(double max_ns, const char **name)
{
	if (max_ns < 10000) {
		*name = "nsec";
		return 1;
	}
	if (max_ns < 10000000) {
		*name = "usec";
		return 1e3;
	}
	*name = "msec";
	return 1e6;
}

static void print_moments(FILE *f, const char *label, const struct json *m)
{
	const char *u;
	double div;
	if (!m || json_get_num(m, "N", 0) <= 0)
		return;
	div = lat_unit(json_get_num(m, "max", 0), &u);
	fprintf(f, "    %4s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n", label, u,
		json_get_num(m, "min", 0) / div, json_get_num(m, "max", 0) / div,
		json_get_num(m, "mean", 0) / div, json_get_num(m, "stddev", 0) / div);
}

/* fio's percentile block: the unit from the smallest and largest value (rounded up when
 * scaled), as many decimals as the list's percents need, as many per line as fit in 80 */
static void print_pcts(FILE *f, const char *label, const struct json *pct)
{
	double minv = INFINITY, maxv = 0, div = 1;
	int prec = 0, width, per_line, i = 0;
	const char *u = "nsec";
	if (!pct || !pct->child)
		return;
	for (const struct json *p = pct->child; p; p = p->next) {
		double k = atof(p->key);
		int d = 0;
		minv = fmin(minv, p->num);
		maxv = fmax(maxv, p->num);
		while (d < 6 && fabs(k * pow(10, d) - round(k * pow(10, d))) > 1e-6)
			d++;
		prec = d > prec ? d : prec;
	}
	if (minv > 2e6 && maxv > 99999999)
		div = 1e6, u = "msec";
	else if (minv > 2000 && maxv > 99999)
		div = 1e3, u = "usec";
	width = (int)log10(floor(maxv / div)) + 1;
	width = width < 5 ? 5 : width;
	per_line = (80 - 7) / (prec + 10 + width);
	fprintf(f, "    %s percentiles (%s):\n     |", label, u);
	for (const struct json *p = pct->child; p; p = p->next, i++) {
		if (i && i % per_line == 0)
			fputs("     |", f);
		fprintf(f, " %*.*fth=[%*.0f]%c", prec + 3, prec, atof(p->key), width, ceil(p->num / div),
			p->next ? ',' : '\n');
		if (p->next && i % per_line == per_line - 1)
			fputc('\n', f);
	}
}

/* fio's lines of each priority (--cmdprio_*): its moments (pcts 0), or its
 * percentiles with its share of the I/Os (pcts 1) */
static void print_prios(FILE *f, const struct json *d, int pcts)
{
	for (const struct json *p = json_get(d, "prios") ? json_get(d, "prios")->child : NULL; p; p = p->next) {
		const char *key = json_get(p, "lat_ns") ? "lat_ns" : "clat_ns";   /* one kind of latency */
		const char *kind = key[0] == 'l' ? "lat" : "clat";
		const struct json *m = json_get(p, key);
		double all = json_get_num(json_get(d, key), "N", 0);
		char label[64];
		if (!pcts) {
			snprintf(label, sizeof label, "%s prio %.0f/%.0f", kind, json_get_num(p, "prioclass", 0),
				 json_get_num(p, "prio", 0));
			print_moments(f, label, m);
		} else if (json_get(m, "percentile")) {
			snprintf(label, sizeof label, "%s prio %.0f/%.0f (%.2f%% of IOs)", kind,
				 json_get_num(p, "prioclass", 0), json_get_num(p, "prio", 0),
				 all > 0 ? 100.0 * json_get_num(m, "N", 0) / all : 0);
			print_pcts(f, label, json_get(m, "percentile"));
		}
	}
}

static void print_ddir(FILE *f, const char *name, const struct json *d, const struct json *zbd)
{
	char b1[32], b2[32], b3[32], b4[32];
	const struct json *clat = json_get(d, "clat_ns");
	double rt = json_get_num(d, "runtime", 0);
	if (json_get_num(d, "total_ios", 0) <= 0)
		return;
	fprintf(f, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%.0fmsec)", name,
		scale_count(json_get_num(d, "iops", 0), b1, sizeof b1),
		scale_bytes(json_get_num(d, "bw_bytes", 0), b2, sizeof b2, 0),
		scale_bytes(json_get_num(d, "bw_bytes", 0), b3, sizeof b3, 1),
		scale_bytes(json_get_num(d, "io_bytes", 0), b4, sizeof b4, 0), rt);
	if (zbd && !strcmp(name, "write"))   /* fio's */
		fprintf(f, "; %.0f zone resets", json_get_num(zbd, "zone_resets", 0));
	fputc('\n', f);
	print_moments(f, "slat", json_get(d, "slat_ns"));
	print_moments(f, "clat", clat);
	print_moments(f, "lat", json_get(d, "lat_ns"));
	print_prios(f, d, 0);
	print_pcts(f, "slat", json_get(json_get(d, "slat_ns"), "percentile"));
	print_pcts(f, "clat", json_get(clat, "percentile"));
	print_pcts(f, "lat", json_get(json_get(d, "lat_ns"), "percentile"));
	print_prios(f, d, 1);
	if (json_get_num(d, "bw_samples", 0) > 0) {
		fprintf(f, "   bw (  KiB/s): min=%.0f, max=%.0f, per=%.2f%%, avg=%.2f, stdev=%.2f, samples=%.0f\n",
			json_get_num(d, "bw_min", 0), json_get_num(d, "bw_max", 0), json_get_num(d, "bw_agg", 0),
			json_get_num(d, "bw_mean", 0), json_get_num(d, "bw_dev", 0),
			json_get_num(d, "bw_samples", 0));
		fprintf(f, "   iops        : min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f, samples=%.0f\n",
			json_get_num(d, "iops_min", 0), json_get_num(d, "iops_max", 0),
			json_get_num(d, "iops_mean", 0), json_get_num(d, "iops_stddev", 0),
			json_get_num(d, "iops_samples", 0));
	}
}

void disk_text_job(const struct json *j, FILE *f)
{
	const struct json *as = json_get(j, "assay");
	const char *status = json_get_str(as, "status", "?");
	fprintf(f, "\n%s: (groupid=%.0f, jobs=%.0f): err=%2.0f: rw=%s, bs=%s, iodepth=%s, direct=%s\n",
		json_get_str(j, "jobname", "?"), json_get_num(j, "groupid", 0), json_get_num(as, "threads", 1),
		json_get_num(j, "error", 0),
		json_get_str(j, "job options.rw", "?"), json_get_str(j, "job options.bs", "?"),
		json_get_str(j, "job options.iodepth", "?"), json_get_str(j, "job options.direct", "?"));
	if (!strcmp(status, "skipped")) {
		fprintf(f, "  skipped: %s\n", json_get_str(as, "skipped", ""));
		return;
	}
	print_ddir(f, "read", json_get(j, "read"), NULL);
	print_ddir(f, "write", json_get(j, "write"), json_get(as, "zbd"));
	print_ddir(f, "trim", json_get(j, "trim"), NULL);
	print_ddir(f, "mixed", json_get(j, "mixed"), NULL);
	for (int d = 0; d < DDIR_N; d++) {
		const char *dn = ddir_name[d];
		const struct json *w = json_get(json_get(as, "within"), dn);
		if (json_get_num(json_get(j, dn), "total_ios", 0) <= 0 || !w)
			continue;
		fprintf(f, "  %-5s within: ", dn);
		for (const struct json *t = w->child; t; t = t->next)
			fprintf(f, "%s=%.2f%%%s", t->key, t->num * 100, t->next ? ", " : "\n");
	}
	if (json_get(j, "steadystate")) {
		const struct json *ss = json_get(j, "steadystate");
		const char *kind = json_get_str(ss, "ss", ""), *crit = json_get_str(ss, "criterion", "");
		char b1[32], b2[32], b3[32];
		double bw = json_get_num(ss, "data.bw_mean", 0);
		fprintf(f, "  steadystate  : attained=%s, bw=%s/s (%s/s), iops=%s, %s %s=%s\n",
			json_get_num(ss, "attained", 0) ? "yes" : "no", scale_bytes(bw, b1, sizeof b1, 0),
			scale_bytes(bw, b2, sizeof b2, 1), scale_count(json_get_num(ss, "data.iops_mean", 0), b3, sizeof b3),
			!strncmp(kind, "bw", 2) ? "bw" : "iops", strstr(kind, "slope") ? "slope" : "mean dev",
			*crit ? crit : "(never judged: the window did not fill)");
	}
	if (json_get(as, "replay")) {
		const struct json *v = json_get(as, "replay");
		fprintf(f, "  replay       : %s (fio's iolog v%.0f), %.0f reads, %.0f writes, %.0f trims, %.0f syncs over "
			"%.3f s of log\n", json_get_str(v, "log", "?"), json_get_num(v, "version", 0),
			json_get_num(v, "reads", 0), json_get_num(v, "writes", 0), json_get_num(v, "trims", 0),
			json_get_num(v, "syncs", 0), json_get_num(v, "log_seconds", 0));
	}
	if (json_get(as, "verify")) {
		const struct json *v = json_get(as, "verify");
		char when[64];
		if (json_get(v, "seconds"))
			snprintf(when, sizeof when, "read back in %.3f s", json_get_num(v, "seconds", 0));
		else
			snprintf(when, sizeof when, "checked as read");
		char trimmed[64] = "";
		if (json_get(v, "trimmed"))
			snprintf(trimmed, sizeof trimmed, " (%.0f of them discarded first)", json_get_num(v, "trimmed", 0));
		fprintf(f, "  verify       : %s, %.0f blocks of %.0f B%s %s, %.0f bad%s%s\n", json_get_str(v, "algorithm", "?"),
			json_get_num(v, "blocks", 0), json_get_num(v, "block_size", 0), trimmed, when,
			json_get_num(v, "bad", 0), json_get(v, "first_bad") ? "; the first: " : "",
			json_get_str(v, "first_bad", ""));
	}
	if (json_get_num(j, "sync.total_ios", 0) > 0) {
		const char *u;
		double div = lat_unit(json_get_num(j, "sync.lat_ns.max", 0), &u);
		fprintf(f, "  sync (%s): N=%.0f, avg=%.2f, max=%.0f\n", u, json_get_num(j, "sync.total_ios", 0),
			json_get_num(j, "sync.lat_ns.mean", 0) / div, json_get_num(j, "sync.lat_ns.max", 0) / div);
	}
	/* fio's "lat (usec)   : 50=56.40%, 100=41.45%" lines: the buckets of 0.01% or more */
	for (int u = 0; u < 3; u++) {
		static const char *const key[3] = { "latency_ns", "latency_us", "latency_ms" };
		static const char *const un[3] = { "nsec", "usec", "msec" };
		const struct json *l = json_get(j, key[u]);
		int n = 0;
		for (const struct json *b = l ? l->child : NULL; b; b = b->next) {
			if (b->num < 0.01)
				continue;
			if (n++)
				fputs(", ", f);
			else
				fprintf(f, "  lat (%s)   : ", un[u]);
			fprintf(f, "%s=%.2f%%", b->key, b->num);
		}
		if (n)
			fputc('\n', f);
	}
	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%.0f, majf=%.0f, minf=%.0f\n",
		json_get_num(j, "usr_cpu", 0), json_get_num(j, "sys_cpu", 0), json_get_num(j, "ctx", 0),
		json_get_num(j, "majf", 0), json_get_num(j, "minf", 0));
	if (json_get(j, "iodepth_level")) {
		fputs("  IO depths    : ", f);
		for (const struct json *b = json_get(j, "iodepth_level")->child; b; b = b->next)
			fprintf(f, "%s=%.1f%%%s", b->key, b->num, b->next ? ", " : "\n");
		for (int q = 0; q < 2; q++) {
			const struct json *m = json_get(j, q ? "iodepth_complete" : "iodepth_submit");
			fputs(q ? "     complete  : " : "     submit    : ", f);
			for (const struct json *b = m ? m->child : NULL; b; b = b->next)
				fprintf(f, "%s=%.1f%%%s", b->key, b->num, b->next ? ", " : "\n");
		}
	}
	fprintf(f, "     issued rwts: total=%.0f,%.0f,%.0f,0 short=%.0f,%.0f,%.0f,0 dropped=%.0f,%.0f,%.0f,0\n",
		json_get_num(j, "read.total_ios", 0), json_get_num(j, "write.total_ios", 0),
		json_get_num(j, "trim.total_ios", 0), json_get_num(j, "read.short_ios", 0),
		json_get_num(j, "write.short_ios", 0), json_get_num(j, "trim.short_ios", 0),
		json_get_num(j, "read.drop_ios", 0), json_get_num(j, "write.drop_ios", 0),
		json_get_num(j, "trim.drop_ios", 0));
	if (json_get(j, "latency_depth"))
		fprintf(f, "     latency   : target=%.0f, window=%.0f, percentile=%.2f%%, depth=%.0f\n",
			json_get_num(j, "latency_target", 0), json_get_num(j, "latency_window", 0),
			json_get_num(j, "latency_percentile", 0), json_get_num(j, "latency_depth", 0));
	if (json_get(j, "total_err")) {
		int e = (int)json_get_num(j, "first_error", 0);
		fprintf(f, "     errors    : total=%.0f, first_error=%d/<%s>\n", json_get_num(j, "total_err", 0), e,
			strerror(e));
		if (json_get(as, "first_error"))
			fprintf(f, "     the first : %s\n", json_get_str(as, "first_error", ""));
		if (json_get(as, "errors") && json_get(as, "errors")->child) {
			int k = 0;
			fputs("     failed    :", f);
			for (const struct json *x = json_get(as, "errors")->child; x; x = x->next, k++) {
				if (k == 8) {
					fprintf(f, " ... (the first %d by offset in the JSON's assay.errors)", MAX_BAD);
					break;
				}
				fprintf(f, "%s %s %.0f+%.0f", k ? "," : "", json_get_str(x, "op", "?"),
					json_get_num(x, "offset", 0), json_get_num(x, "length", 0));
			}
			fputc('\n', f);
		}
	}
	if (json_get(as, "steal_pct") && json_get(as, "steal_pct")->type == J_NUM)
		fprintf(f, "  steal        : %.2f%% (other processes' CPU: %.2f%%)\n",
			json_get_num(as, "steal_pct", 0), json_get_num(as, "other_cpu_pct", 0));
	if (json_get(as, "ioengine_used"))
		fprintf(f, "  ioengine     : %s\n", json_get_str(as, "ioengine_used", ""));
	if (json_get(as, "posixaio_helpers")) {
		const struct json *h = json_get(as, "posixaio_helpers");
		fprintf(f, "  helpers      : usr=%.2f%%, sys=%.2f%%, ctx=%.0f (posixaio's threads; not in cpu above, as fio)\n",
			json_get_num(h, "usr_cpu", 0), json_get_num(h, "sys_cpu", 0), json_get_num(h, "ctx", 0));
	}
	if (json_get(as, "note"))
		fprintf(f, "  note         : %s\n", json_get_str(as, "note", ""));
	if (!strcmp(status, "failed"))
		fprintf(f, "  FAILED: %s (figures above are partial)\n", json_get_str(as, "error", ""));
}

/* fio's "Run status group N (all jobs):" lines: per direction the group's bandwidth (all
 * its jobs' bytes over the longest runtime), the slowest and fastest job's, the bytes,
 * and the shortest and longest runtime; skipped jobs left out */
void disk_text_groups(const struct json *r, FILE *f)
{
	const struct json *jobs = json_get(r, "jobs");
	double last = -1;
	for (;;) {
		double g = -1;
		/* the next groupid in order (repeats share them: one section each) */
		for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next) {
			double id = json_get_num(j, "groupid", 0);
			if (id > last && (g < 0 || id < g))
				g = id;
		}
		if (g < 0)
			return;
		fprintf(f, "\nRun status group %.0f (all jobs):\n", g);
		for (int d = 0; d <= DDIR_N; d++) {
			static const char *const keys[] = { "read", "write", "trim", "mixed" },
					  *const tags[] = { "READ", "WRITE", "TRIM", "MIXED" };
			double io = 0, rmin = -1, rmax = 0, bmin = -1, bmax = 0;
			char b[8][32];
			for (const struct json *j = jobs->child; j; j = j->next) {
				const struct json *dj = json_get(j, keys[d]);
				double rt = json_get_num(dj, "runtime", 0), bw = json_get_num(dj, "bw_bytes", 0);
				if (json_get_num(j, "groupid", 0) != g || json_get_num(dj, "total_ios", 0) <= 0)
					continue;
				io += json_get_num(dj, "io_bytes", 0);
				rmin = rmin < 0 || rt < rmin ? rt : rmin;
				rmax = rt > rmax ? rt : rmax;
				bmin = bmin < 0 || bw < bmin ? bw : bmin;
				bmax = bw > bmax ? bw : bmax;
			}
			if (rmin < 0)
				continue;
			fprintf(f, "  %5s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), io=%s (%s), run=%.0f-%.0fmsec\n",
				tags[d], scale_bytes(rmax > 0 ? io * 1000 / rmax : 0, b[0], 32, 0),
				scale_bytes(rmax > 0 ? io * 1000 / rmax : 0, b[1], 32, 1), scale_bytes(bmin, b[2], 32, 0),
				scale_bytes(bmax, b[3], 32, 0), scale_bytes(bmin, b[4], 32, 1), scale_bytes(bmax, b[5], 32, 1),
				scale_bytes(io, b[6], 32, 0), scale_bytes(io, b[7], 32, 1), rmin, rmax);
		}
		last = g;
	}
}

/* ---- fio's terse format, version 3 (fio(1), TERSE OUTPUT): one line per job ---- */

static void terse_lat(FILE *f, const struct json *l)
{
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(json_get_num(l, "min", 0) / 1000),
		(unsigned long long)(json_get_num(l, "max", 0) / 1000), json_get_num(l, "mean", 0) / 1000,
		json_get_num(l, "stddev", 0) / 1000);
}

static void terse_ddir(FILE *f, const struct json *d)
{
	/* fio's: the total latency's percentiles with --lat_percentiles, else clat's, else none */
	const struct json *pct = json_get(json_get(d, "lat_ns"), "percentile");
	const struct json *p;
	if (!pct)
		pct = json_get(json_get(d, "clat_ns"), "percentile");
	p = pct ? pct->child : NULL;
	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)json_get_num(d, "io_kbytes", 0),
		(unsigned long long)json_get_num(d, "bw", 0), (unsigned long long)json_get_num(d, "iops", 0),
		(unsigned long long)json_get_num(d, "runtime", 0));
	terse_lat(f, json_get(d, "slat_ns"));
	terse_lat(f, json_get(d, "clat_ns"));
	for (int i = 0; i < MAX_PCTS; i++) {
		if (p)
			fprintf(f, ";%f%%=%llu", atof(p->key), (unsigned long long)(p->num / 1000));
		else
			fputs(";0%=0", f);
		p = p ? p->next : NULL;
	}
	terse_lat(f, json_get(d, "lat_ns"));
	fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)json_get_num(d, "bw_min", 0),
		(unsigned long long)json_get_num(d, "bw_max", 0), json_get_num(d, "bw_agg", 0),
		json_get_num(d, "bw_mean", 0), json_get_num(d, "bw_dev", 0));
}

void disk_terse(const struct json *r, FILE *f)
{
	const struct json *jobs = json_get(r, "jobs"), *du = json_get(r, "disk_util");
	du = du ? du->child : NULL;
	for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next) {
		const struct json *as = json_get(j, "assay");
		const struct json *ns = json_get(j, "latency_ns"), *us = json_get(j, "latency_us");
		double first = 0;
		if (!strcmp(json_get_str(as, "status", ""), "skipped")) {
			warn("disk: %s: skipped: %s", json_get_str(j, "jobname", "?"),
			     json_get_str(as, "skipped", ""));
			continue;
		}
		fprintf(f, "3;%s;%s;%.0f;%.0f", json_get_str(r, "fio version", "assay"),
			json_get_str(j, "jobname", "?"), json_get_num(j, "groupid", 0), json_get_num(j, "error", 0));
		/* fio's: with unified_rw_reporting=mixed, one block for both (89 fields) */
		if (json_get(j, "mixed") && !json_get(j, "read")) {
			terse_ddir(f, json_get(j, "mixed"));
		} else {
			terse_ddir(f, json_get(j, "read"));
			terse_ddir(f, json_get(j, "write"));
		}
		fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu", json_get_num(j, "usr_cpu", 0), json_get_num(j, "sys_cpu", 0),
			(unsigned long long)json_get_num(j, "ctx", 0), (unsigned long long)json_get_num(j, "majf", 0),
			(unsigned long long)json_get_num(j, "minf", 0));
		for (int k = 0; k < 7; k++)
			fprintf(f, ";%3.1f%%", json_get_num(json_get(j, "iodepth_level"), depth_keys[k], 0));
		/* fio folds the nanosecond buckets into the first microsecond one */
		for (const struct json *c = ns ? ns->child : NULL; c; c = c->next)
			first += c->num;
		for (int k = 0; k < 10; k++)
			fprintf(f, ";%3.2f%%", json_get_num(us, lat_keys[k], 0) + (k ? 0 : first));
		for (int k = 0; k < 12; k++)
			fprintf(f, ";%3.2f%%", json_get_num(json_get(j, "latency_ms"), lat_keys[k], 0));
		for (const struct json *u = du; u; u = u->next)   /* every disk, on every line (fio's) */
			fprintf(f, ";%s;%.0f;%.0f;%.0f;%.0f;%.0f;%.0f;%.0f;%3.2f%%", json_get_str(u, "name", "?"),
				json_get_num(u, "read_ios", 0), json_get_num(u, "write_ios", 0),
				json_get_num(u, "read_merges", 0), json_get_num(u, "write_merges", 0),
				json_get_num(u, "read_ticks", 0), json_get_num(u, "write_ticks", 0),
				json_get_num(u, "in_queue", 0), json_get_num(u, "util", 0));
		if (json_get(j, "total_err"))     /* fio's, with continue_on_error */
			fprintf(f, ";%.0f;%.0f", json_get_num(j, "total_err", 0), json_get_num(j, "first_error", 0));
		fputc('\n', f);
	}
}
