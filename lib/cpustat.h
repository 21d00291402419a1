/* CPU time of the whole machine (/proc/stat) and of this process during a test: the
 * steal share (the noisy-neighbour signal on a VPS) and the CPU other processes used. */
#ifndef ASSAY_CPUSTAT_H
#define ASSAY_CPUSTAT_H

#include <stddef.h>

struct json;

struct cpusnap {
	unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
	double self_usr, self_sys;   /* seconds, RUSAGE_SELF (all threads) */
	long ctx;                    /* voluntary + involuntary context switches */
	double t;                    /* monotonic seconds */
	int ok;                      /* /proc/stat was readable */
};

struct cpuload {
	double wall_s;
	double steal_pct;    /* of all CPU time on the machine */
	double other_pct;    /* busy time not ours, of all CPU time */
	double busy_pct;     /* all busy time, of all CPU time */
	double usr_pct;      /* ours, of wall time (fio's usr_cpu; may exceed 100 with threads) */
	double sys_pct;
	long ctx;
	int have_stat;
};

void cpusnap_take(struct cpusnap *s);
void cpuload_between(const struct cpusnap *a, const struct cpusnap *b, struct cpuload *out);
/* adds steal_pct, other_cpu_pct (null when /proc/stat was unreadable) */
void cpuload_json(const struct cpuload *l, struct json *obj);

/* Runs fn on each of n workers (base + i * size) in a thread of its own, waits for them
 * all and measures the load meanwhile (wall time in load->wall_s).  Returns how many
 * threads started; a warning names the first that could not ("WHAT: cannot start ..."). */
long long run_threads(const char *what, void *(*fn)(void *), void *base, size_t size,
		      long long n, struct cpuload *load);

#endif
