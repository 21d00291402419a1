/* fio's ETA line on a terminal and --status-interval reports while a group runs. */
#include "clock.h"
#include "plan.h"
#include "json.h"
#include <string.h>

/* ---- fio's ETA line: "Jobs: 2: [45.0%][r=221MiB/s,w=0B/s][r=56.7k,w=0 IOPS][eta 00m:11s]" ---- */

/* seconds a job has left after elapsed s, having moved done bytes (-1: unknown) */
static double eta_left(const struct job *j, double elapsed, double done)
{
	double total = j->o.startdelay + j->o.ramp_time + j->o.runtime, bytes;
	if (j->o.time_based)
		return total > elapsed ? total - elapsed : 0;
	bytes = (double)j->o.numjobs * (double)(j->o.io_size ? j->o.io_size : j->size) * (j->o.loops > 1 ? j->o.loops : 1);
	if (done <= 0 || elapsed <= 0)
		return j->o.runtime > 0 ? total - elapsed : -1;
	done = bytes * elapsed / done - elapsed;        /* at the rate so far */
	return j->o.runtime > 0 && total - elapsed < done ? total - elapsed : done;
}

void *eta_main(void *arg)
{
	struct eta *e = arg;
	uint64_t t0 = now_ns(), last = t0, prev[DDIR_N][2] = { { 0 } };
	int width = 0;
	for (;;) {
		uint64_t cur[DDIR_N][2] = { { 0 } }, now;
		double el, left = 0, dt;
		char rb[DDIR_N][24], ri[DDIR_N][24], tb[40] = "", ti[40] = "", line[240];
		int threads = 0;
		for (int t = 0; t < 10 && !__atomic_load_n(&e->stop, __ATOMIC_RELAXED); t++)
			nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
		if (__atomic_load_n(&e->stop, __ATOMIC_RELAXED))
			break;
		now = now_ns();
		el = (double)(now - t0) / 1e9;
		dt = (double)(now - last) / 1e9;
		for (int k = 0; k < e->n; k++) {
			double done = 0, l;
			for (int i = 0; e->rs[k].w && i < e->rs[k].nworkers; i++, threads++)
				for (int d = 0; d < DDIR_N; d++) {
					uint64_t b = __atomic_load_n(&e->rs[k].w[i].prog_bytes[d], __ATOMIC_RELAXED);
					cur[d][0] += __atomic_load_n(&e->rs[k].w[i].prog_ios[d], __ATOMIC_RELAXED);
					cur[d][1] += b;
					if (d == DDIR_READ)   /* --verify's read-back: not the workload's progress */
						b -= __atomic_load_n(&e->rs[k].w[i].ver.prog_bytes, __ATOMIC_RELAXED);
					if (d != DDIR_TRIM || !rw_writes(e->rs[k].job.rw))  /* trimwrite: by its writes */
						done += (double)b;
				}
			l = e->rs[k].w ? eta_left(&e->rs[k].job, el, done) : 0;
			left = l < 0 || left < 0 ? -1 : l > left ? l : left;
		}
		for (int d = 0; d < DDIR_N; d++) {
			scale_bytes((double)(cur[d][1] - prev[d][1]) / dt, rb[d], sizeof rb[d], 0);
			scale_count((double)(cur[d][0] - prev[d][0]) / dt, ri[d], sizeof ri[d]);
		}
		memcpy(prev, cur, sizeof prev);
		last = now;
		if (cur[DDIR_TRIM][0]) {    /* fio's t= only once there are trims */
			snprintf(tb, sizeof tb, ",t=%s/s", rb[DDIR_TRIM]);
			snprintf(ti, sizeof ti, ",t=%s", ri[DDIR_TRIM]);
		}
		if (left >= 0)
			snprintf(line, sizeof line, "Jobs: %d: [%.1f%%][r=%s/s,w=%s/s%s][r=%s,w=%s%s IOPS][eta %02um:%02us]",
				 threads, el + left > 0 ? 100 * el / (el + left) : 100.0, rb[0], rb[1], tb, ri[0], ri[1],
				 ti, (unsigned)(left + 0.5) / 60, (unsigned)(left + 0.5) % 60);
		else
			snprintf(line, sizeof line, "Jobs: %d: [r=%s/s,w=%s/s%s][r=%s,w=%s%s IOPS][eta --m:--s]", threads,
				 rb[0], rb[1], tb, ri[0], ri[1], ti);
		fprintf(stderr, "\r%-*s", width, line);
		fflush(stderr);
		width = (int)strlen(line);
	}
	if (width)
		fprintf(stderr, "\r%*s\r", width, "");
	return NULL;
}

/* ---- fio's status-interval: the report so far, every N seconds, in the run's formats ---- */

static void status_report(struct status *st)
{
	const struct plan *p = st->p;
	const struct disk_cfg *c = p->c;
	struct job_result *r2 = calloc((size_t)st->n, sizeof *r2);
	struct worker *snaps[MAX_JOBS] = { 0 };
	struct json *doc, *jobs, *as;
	struct cpusnap s1;
	struct cpuload load;
	unsigned gen, fmts = c->common.formats ? (unsigned)c->common.formats : FMT_BIT(c->common.format);
	int n = 0;
	if (!r2)
		return;
	for (int k = 0; k < st->n; k++)
		if (st->ready[k] && st->rs[k].w && st->rs[k].nworkers > 0 &&
		    (snaps[k] = calloc((size_t)st->rs[k].job.o.numjobs, sizeof *snaps[k])))  /* as r->w */
			for (int i = 0; i < st->rs[k].nworkers; i++)
				st->rs[k].w[i].snap_dst = &snaps[k][i];
	gen = st->gen + 1;
	__atomic_store_n(&st->gen, gen, __ATOMIC_RELEASE);
	/* every thread answers at its next turn of the loop, or has ended (its figures final) */
	for (int k = 0; k < st->n; k++)
		for (int i = 0; snaps[k] && i < st->rs[k].nworkers; i++) {
			struct worker *w = &st->rs[k].w[i];
			for (;;) {
				if (__atomic_load_n(&w->snap_seen, __ATOMIC_ACQUIRE) == gen)
					break;
				if (__atomic_load_n(&w->finished, __ATOMIC_ACQUIRE)) {
					worker_snapshot(w, &snaps[k][i], 0);
					break;
				}
				nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
			}
		}
	cpusnap_take(&s1);
	cpuload_between(&st->s0, &s1, &load);
	for (int k = 0; k < st->n; k++) {
		struct job_result *r = &r2[n];
		if (!snaps[k])
			continue;
		/* the job as far as its threads got: their copies added up as at the end */
		result_init(r, &st->rs[k].job, st->rs[k].repeat);
		r->group = st->rs[k].group;
		r->t0_ns = st->rs[k].t0_ns;
		r->w = snaps[k];
		r->nworkers = st->rs[k].nworkers;
		r->load = load;
		job_aggregate(r);
		n++;
	}
	report_groups(r2, n, 0);     /* each reporting group's bandwidth shares */
	doc = json_obj();
	json_add_str(doc, "fio version", "assay-" ASSAY_VERSION);
	json_add_int(doc, "timestamp", (long long)time(NULL));
	fill_global(json_add_obj(doc, "global options"), c, &p->tg[0].dev);
	jobs = json_add_arr(doc, "jobs");
	for (int k = 0; k < n; k++)
		job_json(&r2[k], c->o.group_reporting, jobs);
	as = json_add_obj(doc, "assay");
	json_add_str(as, "status_report", "so far: the run goes on");
	add_devices(as, p);
	/* the run's formats, in fio's order */
	if (fmts & FMT_BIT(FORMAT_TERSE))
		disk_terse(doc, stdout);
	if (fmts & (FMT_BIT(FORMAT_JSON) | FMT_BIT(FORMAT_JSONPLUS)))
		json_print(stdout, doc, 2);
	if (fmts & FMT_BIT(FORMAT_NORMAL))
		disk_text(doc, stdout);
	fflush(stdout);
	json_free(doc);
	for (int k = 0; k < st->n; k++) {
		for (int i = 0; snaps[k] && i < st->rs[k].nworkers; i++)
			worker_snap_free(&snaps[k][i]);
		free(snaps[k]);
	}
	free(r2);
}

void *status_main(void *arg)
{
	struct status *st = arg;
	uint64_t every = (uint64_t)(st->p->c->o.status_interval * 1e9), next = now_ns() + every;
	cpusnap_take(&st->s0);
	for (;;) {
		/* in 10 ms steps, so that the group's end is seen at once */
		while (!__atomic_load_n(&st->stop, __ATOMIC_RELAXED) && now_ns() < next)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		if (__atomic_load_n(&st->stop, __ATOMIC_RELAXED))
			break;
		status_report(st);
		next += every;
	}
	return NULL;
}
