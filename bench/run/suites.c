/* The suites (quick, standard, full, burnin): what each asks of the engines, and the
 * request and plan a run makes of them (run.h). */
#include "run_int.h"

#include "report/certify.h"
#include "report/inbox.h"

#include <math.h>
#include <string.h>

const char *const suite_names[] = { "quick", "standard", "full", "burnin" };

/* what a suite asks of each family: its time per test and the like */
struct suite_def {
	double cpu_time, disk_time, net_time;
	const char *disk_profile;
	int repeat;               /* disk tests' passes; 0: auto */
	const char *mem_args;     /* sizes for STREAM and the latency sweep */
};

static const struct suite_def suites[] = {
	[SUITE_QUICK] = { 2, 2, 3, "seq,qd1,qd8", 1,
			  "--stream-array-size=16m --stream-ntimes=4 --latency-max=16m --latency-repeats=2" },
	/* disk: each job 4 s, again until its IOPS' 95% CI is within +-3% (3 to 5 passes) */
	[SUITE_STANDARD] = { 10, 4, 10, "seq,qd1,qd8,randrw64,randwrite4,randread16x4,latency", 0, "" },
	[SUITE_FULL] = { 30, 30, 30, "seq,qd1,qd8,randrw64,randwrite4,randread16x4,latency", 3,
			 "--stream-ntimes=20 --latency-repeats=5" },
	/* a round: CPU 2 x 60 s verified, memory, memtest, a verified write pass on the disks
	 * destroy names (scanwrite) and a read scan, each disk job up to 120 s */
	[SUITE_BURNIN] = { 60, 120, 30, "scanwrite,scan", 1,
			   "--stream-array-size=16m --stream-ntimes=4 --latency-max=16m --latency-repeats=2" },
};

void run_request(const struct run_cfg *c, struct plan_req *r)
{
	const struct suite_def *sd = &suites[c->suite];
	struct inbox_map m;
	char err[200];
	*r = (struct plan_req){
		.suite = c->suite,
		.tests = c->tests,
		.cpu_time = c->cpu_time > 0 ? c->cpu_time : sd->cpu_time,
		.disk_time = c->disk_time > 0 ? c->disk_time : sd->disk_time,
		.net_time = c->net_time > 0 ? c->net_time : sd->net_time,
		.mem_args = sd->mem_args,
		.burnin = c->burnin,
		.disks = c->disks,
		.mode = c->mode,
		.destroy = c->destroy,
		.disk_profiles = c->disk_profile ? c->disk_profile : sd->disk_profile,
		.rules_need = c->certify_disk,
		.rules_engines = c->certify_engines,
		.disk_repeat = c->disk_repeat >= 0 ? (int)c->disk_repeat : sd->repeat,
		.disk_sched = c->disk_sched,
		.iperf = c->iperf, .ping = c->ping, .http = c->http, .dns = c->dns, .dns_file = c->dns_file,
		.memtest_size = c->memtest_size,
		/* a burn-in round's slice of memory testing */
		.memtest_time = c->memtest_time > 0 || c->suite != SUITE_BURNIN ? c->memtest_time : fmin(300, c->burnin / 4),
	};
	if (!strncmp(c->results, "inbox:", 6) && !inbox_parse(c->results, &m, err, sizeof err))
		r->inbox_disk_size = m.disk_size;
}

static void plan_engines(const struct plan_req *r, struct run_plan *p)
{
	for (int i = 0; engines[i]; i++)
		if (engines[i]->plan)
			engines[i]->plan(p, r);
}

#define BURNIN_FILL 0.9   /* a burn-in's round: at most this share of its length */

void run_make_plan(const struct run_cfg *c, struct run_plan *p)
{
	struct plan_req r;
	run_request(c, &r);
	plan_engines(&r, p);
	/* a burn-in's round fits its length: every test's time cut in proportion (a few times
	 * over, as some tests' own overhead does not shrink), so that a short burn-in still runs
	 * each test, and no test outlasts it by more than its own time */
	for (int k = 0; k < 4 && c->suite == SUITE_BURNIN && plan_seconds(p) > BURNIN_FILL * c->burnin; k++) {
		double f = BURNIN_FILL * c->burnin / plan_seconds(p);
		r.cpu_time *= f;
		r.disk_time *= f;
		r.net_time *= f;   /* (the memory test's slice is a share of the length already) */
		plan_clear(p);
		plan_engines(&r, p);
	}
}
