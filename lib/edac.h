/* EDAC (the kernel's memory error counters): a snapshot of every memory controller's
 * corrected (ce) and uncorrected (ue) error counts, per DIMM with its label, and which
 * DIMMs' counts grew between two snapshots.  Read by health/ and by the memory test. */
#ifndef ASSAY_EDAC_H
#define ASSAY_EDAC_H

struct json;

/* snap.edac: {available, ce, ue, controllers: {mc0: {ce, ue, dimms: [{name, label, ce, ue}]}}} */
void edac_snapshot(struct json *snap);
/* each DIMM whose counts grew from snapshot a to b (a NULL: any count at all), with how
 * much: fn(controller, the DIMM's {name, label, ce, ue}, ce, ue, arg) */
void edac_grown(const struct json *a, const struct json *b,
		void (*fn)(const char *mc, const struct json *dimm, double ce, double ue, void *arg), void *arg);

#endif
