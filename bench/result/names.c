/* The names a result's figures can have: each engine declares them as patterns (engine.h),
 * the run adds its own (steal.*, machine.*), the registry's doc_figures theirs.  A pattern is tokens separated by dots: a word,
 * '*' (any one word), '{a,b}' (one of them; an alternative may hold dots), '[t]' (the token
 * t, or nothing).  Certify checks a rule's figure against them and, for a typo, names the
 * nearest ones. */
#include "result.h"

#include "engine/engine.h"
#include "json.h"
#include "opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the run's own figures, beside the engines' */
static const char *const run_names[] = {
	"steal.{max,mean}",
	"machine.{cpus,memory_bytes,disks,nics}",
	"machine.disk.*.size_bytes",
	"machine.nic.*.speed_mbps",
	NULL,
};

static int pmatch(const char *p, const char *s);

/* the end of the token at p (brackets and braces nest) */
static const char *token_end(const char *p)
{
	int depth = 0;
	for (; *p && (depth || *p != '.'); p++)
		depth += *p == '{' || *p == '[' ? 1 : *p == '}' || *p == ']' ? -1 : 0;
	return p;
}

/* after a token matched up to s (at '.' or the end): the rest of the pattern */
static int next(const char *rest, const char *s)
{
	if (!*rest)
		return !*s;
	return pmatch(rest, *s == '.' ? s + 1 : s);
}

/* token t (tl bytes) at s, then the rest of the pattern */
static int tmatch(const char *t, size_t tl, const char *rest, const char *s)
{
	size_t sl = strcspn(s, ".");
	if (tl >= 2 && t[0] == '[')
		return tmatch(t + 1, tl - 2, rest, s) || pmatch(rest, s);
	if (tl >= 2 && t[0] == '{') {
		const char *a = t + 1, *end = t + tl - 1;
		while (a <= end) {
			const char *c = a;
			int depth = 0;
			for (; c < end && (depth || *c != ','); c++)
				depth += *c == '{' || *c == '[' ? 1 : *c == '}' || *c == ']' ? -1 : 0;
			if (tmatch(a, (size_t)(c - a), rest, s))
				return 1;
			a = c + 1;
		}
		return 0;
	}
	if (tl == 1 && *t == '*')
		return sl && next(rest, s + sl);
	if (strncmp(s, t, tl) || (s[tl] && s[tl] != '.'))
		return 0;
	return next(rest, s + tl);
}

static int pmatch(const char *p, const char *s)
{
	const char *e = token_end(p);
	if (!*p)
		return !*s;
	return tmatch(p, (size_t)(e - p), *e ? e + 1 : e, s);
}

int figure_pattern_match(const char *pattern, const char *name)
{
	return pmatch(pattern, name);
}

/* every pattern: the engines' (in the registry's order), the run's, the document's; NULL
 * past the last */
static const char *pattern_at(int k)
{
	for (int i = 0; engines[i]; i++) {
		const char *const *names = engines[i]->figure_names ? engines[i]->figure_names() : NULL;
		for (int j = 0; names && names[j]; j++)
			if (!k--)
				return names[j];
	}
	for (int j = 0; run_names[j]; j++)
		if (!k--)
			return run_names[j];
	for (int i = 0; doc_figures[i]; i++)
		for (int j = 0; doc_figures[i]->names[j]; j++)
			if (!k--)
				return doc_figures[i]->names[j];
	return NULL;
}

int figure_name_known(const char *name, const struct json *doc)
{
	const char *p;
	if (doc && figure_find(doc, name))
		return 1;
	for (int k = 0; (p = pattern_at(k)); k++)
		if (pmatch(p, name))
			return 1;
	return 0;
}

/* ---- nearest names ---- */

struct cands {
	char (*name)[128];
	int n, cap;
};

static void cand_add(struct cands *c, const char *s)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], s))
			return;
	if (c->n == c->cap) {
		int nc = c->cap ? c->cap * 2 : 256;
		char (*nn)[128] = realloc(c->name, (size_t)nc * sizeof *nn);
		if (!nn)
			return;
		c->name = nn;
		c->cap = nc;
	}
	snprintf(c->name[c->n++], sizeof c->name[0], "%s", s);
}

/* the concrete names of a pattern, prefix so far in pre ('*' tokens are left out: the
 * document's own names stand for them) */
static void expand(struct cands *c, const char *p, char *pre, size_t pl)
{
	const char *e = token_end(p), *rest = *e ? e + 1 : e;
	size_t tl = (size_t)(e - p);
	if (!*p) {
		if (pl && pre[pl - 1] == '.')
			pre[pl - 1] = 0;
		cand_add(c, pre);
		return;
	}
	if (pl > 100)
		return;
	if (tl >= 2 && (p[0] == '[' || p[0] == '{')) {
		const char *a = p + 1, *end = p + tl - 1;
		if (p[0] == '[') {
			expand(c, rest, pre, pl);
			pre[pl] = 0;
		}
		while (a <= end) {
			const char *q = a;
			int depth = 0;
			char sub[160];
			for (; q < end && (depth || *q != ','); q++)
				depth += *q == '{' || *q == '[' ? 1 : *q == '}' || *q == ']' ? -1 : 0;
			snprintf(sub, sizeof sub, "%.*s%s%s", (int)(q - a), a, *rest ? "." : "", rest);
			expand(c, sub, pre, pl);
			pre[pl] = 0;
			a = q + 1;
		}
		return;
	}
	if (tl == 1 && *p == '*')
		return;
	snprintf(pre + pl, 128 - pl, "%.*s.", (int)tl, p);
	expand(c, rest, pre, strlen(pre));
	pre[pl] = 0;
}

void figure_nearest(const char *name, const struct json *doc, char *out, size_t n)
{
	struct cands c = { 0 };
	const struct json *sum = doc ? json_get(doc, "summary") : NULL;
	const char *p;
	char pre[160] = "";
	unsigned best[3] = { ~0u, ~0u, ~0u };
	int bi[3] = { -1, -1, -1 };
	size_t l = 0;
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next)
		cand_add(&c, json_get_str(r, "name", ""));
	for (int k = 0; (p = pattern_at(k)); k++)
		expand(&c, p, pre, 0);
	for (int i = 0; i < c.n; i++) {
		unsigned d = edits(name, c.name[i]);
		for (int k = 0; k < 3; k++)
			if (d < best[k]) {
				for (int m = 2; m > k; m--) {
					best[m] = best[m - 1];
					bi[m] = bi[m - 1];
				}
				best[k] = d;
				bi[k] = i;
				break;
			}
	}
	out[0] = 0;
	for (int k = 0; k < 3 && bi[k] >= 0 && l < n; k++)
		l += (size_t)snprintf(out + l, n - l, "%s%s", k ? ", " : "", c.name[bi[k]]);
	free(c.name);
}
