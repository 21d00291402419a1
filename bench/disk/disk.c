/* assay disk: fio's options (or a fio job file) checked into jobs, run, reported as fio does. */
#include "clock.h"
#include "plan.h"
#include "ioengine.h"
#include "job.h"
#include "json.h"
#include "msg.h"
#include "result/result.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int disk_check(void *p, int npos, char **pos, char *err, size_t n)
{
	struct disk_cfg *c = p;
	char *text = npos == 1 ? read_jobfile(pos[0]) : NULL;
	*err = 0;
	c->iec = c->common.iec_seen;
	if (text) {
		/* a fio job file: the run's options are its words and the command line's in
		 * fio's order (the command line's read once more among them) */
		struct opt_ctx ctx = { 1024, c->iec, sizeof c->common.iec_seen };
		c->jobfile = pos[0];
		if (order_words(c, text, err, n))
			return EXIT_USAGE;
		opt_defaults(disk_opts, c);
		memset(c->common.given, 0, sizeof c->common.given);
		if (opt_parse_ctx(disk_opts, c, c->ntok, c->tok, pos, &npos, 16, c->common.given, &ctx)) {
			snprintf(err, n, "%s: see the line above", c->jobfile);
			return EXIT_USAGE;
		}
		npos = 0;
	} else {
		if (GIVEN(c, "section")) {
			snprintf(err, n, "--section: it picks sections of a job file, and none was given");
			return EXIT_USAGE;
		}
		c->tok = c->common.argv;
		c->ntok = c->common.argc;
		for (c->nglobal = 0; c->nglobal < c->ntok && !is_name(c->tok[c->nglobal]); c->nglobal++)
			;
	}
	if (c->nglobal < c->ntok)   /* the run's device is the global one (if any); a job may
				     * name its own (plan) */
		c->o.filename = global_filename(c);
	if (npos > 1 || (npos == 1 && c->o.filename)) {
		snprintf(err, n, "unexpected argument '%s' (the device goes in --filename)", pos[npos - 1]);
		return EXIT_USAGE;
	}
	if (npos == 1)
		c->o.filename = pos[0];    /* assay disk /dev/vdb */
	if ((c->o.filename || c->nglobal == c->ntok) && join_dir(c, NULL, err, n))   /* else: each job's (plan) */
		return EXIT_USAGE;
	if (!c->o.filename && !c->o.list && c->nglobal == c->ntok) {
		snprintf(err, n, "no --filename: name the device (e.g. --filename=/dev/vdb); "
			 "--list shows the disks found");
		return EXIT_USAGE;
	}
	if (c->o.filename && !*c->o.filename) {
		snprintf(err, n, "--filename is empty");
		return EXIT_USAGE;
	}
	if (parse_pcts(c, err, n))
		return EXIT_USAGE;
	if (c->o.status_interval > 0 && c->o.status_interval < 0.1) {
		snprintf(err, n, "--status-interval=%g: at least 0.1 s (or 0: never)", c->o.status_interval);
		return EXIT_USAGE;
	}
	/* fio's --output: the report goes to the file, messages stay on stderr */
	if (c->o.output && !freopen(c->o.output, "w", stdout)) {
		snprintf(err, n, "--output=%s: %s", c->o.output, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

void fill_global(struct json *g, const struct disk_cfg *c, const struct blkdev *d)
{
	json_add_str(g, "filename", d->path);
	json_add_str(g, "ioengine", ioengines[c->o.ioengine]->name);
	json_add_str(g, "mode", mode_names[c->o.mode]);
	if (c->o.profile)
		json_add_str(g, "profile", c->o.profile);
}

static int disk_list(const struct disk_cfg *c, struct json *out)
{
	struct blkdev *list;
	int n = blkdev_list(&list, c->o.include_virtual);
	struct json *arr = json_add_arr(out, "disks");
	for (int i = 0; i < n; i++)
		json_push(arr, blkdev_json(&list[i]));
	free(list);
	return EXIT_OK;
}

static void dstat_take(const char *path, struct dstat *d)
{
	struct stat st;
	char p[96], real[PATH_MAX];
	char line[512];
	unsigned long long v[BLKSTAT_FIELDS];
	FILE *f;
	dev_t dv;
	d->ok = 0;
	if (stat(path, &st))
		return;
	dv = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(dv), minor(dv));
	if (!realpath(p, real))
		return;
	snprintf(d->name, sizeof d->name, "%s", strrchr(real, '/') + 1);
	snprintf(p + strlen(p), sizeof p - strlen(p), "/stat");
	f = fopen(p, "r");
	if (!f)
		return;
	d->ok = fgets(line, sizeof line, f) && blkdev_stat_fields(line, v) >= BLKSTAT_MIN;
	memcpy(d->v, v, sizeof d->v);
	fclose(f);
	d->t_ns = now_ns();
}

static void dstat_one(struct json *arr, const struct dstat *a, const struct dstat *b)
{
	struct json *u;
	double ms = (double)(b->t_ns - a->t_ns) / 1e6, util;
	u = json_push(arr, json_obj());
	json_add_str(u, "name", a->name);
	json_add_int(u, "read_ios", (long long)(b->v[0] - a->v[0]));
	json_add_int(u, "write_ios", (long long)(b->v[4] - a->v[4]));
	json_add_int(u, "read_merges", (long long)(b->v[1] - a->v[1]));
	json_add_int(u, "write_merges", (long long)(b->v[5] - a->v[5]));
	json_add_int(u, "read_ticks", (long long)(b->v[3] - a->v[3]));
	json_add_int(u, "write_ticks", (long long)(b->v[7] - a->v[7]));
	json_add_int(u, "in_queue", (long long)(b->v[10] - a->v[10]));
	util = ms > 0 ? 100.0 * (double)(b->v[9] - a->v[9]) / ms : 0;
	json_add_num(u, "util", util > 100 ? 100 : util);
}

/* fio's top-level "disk_util": what each disk under the targets did over the run (every
 * process's I/O), once per disk */
static void dstat_json(struct json *out, const struct plan *p)
{
	struct json *arr = NULL;
	for (int i = 0; i < p->ntg; i++) {
		const struct dstat *a = &p->tg[i].ds0, *b = &p->tg[i].ds1;
		int seen = 0;
		for (int k = 0; k < i; k++)
			seen |= p->tg[k].ds0.ok && !strcmp(p->tg[k].ds0.name, a->name);
		if (a->ok && b->ok && !seen && !strcmp(a->name, b->name))
			dstat_one(arr ? arr : (arr = json_add_arr(out, "disk_util")), a, b);
	}
}

/* fio's --showcmd: the words of the run (a job file's, the command line's) as one command
 * line, quoted for a shell */
static int show_cmd(const struct disk_cfg *c)
{
	fputs("assay disk", stdout);
	for (int i = 0; i < c->ntok; i++) {
		const char *t = c->tok[i], *nm = t + (t[0] == '-') + (t[0] == '-' && t[1] == '-');
		size_t nl = strcspn(nm, "=");
		if (t == c->jobfile)
			continue;      /* the job file's words are there instead */
		int sect = nm != t && nl == 7 && !strncmp(nm, "section", 7);
		if (sect || (nm != t && nl == 7 && !strncmp(nm, "showcmd", 7))) {
			i += sect && !nm[nl];   /* "--section NAME": its value too */
			continue;      /* what picked the words, not one of them */
		}
		if (*t && !t[strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=,:%+-@")]) {
			printf(" %s", t);
			continue;
		}
		fputs(" '", stdout);
		for (; *t; t++)
			fputs(*t == '\'' ? "'\\''" : (char[]){ *t, 0 }, stdout);
		putchar('\'');
	}
	putchar('\n');
	return EXIT_OK;
}

/* The run's end (or its setup failing): each device's scheduler put back, its claim
 * dropped, --unlink's files removed */
static void restore_targets(struct plan *p)
{
	char err[300];
	for (int i = 0; i < p->ntg; i++) {
		struct target *t = &p->tg[i];
		if (p->c->o.ioscheduler && !t->dev.is_file && t->dev.scheduler[0] &&
		    strcmp(p->c->o.ioscheduler, t->dev.scheduler) && set_scheduler(&t->dev, t->dev.scheduler, err, sizeof err))
			warn("disk: putting the scheduler back: %s", err);
		if (t->excl_fd >= 0)
			close(t->excl_fd);
		t->excl_fd = -1;
		zbd_free(t->zbd);
		t->zbd = NULL;
	}
	unlink_targets(p);
}

/* fio's top-level keys */
static void run_header(struct json *out)
{
	time_t now = time(NULL);
	char tb[64];
	struct tm tm;
	json_add_str(out, "fio version", "assay-" ASSAY_VERSION);
	json_add_int(out, "timestamp", (long long)now);
	json_add_int(out, "timestamp_ms", (long long)now * 1000);
	gmtime_r(&now, &tm);
	strftime(tb, sizeof tb, "%a %b %e %H:%M:%S %Y", &tm);
	json_add_str(out, "time", tb);
}

/* fio's kb_base=1024 reads KiB, MiB, GiB as powers of 1000: say so once */
static void iec_warning(const struct disk_cfg *c)
{
	unsigned long long b = 0;
	if (!c->common.iec_seen[0])
		return;
	parse_size_fio(c->common.iec_seen, NULL, &b);
	warn("disk: %s read as fio reads it, %llu bytes (with fio's default --kb_base=1024, KiB, MiB and "
	     "GiB are powers of 1000): give k, m, g for powers of 1024, or --kb_base=1000", c->common.iec_seen, b);
}

/* the targets made ready: writes allowed, claimed, logs open, the scheduler set; 0, or -1
 * with err */
static int targets_ready(struct plan *pl, struct json *as, char *err, size_t n)
{
	const struct disk_cfg *c = pl->c;
	int nwrites = c->o.mode != MODE_READONLY ? mark_writes(pl) : 0;
	for (int i = 0; i < pl->njobs && nwrites && !err[0]; i++)
		if (rw_modifies(pl->jobs[i].rw) && !zoned_refuses(pl, &pl->jobs[i]))
			write_allowed(pl, &pl->jobs[i], err, n);
	if (!err[0] && c->o.parse_only)
		return 0;
	for (int i = 0; i < pl->ntg && !err[0]; i++) {
		struct target *t = &pl->tg[i];
		if (t->writes && !t->dev.is_file && !t->dev.is_null)
			t->excl_fd = claim_device(&t->dev, err, n);
	}
	if (!err[0])
		create_logs(pl, err, n);
	for (int i = 0; i < pl->ntg && !err[0] && c->o.ioscheduler; i++)
		set_scheduler(&pl->tg[i].dev, c->o.ioscheduler, err, n);
	if (err[0])
		return -1;
	if (c->o.ioscheduler) {
		struct json *sch = json_add_obj(as, "ioscheduler");
		json_add_str(sch, "used", c->o.ioscheduler);
		json_add_str(sch, "before", pl->tg[0].dev.scheduler);
	}
	for (int i = 0; i < pl->ntg; i++) {
		const struct blkdev *d = &pl->tg[i].dev;
		if (c->o.mode == MODE_DESTROY && pl->tg[i].writes && !d->is_null)
			info("disk: destroying the data on %s (%s%s%llu bytes): --mode=destroy", d->path,
			     d->serial[0] ? d->serial : "", d->serial[0] ? ", " : "", (unsigned long long)d->size);
		dstat_take(d->path, &pl->tg[i].ds0);
	}
	return 0;
}

/* how the run is going: its exit code, the jobs done and skipped, what halted it */
struct run_state {
	int rc, nok, nskip, fallback, halted, halted_err;
	int nfailed;             /* threads that failed (fio's exit status counts them) */
	int reps;                /* times everything ran */
	const char *fb_engine;
	struct rep_series *series;
	uint64_t t0;
};

/* a job's result reported: its warnings, the counts, the repeats' series, its JSON */
static void job_done(struct plan *pl, struct run_state *st, struct job_result *r, int i, int more,
		     struct json *jobs)
{
	const struct disk_cfg *c = pl->c;
	for (int k = 0; k < r->nworkers; k++)
		if (r->w[k].engine_fallback && !st->fallback) {
			st->fallback = r->w[k].engine_fallback;
			st->fb_engine = ioengines[r->job.o.ioengine]->name;
			warn("disk: %s unavailable (%s): measured with psync instead", st->fb_engine,
			     strerror(st->fallback));
		}
	if (r->errs.n)
		warn("disk: %s: %llu I/O error%s gone on after (--continue_on_error); the first: %s", r->job.name,
		     (unsigned long long)r->errs.n, r->errs.n > 1 ? "s" : "", r->errs.first_msg);
	if (!r->skipped && r->job.exit_all && !st->halted) {
		st->halted = 1;
		if (more)
			warn("disk: %s ended with --exitall --exit_what=all: the jobs after it were not run",
			     r->job.name);
	}
	if (r->skipped) {
		st->nskip++;
	} else if (r->err) {
		int nf = 0;
		errmsg("disk: %s: %s", r->job.name, r->errmsg);
		st->rc = EXIT_FAIL;
		for (int k = 0; k < r->nworkers; k++)
			nf += r->w[k].err != 0;
		/* a job that failed before its threads began: each of them, as fio's threads each
		 * fail their own setup */
		st->nfailed += nf ? nf : (int)r->job.o.numjobs;
		st->halted_err |= r->job.o.exitall_on_error;
		st->halted |= st->halted_err;
	} else {
		st->nok++;
	}
	if (st->series && !r->skipped && !r->err) {
		snprintf(st->series[i].name, sizeof st->series[i].name, "%s", r->job.name);
		rep_add(&st->series[i], r);
	}
	job_json(r, c->o.group_reporting, jobs);
	result_free(r);
}

/* --repeat=auto: is another pass needed (fewer than 3, or a CI still too wide)? */
static int auto_more(const struct plan *pl, const struct run_state *st)
{
	int wj, wd;
	if (pl->c->o.repeat || !st->series)
		return 1;
	if (st->reps < 3)
		return 1;
	return rep_worst_ci(st->series, pl->jobs, pl->njobs, &wj, &wd) > pl->c->o.repeat_target;
}

/* every group, one after another, --repeat times (auto: until the CIs are narrow) */
static void run_all(struct plan *pl, struct run_state *st, struct json *jobs)
{
	const struct disk_cfg *c = pl->c;
	int nrep = repeats_max(&c->o);
	for (int rep = 0; rep < nrep && !st->halted && auto_more(pl, st); rep++, st->reps++) {
		for (int g0 = 0, g1; g0 < pl->njobs && !st->halted; g0 = g1) {
			struct job_result *rs;
			int nres;
			for (g1 = g0 + 1; g1 < pl->njobs && pl->group[g1] == pl->group[g0]; g1++)
				;
			rs = calloc((size_t)(g1 - g0), sizeof *rs);
			if (!rs) {
				errmsg("disk: out of memory");
				st->rc = EXIT_SYS;
				return;
			}
			for (int i = g0; i < g1; i++) {
				result_init(&rs[i - g0], &pl->jobs[i], rep);
				rs[i - g0].group = pl->rgroup[i];
				rs[i - g0].t0_ns = st->t0;
			}
			run_group(pl, rs, g1 - g0);
			for (int i = 0; i < g1 - g0; i++)
				write_logs(pl, &rs[i]);
			nres = report_groups(rs, g1 - g0, c->o.group_reporting && GIVEN(c, "group_reporting"));
			for (int i = g0; i < g0 + nres; i++)
				job_done(pl, st, &rs[i - g0], i, g1 < pl->njobs || rep + 1 < nrep, jobs);
			free(rs);
			if (st->halted_err && (g1 < pl->njobs || rep + 1 < nrep))
				warn("disk: --exitall_on_error: a job failed; the jobs after it were not run");
		}
	}
}

/* --repeat=auto's outcome: the target, whether every CI got inside it, the widest */
static void repeat_auto_json(const struct plan *pl, const struct run_state *st, struct json *as)
{
	struct json *ra = json_add_obj(as, "repeat_auto");
	int wj, wd;
	double w = rep_worst_ci(st->series, pl->jobs, pl->njobs, &wj, &wd);
	int reached = st->reps >= 3 && w <= pl->c->o.repeat_target;
	json_add_num(ra, "target_pct", pl->c->o.repeat_target);
	json_add_int(ra, "max", pl->c->o.repeat_max);
	json_add_int(ra, "repeats", st->reps);
	json_add_bool(ra, "reached", reached);
	json_add_num(ra, "widest_ci_pct", w);
	if (wj >= 0)
		json_add_str(ra, "widest", st->series[wj].name);
	if (!reached && !st->halted)
		warn("disk: --repeat=auto: the 95%% CIs are not all within +-%g%% after %d passes (the widest: %s "
		     "IOPS +-%.1f%%): its figures vary more than that", pl->c->o.repeat_target, st->reps,
		     wj >= 0 ? st->series[wj].name : "?", w);
}

/* after the jobs: repeats, disk_util, the fallback, the exit code's reason */
static void run_tail(struct plan *pl, struct run_state *st, struct json *out, struct json *as)
{
	const struct disk_cfg *c = pl->c;
	if (st->reps > 1 && st->series) {
		struct json *reps = json_add_obj(as, "repeats");
		for (int i = 0; i < pl->njobs; i++)
			if (st->series[i].n)
				json_add(reps, st->series[i].name, rep_json(&st->series[i], &pl->jobs[i]));
	}
	if (!c->o.repeat && st->series)
		repeat_auto_json(pl, st, as);
	for (int i = 0; i < pl->ntg; i++)
		dstat_take(pl->tg[i].dev.path, &pl->tg[i].ds1);
	if (c->o.disk_util)
		dstat_json(out, pl);
	json_add_int(as, "repeat", st->reps);
	if (st->nfailed)
		json_add_int(as, "failed_threads", st->nfailed);
	if (st->fallback) {
		char b[200];
		snprintf(b, sizeof b, "%s unavailable (%s): measured with psync", st->fb_engine, strerror(st->fallback));
		json_add_str(as, "ioengine_fallback", b);
		if (st->rc == EXIT_OK)
			st->rc = EXIT_FAIL;
		json_add_str(out, "error", b);
	}
	json_add(out, "assay", as);
	if (st->rc == EXIT_FAIL && !json_get(out, "error")) {
		const struct json *jj = json_get(out, "jobs");
		for (const struct json *e = jj ? jj->child : NULL; e; e = e->next)
			if (json_get_str(e, "assay.error", NULL)) {
				json_add_str(out, "error", json_get_str(e, "assay.error", ""));
				break;
			}
	}
	if (st->rc == EXIT_OK && !st->nok && st->nskip) {
		json_add_str(out, "skip_reason", "every job writes and --mode=readonly");
		st->rc = EXIT_SKIP;
	}
}

static int disk_run(void *p, struct json *out)
{
	struct disk_cfg *c = p;
	struct plan *pl;
	struct json *as;
	struct run_state st = { .rc = EXIT_OK, .fb_engine = ioengines[c->o.ioengine]->name };
	char err[512] = "";

	if (c->o.list)
		return disk_list(c, out);
	if (c->o.showcmd)
		return show_cmd(c);
	pl = calloc(1, sizeof *pl);
	if (!pl) {
		json_add_str(out, "error", "out of memory");
		return EXIT_SYS;
	}
	pl->c = c;
	run_header(out);
	as = json_obj();
	if (plan_jobs(pl, err, sizeof err)) {
		errmsg("disk: %s", err);
		json_add_str(out, "error", err);
		json_add(out, "assay", as);
		unlink_targets(pl);
		free(pl);
		return EXIT_USAGE;
	}
	iec_warning(c);
	if (c->o.debug)
		disk_note(c, "disk: --debug=%s: accepted, logs nothing here (fio's debug logging is not kept)",
			  c->o.debug);
	fill_global(json_add_obj(out, "global options"), c, &pl->tg[0].dev);
	add_devices(as, pl);
	if (targets_ready(pl, as, err, sizeof err)) {
		errmsg("disk: %s", err);
		json_add_str(out, "error", err);
		json_add(out, "assay", as);
		restore_targets(pl);
		free(pl);
		return EXIT_USAGE;
	}
	if (c->o.parse_only) {
		info("disk: --parse-only: %d job%s on %d device%s checked; nothing run", pl->njobs,
		     pl->njobs > 1 ? "s" : "", pl->ntg, pl->ntg > 1 ? "s" : "");
		json_add_str(as, "parse_only", "checked; nothing run");
		json_add(out, "assay", as);
		free(pl);
		return EXIT_OK;
	}
	st.t0 = now_ns();
	st.series = calloc((size_t)pl->njobs, sizeof *st.series);
	run_all(pl, &st, json_add_arr(out, "jobs"));
	run_tail(pl, &st, out, as);
	restore_targets(pl);
	free(st.series);
	free(pl);
	return st.rc;
}

/* the header's mode: the run's; with none given, a plain file's write jobs run as fio's
 * (each job's assay.mode says destroy): "readonly" above its writes would mislead */
static const char *header_mode(const struct json *r, const struct json *jobs, const struct json *dev)
{
	const char *m = json_get_str(r, "global options.mode", "?");
	if (strcmp(m, "readonly") || strcmp(json_get_str(dev, "type", ""), "file"))
		return m;
	for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next)
		if (!strcmp(json_get_str(j, "assay.mode", ""), "destroy"))
			return "as fio's (a plain file)";
	return m;
}

/* The text report: one fio-style block per job. */
void disk_text(const struct json *r, FILE *f)
{
	const struct json *jobs = json_get(r, "jobs"), *devs = json_path(r, "assay.devices");
	const struct json *disks = json_get(r, "disks");
	if (disks) {
		fprintf(f, "%-10s %12s %5s %5s %-4s %-5s %-4s %-12s %-24s %-20s %s\n", "disk", "size", "lbs",
			"pbs", "rot", "cache", "trim", "scheduler", "model", "serial", "holds");
		for (const struct json *d = disks->child; d; d = d->next) {
			char holds[128];
			snprintf(holds, sizeof holds, "%s%s%s%s%s", json_get_str(d, "signature", "unreadable"),
				 json_get_num(d, "partitions", 0) > 0 ? ", partitions" : "",
				 strcmp(json_get_str(d, "mounted", "no"), "no") ? ", mounted" : "",
				 json_get(d, "zoned") ? ", zoned " : "", json_get_str(d, "zoned", ""));
			/* a volatile write cache (write back, wb) or none (write through, wt); discard */
			const char *wc = json_get_str(d, "write_cache", "");
			fprintf(f, "%-10s %10.1fGB %5.0f %5.0f %-4s %-5s %-4s %-12s %-24s %-20s %s\n",
				json_get_str(d, "name", "?"), json_get_num(d, "size_bytes", 0) / 1e9,
				json_get_num(d, "logical_block_size", 0), json_get_num(d, "physical_block_size", 0),
				json_get(d, "rotational") ? (json_get(d, "rotational")->b ? "yes" : "no") : "?",
				!strcmp(wc, "write back") ? "wb" : !strcmp(wc, "write through") ? "wt" : "?",
				!json_get(d, "discard_max_bytes") ? "?" : json_get_num(d, "discard_max_bytes", 0) > 0 ? "yes" : "no",
				json_get_str(d, "scheduler", "-"), json_get_str(d, "model", "-"),
				json_get_str(d, "serial", "-"), holds);
		}
		return;
	}
	/* the device, or each one when the jobs name several */
	for (const struct json *dev = devs ? devs->child : json_path(r, "assay.device"); dev; dev = devs ? dev->next : NULL) {
		/* what a VPS's virtual disk says of itself: a volatile write cache (fsync then
		 * costs), discard (trim) */
		char extra[192] = "";
		size_t l = 0;
		if (json_get(dev, "write_cache") || json_get(dev, "discard_max_bytes"))
			l = (size_t)snprintf(extra, sizeof extra, "%s%s%s%s", json_get(dev, "write_cache") ? ", cache " : "",
					     json_get_str(dev, "write_cache", ""),
					     json_get(dev, "discard_max_bytes") ? ", discard " : "",
					     !json_get(dev, "discard_max_bytes")                 ? ""
					     : json_get_num(dev, "discard_max_bytes", 0) > 0 ? "yes"
											     : "no");
		if (json_get(dev, "zoned") && l < sizeof extra)   /* SMR, ZNS: N zones of SIZE */
			snprintf(extra + l, sizeof extra - l, ", zoned %s, %.0f zones of %.0f MiB",
				 json_get_str(dev, "zoned", ""), json_get_num(dev, "nr_zones", 0),
				 json_get_num(dev, "zone_size_bytes", 0) / 1048576);
		fprintf(f, "%s:%s%s%s%s %.2f GB, logical/physical block %.0f/%.0f%s, mode %s\n",
			json_get_str(dev, "path", "?"), json_get(dev, "model") ? " model " : "",
			json_get_str(dev, "model", ""), json_get(dev, "serial") ? " serial " : "",
			json_get_str(dev, "serial", ""), json_get_num(dev, "size_bytes", 0) / 1e9,
			json_get_num(dev, "logical_block_size", 0), json_get_num(dev, "physical_block_size", 0), extra,
			header_mode(r, jobs, dev));
	}
	for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next)
		disk_text_job(j, f);
	disk_text_groups(r, f);
	if (json_path(r, "assay.repeats")) {
		const struct json *reps = json_path(r, "assay.repeats");
		const struct json *ra = json_path(r, "assay.repeat_auto");
		fprintf(f, "\nacross %.0f repeats (mean +- stddev, 95%% CI):\n", json_get_num(r, "assay.repeat", 0));
		if (ra)
			fprintf(f, "  --repeat=auto: %s +-%g%% (the widest: %s +-%.1f%%)\n",
				json_get(ra, "reached")->b ? "every CI within" : "not every CI within",
				json_get_num(ra, "target_pct", 0), json_get_str(ra, "widest", "?"),
				json_get_num(ra, "widest_ci_pct", 0));
		for (const struct json *jr = reps->child; jr; jr = jr->next)
			for (const struct json *d = jr->child; d; d = d->next)
				fprintf(f, "  %-22s %-5s IOPS %.0f +- %.0f [%.0f, %.0f]  clat p99 %.1f +- %.1f us\n",
					jr->key, d->key, json_get_num(d, "iops.mean", 0),
					json_get_num(d, "iops.stddev", 0), json_get_num(d, "iops.ci95_low", 0),
					json_get_num(d, "iops.ci95_high", 0),
					json_get_num(d, "clat_p99_ns.mean", 0) / 1e3,
					json_get_num(d, "clat_p99_ns.stddev", 0) / 1e3);
	}
	if (json_get(r, "error"))
		fprintf(f, "error: %s\n", json_get_str(r, "error", ""));
	for (const struct json *u = json_get(r, "disk_util") ? json_get(r, "disk_util")->child : NULL; u;
	     u = u->next)
		fprintf(f, "%s  %s: ios=%.0f/%.0f, merge=%.0f/%.0f, ticks=%.0f/%.0f, "
			"in_queue=%.0f, util=%.2f%%\n", u == json_get(r, "disk_util")->child ? "\nDisk stats (read/write):\n" : "",
			json_get_str(u, "name", "?"), json_get_num(u, "read_ios", 0),
			json_get_num(u, "write_ios", 0), json_get_num(u, "read_merges", 0),
			json_get_num(u, "write_merges", 0), json_get_num(u, "read_ticks", 0),
			json_get_num(u, "write_ticks", 0), json_get_num(u, "in_queue", 0), json_get_num(u, "util", 0));
}

/* Summary figures: <test>.<job>.<read|write|trim|mixed>.{bw (MB/s), iops, clat.p50, clat.p99
 * (us)}, <test>.<job>.steal (%), <test>.<job>.errors (with --continue_on_error) */
static void disk_figures(const struct json *res, const char *test, struct json *sum)
{
	const struct json *jobs = json_get(res, "jobs"), *reps = json_path(res, "assay.repeats");
	for (const struct json *j = jobs ? jobs->child : NULL; j; j = j->next) {
		const char *jn = json_get_str(j, "jobname", "?");
		char name[200];
		if (json_path(j, "assay.skipped") || json_path(j, "assay.error"))
			continue;
		if (reps && json_get_num(j, "assay.repeat", 0) + 1 < json_get_num(res, "assay.repeat", 1))
			continue;   /* with repeats: the means, added once below */
		for (int d = 0; d <= DDIR_N; d++) {
			const char *dn = d < DDIR_N ? ddir_name[d] : "mixed";
			const struct json *dj = json_get(j, dn), *rj = reps ? json_get(json_get(reps, jn), dn) : NULL;
			char base[160];
			size_t jl = strlen(jn), dl = strlen(dn);
			if (!dj || json_get_num(dj, "total_ios", 0) <= 0)
				continue;
			/* seq.write.bw, not seq.write.write.bw */
			if (jl > dl && jn[jl - dl - 1] == '.' && !strcmp(jn + jl - dl, dn))
				snprintf(base, sizeof base, "%s.%s", test, jn);
			else
				snprintf(base, sizeof base, "%s.%s.%s", test, jn, dn);
			snprintf(name, sizeof name, "%s.bw", base);
			figure_ci(figure_add(sum, name, (rj ? json_get_num(rj, "bw_bytes.mean", 0)
							       : json_get_num(dj, "bw_bytes", 0)) / 1e6, "MB/s", HIGHER_BETTER),
				  rj ? json_get(rj, "bw_bytes") : NULL, 1e-6);
			snprintf(name, sizeof name, "%s.iops", base);
			figure_ci(figure_add(sum, name, rj ? json_get_num(rj, "iops.mean", 0) : json_get_num(dj, "iops", 0),
						"IOPS", HIGHER_BETTER), rj ? json_get(rj, "iops") : NULL, 1);
			for (int p = 0; p < 2; p++) {
				/* assay's p50/p99, whatever --percentile_list was (results written
				 * before they existed: fio's percentile keys) */
				char k[64];
				const struct json *v;
				snprintf(k, sizeof k, "assay.clat_p%d_ns.%s", p ? 99 : 50, dn);
				v = json_path(j, k);
				if (!v) {
					snprintf(k, sizeof k, "clat_ns.percentile.%s", p ? "99.000000" : "50.000000");
					v = json_path(dj, k);
				}
				snprintf(k, sizeof k, "clat_p%d_ns.mean", p ? 99 : 50);
				if (rj)
					v = json_path(rj, k);
				if (!v || v->type != J_NUM)
					continue;
				snprintf(name, sizeof name, "%s.clat.p%d", base, p ? 99 : 50);
				snprintf(k, sizeof k, "clat_p%d_ns", p ? 99 : 50);
				figure_ci(figure_add(sum, name, v->num / 1e3, "us", LOWER_BETTER), rj ? json_get(rj, k) : NULL,
					  1e-3);
			}
		}
		if (json_get(j, "total_err")) {   /* --continue_on_error (the scan profile): I/O errors */
			double size = atof(json_get_str(json_get(j, "job options"), "size", "0")), done;
			struct json *row, *cv;
			char what[120];
			snprintf(name, sizeof name, "%s.%s.errors", test, jn);
			row = figure_add(sum, name, json_get_num(j, "total_err", 0), "errors", LOWER_BETTER);
			/* no error counts only over the whole region: a scan the runtime cut short is not
			 * one (the I/Os that failed were made: they count as covered) */
			done = fmax(json_path(j, "read.io_bytes") ? json_path(j, "read.io_bytes")->num : 0,
				    json_path(j, "write.io_bytes") ? json_path(j, "write.io_bytes")->num : 0) +
			       json_get_num(j, "total_err", 0) * atof(json_get_str(json_get(j, "job options"), "bs", "0"));
			if (size > 0) {
				cv = json_add_obj(row, "coverage");
				json_add_bool(cv, "complete", done >= size);
				snprintf(what, sizeof what, "%.1f of %.1f GiB %s", done / 1073741824, size / 1073741824,
					 done >= size ? "(all of it)" : "(cut short by the runtime)");
				json_add_str(cv, "what", what);
			}
		}
		if (json_path(j, "assay.steal_pct") && json_path(j, "assay.steal_pct")->type == J_NUM) {
			snprintf(name, sizeof name, "%s.%s.steal", test, jn);
			figure_add(sum, name, json_get_num(j, "assay.steal_pct", 0), "%", LOWER_BETTER);
		}
	}
}

/* disk[.DEVICE].JOB[.DIRECTION].FIGURE, JOB a profile's job (seq.write, qd1...) */
static const char *const *disk_figure_names(void)
{
	static char jobs[512];
	static char pat[2][700];
	static const char *names[3];
	size_t l = 0;
	if (names[0])
		return names;
	for (size_t i = 0; i < NPROFILES; i++)
		for (int k = 0; k < 3 && profiles[i].j[k].words; k++)
			l += (size_t)snprintf(jobs + l, sizeof jobs - l, "%s%s%s%s", l ? "," : "", profiles[i].name,
					      profiles[i].j[k].suffix[0] ? "." : "", profiles[i].j[k].suffix);
	snprintf(pat[0], sizeof pat[0], "disk.[*].{%s}.[{read,write,trim,mixed}].{bw,iops,clat.p50,clat.p99}", jobs);
	snprintf(pat[1], sizeof pat[1], "disk.[*].{%s}.{errors,steal}", jobs);
	names[0] = pat[0];
	names[1] = pat[1];
	return names;
}

/* `assay disk`'s exit status as fio's for the same outcome: 1 for bad input (an option, a
 * job file, a write refused), the number of threads that failed for failed jobs (fio counts
 * each job's threads that ended in error; at least 1 here, a fallback to psync too) */
static int disk_exit_status(const struct json *res, int rc)
{
	double nf = res ? json_get_num(res, "assay.failed_threads", 0) : 0;
	if (rc == EXIT_USAGE)
		return EXIT_FAIL;
	if (rc == EXIT_FAIL && nf > 1)
		return nf < EXIT_SKIP ? (int)nf : EXIT_SKIP - 1;
	return rc;
}

const struct engine engine_disk = {
	.cmd = ENGINE_COMMAND("disk",
			      "disk: fio-compatible raw block device benchmarks on io_uring, read-only by default",
			      "--filename=DEV [--profile=LIST | --rw=.. --bs=.. --iodepth=.. | --name=JOB OPTIONS.. ..] "
			      "[--mode=..]  or  assay disk JOBFILE.fio [options] "
			      "(profiles: seq qd1 qd8 randrw64 randwrite4 randread16x4 latency scan scanwrite all)",
			      disk_opts, struct disk_cfg, 1),
	.check = disk_check,
	.run = disk_run,
	.text = disk_text,
	.terse = disk_terse,
	.figures = disk_figures,
	.plan = disk_plan,
	.title = "Disk",
	.figure_names = disk_figure_names,
	.parts = disk_parts,
	.exit_status = disk_exit_status,
};
