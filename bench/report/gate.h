/* The regression gate (gate.c): a result's figures against a baseline's, each decided
 * PASS, FAIL or INCONCLUSIVE in the noise model. */
#ifndef ASSAY_GATE_H
#define ASSAY_GATE_H

#include "result/result.h"

#include <stdio.h>

#define GATE_MAX 512

enum { GATE_PASS, GATE_FAIL, GATE_INCONCLUSIVE };

struct gate_item {
	struct json *o;             /* its entry in the verdict's rules[] */
	char name[160], unit[24];
	double now, then;           /* the levels, in the result's unit */
	double limit;               /* percent worse allowed */
	double worse;               /* percent worse than the baseline (NAN: not comparable) */
	double sigma, p;            /* its noise; the chance of this worsening by noise alone */
	double measured;            /* the baseline's runs' own spread, when below the floor (NAN) */
	const char *from;
	int verdict;
};

struct gate {
	int n;
	struct gate_item it[GATE_MAX];
};

/* how much worse now is than then (percent; <= 0: as good or better) */
double gate_worse_pct(double now, double then, enum better b);
/* a figure to decide: its row now and the baseline's (its values times mult are in the
 * result's unit), the limit; noise_pct > 0 replaces the kinds' default noise */
void gate_add(struct gate *g, struct json *o, const char *name, const struct json *now, const struct json *then,
	      double mult, double limit_pct, double noise_pct);
/* every figure decided together (Holm over all of them), each line to f (NULL: none); the
 * counts of FAIL and INCONCLUSIVE added up */
void gate_decide(struct gate *g, FILE *f, int *failed, int *inconclusive);

#endif
