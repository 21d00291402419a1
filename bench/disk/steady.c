/* fio's steady state: see steady.h.  As fio: "iops"/"bw" are met when every second of the
 * window is within the limit of the window's mean, "iops_slope"/"bw_slope" when the least
 * squares slope (per second) is; a limit with % is a share of the mean. */
#include "steady.h"

#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ss_init(struct ss_state *s, const struct ss_cfg *cfg, int nthreads)
{
	memset(s, 0, sizeof *s);
	s->cfg = cfg;
	s->nthreads = nthreads;
	return pthread_mutex_init(&s->lock, NULL) ? -1 : 0;
}

void ss_free(struct ss_state *s)
{
	if (!s->cfg)
		return;
	free(s->ios);
	free(s->bytes);
	free(s->added);
	pthread_mutex_destroy(&s->lock);
	s->cfg = NULL;
}

/* judge the window of seconds [end - dur, end) (lock held) */
static void judge(struct ss_state *s, unsigned end)
{
	const struct ss_cfg *c = s->cfg;
	unsigned d = c->dur, b = end - d;
	int bw = c->kind == SS_BW || c->kind == SS_BW_SLOPE;
	double mi = 0, mb = 0, dev = 0, sxy = 0, sxx = 0, mean, lim, val;
	for (unsigned i = 0; i < d; i++) {
		mi += (double)s->ios[b + i] / d;
		mb += (double)s->bytes[b + i] / d;
	}
	mean = bw ? mb : mi;
	for (unsigned i = 0; i < d; i++) {
		double y = bw ? (double)s->bytes[b + i] : (double)s->ios[b + i], x = i - (d - 1) / 2.0;
		if (fabs(y - mean) > dev)
			dev = fabs(y - mean);
		sxy += x * (y - mean);
		sxx += x * x;
	}
	s->judged = 1;
	s->mean_iops = mi;
	s->mean_bw = mb;
	s->max_dev = dev;
	s->slope = sxx > 0 ? sxy / sxx : 0;
	val = c->kind == SS_IOPS || c->kind == SS_BW ? dev : fabs(s->slope);
	lim = c->pct ? c->limit / 100 * mean : c->limit;
	s->criterion = c->pct ? (mean > 0 ? val / mean * 100 : 0) : val;
	s->nwin = d;
	memcpy(s->win_ios, s->ios + b, d * sizeof *s->ios);
	memcpy(s->win_bytes, s->bytes + b, d * sizeof *s->bytes);
	if (val <= lim && mean > 0) {
		s->attained = 1;
		__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
	}
}

/* judge, in order, each second that has become complete: every running thread added it
 * (lock held) */
static void judge_ready(struct ss_state *s)
{
	const struct ss_cfg *c = s->cfg;
	for (; !s->attained && s->next < s->cap && s->added[s->next] &&
	       (int)s->added[s->next] >= s->nthreads - s->ended; s->next++)
		if (s->next + 1 >= c->ramp + c->dur)
			judge(s, s->next + 1);
}

void ss_add(struct ss_state *s, unsigned sec, uint64_t ios, uint64_t bytes)
{
	pthread_mutex_lock(&s->lock);
	if (sec >= s->cap) {
		unsigned cap = sec + 64;
		uint64_t *a = realloc(s->ios, cap * sizeof *a), *b2;
		unsigned *n;
		if (a)
			s->ios = a;
		b2 = realloc(s->bytes, cap * sizeof *b2);
		if (b2)
			s->bytes = b2;
		n = realloc(s->added, cap * sizeof *n);
		if (n)
			s->added = n;
		if (!a || !b2 || !n) {
			pthread_mutex_unlock(&s->lock);
			return;      /* out of memory: no steady state judged past here */
		}
		memset(s->ios + s->cap, 0, (cap - s->cap) * sizeof *a);
		memset(s->bytes + s->cap, 0, (cap - s->cap) * sizeof *b2);
		memset(s->added + s->cap, 0, (cap - s->cap) * sizeof *n);
		s->cap = cap;
	}
	s->ios[sec] += ios;
	s->bytes[sec] += bytes;
	s->added[sec]++;
	judge_ready(s);
	pthread_mutex_unlock(&s->lock);
}

void ss_thread_end(struct ss_state *s)
{
	pthread_mutex_lock(&s->lock);
	s->ended++;
	judge_ready(s);      /* the seconds the others already added may be complete now */
	pthread_mutex_unlock(&s->lock);
}

void ss_json(const struct ss_state *s, struct json *job)
{
	static const char *const kinds[] = { "", "iops", "iops_slope", "bw", "bw_slope" };
	const struct ss_cfg *c = s->cfg;
	struct json *o = json_add_obj(job, "steadystate"), *d, *a, *b;
	char t[64];
	snprintf(t, sizeof t, c->pct ? "%s:%f%%" : "%s:%f", kinds[c->kind], c->limit);
	json_add_str(o, "ss", t);
	json_add_int(o, "duration", c->dur);
	json_add_int(o, "attained", s->attained);
	snprintf(t, sizeof t, c->pct ? "%f%%" : "%f", s->criterion);
	json_add_str(o, "criterion", s->judged ? t : "");
	json_add_num(o, "max_deviation", s->max_dev);
	json_add_num(o, "slope", s->slope);
	d = json_add_obj(o, "data");
	json_add_int(d, "bw_mean", (long long)s->mean_bw);
	json_add_int(d, "iops_mean", (long long)s->mean_iops);
	a = json_add_arr(d, "iops");
	b = json_add_arr(d, "bw");
	for (unsigned i = 0; i < s->nwin; i++) {
		json_push(a, json_int((long long)s->win_ios[i]));
		json_push(b, json_int((long long)s->win_bytes[i]));
	}
}
