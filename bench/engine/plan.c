/* The plan engines add their tests to (plan.h). */
#include "plan.h"

#include "engine.h"
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int in_list(const char *list, const char *word)
{
	return !strcmp(list, "all") || list_has(list, word);
}

int plan_wants(const struct plan_req *r, const char *engine)
{
	return in_list(r->tests, engine) || (r->rules_engines && list_has(r->rules_engines, engine));
}

struct plan_item *plan_add(struct run_plan *p, const char *name, const char *engine, int argc, char **argv,
			   double expect_s)
{
	struct plan_item *it;
	if (p->n >= MAX_TESTS)
		die(EXIT_SYS, "internal: too many tests in the plan");
	it = &p->it[p->n++];
	snprintf(it->name, sizeof it->name, "%s", name);
	it->eng = engine_find(engine);
	if (!it->eng)
		die(EXIT_SYS, "internal: no engine %s", engine);
	for (int i = 0; i < argc && it->argc < MAX_ARGS - 1; i++)
		it->argv[it->argc++] = strdup(argv[i]);
	it->expect_s = expect_s;
	return it;
}

double plan_seconds(const struct run_plan *p)
{
	double t = 0;
	for (int i = 0; i < p->n; i++)
		t += p->it[i].skip[0] ? 0 : p->it[i].expect_s;
	return t;
}

void plan_clear(struct run_plan *p)
{
	for (int i = 0; i < p->n; i++)
		for (int k = 0; k < p->it[i].argc; k++)
			free(p->it[i].argv[k]);
	memset(p, 0, sizeof *p);
}

void plan_skip(struct plan_item *it, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(it->skip, sizeof it->skip, fmt, ap);
	va_end(ap);
}
