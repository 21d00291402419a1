/* Option values read into a job: fio's forms for rates, block size splits, random
 * distributions, error lists, CPU and NUMA sets, priorities, think time, offsets. */
#include "plan.h"
#include "ioengine.h"
#include "fileio.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <limits.h>
#include <unistd.h>

/* region size from --size (bytes or N%), the profile's cap and the device */
/* fio's offset: bytes, or a percentage of of (the target's size) aligned up to align (the
 * job's block size); 0, or -1 with why */
int parse_offset(const char *v, const struct opt_ctx *sz, uint64_t of, uint64_t align, uint64_t *off, char *err,
		 size_t n)
{
	size_t l = strlen(v);
	unsigned long long x;
	if (l > 1 && v[l - 1] == '%') {
		char num[32], *end;
		double pct;
		snprintf(num, sizeof num, "%.*s", (int)(l - 1), v);
		pct = strtod(num, &end);
		if (*end || l - 1 >= sizeof num || !(pct >= 0 && pct < 100)) {
			snprintf(err, n, "--offset=%s: a percentage must be in [0,100)%%", v);
			return -1;
		}
		*off = (uint64_t)((double)of * pct / 100.0);
		if (align && *off % align)
			*off += align - *off % align;   /* fio's: up to the block size */
		return 0;
	}
	if (parse_size_fio(v, sz, &x)) {
		snprintf(err, n, "--offset=%s: not a size (bytes with k/m/g/t suffix) or a percentage (50%%)", v);
		return -1;
	}
	*off = x;
	return 0;
}

/* the end of an error about a region past a file's end: what fio would do (lay_out_file) */
const char *extend_hint(const struct disk_cfg *c, const struct blkdev *d)
{
	return d->is_file && c->o.mode != MODE_DESTROY && !FIO_FILES(c)
		       ? "; fio extends a file that short, assay with --mode=destroy" : "";
}

int region(const struct disk_cfg *c, const struct blkdev *d, uint64_t offset, uint64_t cap, uint64_t bs,
		  uint64_t *size, char *err, size_t n)
{
	/* /dev/null, /dev/zero: no end, the region is --size bytes (fio: "you need to specify size=") */
	uint64_t avail, want, dev_end = d->is_null ? 1ull << 62 : d->size;
	if (d->is_null && (!c->o.size || c->o.size[strlen(c->o.size) - 1] == '%' || c->o.fill_device)) {
		snprintf(err, n, "%s has no size: give --size in bytes (not a percentage, not --fill_device)", d->path);
		return -1;
	}
	if (offset >= dev_end) {
		snprintf(err, n, "--offset=%s is beyond the end of %s (%llu bytes)", c->o.offset_s, d->path,
			 (unsigned long long)dev_end);
		return -1;
	}
	avail = dev_end - offset;
	if (c->o.size && !c->o.fill_device) {
		size_t l = strlen(c->o.size);
		unsigned long long v;
		if (l > 1 && c->o.size[l - 1] == '%') {
			char num[32];
			char *end;
			double pct;
			snprintf(num, sizeof num, "%.*s", (int)(l - 1), c->o.size);
			pct = strtod(num, &end);
			if (*end || pct <= 0 || pct > 100) {
				snprintf(err, n, "--size=%s: a percentage must be in (0,100]%%", c->o.size);
				return -1;
			}
			/* fio's: a share of the whole device, as far as the end from --offset */
			want = (uint64_t)((double)d->size * pct / 100.0);
			if (want > avail)
				want = avail;
		} else if (parse_size_fio(c->o.size, JOB_SIZES(c), &v) || v == 0) {
			snprintf(err, n, "--size=%s: not a size; accepted: bytes with k/m/g/t suffix, or N%%",
				 c->o.size);
			return -1;
		} else {
			want = v;
			if (want > avail) {
				snprintf(err, n, "--size=%s: beyond the end of %s (%llu bytes from offset %llu)%s",
					 c->o.size, d->path, (unsigned long long)avail, (unsigned long long)offset,
					 extend_hint(c, d));
				return -1;
			}
		}
	} else {
		want = avail;
		if (cap && cap < want)
			want = cap;
	}
	want -= want % bs;
	if (want < bs) {
		snprintf(err, n, "the region (%llu bytes) is smaller than one block (--bs=%llu)",
			 (unsigned long long)want, (unsigned long long)bs);
		return -1;
	}
	*size = want;
	return 0;
}

/* fio's --rate_iops (out: the gap between two issues, ns) and --rate (out: bytes/s), per
 * direction; 0 where a direction is not capped */
int parse_rate(const char *opt, const char *v, const struct opt_ctx *sz, int iops, uint64_t out[DDIR_N], char *err,
	       size_t n)
{
	for (int d = 0; d < DDIR_N; d++) {
		char part[64];
		unsigned long long x = 0;
		long long i = 0;
		const char *from;
		size_t l;
		out[d] = 0;
		if (opt_dir_part(v, d, &from, &l) || l >= sizeof part) {
			snprintf(err, n, "%s=%s: give one value, or reads,writes[,trims]", opt, v);
			return -1;
		}
		memcpy(part, from, l);
		part[l] = 0;
		if (!*part)
			continue;
		if (iops ? parse_int(part, &i) || i < 1 || i > 100000000 : parse_size_fio(part, sz, &x) || x < 1) {
			snprintf(err, n, "%s=%s: '%s' is not %s", opt, v, part,
				 iops ? "a number of I/Os per second (1..100000000)" : "a rate in bytes/s (10m, 500k)");
			return -1;
		}
		out[d] = iops ? (uint64_t)(1e9 / (double)i) : x;
		if (!out[d])
			out[d] = 1;
	}
	return 0;
}

/* one block size of --bssplit/--bsrange */
static int parse_bs1(const char *opt, const char *all, const char *v, size_t l, const struct opt_ctx *sz, uint64_t *bs,
		     char *err, size_t n)
{
	char b[32];
	unsigned long long x;
	snprintf(b, sizeof b, "%.*s", (int)(l < sizeof b - 1 ? l : sizeof b - 1), v);
	if (l >= sizeof b || parse_size_fio(b, sz, &x) || x < 512 || x > (64 << 20) || x % 512) {
		snprintf(err, n, "--%s=%s: '%.*s' is not a block size (512 to 64m, a multiple of 512)", opt, all,
			 (int)l, v);
		return -1;
	}
	*bs = x;
	return 0;
}

/* fio's --bssplit=4k/50:64k/30:1m/20 (a blank percent shares what is left evenly) and
 * --bsrange=4k-64k, each "reads,writes" or one for both; fills the job's sizes and sets
 * bs to the smallest, bs_max to the largest */
int parse_var_bs(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *opt = c->o.bssplit ? "bssplit" : "bsrange", *v = c->o.bssplit ? c->o.bssplit : c->o.bsrange;
	uint64_t lo = UINT64_MAX, hi = 0;
	if (c->o.bssplit && c->o.bsrange) {
		snprintf(err, n, "--bssplit and --bsrange: give one or the other");
		return -1;
	}
	for (int d = 0; d < DDIR_N; d++) {
		const char *p, *e;
		size_t l;
		if (opt_dir_part(v, d, &p, &l)) {
			snprintf(err, n, "--%s=%s: give one for all directions, or reads,writes[,trims]", opt, v);
			return -1;
		}
		e = p + l;
		if (p == e) {       /* ",64k/100": this direction keeps --bs */
			j->nsplit[d] = 1;
			j->split_bs[d][0] = j->bs;
			j->split_cum[d][0] = 100;
			lo = j->bs < lo ? j->bs : lo;
			hi = j->bs > hi ? j->bs : hi;
			continue;
		}
		if (c->o.bsrange) {
			const char *dash = memchr(p, '-', (size_t)(e - p));
			if (!dash || parse_bs1(opt, v, p, (size_t)(dash - p), JOB_SIZES(c), &j->range_lo[d], err, n) ||
			    parse_bs1(opt, v, dash + 1, (size_t)(e - dash - 1), JOB_SIZES(c), &j->range_hi[d], err, n)) {
				if (!dash)
					snprintf(err, n, "--bsrange=%s: give min-max, e.g. 4k-64k", v);
				return -1;
			}
			if (j->range_lo[d] > j->range_hi[d]) {
				snprintf(err, n, "--bsrange=%s: the minimum is above the maximum", v);
				return -1;
			}
			lo = j->range_lo[d] < lo ? j->range_lo[d] : lo;
			hi = j->range_hi[d] > hi ? j->range_hi[d] : hi;
			continue;
		}
		{
			unsigned given = 0, blanks = 0, pct[MAX_BSSPLIT];
			int k = 0;
			for (const char *q = p; q < e; k++) {
				const char *colon = memchr(q, ':', (size_t)(e - q)), *qe = colon ? colon : e;
				const char *slash = memchr(q, '/', (size_t)(qe - q));
				if (k == MAX_BSSPLIT) {
					snprintf(err, n, "--bssplit=%s: more than %d sizes", v, MAX_BSSPLIT);
					return -1;
				}
				if (parse_bs1(opt, v, q, (size_t)((slash ? slash : qe) - q), JOB_SIZES(c), &j->split_bs[d][k],
					      err, n))
					return -1;
				pct[k] = UINT_MAX;
				if (slash && slash + 1 < qe) {
					char b[8];
					long long x;
					snprintf(b, sizeof b, "%.*s", (int)(qe - slash - 1 < 7 ? qe - slash - 1 : 7), slash + 1);
					if (qe - slash - 1 > 3 || parse_int(b, &x) || x < 0 || x > 100) {
						snprintf(err, n, "--bssplit=%s: '%.*s' is not a percent (0-100)", v,
							 (int)(qe - slash - 1), slash + 1);
						return -1;
					}
					pct[k] = (unsigned)x;
					given += (unsigned)x;
				} else {
					blanks++;
				}
				lo = j->split_bs[d][k] < lo ? j->split_bs[d][k] : lo;
				hi = j->split_bs[d][k] > hi ? j->split_bs[d][k] : hi;
				q = colon ? colon + 1 : e;
			}
			if (given > 100 || (!blanks && given != 100)) {
				snprintf(err, n, "--bssplit=%s: the percents add up to %u, not 100", v, given);
				return -1;
			}
			for (int i = 0, cum = 0, b = 0; i < k; i++) {
				/* the blanks share what is left, the last one the rounding */
				unsigned share = pct[i] != UINT_MAX ? pct[i]
					: ++b == (int)blanks ? 100 - given - (blanks - 1) * ((100 - given) / blanks)
							     : (100 - given) / blanks;
				cum += (int)share;
				j->split_cum[d][i] = (unsigned)cum;
			}
			j->nsplit[d] = k;
		}
	}
	j->bs = lo;
	j->bs_max = hi;
	j->var_bs = 1;
	snprintf(j->bs_desc, sizeof j->bs_desc, "%s", v);
	return 0;
}

/* a number in [lo, hi] (lo itself allowed when lo_ok) */
static int dist_num(const char *v, size_t l, double lo, double hi, int lo_ok, double *out)
{
	char b[64], *end;
	if (!l || l >= sizeof b)
		return -1;
	memcpy(b, v, l);
	b[l] = 0;
	*out = strtod(b, &end);
	return *end || !isfinite(*out) || *out < lo || (*out == lo && !lo_ok) || *out > hi ? -1 : 0;
}

/* fio's random_distribution (one for reads and writes): random, zipf:theta[:center],
 * pareto:h[:center], normal:dev[:center], zoned:acc/range%:..., zoned_abs:acc/size:... */
int parse_dist(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *v = c->o.random_distribution, *a;
	static const char *const names[] = { "random", "zipf", "pareto", "normal", "zoned", "zoned_abs" };
	size_t l = strcspn(v, ":");
	int k;
	j->dist = DIST_RANDOM;
	j->dist_center = -1;
	snprintf(j->dist_desc, sizeof j->dist_desc, "%s", v);
	for (k = 0; k < 6 && (strlen(names[k]) != l || strncmp(v, names[k], l)); k++)
		;
	if (k == 6 || strchr(v, ',')) {
		snprintf(err, n, "--random_distribution=%s: %s; accepted: random, zipf:THETA[:CENTER], pareto:H[:CENTER], "
			 "normal:DEV[:CENTER], zoned:ACCESS%%/RANGE%%:..., zoned_abs:ACCESS%%/SIZE:... (one for reads "
			 "and writes)", v, k == 6 ? "unknown distribution" : "one distribution, not a list");
		return -1;
	}
	a = v + l + (v[l] == ':');
	if (k == 0) {
		if (*a)
			goto bad;
		return 0;
	}
	if (!rw_is_random(j->rw)) {
		snprintf(err, n, "--random_distribution=%s: for random I/O (--rw=randread, randwrite or randrw)", v);
		return -1;
	}
	if (k <= 3) {
		size_t l1 = strcspn(a, ":");
		static const double lo[] = { 0, 0, 0, 0 }, hi[] = { 0, 100, 1, 100 };
		j->dist = k;
		if (dist_num(a, l1, lo[k], hi[k], 0, &j->dist_arg) || (k == 2 && j->dist_arg >= 1))
			goto bad;
		if (a[l1] && dist_num(a + l1 + 1, strlen(a + l1 + 1), 0, 1, 1, &j->dist_center))
			goto bad;
		return 0;
	}
	/* zones: ACCESS/RANGE pairs; the accesses add up to 100, the ranges to at most 100%
	 * (zoned: the rest of the region is not read, as fio) or to at most the region
	 * (zoned_abs), and a zone with accesses holds a block.  As fio's, a range left out
	 * ("20/") shares what the others leave, in whole percents, and an access left out is
	 * what the others leave (0: they must make 100) */
	j->dist = DIST_ZONED;
	j->zone_abs = k == 5;
	{
		double pcts[MAX_ZONES], lens[MAX_ZONES], end = 0, prev_blk = 0, nb = (double)(job_fsize(j, 0) / j->bs);
		double pgiven = 0, lgiven = 0;
		int nz = 0, pmiss = 0, lmiss = 0;
		unsigned acc = 0;
		for (const char *z = a; *z; nz++) {
			size_t zl = strcspn(z, ":"), sl = strcspn(z, "/");
			if (nz == MAX_ZONES || sl >= zl)
				goto bad;
			pcts[nz] = lens[nz] = -1;
			if (sl && (dist_num(z, sl, 0, 100, 1, &pcts[nz]) || pcts[nz] != floor(pcts[nz])))
				goto bad;
			if (zl - sl - 1 && j->zone_abs) {
				char b[64];
				unsigned long long sz;
				if (zl - sl - 1 >= sizeof b)
					goto bad;
				memcpy(b, z + sl + 1, zl - sl - 1);
				b[zl - sl - 1] = 0;
				if (parse_size_fio(b, JOB_SIZES(c), &sz))
					goto bad;
				lens[nz] = (double)sz;
			} else if (zl - sl - 1 && dist_num(z + sl + 1, zl - sl - 1, 0, 100, 1, &lens[nz])) {
				goto bad;
			}
			if ((pcts[nz] < 0 && lens[nz] < 0) || (j->zone_abs && lens[nz] < 0))
				goto bad;    /* "/": nothing said; zoned_abs: a size for each */
			pmiss += pcts[nz] < 0;
			lmiss += lens[nz] < 0;
			pgiven += pcts[nz] < 0 ? 0 : pcts[nz];
			lgiven += lens[nz] < 0 ? 0 : lens[nz];
			z += zl + (z[zl] == ':');
		}
		for (int i = 0; i < nz; i++) {
			if (pcts[i] < 0)
				pcts[i] = pgiven >= 100 ? 0 : floor((100 - pgiven) / pmiss);
			if (lens[i] < 0)
				lens[i] = lgiven >= 100 ? 0 : floor((100 - lgiven) / lmiss);
		}
		for (int i = 0; i < nz; i++) {
			acc += (unsigned)pcts[i];
			end += lens[i];
			j->zone_acc[j->nzones] = acc;
			j->zone_end[j->nzones++] = end;
			if (pcts[i] > 0 && floor(j->zone_abs ? end / (double)j->bs : end / 100 * nb) <= prev_blk) {
				snprintf(err, n, "--random_distribution=%s: zone %d has accesses but no whole block of "
					 "--bs=%llu in it", v, j->nzones, (unsigned long long)j->bs);
				return -1;
			}
			prev_blk = floor(j->zone_abs ? end / (double)j->bs : end / 100 * nb);
		}
		if (!j->nzones || acc != 100 || (!j->zone_abs && end > 100 + 1e-6) ||
		    (j->zone_abs && end > (double)job_fsize(j, 0))) {
			snprintf(err, n, "--random_distribution=%s: the accesses add up to %u%%, the ranges to %g%s; "
				 "they must be 100%% and %s", v, acc, end, j->zone_abs ? " bytes" : "%",
				 j->zone_abs ? "at most the region (--size; each file's, of several)" : "at most 100%");
			return -1;
		}
	}
	return 0;
bad:
	snprintf(err, n, "--random_distribution=%s: %s", v,
		 k == 1 ? "zipf:THETA[:CENTER], THETA above 0 (e.g. 1.2), CENTER from 0 to 1" :
		 k == 2 ? "pareto:H[:CENTER], H between 0 and 1 (e.g. 0.9), CENTER from 0 to 1" :
		 k == 3 ? "normal:DEV[:CENTER], DEV above 0 up to 100 (% of the region), CENTER from 0 to 1" :
		 k == 0 ? "random takes no value" :
		 "zones are ACCESS%/RANGE (whole percents of the accesses, then % of the region or, for "
		 "zoned_abs, a size), at most 16, e.g. zoned:60/10:30/20:10/70");
	return -1;
}

/* errno names --ignore_error knows (numbers work for the others) */
static const struct { const char *name; int err; } errnames[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EINTR", EINTR }, { "EIO", EIO }, { "ENXIO", ENXIO },
	{ "E2BIG", E2BIG }, { "EBADF", EBADF }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EFAULT", EFAULT }, { "EBUSY", EBUSY }, { "EEXIST", EEXIST },
	{ "ENODEV", ENODEV }, { "EINVAL", EINVAL }, { "EFBIG", EFBIG }, { "ENOSPC", ENOSPC },
	{ "ESPIPE", ESPIPE }, { "EROFS", EROFS }, { "ERANGE", ERANGE }, { "ENODATA", ENODATA },
	{ "ETIME", ETIME }, { "ENOLINK", ENOLINK }, { "EPROTO", EPROTO }, { "EBADMSG", EBADMSG },
	{ "EOVERFLOW", EOVERFLOW }, { "EILSEQ", EILSEQ }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "ENOTSUP", ENOTSUP }, { "ETIMEDOUT", ETIMEDOUT }, { "EDQUOT", EDQUOT },
	{ "ECANCELED", ECANCELED }, { "EREMOTEIO", EREMOTEIO }, { "EMEDIUMTYPE", EMEDIUMTYPE },
	{ "ENOMEDIUM", ENOMEDIUM }, { "ECONNRESET", ECONNRESET }, { "ENOTCONN", ENOTCONN },
};

/* What a job writes and how it is checked: fio's verify (a method; a profile's job may
 * carry crc32c, in destroy mode), verify_pattern, buffer_pattern. */
int job_data(const struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	/* --verify's choices (VERIFY_CHOICES) in order: the method each means */
	static const int meth[] = { VM_NONE, VM_NONE, DG_CRC32C, DG_CRC32C, DG_CRC32, DG_CRC64, DG_CRC16, DG_CRC7,
				    DG_MD5, DG_SHA1, DG_SHA256, DG_SHA512, DG_XXHASH, VM_META, VM_PATTERN,
				    DG_SHA3_224, DG_SHA3_256, DG_SHA3_384, DG_SHA3_512, VM_NULL };
	const char *what, *pat = c->o.verify_pattern ? c->o.verify_pattern : c->o.buffer_pattern;
	j->verify = meth[c->o.verify];
	if (!GIVEN(c, "verify") && c->o.verify_pattern)
		j->verify = VM_PATTERN;
	j->vint = c->o.verify_interval ? c->o.verify_interval : j->bs;
	snprintf(j->aux_path, sizeof j->aux_path, "%s", c->o.aux_path ? c->o.aux_path : "");
	j->voff = c->o.verify_offset;
	if (pat && (j->pattern_len = pattern_parse_offs(c->o.verify_pattern ? "verify_pattern" : "buffer_pattern", pat,
							 j->pattern, c->o.verify_pattern ? j->pat_off : NULL, &j->npat_off,
							 err, n)) < 0)
		return -1;
	if (j->npat_off && (j->var_bs || j->verify != VM_PATTERN)) {
		snprintf(err, n, "--verify_pattern's %%o: %s", j->var_bs ? "with one block size (each block its offset)"
									  : "with --verify=pattern (the pattern is what is checked)");
		return -1;
	}
	if (j->pattern_len && (c->o.zero_buffers || c->o.compress_pct || c->o.dedupe_pct)) {
		snprintf(err, n, "--%s: with --%s the data would be two things at once",
			 c->o.verify_pattern ? "verify_pattern" : "buffer_pattern",
			 c->o.zero_buffers ? "zero_buffers" : c->o.compress_pct ? "buffer_compress_percentage"
									  : "dedupe_percentage");
		return -1;
	}
	if (j->verify == VM_PATTERN && !c->o.verify_pattern) {
		snprintf(err, n, "--verify=pattern: give the pattern with --verify_pattern");
		return -1;
	}
	if (!j->verify && j->o.verify_only) {
		snprintf(err, n, "--verify_only: give the --verify (and --verify_pattern) the data was written with");
		return -1;
	}
	if (j->o.verify_backlog_batch && !j->o.verify_backlog) {
		snprintf(err, n, "--verify_backlog_batch: with --verify_backlog (how many of its blocks each check reads)");
		return -1;
	}
	if (j->o.verify_backlog && (!j->verify || j->o.verify_only || !rw_writes(j->rw))) {
		snprintf(err, n, "--verify_backlog: %s", !j->verify ? "give --verify (how the blocks written are checked)"
							 : j->o.verify_only ? "--verify_only writes nothing to check as it goes"
									  : "a job that only reads checks each block as it reads it");
		return -1;
	}
	if (j->o.verify_backlog && j->o.numjobs > 1 && !j->per_thread && j->offset_inc < job_fsize(j, 1)) {
		snprintf(err, n, "--verify_backlog with --numjobs=%lld on one region: a block another thread is writing "
			 "would read torn (give each its own, --offset_increment=%llu)", j->o.numjobs,
			 (unsigned long long)job_fsize(j, 1));
		return -1;
	}
	if ((c->o.verify_interval || c->o.verify_offset) && (!j->verify || j->verify == VM_PATTERN || j->verify == VM_NULL)) {
		snprintf(err, n, "--%s: %s", c->o.verify_interval ? "verify_interval" : "verify_offset",
			 !j->verify ? "give --verify (it places the verify headers)"
				    : j->verify == VM_NULL ? "--verify=null writes no header" : "--verify=pattern writes no header");
		return -1;
	}
	if (j->verify && j->verify != VM_PATTERN && j->verify != VM_NULL && verify_layout(j, err, n))
		return -1;
	if (!j->verify)
		return 0;
	what = j->verify == VM_PATTERN ? "--verify=pattern" : j->verify == VM_META ? "--verify=meta" : "--verify";
	if (j->o.verify_only)
		return 0;
	if (rw_trims(j->rw) && !rw_writes(j->rw))
		snprintf(err, n, "%s on a trim job: nothing is written to check (trimwrite is)", what);
	else if (!rw_writes(j->rw))
		return 0;   /* fio's: each block read is checked (what an earlier --verify job wrote) */
	else if (j->o.mode != MODE_DESTROY)
		snprintf(err, n, "%s writes its own data to every block: it needs --mode=destroy", what);
	else
		return 0;
	return -1;
}

/* fio's continue_on_error (a choice: none, read, write, io, verify, all, 0, 1) and
 * ignore_error (READS:WRITES:VERIFY lists of errnos; a type with a list goes on after
 * those, whatever continue_on_error says) */
int parse_errors(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	static const int coe_mask[] = { 0, 1 << COE_READ, 1 << COE_WRITE, 1 << COE_READ | 1 << COE_WRITE,
					1 << COE_VERIFY, (1 << COE_N) - 1, 0, (1 << COE_N) - 1 };
	const char *p = c->o.ignore_error;
	j->coe = coe_mask[c->o.continue_on_error];
	/* fio's own parser: the kinds' lists apart by ',', a list's errors by ':' (an empty
	 * list: none for that kind, as ignore_error=,ENOSPC for writes alone) */
	for (int type = 0; p && *p; type++) {
		if (type == COE_N) {
			snprintf(err, n, "--ignore_error=%s: at most 3 lists (reads,writes,verify)", c->o.ignore_error);
			return -1;
		}
		while (*p && *p != ',') {
			size_t len = strcspn(p, ",:");
			char word[32];
			int e = 0;
			if (len == 0 || len >= sizeof word) {
				snprintf(err, n, "--ignore_error=%s: an empty or overlong errno in the list",
					 c->o.ignore_error);
				return -1;
			}
			memcpy(word, p, len);
			word[len] = 0;
			for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
				if (!strcmp(word, errnames[i].name))
					e = errnames[i].err;
			if (!e) {
				char *end;
				long v = strtol(word, &end, 10);
				if (*end || v <= 0 || v > 4095) {
					snprintf(err, n, "--ignore_error=%s: %s is no errno name or number (EIO, 5)",
						 c->o.ignore_error, word);
					return -1;
				}
				e = (int)v;
			}
			if (j->nign[type] == MAX_IGN) {
				snprintf(err, n, "--ignore_error=%s: more than %d errors in one list", c->o.ignore_error,
					 MAX_IGN);
				return -1;
			}
			j->ign[type][j->nign[type]++] = e;
			p += len;
			if (*p == ':')
				p++;
		}
		if (j->nign[type])
			j->coe |= 1 << type;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* fio's percentage_random: one percent for all directions, or reads,writes[,trims] (an empty or
 * absent value: 100); out: 100 minus each (the sequential share); 0, or -1 when it is not
 * that */
int parse_pct_random(const char *v, int out[DDIR_N])
{
	for (int d = 0; d < DDIR_N; d++) {
		const char *from;
		size_t l;
		long long x = 100;
		char part[32];
		out[d] = 0;
		if (!v)
			continue;
		if (opt_dir_part(v, d, &from, &l) || l >= sizeof part)
			return -1;
		memcpy(part, from, l);
		part[l] = 0;
		if (*part && (parse_int(part, &x) || x < 0 || x > 100))
			return -1;
		out[d] = 100 - (int)x;
	}
	return 0;
}

/* fio's steadystate=KIND:LIMIT[%] with steadystate_duration (0: off) */
int parse_ss(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	static const char *const kinds[] = { "iops", "iops_slope", "bw", "bw_slope" };
	const char *v = c->o.steadystate, *colon = strchr(v, ':');
	char *end = NULL;
	size_t l = colon ? (size_t)(colon - v) : 0;
	int k;
	if (c->o.ss_dur <= 0) {
		if (GIVEN(c, "steadystate") || GIVEN(c, "ss") || GIVEN(c, "steadystate_ramp_time") || GIVEN(c, "ss_ramp")) {
			snprintf(err, n, "--steadystate: give the window it judges, --steadystate_duration (e.g. 60s)");
			return -1;
		}
		return 0;
	}
	for (k = 0; k < 4 && (strlen(kinds[k]) != l || strncmp(v, kinds[k], l)); k++)
		;
	j->ss.limit = colon ? strtod(colon + 1, &end) : -1;
	if (k == 4 || !colon || end == colon + 1 || (*end && strcmp(end, "%")) || !isfinite(j->ss.limit) ||
	    j->ss.limit < 0) {
		snprintf(err, n, "--steadystate=%s: KIND:LIMIT, KIND iops, iops_slope, bw or bw_slope, LIMIT a number "
			 "(I/Os or bytes per second) or a percent of the mean: iops_slope:0.1%%", v);
		return -1;
	}
	if (c->o.ss_dur < 2) {
		snprintf(err, n, "--steadystate_duration=%g: at least 2 seconds (one sample a second)", c->o.ss_dur);
		return -1;
	}
	j->ss.kind = SS_IOPS + k;
	j->ss.pct = *end == '%';
	j->ss.dur = (unsigned)llround(c->o.ss_dur);
	j->ss.ramp = (unsigned)llround(c->o.ss_ramp);
	snprintf(j->ss_desc, sizeof j->ss_desc, "%s", v);
	return 0;
}

/* a cmdprio priority's index in the direction's list (job.cmdprio_val), added when new;
 * -1 when the list is full */
static int cmdprio_index(struct job *j, int d, unsigned v)
{
	for (int k = 0; k < j->cmdprio_nval[d]; k++)
		if (j->cmdprio_val[d][k] == v)
			return k;
	if (j->cmdprio_nval[d] > CMDPRIO_MAX)
		return -1;
	j->cmdprio_val[d][j->cmdprio_nval[d]] = v;
	return j->cmdprio_nval[d]++;
}

/* fio's cmdprio_bssplit=bs/percent[/class/level]:...[,writes]: one direction's part p[0..l)
 * (entries without a class and level at cls/lvl, those of 0 percent dropped, sorted by size
 * as fio's); 0, or -1 with why */
static int parse_cmdprio_bssplit(const char *all, const char *p, size_t l, const struct opt_ctx *sz, struct job *j,
				 int d, long cls, long lvl, char *err, size_t n)
{
	const char *e = p + l;
	struct cmdprio_ent *ent = j->cmdprio_ent[d];
	int ne = 0;
	for (const char *q = p; q < e;) {
		const char *colon = memchr(q, ':', (size_t)(e - q)), *qe = colon ? colon : e;
		char b[64], *f[5], *save = NULL;
		int nf = 0;
		long x[3] = { 0, cls, lvl };
		unsigned long long bs;
		if (qe == q) {   /* "4k/50:" */
			q = qe + 1;
			continue;
		}
		snprintf(b, sizeof b, "%.*s", (int)(qe - q < 63 ? qe - q : 63), q);
		for (char *t = strtok_r(b, "/", &save); t && nf < 5; t = strtok_r(NULL, "/", &save))
			f[nf++] = t;
		if (qe - q > 63 || nf < 1 || nf == 3 || nf > 4 || parse_size_fio(f[0], sz, &bs) || !bs) {
			snprintf(err, n, "--cmdprio_bssplit=%s: '%.*s' is not size/percent or size/percent/class/level",
				 all, (int)(qe - q), q);
			return -1;
		}
		for (int k = 1; k < nf; k++) {
			static const long hi[3] = { 100, 3, 7 };
			static const char *const what[3] = { "a percent (0-100)", "a class (0-3)", "a level (0-7)" };
			char *end;
			x[k - 1] = strtol(f[k], &end, 10);
			if (*end || end == f[k] || x[k - 1] < 0 || x[k - 1] > hi[k - 1]) {
				snprintf(err, n, "--cmdprio_bssplit=%s: '%s' in '%.*s' is not %s", all, f[k], (int)(qe - q),
					 q, what[k - 1]);
				return -1;
			}
		}
		q = colon ? colon + 1 : e;
		if (!x[0])   /* fio's: a share of 0 says nothing */
			continue;
		if (ne == MAX_BSSPLIT) {
			snprintf(err, n, "--cmdprio_bssplit=%s: more than %d entries", all, MAX_BSSPLIT);
			return -1;
		}
		{   /* after every entry of a size up to this one: fio's order (idx holds the
		     * priority until the loop below turns it into its index) */
			int at = ne;
			while (at > 0 && ent[at - 1].bs > bs)
				at--;
			memmove(ent + at + 1, ent + at, (size_t)(ne - at) * sizeof *ent);
			ent[at] = (struct cmdprio_ent){ .bs = bs, .pct = (int)x[0], .idx = (int)(x[1] << 13 | x[2]) };
			ne++;
		}
	}
	for (int i = 0, tot = 0; i < ne; i++) {
		int v = ent[i].idx;
		tot = i && ent[i - 1].bs == ent[i].bs ? tot + ent[i].pct : ent[i].pct;
		if (tot > 100) {
			snprintf(err, n, "--cmdprio_bssplit=%s: the percents of %llu-byte I/Os add up to over 100", all,
				 (unsigned long long)ent[i].bs);
			return -1;
		}
		if (tot > j->cmdprio_pct[d])
			j->cmdprio_pct[d] = tot;
		if ((ent[i].idx = cmdprio_index(j, d, (unsigned)v)) < 0) {
			snprintf(err, n, "--cmdprio_bssplit=%s: more than %d priorities in a direction", all, CMDPRIO_MAX);
			return -1;
		}
	}
	j->cmdprio_nent[d] = ne;
	return 0;
}

/* fio's cmdprio_percentage, cmdprio_class, cmdprio: each a value for both directions, or
 * reads,writes (an empty part: the default); and cmdprio_bssplit, the shares by size
 * instead; 0, or -1 with why */
int parse_cmdprio(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	const char *names[3] = { "cmdprio_percentage", "cmdprio_class", "cmdprio" };
	const char *vals[3] = { c->o.cmdprio_pct, c->o.cmdprio_class, c->o.cmdprio };
	const long lo[3] = { 0, 1, 0 }, hi[3] = { 100, 3, 7 }, def[3] = { 0, 1, 0 };
	long v[3][2];
	for (int k = 0; k < 3; k++)
		for (int d = 0; d < 2; d++) {
			const char *p;
			size_t l;
			char part[24], *end;
			v[k][d] = def[k];
			if (!vals[k])
				continue;
			if (opt_dir_part(vals[k], d, &p, &l) || strchr(vals[k], ',') != strrchr(vals[k], ',') ||
			    l >= sizeof part)
				goto bad;
			memcpy(part, p, l);
			part[l] = 0;
			if (!*part)
				continue;
			v[k][d] = strtol(part, &end, 10);
			if (*end || v[k][d] < lo[k] || v[k][d] > hi[k])
				goto bad;
			continue;
bad:
			snprintf(err, n, "--%s=%s: a number %ld to %ld, or reads,writes", names[k], vals[k], lo[k], hi[k]);
			return -1;
		}
	if (c->o.cmdprio_bssplit && (v[0][0] || v[0][1])) {
		snprintf(err, n, "--cmdprio_bssplit and --cmdprio_percentage: give one or the other (fio's rule)");
		return -1;
	}
	for (int d = 0; d < 2; d++) {
		const char *p;
		size_t l;
		j->cmdprio_nval[d] = 1;
		j->cmdprio_val[d][0] = j->ioprio < 0 ? 0 : (unsigned)j->ioprio;
		if (c->o.cmdprio_bssplit) {
			if (opt_dir_part(c->o.cmdprio_bssplit, d, &p, &l)) {
				snprintf(err, n, "--cmdprio_bssplit=%s: give one for both directions, or reads,writes",
					 c->o.cmdprio_bssplit);
				return -1;
			}
			if (parse_cmdprio_bssplit(c->o.cmdprio_bssplit, p, l, JOB_SIZES(c), j, d, v[1][d], v[2][d], err, n))
				return -1;
		} else if ((j->cmdprio_pct[d] = (int)v[0][d])) {
			j->cmdprio_nent[d] = 1;
			j->cmdprio_ent[d][0] = (struct cmdprio_ent){
				.pct = j->cmdprio_pct[d], .idx = cmdprio_index(j, d, (unsigned)(v[1][d] << 13 | v[2][d]))
			};
		}
	}
	if ((j->cmdprio_pct[0] || j->cmdprio_pct[1]) && !JOB_ENGINE_HAS(j, IOE_KERNELQ)) {
		snprintf(err, n, "--%s: an io_uring and libaio option (--ioengine=%s)",
			 c->o.cmdprio_bssplit ? "cmdprio_bssplit" : "cmdprio_percentage", JOB_ENGINE(j)->name);
		return -1;
	}
	return 0;
}

/* fio's sync_file_range=FLAGS:N: FLAGS wait_before, write, wait_after (comma-separated) */
int parse_sfr(const char *v, struct job *j, char *err, size_t n)
{
	static const char *const names[] = { "wait_before", "write", "wait_after" };
	static const unsigned flags[] = { SYNC_FILE_RANGE_WAIT_BEFORE, SYNC_FILE_RANGE_WRITE, SYNC_FILE_RANGE_WAIT_AFTER };
	const char *colon = strrchr(v, ':'), *p = v;
	char *end;
	long nw = colon ? strtol(colon + 1, &end, 10) : 0;
	j->sfr_flags = 0;
	if (!colon || *end || end == colon + 1 || nw < 1 || nw > 1000000000)
		goto bad;
	while (p < colon) {
		size_t l = strcspn(p, ",:");
		int k = 0;
		while (k < 3 && (strlen(names[k]) != l || strncmp(p, names[k], l)))
			k++;
		if (k == 3)
			goto bad;
		j->sfr_flags |= flags[k];
		p += l + (p[l] == ',');
	}
	if (!j->sfr_flags)
		goto bad;
	j->sfr_n = (int)nw;
	return 0;
bad:
	snprintf(err, n, "--sync_file_range=%s: FLAGS:N, FLAGS one or more of wait_before, write, wait_after "
		 "(e.g. wait_before,write:8)", v);
	return -1;
}

/* fio's thinktime values: microseconds when bare, else a time with its unit */
int parse_think(const char *opt, const char *v, uint64_t *ns, char *err, size_t n)
{
	long long us;
	double s;
	if (*v == '(' && !fio_expr(v, FX_USEC, &s) && s >= 0 && s <= 3600e6) {
		*ns = (uint64_t)s * 1000;   /* fio's arithmetic: microseconds */
		return 0;
	}
	if (*v != '(' && !parse_int(v, &us) && us >= 0 && us <= 3600000000ll) {
		*ns = (uint64_t)us * 1000;
		return 0;
	}
	if (!parse_time(v, &s) && s >= 0 && s <= 3600) {
		*ns = (uint64_t)llround(s * 1e9);
		return 0;
	}
	snprintf(err, n, "%s=%s: not a time (microseconds, or with a unit: 500us, 2ms, 1s; at most 1h)", opt, v);
	return -1;
}

/* fio's --cpus_allowed=0-3,8: CPUs this machine has */
/* CPU c onto the job's list, one this machine has (opt=v named when not) */
static int add_cpu(struct job *j, long c, const char *opt, const char *v, char *err, size_t n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (c >= ncpu || c >= 1024) {
		snprintf(err, n, "--%s=%s: CPU %ld: this machine has %ld (0-%ld)", opt, v, c, ncpu, ncpu - 1);
		return -1;
	}
	if (j->ncpus == (int)(sizeof j->cpus / sizeof j->cpus[0])) {
		snprintf(err, n, "--%s=%s: more than %d CPUs", opt, v, (int)(sizeof j->cpus / sizeof j->cpus[0]));
		return -1;
	}
	j->cpus[j->ncpus++] = (short)c;
	return 0;
}

/* a list of numbers and ranges, "0-3,8" (a trailing newline allowed: a sysfs file), into
 * set[0..1023]; 0, -1 when it is not one, or the first number past 1023 */
static long num_list(const char *v, unsigned char set[1024])
{
	const char *s = v;
	memset(set, 0, 1024);
	for (;;) {
		char *e;
		long a = strtol(s, &e, 10), b = a;
		if (e == s || a < 0 || !isdigit((unsigned char)*s))
			return -1;
		if (*e == '-') {
			const char *t = e + 1;
			b = strtol(t, &e, 10);
			if (e == t || b < a)
				return -1;
		}
		if (*e && *e != ',' && *e != '\n')
			return -1;
		if (b > 1023)
			return a > 1023 ? a : 1024;
		for (long c = a; c <= b; c++)
			set[c] = 1;
		if (!*e || *e == '\n')
			return 0;
		s = e + 1;
	}
}

int parse_cpus(const char *v, struct job *j, char *err, size_t n)
{
	unsigned char set[1024];
	long r = num_list(v, set);
	j->ncpus = 0;
	if (r > 0)
		return add_cpu(j, r, "cpus_allowed", v, err, n);   /* (says how many there are) */
	if (r < 0) {
		snprintf(err, n, "--cpus_allowed=%s: not a list of CPU numbers and ranges (e.g. 0-3,8)", v);
		return -1;
	}
	for (long c = 0; c < 1024; c++)
		if (set[c] && add_cpu(j, c, "cpus_allowed", v, err, n))
			return -1;
	return 0;
}

/* fio's NUMA nodes, "0,2-3" or "all" (those online), into set; 0, or -1 with why */
static int numa_nodes(const char *opt, const char *shown, const char *v, unsigned char set[1024], char *err,
		      size_t n)
{
	char *online = read_file("/sys/devices/system/node/online", 4096, NULL);
	unsigned char on[1024];
	int r = -1;
	long k;
	if (!online || num_list(online, on)) {
		snprintf(err, n, "--%s=%s: this kernel shows no NUMA nodes (/sys/devices/system/node/online)", opt, shown);
		goto out;
	}
	if (!strcmp(v, "all"))
		memcpy(set, on, 1024);
	else if ((k = num_list(v, set)) > 0) {
		snprintf(err, n, "--%s=%s: node %ld: no such NUMA node here", opt, shown, k);
		goto out;
	} else if (k < 0) {
		snprintf(err, n, "--%s=%s: not a list of NUMA node numbers and ranges (e.g. 0,2-3), or all", opt, shown);
		goto out;
	}
	for (k = 0; k < 1024; k++)
		if (set[k] && !on[k]) {
			online[strcspn(online, "\n")] = 0;
			snprintf(err, n, "--%s=%s: node %ld: no such NUMA node here (online: %s)", opt, shown, k, online);
			goto out;
		}
	r = 0;
out:
	free(online);
	return r;
}

/* fio's numa_cpu_nodes: the CPUs of those nodes (fio's: instead of --cpus_allowed's) */
int parse_numa_cpus(const char *v, struct job *j, char *err, size_t n)
{
	unsigned char nodes[1024], cpus[1024];
	j->ncpus = 0;
	if (numa_nodes("numa_cpu_nodes", v, v, nodes, err, n))
		return -1;
	for (int k = 0; k < 1024; k++) {
		char path[64], *l;
		if (!nodes[k])
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", k);
		if (!(l = read_file(path, 4096, NULL)) || (*l != '\n' && num_list(l, cpus))) {
			snprintf(err, n, "--numa_cpu_nodes=%s: cannot read %s", v, path);
			free(l);
			return -1;
		}
		for (long c = 0; *l != '\n' && c < 1024; c++)
			if (cpus[c] && add_cpu(j, c, "numa_cpu_nodes", v, err, n)) {
				free(l);
				return -1;
			}
		free(l);
	}
	if (!j->ncpus) {
		snprintf(err, n, "--numa_cpu_nodes=%s: those nodes have no CPUs", v);
		return -1;
	}
	return 0;
}

/* fio's numa_mem_policy=MODE[:NODES]: default, local (no nodes), prefer (one), bind and
 * interleave (a list); 0, or -1 with why */
int parse_mpol(const char *v, struct job *j, char *err, size_t n)
{
	static const char *const modes[] = { "default", "prefer", "bind", "interleave", "local" };
	const char *colon = strchr(v, ':');
	size_t l = colon ? (size_t)(colon - v) : strlen(v);
	unsigned char set[1024];
	int m = -1, count = 0;
	for (int k = 0; k < 5; k++)
		if (strlen(modes[k]) == l && !strncmp(v, modes[k], l))
			m = k;   /* MPOL_DEFAULT, _PREFERRED, _BIND, _INTERLEAVE, _LOCAL: the kernel's numbers */
	if (m < 0) {
		snprintf(err, n, "--numa_mem_policy=%s: accepted: default, local, prefer:NODE, bind:NODES, "
			 "interleave:NODES", v);
		return -1;
	}
	if ((m == 0 || m == 4) && colon) {
		snprintf(err, n, "--numa_mem_policy=%s: %s takes no nodes", v, modes[m]);
		return -1;
	}
	if ((m == 1 || m == 2 || m == 3) && (!colon || numa_nodes("numa_mem_policy", v, colon + 1, set, err, n))) {
		if (!colon)
			snprintf(err, n, "--numa_mem_policy=%s: %s needs nodes (%s:0)", v, modes[m], modes[m]);
		return -1;
	}
	j->mpol_mode = m;
	j->mpol_nodes = 0;
	for (int k = 0; colon && k < 1024; k++)
		if (set[k]) {
			if (k >= 64) {
				snprintf(err, n, "--numa_mem_policy=%s: node %d: at most node 63 here", v, k);
				return -1;
			}
			j->mpol_nodes |= 1ull << k;
			count++;
		}
	if (m == 1 && count != 1) {
		snprintf(err, n, "--numa_mem_policy=%s: prefer takes one node", v);
		return -1;
	}
	return 0;
}

/* fio's cpumask: bit i set, CPU i allowed (decimal or 0x); the same list as --cpus_allowed's */
int cpumask_list(const char *v, struct job *j, char *err, size_t n)
{
	unsigned long long m;
	char *e;
	errno = 0;
	m = strtoull(v, &e, 0);
	if (errno || e == v || *e || !m || *v == '-') {
		snprintf(err, n, "--cpumask=%s: not a mask of CPUs (bit i: CPU i; 0x3 is CPUs 0 and 1)", v);
		return -1;
	}
	j->ncpus = 0;
	for (int b = 0; b < 64; b++)
		if (m >> b & 1 && add_cpu(j, b, "cpumask", v, err, n))
			return -1;
	return 0;
}

/* fio's io_size (bytes per thread, wrapping over the region) and offset_increment (thread
 * i's region starts i increments later), checked against the device (each of the job's
 * files) */
int io_extent(const struct plan *p, const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	if (c->o.io_size && !j->var_bs && c->o.io_size % j->bs) {
		snprintf(err, n, "--io_size=%llu: not a multiple of --bs=%llu", c->o.io_size,
			 (unsigned long long)j->bs);
		return -1;
	}
	if (j->nfiles > 1 && c->o.io_size && c->o.io_size / (uint64_t)j->nfiles < j->bs) {
		snprintf(err, n, "--io_size=%llu: less than one --bs block for each of the job's %d files", c->o.io_size,
			 j->nfiles);
		return -1;
	}
	j->offset_inc = c->o.offset_increment;
	for (int k = 0; k < j->nftg && j->offset_inc; k++) {
		const struct blkdev *d = &p->tg[j->ftg[k]].dev;
		uint64_t size = j->fsize[k % j->nfiles], last = file_base(j, k % j->nfiles, j->o.numjobs - 1);
		if (j->o.direct && j->offset_inc % d->lbs) {
			snprintf(err, n, "--offset_increment=%llu: not a multiple of %s's logical block size (%u)",
				 c->o.offset_increment, d->path, d->lbs);
			return -1;
		}
		if (j->offset_inc > d->size || last > d->size || size > d->size - last) {
			snprintf(err, n, "--offset_increment=%llu: thread %lld's region (from %llu, %llu bytes) ends "
				 "beyond %s (%llu bytes): give a smaller --size or --offset_increment",
				 c->o.offset_increment, j->o.numjobs - 1, (unsigned long long)last,
				 (unsigned long long)size, d->path, (unsigned long long)d->size);
			return -1;
		}
	}
	return 0;
}

/* fio's bs=reads,writes[,trims]: each direction its own size (the var_bs machinery of bssplit,
 * one size a side) */
int pair_bs(const struct disk_cfg *c, struct job *j, const uint64_t bs_rw[DDIR_N], char *err,
		   size_t n)
{
	if (c->o.bssplit || c->o.bsrange) {
		snprintf(err, n, "--bs=%llu,%llu and --%s: give one or the other", (unsigned long long)bs_rw[0],
			 (unsigned long long)bs_rw[1], c->o.bssplit ? "bssplit" : "bsrange");
		return -1;
	}
	for (int d = 0; d < DDIR_N; d++) {
		j->nsplit[d] = 1;
		j->split_bs[d][0] = bs_rw[d];
		j->split_cum[d][0] = 100;
	}
	j->bs_max = bs_rw[0] > bs_rw[1] ? bs_rw[0] : bs_rw[1];
	if (bs_rw[2] > j->bs_max)
		j->bs_max = bs_rw[2];
	j->var_bs = j->bs_pair = 1;
	snprintf(j->bs_desc, sizeof j->bs_desc, bs_rw[2] != bs_rw[1] ? "%llu,%llu,%llu" : "%llu,%llu",
		 (unsigned long long)bs_rw[0], (unsigned long long)bs_rw[1], (unsigned long long)bs_rw[2]);
	return 0;
}

/* fio's rw: a pattern (rw is readwrite), then an offset modifier: :SIZE, a hole after
 * each sequential I/O, or :N, a new random offset every N I/Os (rw_sequencer: the next
 * blocks in between, or the same one); number_ios */
const char *const rw_names[] = { "read", "write", "randread", "randwrite", "randrw", "readwrite", "trim",
				 "randtrim", "trimwrite", "randtrimwrite", NULL };

/* the names of a NULL-terminated list as "a|b|c" */
static void names_line(const char *const *names, char *out, size_t n)
{
	size_t l = 0;
	out[0] = 0;
	for (int i = 0; names[i] && l < n; i++)
		l += (size_t)snprintf(out + l, n - l, "%s%s", i ? "|" : "", names[i]);
}

/* fio's --rw: a pattern (rw for readwrite), then :N, a random pattern's I/Os between new
 * random offsets, or a sequential one's hole after each I/O */
int opt_rw(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	struct rw_spec *rw = field;
	char list[160];
	const char *colon;
	size_t l;
	int k;
	names_line(rw_names, list, sizeof list);
	if (!val) {     /* what it accepts */
		snprintf(err, n, "%s|rw, then :N for fio's offset modifier", list);
		return 0;
	}
	colon = strchr(val, ':');
	l = colon ? (size_t)(colon - val) : strlen(val);
	for (k = 0; rw_names[k] && !(strlen(rw_names[k]) == l && !strncmp(val, rw_names[k], l)); k++)
		;
	if (!rw_names[k] && !(l == 2 && !strncmp(val, "rw", 2))) {
		snprintf(err, n, "%s=%s: unknown value; accepted: one of %s|rw, then :N (fio's offset modifier)", o->name,
			 val, list);
		return -1;
	}
	memset(rw, 0, sizeof *rw);
	rw->kind = rw_names[k] ? k : RW_READWRITE;
	snprintf(rw->text, sizeof rw->text, "%s", val);
	if (!colon)
		return 0;
	if (rw_is_random(rw->kind)) {
		long long r;
		if (parse_int(colon + 1, &r) || r < 1 || r > 1000000000) {
			snprintf(err, n, "%s=%s: '%s' is not a number of I/Os (a new random offset every N)", o->name, val,
				 colon + 1);
			return -1;
		}
		rw->run = (int)r;
	} else {
		unsigned long long h;
		rw->back = colon[1] == '-';   /* fio's read:-8k: backwards */
		if (parse_size_fio(colon + 1 + rw->back, ctx, &h) || (rw->back && !h)) {
			snprintf(err, n, "%s=%s: '%s' is not a size (the hole after each I/O)", o->name, val, colon + 1);
			return -1;
		}
		rw->hole = h;
	}
	return 0;
}

/* --ioengine: a backend of the registry (engines/registry.c), stored as its index */
int opt_ioengine(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	const char *names[32];
	char list[256];
	int k = 0;
	for (; ioengines[k] && k < 31; k++)
		names[k] = ioengines[k]->name;
	names[k] = NULL;
	names_line(names, list, sizeof list);
	if (!val) {
		snprintf(err, n, "one of %s", list);
		return 0;
	}
	for (k = 0; ioengines[k]; k++)
		if (!strcmp(val, ioengines[k]->name)) {
			*(int *)field = k;
			return 0;
		}
	snprintf(err, n, "%s=%s: unknown value; accepted: one of %s", o->name, val, list);
	return -1;
}

int parse_rw(const struct disk_cfg *c, struct job *j, char *err, size_t n)
{
	(void)err, (void)n;
	j->rw = c->o.rw.kind;
	j->seq_hole = c->o.rw.hole;
	j->seq_back = c->o.rw.back;
	j->rand_run = c->o.rw.run;
	j->rw_identical = c->o.rw_sequencer == 1;
	return 0;
}

/* fio's read_iolog and write_iolog: the log loaded (its entries checked against the
 * device) and the job shaped by it: its directions (for the safety modes and the report),
 * its I/O sizes; one thread */
int job_replay(const struct plan *p, const struct disk_cfg *c, int from_profile, struct job *j,
		      char *err, size_t n)
{
	struct replay_fit fit = { .nfiles = j->nfiles, .direct = j->o.direct, .align = c->o.replay_align,
				  .scale = (uint64_t)c->o.replay_scale };
	struct replay *rp;
	_Static_assert(REPLAY_FILES == MAX_FILES, "a log's files are a job's");
	for (int k = 0; k < j->nfiles; k++) {
		fit.dev_size[k] = p->tg[j->ftg[k]].dev.size;
		fit.lbs[k] = p->tg[j->ftg[k]].dev.lbs;
	}
	if (c->o.write_iolog) {
		if (j->o.numjobs > 1) {
			snprintf(err, n, "--write_iolog with --numjobs=%lld: one thread per logged job (give each job its "
				 "own --name and log)", j->o.numjobs);
			return -1;
		}
		snprintf(j->iolog_out, sizeof j->iolog_out, "%s", c->o.write_iolog);
		for (int i = 0; i < p->njobs; i++)
			if (!strcmp(p->jobs[i].iolog_out, j->iolog_out)) {
				snprintf(err, n, "--write_iolog=%s: jobs '%s' and '%s' would both write it: give each job "
					 "its own", c->o.write_iolog, p->jobs[i].name, j->name);
				return -1;
			}
	}
	if (!c->o.read_iolog) {
		for (const char *const *o = (const char *const[]){ "replay_no_stall", "replay_time_scale", "replay_skip",
								    "replay_align", "replay_scale", NULL }; *o; o++)
			if (GIVEN(c, *o)) {
				snprintf(err, n, "--%s: no --read_iolog to replay", *o);
				return -1;
			}
		return 0;
	}
	if (c->o.replay_align & (c->o.replay_align - 1)) {
		snprintf(err, n, "--replay_align=%llu: not a power of 2", c->o.replay_align);
		return -1;
	}
	if (from_profile || j->o.numjobs > 1 || j->verify || j->o.lat_target_ns || c->o.bssplit || c->o.bsrange) {
		snprintf(err, n, "--read_iolog with %s: a log is replayed as it is, by one thread",
			 from_profile ? "--profile" : j->o.numjobs > 1 ? "--numjobs" : j->verify ? "--verify" :
			 j->o.lat_target_ns ? "--latency_target" : c->o.bssplit ? "--bssplit" : "--bsrange");
		return -1;
	}
	/* fio's replay_skip: read, write, trim, sync (sync and datasync) */
	fit.skip = (unsigned)(c->o.replay_skip & 7) | (c->o.replay_skip & 8 ? 1u << RP_SYNC | 1u << RP_DATASYNC : 0);
	if (!(rp = calloc(1, sizeof *rp))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (replay_load(c->o.read_iolog, &fit, rp, err, n)) {
		free(rp);
		return -1;
	}
	if (rp->nfiles < j->nfiles) {
		snprintf(err, n, "--read_iolog=%s: the log names %d file%s, --filename %d: one for each", c->o.read_iolog,
			 rp->nfiles, rp->nfiles > 1 ? "s" : "", j->nfiles);
		replay_free(rp);
		free(rp);
		return -1;
	}
	j->replay = rp;          /* kept for the run */
	j->replay_time_pct = (int)c->o.replay_time_scale;
	/* the log's directions decide what the job is (a trim in it: destroy mode only) */
	j->rw = rp->count[RP_TRIM] ? RW_RANDTRIMWRITE : rp->count[RP_WRITE] ? (rp->count[RP_READ] ? RW_RANDRW : RW_RANDWRITE)
										  : RW_RANDREAD;
	j->bs = rp->min_len;
	j->bs_max = rp->max_len;
	j->var_bs = rp->min_len != rp->max_len;
	j->offset = 0;
	j->size = 0;
	for (int k = 0; k < j->nfiles; k++)   /* each file whole */
		j->size += j->fsize[k] = p->tg[j->ftg[k]].dev.size / j->bs * j->bs;
	j->offset_inc = 0;
	return 0;
}

/* ---- option rows' readers (OPT_CB): each value read once, where the option is read ---- */

int opt_rate_bps(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	return parse_rate(o->name, val, ctx, 0, field, err, n);
}

int opt_rate_iops(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	return parse_rate(o->name, val, ctx, 1, field, err, n);
}

int opt_think(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	return parse_think(o->name, val, field, err, n);
}

/* fio's max_latency: a time, or one per direction */
int opt_max_latency(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	uint64_t *ns = field;
	for (int d = 0; d < DDIR_N; d++) {
		const char *from;
		size_t l;
		char part[64];
		ns[d] = 0;
		if (opt_dir_part(val, d, &from, &l) || l >= sizeof part) {
			snprintf(err, n, "%s=%s: one time, or reads,writes[,trims]", o->name, val);
			return -1;
		}
		memcpy(part, from, l);
		part[l] = 0;
		if (*part && parse_think(o->name, part, &ns[d], err, n))
			return -1;
	}
	return 0;
}

/* fio's thinktime_iotime: seconds when bare */
int opt_think_iotime(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	double s;
	long long sec;
	if (!parse_int(val, &sec) && sec >= 0 && sec <= 3600)
		s = (double)sec;
	else if (parse_time(val, &s) || s < 0 || s > 3600) {
		snprintf(err, n, "%s=%s: not a time (seconds, or with a unit: 500ms, 9s; at most 1h)", o->name, val);
		return -1;
	}
	*(uint64_t *)field = (uint64_t)llround(s * 1e9);
	return 0;
}

/* --percentage_random (its share of random I/Os) or --percentage_sequential: the share
 * that goes on where the last I/O ended, per direction */
int opt_pct_seq(const struct opt *o, void *field, const char *val, const struct opt_ctx *ctx, char *err, size_t n)
{
	int *seq = field, seqopt = !strcmp(o->name, "percentage_sequential");
	if (parse_pct_random(val, seq)) {
		snprintf(err, n, "%s=%s: a percent from 0 to 100, or reads,writes[,trims]%s", o->name, val,
			 seqopt ? "" : " (70,100)");
		return -1;
	}
	for (int d = 0; seqopt && d < DDIR_N; d++)
		seq[d] = 100 - seq[d];
	return 0;
}
