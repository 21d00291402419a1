#include "cpustat.h"
#include "clock.h"
#include "json.h"
#include "msg.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

void cpusnap_take(struct cpusnap *s)
{
	struct rusage ru;
	FILE *f = fopen("/proc/stat", "r");
	memset(s, 0, sizeof *s);
	if (f) {
		s->ok = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &s->user, &s->nice,
			       &s->system, &s->idle, &s->iowait, &s->irq, &s->softirq, &s->steal) == 8;
		fclose(f);
	}
	if (!getrusage(RUSAGE_SELF, &ru)) {
		s->self_usr = tv_s(&ru.ru_utime);
		s->self_sys = tv_s(&ru.ru_stime);
		s->ctx = ru.ru_nvcsw + ru.ru_nivcsw;
	}
	s->t = now_s();
}

void cpuload_between(const struct cpusnap *a, const struct cpusnap *b, struct cpuload *o)
{
	double hz = (double)sysconf(_SC_CLK_TCK);
	double busy, total, self;
	memset(o, 0, sizeof *o);
	o->wall_s = b->t - a->t;
	if (o->wall_s > 0) {
		o->usr_pct = 100.0 * (b->self_usr - a->self_usr) / o->wall_s;
		o->sys_pct = 100.0 * (b->self_sys - a->self_sys) / o->wall_s;
	}
	o->ctx = b->ctx - a->ctx;
	if (!a->ok || !b->ok || hz <= 0)
		return;
	busy = (double)((b->user + b->nice + b->system + b->irq + b->softirq) -
			(a->user + a->nice + a->system + a->irq + a->softirq));
	total = busy + (double)((b->idle + b->iowait + b->steal) - (a->idle + a->iowait + a->steal));
	if (total <= 0)
		return;
	self = ((b->self_usr + b->self_sys) - (a->self_usr + a->self_sys)) * hz;
	o->have_stat = 1;
	o->steal_pct = 100.0 * (double)(b->steal - a->steal) / total;
	o->busy_pct = 100.0 * busy / total;
	o->other_pct = 100.0 * fmax(0, busy - self) / total;
}

void cpuload_json(const struct cpuload *l, struct json *o)
{
	if (l->have_stat) {
		json_add_num(o, "steal_pct", l->steal_pct);
		json_add_num(o, "other_cpu_pct", l->other_pct);
	} else {
		json_add(o, "steal_pct", json_null());
		json_add(o, "other_cpu_pct", json_null());
	}
}

long long run_threads(const char *what, void *(*fn)(void *), void *base, size_t size,
		      long long n, struct cpuload *load)
{
	pthread_t *tid = n > 0 ? calloc((size_t)n, sizeof *tid) : NULL;
	struct cpusnap s0, s1;
	long long started = 0;
	uint64_t t0, t1;

	if (n > 0 && !tid) {
		warn("%s: out of memory for %lld threads", what, n);
		n = 0;
	}
	cpusnap_take(&s0);
	t0 = now_ns();
	for (; started < n; started++)
		if (pthread_create(&tid[started], NULL, fn, (char *)base + (size_t)started * size)) {
			warn("%s: cannot start thread %lld of %lld:", what, started + 1, n);
			break;
		}
	for (long long i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	t1 = now_ns();
	cpusnap_take(&s1);
	cpuload_between(&s0, &s1, load);
	load->wall_s = (double)(t1 - t0) / 1e9;   /* the threads' time, without the snapshots */
	free(tid);
	return started;
}
