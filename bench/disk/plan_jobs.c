/* The run's plan from the words given: fio's jobs (each --name, with the global
 * options then its own), the profiles' jobs, fio's file names and --directory. */
#include "clock.h"
#include "plan.h"
#include "replay.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

/* fio's --directory: a relative --filename inside it (an absolute one is taken as it is,
 * as fio does; each of an a:b list's).  A job (named: job) with neither gets fio's own
 * names for its files, JOB.0.0 (--nrfiles of them: JOB.0.0:JOB.0.1:...), in --directory or
 * here, when --size says how big to lay them out; fio would make them per thread, so only
 * for one thread. */
/* fio's filename_format: each keyword (any case) replaced, in fio's order, wherever it is */
static void format_name(const char *fmt, const char *job, long long t, long long k, char *out, size_t n)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	char val[24], tmp[PATH_MAX];
	snprintf(out, n, "%s", fmt);
	for (int i = 0; i < 4; i++)
		for (char *at; (at = strcasestr(out, keys[i]));) {
			if (i == 1 || i == 2)
				snprintf(val, sizeof val, "%lld", i == 1 ? t : k);
			snprintf(tmp, sizeof tmp, "%.*s%s%s", (int)(at - out), out, i == 0 ? job : i == 3 ? "" : val,
				 at + strlen(keys[i]));
			snprintf(out, n, "%s", tmp);
		}
}

/* a bare name (no '/') that is a block device's, /dev/NAME, with no file NAME here:
 * assay's --filename=vdb (fio would make ./vdb; a device is only read unless --mode) */
static int bare_device(const char *a, size_t len)
{
	char dev[300], here[300];
	struct stat st;
	if (memchr(a, '/', len) || len >= 200)
		return 0;
	snprintf(dev, sizeof dev, "/dev/%.*s", (int)len, a);
	snprintf(here, sizeof here, "%.*s", (int)len, a);
	return !stat(dev, &st) && S_ISBLK(st.st_mode) && lstat(here, &st) && errno == ENOENT;
}

/* does the --filename (a list too) hold a bare name that is a file here, to be or not? */
static int bare_files(const char *fn)
{
	int list = name_count(fn) > 1;
	for (const char *a = fn, *e;; a = e + 1) {
		size_t len = list ? strcspn(a, ":") : strlen(a);
		e = a + len;
		if (len && !memchr(a, '/', len) && !bare_device(a, len))
			return 1;
		if (!*e)
			return 0;
	}
}

int join_dir(struct disk_cfg *c, const char *job, char *err, size_t n)
{
	const char *dir = c->o.directory, *fn = c->o.filename;
	char def[MAX_JOB_FILES * 80], *path;
	size_t l = 0, cap;
	int list;
	if (!fn && c->o.read_iolog && !replay_files(c->o.read_iolog, def, sizeof def)) {
		if (!(c->o.filename = strdup(def))) {   /* kept for the run */
			snprintf(err, n, "out of memory");
			return -1;
		}
		fn = c->o.filename;   /* fio's: the files the log names */
	}
	if (!fn && job && c->o.size) {
		if (c->o.nrfiles > MAX_FILES || c->o.nrfiles * c->o.numjobs > MAX_JOB_FILES) {
			snprintf(err, n, "--nrfiles=%lld with --numjobs=%lld: more than %d files in one job (%d for each "
				 "thread)", c->o.nrfiles, c->o.numjobs, MAX_JOB_FILES, MAX_FILES);
			return -1;
		}
		/* fio's jobname.jobnum.filenum (or --filename_format): each thread its own; a
		 * format without $jobnum names the same files for every thread, which share them */
		const char *fmt = c->o.filename_format ? c->o.filename_format : "$jobname.$jobnum.$filenum";
		char a[80], b[80];
		format_name(fmt, job, 0, 0, a, sizeof a);
		format_name(fmt, job, 1, 0, b, sizeof b);
		c->o.per_thread_files = c->o.numjobs > 1 && strcmp(a, b);
		format_name(fmt, job, 0, 1, b, sizeof b);
		if (!a[0] || strchr(a, ':') || strlen(a) >= sizeof a - 1 || (c->o.nrfiles > 1 && !strcmp(a, b))) {
			snprintf(err, n, "--filename_format=%s: %s", fmt, !a[0] ? "names no file" : strchr(a, ':') ?
				 "a name with ':' (fio's list separator)" : strlen(a) >= sizeof a - 1 ? "names longer than 78 "
				 "characters" : "the same name for each of --nrfiles: put $filenum in it");
			return -1;
		}
		for (long long t = 0; t < (c->o.per_thread_files ? c->o.numjobs : 1); t++)
			for (long long k = 0; k < c->o.nrfiles; k++) {
				format_name(fmt, job, t, k, a, sizeof a);
				l += (size_t)snprintf(def + l, sizeof def - l, "%s%s", l ? ":" : "", a);
			}
		fn = def;
		dir = dir ? dir : ".";
	}
	if (!dir && fn && FIO_FILES(c) && bare_files(fn))
		dir = ".";   /* fio's: a bare name is a file here (a device's own name stays the device) */
	if (!dir) {
		c->o.directory = NULL;
		return 0;
	}
	if (!fn) {
		snprintf(err, n, "--directory=%s: give --filename too, a name inside it (or --size, for fio's "
			 "JOBNAME.0.0)", dir);
		return -1;
	}
	list = name_count(fn) > 1;
	cap = strlen(fn) + (size_t)name_count(fn) * (strlen(dir) + 2);
	if (!(path = malloc(cap))) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	l = 0;
	/* a list joined name by name */
	for (const char *a = fn, *e; ; a = e + 1) {
		size_t len = list ? strcspn(a, ":") : strlen(a);
		e = a + len;
		int as_is = a[0] == '/' || (!c->o.directory && bare_device(a, len));
		l += (size_t)snprintf(path + l, l < cap ? cap - l : 0, "%s%s%s%.*s", a == fn ? "" : ":",
				      as_is ? "" : dir, as_is ? "" : "/", (int)len, a);
		if (!*e)
			break;
	}
	c->o.filename = path;    /* kept for the run */
	c->o.directory = NULL;
	return 0;
}

int is_name(const char *t)
{
	return !strncmp(t, "--name", 6) && (!t[6] || t[6] == '=');
}

/* fio's rwmixwrite=N is rwmixread=100-N */
static void settle(struct disk_cfg *jc)
{
	if (GIVEN(jc, "rwmixwrite") && jc->o.rwmixwrite >= 0)
		jc->o.rwmixread = 100 - jc->o.rwmixwrite;
}

/* a job's config: the table's defaults, then its words read once, in order, under the
 * kb_base they give (a job's own applies to the global words it takes too); the run's
 * words' reading already said what is wrong with any of them.  0, or -1 */
static int section_config(const struct disk_cfg *c, struct disk_cfg *jc, int nw, char **w)
{
	struct opt_ctx ctx = { 1024, c->iec, c->iec ? sizeof c->common.iec_seen : 0 };
	char *pos[16];
	int np, r;
	memset(jc, 0, sizeof *jc);
	opt_defaults(disk_opts, jc);
	r = opt_parse_ctx(disk_opts, jc, nw, w, pos, &np, 16, jc->common.given, &ctx);
	jc->tok = c->tok;
	jc->iec = c->iec;
	settle(jc);
	return r;
}

const char *global_filename(const struct disk_cfg *c)
{
	struct disk_cfg *g = c->nglobal > 0 ? malloc(sizeof *g) : NULL;
	const char *fn = g && !section_config(c, g, c->nglobal, c->tok) ? g->o.filename : NULL;
	free(g);
	return fn;
}

/* fio's jobs: each --name starts one, with the global options and then its own */
static int plan_named_jobs(struct plan *p, char *err, size_t n)
{
	const struct disk_cfg *c = p->c;
	struct disk_cfg *jc = malloc(sizeof *jc);
	char **w = malloc((size_t)c->ntok * sizeof *w);
	int r = 0;
	if (!jc || !w) {
		free(jc);
		free(w);
		snprintf(err, n, "out of memory");
		return -1;
	}
	memcpy(w, c->tok, (size_t)c->nglobal * sizeof *w);
	for (int s = c->nglobal; s < c->ntok && !r; ) {
		int e = s + 1;
		while (e < c->ntok && !is_name(c->tok[e]))
			e++;
		/* the global words, then the job's */
		memcpy(w + c->nglobal, c->tok + s, (size_t)(e - s) * sizeof *w);
		section_config(c, jc, c->nglobal + e - s, w);
		if (!jc->o.filename && c->o.filename)
			jc->o.filename = c->o.filename;     /* the run's, already joined */
		else if (join_dir(jc, jc->o.name, err, n))
			r = -1;
		if (!r)
			r = parse_pcts(jc, err, n) ? -1 : add_job(p, jc, jc->o.name, 0, err, n);
		s = e;
	}
	free(w);
	free(jc);
	return r;
}

/* a profile's job: its words (their sizes bytes, whatever --kb_base says), then the user's,
 * which win, each read once into a fresh config */
static int add_profile_job(struct plan *p, const struct profile *pr, const struct pjob *pj, char *err, size_t n)
{
	const struct disk_cfg *c = p->c;
	struct disk_cfg *jc = calloc(1, sizeof *jc);
	struct opt_ctx bytes = { 1024, NULL, 0 }, user = { 1024, c->iec, sizeof c->common.iec_seen };
	char name[64], words[512], *av[32], *pos[16], *save = NULL;
	int ac = 0, np, r = -1;
	unsigned char seen[OPT_MAX_ENTRIES];
	if (!jc) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	snprintf(words, sizeof words, "%s%s%s", pj->words, pj->destroy && c->o.mode == MODE_DESTROY ? " " : "",
		 pj->destroy && c->o.mode == MODE_DESTROY ? pj->destroy : "");
	for (char *w = strtok_r(words, " ", &save); w && ac < 32; w = strtok_r(NULL, " ", &save))
		av[ac++] = w;
	opt_defaults(disk_opts, jc);
	if (opt_parse_ctx(disk_opts, jc, ac, av, pos, &np, 16, seen, &bytes)) {
		snprintf(err, n, "internal: profile %s: %s", pr->name, pj->words);
		goto out;
	}
	opt_parse_ctx(disk_opts, jc, c->ntok, c->tok, pos, &np, 16, jc->common.given, &user);
	jc->common.format = c->common.format;
	jc->tok = c->tok;
	jc->iec = c->iec;
	jc->o.filename = c->o.filename;    /* the run's, already joined */
	jc->o.npcts = c->o.npcts;
	memcpy(jc->o.pcts, c->o.pcts, sizeof jc->o.pcts);
	settle(jc);
	snprintf(name, sizeof name, "%s%s%s", pr->name, pj->suffix[0] ? "." : "", pj->suffix);
	r = add_job(p, jc, name, 1, err, n);
out:
	free(jc);
	return r;
}

static int add_profile(struct plan *p, const struct profile *pr, char *err, size_t n)
{
	for (int k = 0; k < 3 && pr->j[k].words; k++)
		if (add_profile_job(p, pr, &pr->j[k], err, n))
			return -1;
	return 0;
}

int plan_jobs(struct plan *p, char *err, size_t n)
{
	struct disk_cfg *c = p->c;
	p->clock_seed = (now_ns() ^ ((uint64_t)getpid() << 32)) & 0x7fffffffffffffffull;
	settle(c);
	if (!c->o.profile)
		return c->nglobal < c->ntok ? plan_named_jobs(p, err, n) : add_job(p, c, c->o.name, 0, err, n);
	if (c->ntok - c->nglobal > 0) {
		int names = 0;
		for (int i = c->nglobal; i < c->ntok; i++)
			names += is_name(c->tok[i]);
		if (names > 1) {
			snprintf(err, n, "--profile and several --name jobs: give one or the other");
			return -1;
		}
	}
	if (GIVEN(c, "rw") || GIVEN(c, "readwrite")) {
		snprintf(err, n, "--rw and --profile: give one or the other");
		return -1;
	}
	for (const char *s = c->o.profile; *s;) {
		const char *comma = strchr(s, ',');
		size_t l = comma ? (size_t)(comma - s) : strlen(s);
		const struct profile *pr = find_profile(s, l);
		if (l == 3 && !strncmp(s, "all", 3)) {
			for (size_t i = 0; i < NPROFILES; i++)
				if (!profiles[i].explicit_only && add_profile(p, &profiles[i], err, n))
					return -1;
		} else if (!pr) {
			char names[256] = "";
			size_t nl = 0;
			for (size_t i = 0; i < NPROFILES; i++)
				nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s, ", profiles[i].name);
			snprintf(err, n, "--profile=%s: unknown profile '%.*s'; accepted: %sall", c->o.profile,
				 (int)l, s, names);
			return -1;
		} else if (add_profile(p, pr, err, n)) {
			return -1;
		}
		if (!comma)
			break;
		s = comma + 1;
	}
	return 0;
}
