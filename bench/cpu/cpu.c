/* assay cpu: sysbench 1.0.20's prime test (src/tests/cpu/sb_cpu.c).  One event is one
 * full pass of trial division for every c in 3..max_prime-1, with the same types as
 * sysbench, so "events per second" means what sysbench's does. */
#include "clock.h"
#include "cpustat.h"
#include "engine/engine.h"
#include "engine/plan.h"
#include "hist.h"
#include "json.h"
#include "msg.h"
#include "result/result.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cpu_cfg {
	struct common_cfg common;
	long long threads;
	double time;
	long long events;
	long long max_prime;
};

static const struct opt cpu_opts[] = {
	OPTS_COMMON(struct cpu_cfg),
	{ "threads", 0, OPT_INT, offsetof(struct cpu_cfg, threads), "1", 1, 4096, "all=0",
	  "worker threads (all = every online CPU)", 0 },
	{ "time", 0, OPT_TIME, offsetof(struct cpu_cfg, time), "10", 0, 86400, NULL,
	  "run time limit (0: only --events limits)", 0 },
	{ "events", 0, OPT_INT, offsetof(struct cpu_cfg, events), "0", 0, 1e15, NULL,
	  "total events limit (0: unlimited)", 0 },
	{ "cpu-max-prime", 0, OPT_INT, offsetof(struct cpu_cfg, max_prime), "10000", 3, 1e9, NULL,
	  "upper limit of the primes searched by one event", 0 },
	OPT_END,
};

struct worker {
	const struct cpu_cfg *cfg;
	uint64_t deadline;       /* ns, 0 = none */
	uint64_t events;
	uint64_t busy_ns;
	unsigned long long sink;
	unsigned long long expect;   /* the primes a pass must count (a sieve's answer) */
	uint64_t wrong;              /* passes that counted otherwise: a computing error */
	struct hist h;
};

static atomic_llong events_left;

/* the odd primes below n (what a pass counts), by a sieve: another method than the one
 * checked, so a CPU that computes wrong does not agree with itself by accident */
static unsigned long long sieve_count(unsigned long long n)
{
	unsigned char *comp = calloc(n + 1, 1);
	unsigned long long k = 0;
	if (!comp)
		return 0;
	for (unsigned long long i = 2; i * i < n; i++)
		if (!comp[i])
			for (unsigned long long j = i * i; j < n; j += i)
				comp[j] = 1;
	for (unsigned long long i = 3; i < n; i++)
		k += !comp[i];
	free(comp);
	return k;
}

/* sysbench's cpu_execute_event, same types (64-bit division, double compare) */
static unsigned long long prime_pass(unsigned long long max_prime)
{
	unsigned long long c, l, n = 0;
	double t;
	for (c = 3; c < max_prime; c++) {
		t = sqrt((double)c);
		for (l = 2; l <= t; l++)
			if (c % l == 0)
				break;
		if (l > t)
			n++;
	}
	return n;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned long long max_prime = (unsigned long long)w->cfg->max_prime;
	for (;;) {
		uint64_t t0, t1;
		if (w->cfg->events && atomic_fetch_sub(&events_left, 1) <= 0)
			break;
		t0 = now_ns();
		{
			unsigned long long got = prime_pass(max_prime);
			w->sink += got;
			w->wrong += w->expect && got != w->expect;
		}
		t1 = now_ns();
		hist_add(&w->h, t1 - t0);
		w->busy_ns += t1 - t0;
		w->events++;
		if (w->deadline && t1 >= w->deadline)
			break;
	}
	return NULL;
}

static int cpu_check(void *p, int npos, char **pos, char *err, size_t n)
{
	struct cpu_cfg *c = p;
	if (npos) {
		snprintf(err, n, "unexpected argument '%s'", pos[0]);
		return EXIT_USAGE;
	}
	if (c->threads == 0) {
		long on = sysconf(_SC_NPROCESSORS_ONLN);
		c->threads = on > 0 ? on : 1;
	}
	if (c->time <= 0 && c->events <= 0) {
		snprintf(err, n, "--time=0 with --events=0 would never end: give a time or an events limit");
		return EXIT_USAGE;
	}
	return 0;
}

static int cpu_run(void *p, struct json *out)
{
	struct cpu_cfg *c = p;
	struct worker *w = calloc((size_t)c->threads, sizeof *w);
	struct hist all;
	struct cpuload load;
	uint64_t start;
	double total_s, ev_mean = 0, ev_sd = 0, t_mean = 0, t_sd = 0;
	uint64_t events = 0;
	long long started = 0;
	struct json *lat, *pct, *fair, *per;

	if (!w) {
		errmsg("cpu: out of memory for %lld threads", c->threads);
		return EXIT_SYS;
	}
	atomic_store(&events_left, c->events);
	{
		/* every pass's answer is checked (stress-ng's --verify): up to 10^8, the sieve's
		 * memory is small enough */
		unsigned long long expect = c->max_prime <= 100000000 ? sieve_count((unsigned long long)c->max_prime) : 0;
		for (long long i = 0; i < c->threads; i++)
			w[i].expect = expect;
	}
	start = now_ns();
	for (long long i = 0; i < c->threads; i++) {
		w[i].cfg = c;
		w[i].deadline = c->time > 0 ? start + (uint64_t)(c->time * 1e9) : 0;
		hist_init(&w[i].h);
	}
	started = run_threads("cpu", worker_main, w, sizeof *w, c->threads, &load);

	hist_init(&all);
	for (long long i = 0; i < started; i++) {
		hist_merge(&all, &w[i].h);
		events += w[i].events;
	}
	for (long long i = 0; i < started; i++) {
		ev_mean += (double)w[i].events / (double)started;
		t_mean += (double)w[i].busy_ns / 1e9 / (double)started;
	}
	for (long long i = 0; i < started; i++) {
		double de = (double)w[i].events - ev_mean, dt = (double)w[i].busy_ns / 1e9 - t_mean;
		ev_sd += de * de / (double)started;
		t_sd += dt * dt / (double)started;
	}
	total_s = load.wall_s;

	json_add_str(out, "test", "cpu");
	json_add_int(out, "threads", c->threads);
	json_add_int(out, "cpu_max_prime", c->max_prime);
	json_add_num(out, "time_limit_s", c->time);
	json_add_int(out, "events_limit", c->events);
	json_add_num(out, "total_time_s", total_s);
	json_add_int(out, "events", (long long)events);
	json_add_num(out, "events_per_second", total_s > 0 ? (double)events / total_s : 0);
	lat = json_add_obj(out, "latency_ms");
	json_add_num(lat, "min", all.m.n ? (double)all.m.min / 1e6 : 0);
	json_add_num(lat, "avg", all.m.mean / 1e6);
	json_add_num(lat, "max", (double)all.m.max / 1e6);
	json_add_num(lat, "stddev", moments_stddev(&all.m) / 1e6);
	json_add_num(lat, "sum", all.m.mean * (double)all.m.n / 1e6);
	pct = json_add_obj(lat, "percentile");
	{
		static const double pl[] = { 50, 95, 99 };
		char key[32];
		for (size_t i = 0; i < 3; i++) {
			snprintf(key, sizeof key, "%f", pl[i]);
			json_add_num(pct, key, (double)hist_percentile(&all, pl[i]) / 1e6);
		}
	}
	fair = json_add_obj(out, "fairness");
	json_add_num(fair, "events_avg", ev_mean);
	json_add_num(fair, "events_stddev", sqrt(ev_sd));
	json_add_num(fair, "exec_time_avg_s", t_mean);
	json_add_num(fair, "exec_time_stddev_s", sqrt(t_sd));
	per = json_add_arr(out, "per_thread_events");
	for (long long i = 0; i < started; i++)
		json_push(per, json_int((long long)w[i].events));
	if (w[0].expect) {
		uint64_t wrong = 0;
		for (long long i = 0; i < started; i++)
			wrong += w[i].wrong;
		json_add_int(out, "verified_events", (long long)events);
		json_add_int(out, "wrong_results", (long long)wrong);
		if (wrong) {
			char e[160];
			snprintf(e, sizeof e, "%llu of %llu passes counted a wrong number of primes: the CPU computes "
				 "wrong", (unsigned long long)wrong, (unsigned long long)events);
			json_add_str(out, "error", e);
			json_add_bool(out, "figures_valid", 1);
		}
	}
	cpuload_json(&load, out);
	if (json_get(out, "wrong_results") && json_get_num(out, "wrong_results", 0) > 0) {
		free(w);
		return EXIT_FAIL;
	}
	free(w);
	if (started < c->threads) {
		json_add_str(out, "error", "not every thread could be started");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* sysbench's report shape */
static void cpu_text(const struct json *r, FILE *f)
{
	const struct json *pt = json_get(r, "per_thread_events");
	fprintf(f, "CPU speed (sysbench prime test, cpu-max-prime %.0f, %.0f thread%s):\n",
		json_get_num(r, "cpu_max_prime", 0), json_get_num(r, "threads", 0),
		json_get_num(r, "threads", 0) == 1 ? "" : "s");
	fprintf(f, "    events per second: %8.2f\n\n", json_get_num(r, "events_per_second", 0));
	fprintf(f, "General statistics:\n");
	fprintf(f, "    total time:                          %.4fs\n", json_get_num(r, "total_time_s", 0));
	fprintf(f, "    total number of events:              %.0f\n\n", json_get_num(r, "events", 0));
	fprintf(f, "Latency (ms):\n");
	fprintf(f, "         min:                                  %7.2f\n", json_get_num(r, "latency_ms.min", 0));
	fprintf(f, "         avg:                                  %7.2f\n", json_get_num(r, "latency_ms.avg", 0));
	fprintf(f, "         max:                                  %7.2f\n", json_get_num(r, "latency_ms.max", 0));
	fprintf(f, "         50th percentile:                      %7.2f\n",
		json_get_num(r, "latency_ms.percentile.50.000000", 0));
	fprintf(f, "         95th percentile:                      %7.2f\n",
		json_get_num(r, "latency_ms.percentile.95.000000", 0));
	fprintf(f, "         99th percentile:                      %7.2f\n",
		json_get_num(r, "latency_ms.percentile.99.000000", 0));
	fprintf(f, "         sum:                                %9.2f\n\n", json_get_num(r, "latency_ms.sum", 0));
	fprintf(f, "Threads fairness:\n");
	fprintf(f, "    events (avg/stddev):           %.4f/%.2f\n",
		json_get_num(r, "fairness.events_avg", 0), json_get_num(r, "fairness.events_stddev", 0));
	fprintf(f, "    execution time (avg/stddev):   %.4f/%.2f\n",
		json_get_num(r, "fairness.exec_time_avg_s", 0), json_get_num(r, "fairness.exec_time_stddev_s", 0));
	if (pt && pt->n > 1) {
		fprintf(f, "    events per thread:            ");
		for (const struct json *e = pt->child; e; e = e->next)
			fprintf(f, " %.0f", e->num);
		fputc('\n', f);
	}
	if (json_get(r, "steal_pct") && json_get(r, "steal_pct")->type == J_NUM)
		fprintf(f, "    steal: %.1f%%   other processes' CPU: %.1f%%\n",
			json_get_num(r, "steal_pct", 0), json_get_num(r, "other_cpu_pct", 0));
}

/* cpu.events_per_sec.1t, cpu.latency_p95.all, cpu.steal.1t: the test "cpu.1t" gives the
 * variant after the figure, so names read as in the classic write-ups */
static void cpu_figures(const struct json *r, const char *test, struct json *sum)
{
	static const struct { const char *path, *name, *unit; int better; } f[] = {
		{ "events_per_second", "events_per_sec", "events/s", HIGHER_BETTER },
		{ "latency_ms.percentile.95.000000", "latency_p95", "ms", LOWER_BETTER },
		{ "steal_pct", "steal", "%", LOWER_BETTER },
		{ "wrong_results", "wrong_results", "errors", LOWER_BETTER },
	};
	const char *variant = strncmp(test, "cpu.", 4) ? test : test + 4;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		const struct json *v = json_path(r, f[i].path);
		char name[128];
		if (!v || v->type != J_NUM)
			continue;
		snprintf(name, sizeof name, "cpu.%s.%s", f[i].name, variant);
		figure_add(sum, name, v->num, f[i].unit, f[i].better);
	}
}

/* assay run's CPU tests: one thread, then every CPU */
static void cpu_plan(struct run_plan *p, const struct plan_req *c)
{
	double t = c->cpu_time;
	char arg[64];
	char *a1[] = { "--threads=1", arg }, *a2[] = { "--threads=all", arg };
	if (!plan_wants(c, "cpu"))
		return;
	snprintf(arg, sizeof arg, "--time=%g", t);
	plan_add(p, "cpu.1t", "cpu", 2, a1, t);
	plan_add(p, "cpu.all", "cpu", 2, a2, t);
}

static const char *const *cpu_figure_names(void)
{
	static const char *const names[] = { "cpu.{events_per_sec,latency_p95,steal,wrong_results}.{1t,all}", "cpu.scaling", NULL };
	return names;
}

const struct engine engine_cpu = {
	.cmd = ENGINE_COMMAND("cpu",
			      "CPU: sysbench-compatible prime test (events per second)",
			      "[--threads N|all] [--time SECS] [--events N] [--cpu-max-prime N]",
			      cpu_opts, struct cpu_cfg, 0),
	.check = cpu_check,
	.run = cpu_run,
	.text = cpu_text,
	.figures = cpu_figures,
	.plan = cpu_plan,
	.title = "CPU",
	.figure_names = cpu_figure_names,
};
