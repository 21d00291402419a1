/* The disk engine, as the rest of assay sees it: its safety modes and its part of a
 * suite (assay run's disk tests).  Its insides are job.h, plan.h and io.h. */
#ifndef ASSAY_DISK_H
#define ASSAY_DISK_H

#include <stddef.h>

struct run_plan;
struct plan_req;

/* --mode: what the engine may write (readonly: nothing; rewrite: the bytes it just read;
 * destroy: anything, on the devices named) */
enum mode { MODE_READONLY, MODE_REWRITE, MODE_DESTROY };
#define MODE_CHOICES "readonly|rewrite|destroy"
extern const char *const mode_names[];   /* by enum mode */

/* about how long the profiles (a comma list, or all) take with time-based jobs of
 * runtime seconds each */
double disk_profiles_estimate(const char *profiles, double runtime, int writes);
/* --disks' words: all, none, or names of /sys/class/block and paths of files or devices
 * that exist; 0, or -1 with the reason */
int disk_check_list(const char *list, char *err, size_t n);
/* assay run's disk tests: one per disk to measure */
void disk_plan(struct run_plan *p, const struct plan_req *c);

#endif
