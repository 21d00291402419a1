/* fio's steady state judged on known per-second series: the least squares slope and the
 * largest deviation from the mean, absolute and in percent, over the last D seconds after
 * the ramp; a second counts once every running thread has added it. */
#include "disk/steady.h"
#include "unit.h"

#include <math.h>

static int run(int kind, double limit, int pct, unsigned dur, unsigned ramp, const uint64_t *v, int n,
	       struct ss_state *s, struct ss_cfg *c)
{
	c->kind = kind;
	c->limit = limit;
	c->pct = pct;
	c->dur = dur;
	c->ramp = ramp;
	ss_init(s, c, 1);
	for (int i = 0; i < n && !ss_stopped(s); i++)
		ss_add(s, (unsigned)i, v[i], v[i] * 4096);
	return s->attained;
}

int main(void)
{
	struct ss_state s;
	struct ss_cfg c;
	const uint64_t rise[] = { 100, 110, 120 }, around[] = { 90, 100, 110 }, settle[] = { 10, 500, 90, 100, 110, 100 };

	CHECK(run(SS_IOPS_SLOPE, 10, 0, 3, 0, rise, 3, &s, &c) && fabs(s.slope - 10) < 1e-9, "slope 10 <= 10: %g", s.slope);
	ss_free(&s);
	CHECK(!run(SS_IOPS_SLOPE, 9.9, 0, 3, 0, rise, 3, &s, &c) && s.judged, "slope 10 > 9.9");
	ss_free(&s);
	CHECK(run(SS_IOPS_SLOPE, 10, 1, 3, 0, rise, 3, &s, &c) && fabs(s.criterion - 100.0 * 10 / 110) < 1e-9,
	      "slope in percent of the mean: %g", s.criterion);
	ss_free(&s);
	CHECK(run(SS_IOPS, 10, 0, 3, 0, around, 3, &s, &c) && fabs(s.max_dev - 10) < 1e-9 && fabs(s.mean_iops - 100) < 1e-9,
	      "deviation 10 <= 10");
	ss_free(&s);
	CHECK(!run(SS_IOPS, 9.9, 1, 3, 0, around, 3, &s, &c), "deviation 10%% > 9.9%%");
	ss_free(&s);
	CHECK(run(SS_BW, 10, 1, 3, 0, around, 3, &s, &c) && fabs(s.mean_bw - 409600) < 1e-6, "bw: bytes per second");
	ss_free(&s);
	/* the window slides past the burst; the ramp keeps the first seconds out */
	CHECK(run(SS_IOPS, 10, 0, 3, 0, settle, 6, &s, &c) && s.win_ios[0] == 90 && s.nwin == 3,
	      "judged once the burst left the window: first %llu", (unsigned long long)s.win_ios[0]);
	ss_free(&s);
	CHECK(!run(SS_IOPS, 1000, 0, 3, 4, settle, 6, &s, &c) && !s.judged, "ramp 4 + window 3 > 6 seconds");
	ss_free(&s);
	/* two threads: a second is judged once both added it, or the other ended */
	c = (struct ss_cfg){ SS_IOPS, 1000, 0, 2, 0 };
	ss_init(&s, &c, 2);
	ss_add(&s, 0, 50, 0);
	ss_add(&s, 1, 50, 0);
	CHECK(!s.judged, "one thread of two: not judged");
	ss_add(&s, 0, 50, 0);
	CHECK(!s.judged, "second 1 still missing one thread");
	ss_thread_end(&s);
	CHECK(s.judged && s.attained && s.win_ios[0] == 100 && s.win_ios[1] == 50 && ss_stopped(&s),
	      "the other thread ended: judged %d %d", s.judged, s.attained);
	ss_free(&s);
	return unit_done();
}
