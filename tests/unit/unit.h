/* Unit tests are standalone programs: exit 0 pass, 1 fail, 77 skip (as liburing's
 * test/helpers.h).  CHECK logs each failure with its line and goes on. */
#ifndef ASSAY_UNIT_H
#define ASSAY_UNIT_H

#include <stdio.h>
#include <stdlib.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond, ...) do { \
	unit_checks++; \
	if (!(cond)) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define SKIP(...) do { fprintf(stderr, "SKIP: " __VA_ARGS__); fputc('\n', stderr); exit(77); } while (0)

static inline int unit_done(void)
{
	fprintf(stderr, "%d checks, %d failed\n", unit_checks, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif
