#include "json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

static void *xcalloc(size_t n)
{
	void *p = calloc(1, n);
	if (!p) {
		fputs("assay: fatal: out of memory\n", stderr);
		exit(111);
	}
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xcalloc(n + 1);
	memcpy(p, s, n);
	return p;
}

static struct json *node(enum jtype t)
{
	struct json *j = xcalloc(sizeof *j);
	j->type = t;
	return j;
}

struct json *json_obj(void) { return node(J_OBJ); }
struct json *json_arr(void) { return node(J_ARR); }
struct json *json_null(void) { return node(J_NULL); }

struct json *json_str(const char *s)
{
	struct json *j = node(J_STR);
	j->str = xstrndup(s ? s : "", s ? strlen(s) : 0);
	return j;
}

struct json *json_num(double v)
{
	struct json *j = node(J_NUM);
	j->num = v;
	return j;
}

struct json *json_int(long long v)
{
	struct json *j = node(J_NUM);
	j->num = (double)v;
	j->is_int = 1;
	return j;
}

struct json *json_bool(int b)
{
	struct json *j = node(J_BOOL);
	j->b = !!b;
	return j;
}

void json_free(struct json *j)
{
	while (j) {
		struct json *next = j->next;
		json_free(j->child);
		free(j->str);
		free(j->key);
		free(j);
		j = next;
	}
}

struct json *json_push(struct json *arr, struct json *c)
{
	if (arr->last)
		arr->last->next = c;
	else
		arr->child = c;
	arr->last = c;
	arr->n++;
	return c;
}

struct json *json_add(struct json *obj, const char *key, struct json *c)
{
	free(c->key);
	c->key = xstrndup(key, strlen(key));
	return json_push(obj, c);
}

struct json *json_add_obj(struct json *o, const char *k) { return json_add(o, k, json_obj()); }
struct json *json_add_arr(struct json *o, const char *k) { return json_add(o, k, json_arr()); }
void json_add_str(struct json *o, const char *k, const char *s) { json_add(o, k, json_str(s)); }
void json_add_num(struct json *o, const char *k, double v) { json_add(o, k, json_num(v)); }
void json_add_int(struct json *o, const char *k, long long v) { json_add(o, k, json_int(v)); }
void json_add_bool(struct json *o, const char *k, int b) { json_add(o, k, json_bool(b)); }

struct json *json_detach(struct json *o, const char *key)
{
	struct json *prev = NULL;
	if (!o || o->type != J_OBJ)
		return NULL;
	for (struct json *c = o->child; c; prev = c, c = c->next)
		if (c->key && !strcmp(c->key, key)) {
			if (prev)
				prev->next = c->next;
			else
				o->child = c->next;
			if (o->last == c)
				o->last = prev;
			o->n--;
			c->next = NULL;
			return c;
		}
	return NULL;
}

const struct json *json_get(const struct json *o, const char *key)
{
	if (!o || o->type != J_OBJ)
		return NULL;
	for (const struct json *c = o->child; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

/* Dotted path.  Keys may hold dots themselves (fio's "99.000000"): at each object the
 * longest member name that matches the rest of the path up to a '.' wins. */
const struct json *json_path(const struct json *j, const char *path)
{
	while (j && *path) {
		const struct json *best = NULL;
		size_t bl = 0;
		if (j->type == J_ARR) {
			char *end;
			unsigned long i;
			if (*path < '0' || *path > '9')
				return NULL;
			i = strtoul(path, &end, 10);
			if (*end && *end != '.')
				return NULL;
			best = j->child;
			while (best && i--)
				best = best->next;
			bl = (size_t)(end - path);
		} else if (j->type == J_OBJ) {
			for (const struct json *c = j->child; c; c = c->next) {
				size_t l = c->key ? strlen(c->key) : 0;
				if (l > bl && !strncmp(path, c->key, l) && (path[l] == '.' || !path[l])) {
					best = c;
					bl = l;
				}
			}
		}
		if (!best)
			return NULL;
		j = best;
		path += bl;
		if (*path == '.')
			path++;
	}
	return j;
}

double json_get_num(const struct json *o, const char *key, double dflt)
{
	const struct json *j = json_path(o, key);
	return j && j->type == J_NUM ? j->num : dflt;
}

const char *json_get_str(const struct json *o, const char *key, const char *dflt)
{
	const struct json *j = json_path(o, key);
	return j && j->type == J_STR ? j->str : dflt;
}

/* ---- output ---- */

struct sink {
	FILE *f;
	char *buf;
	size_t len, cap;
};

static void put(struct sink *s, const char *p, size_t n)
{
	if (s->f) {
		fwrite(p, 1, n, s->f);
		return;
	}
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 256;
		char *nb;
		while (cap < s->len + n + 1)
			cap *= 2;
		nb = realloc(s->buf, cap);
		if (!nb) {
			fputs("assay: fatal: out of memory\n", stderr);
			exit(111);
		}
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = 0;
}

static void puts_(struct sink *s, const char *p) { put(s, p, strlen(p)); }

static void put_str(struct sink *s, const char *p)
{
	put(s, "\"", 1);
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		char esc[8];
		switch (c) {
		case '"': puts_(s, "\\\""); break;
		case '\\': puts_(s, "\\\\"); break;
		case '\n': puts_(s, "\\n"); break;
		case '\r': puts_(s, "\\r"); break;
		case '\t': puts_(s, "\\t"); break;
		default:
			if (c < 0x20) {
				snprintf(esc, sizeof esc, "\\u%04x", c);
				puts_(s, esc);
			} else {
				put(s, p, 1);
			}
		}
	}
	put(s, "\"", 1);
}

static void put_num(struct sink *s, const struct json *j)
{
	char b[64];
	double v = j->num;
	if (!isfinite(v)) {
		puts_(s, "null");
		return;
	}
	if (fabs(v) >= 1e15) {
		snprintf(b, sizeof b, "%.17g", v);    /* no 300-digit fixed notation */
	} else if (j->is_int || v == floor(v)) {
		snprintf(b, sizeof b, "%.0f", v);
	} else {
		/* six decimals as fio prints, trailing zeros dropped; tiny values keep precision */
		size_t l;
		if (fabs(v) < 1e-3)
			snprintf(b, sizeof b, "%.6g", v);
		else {
			snprintf(b, sizeof b, "%.6f", v);
			l = strlen(b);
			while (l > 1 && b[l - 1] == '0' && b[l - 2] != '.')
				b[--l] = 0;
		}
	}
	puts_(s, b);
}

static void indent_to(struct sink *s, int indent, int depth)
{
	if (indent < 0)
		return;
	put(s, "\n", 1);
	for (int i = 0; i < indent * depth; i++)
		put(s, " ", 1);
}

static void emit(struct sink *s, const struct json *j, int indent, int depth)
{
	switch (j->type) {
	case J_NULL: puts_(s, "null"); break;
	case J_BOOL: puts_(s, j->b ? "true" : "false"); break;
	case J_NUM: put_num(s, j); break;
	case J_STR: put_str(s, j->str); break;
	case J_ARR:
	case J_OBJ:
		put(s, j->type == J_OBJ ? "{" : "[", 1);
		for (const struct json *c = j->child; c; c = c->next) {
			indent_to(s, indent, depth + 1);
			if (j->type == J_OBJ) {
				put_str(s, c->key ? c->key : "");
				puts_(s, indent < 0 ? ":" : ": ");
			}
			emit(s, c, indent, depth + 1);
			if (c->next)
				put(s, ",", 1);
		}
		if (j->child)
			indent_to(s, indent, depth);
		put(s, j->type == J_OBJ ? "}" : "]", 1);
		break;
	}
}

void json_print(FILE *f, const struct json *j, int indent)
{
	struct sink s = { .f = f };
	emit(&s, j, indent, 0);
	put(&s, "\n", 1);
}

char *json_to_string(const struct json *j, int indent, size_t *len)
{
	struct sink s = { 0 };
	emit(&s, j, indent, 0);
	put(&s, "\n", 1);
	if (len)
		*len = s.len;
	return s.buf;
}

/* ---- parser ---- */

struct parser {
	const char *p, *start, *end;
	char *err;
	size_t errlen;
	int failed;
};

static void perr(struct parser *ps, const char *what)
{
	int line = 1, col = 1;
	if (ps->failed)
		return;
	for (const char *q = ps->start; q < ps->p && q < ps->end; q++) {
		if (*q == '\n')
			line++, col = 1;
		else
			col++;
	}
	snprintf(ps->err, ps->errlen, "line %d, column %d: %s", line, col, what);
	ps->failed = 1;
}

static void ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int lit(struct parser *ps, const char *w)
{
	size_t l = strlen(w);
	if ((size_t)(ps->end - ps->p) >= l && !memcmp(ps->p, w, l)) {
		ps->p += l;
		return 1;
	}
	return 0;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
		else return -1;
	}
	*out = v;
	return 0;
}

static char *pstring(struct parser *ps)
{
	struct sink s = { 0 };
	ps->p++; /* opening quote */
	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;
		if (c < 0x20) {
			perr(ps, "control character in string");
			goto fail;
		}
		if (c != '\\') {
			put(&s, ps->p++, 1);
			continue;
		}
		if (ps->end - ps->p < 2) {
			perr(ps, "unterminated escape");
			goto fail;
		}
		ps->p++;
		switch (*ps->p) {
		case '"': put(&s, "\"", 1); break;
		case '\\': put(&s, "\\", 1); break;
		case '/': put(&s, "/", 1); break;
		case 'b': put(&s, "\b", 1); break;
		case 'f': put(&s, "\f", 1); break;
		case 'n': put(&s, "\n", 1); break;
		case 'r': put(&s, "\r", 1); break;
		case 't': put(&s, "\t", 1); break;
		case 'u': {
			unsigned cp, lo;
			char u[4];
			int n;
			if (ps->end - ps->p < 5 || hex4(ps->p + 1, &cp)) {
				perr(ps, "bad \\u escape");
				goto fail;
			}
			ps->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (ps->end - ps->p < 7 || ps->p[1] != '\\' || ps->p[2] != 'u' ||
				    hex4(ps->p + 3, &lo) || lo < 0xdc00 || lo > 0xdfff) {
					perr(ps, "unpaired surrogate in \\u escape");
					goto fail;
				}
				ps->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				perr(ps, "unpaired surrogate in \\u escape");
				goto fail;
			}
			if (cp == 0) {
				perr(ps, "\\u0000 in string");
				goto fail;
			}
			if (cp < 0x80) { u[0] = (char)cp; n = 1; }
			else if (cp < 0x800) { u[0] = (char)(0xc0 | cp >> 6); u[1] = (char)(0x80 | (cp & 63)); n = 2; }
			else if (cp < 0x10000) { u[0] = (char)(0xe0 | cp >> 12); u[1] = (char)(0x80 | ((cp >> 6) & 63)); u[2] = (char)(0x80 | (cp & 63)); n = 3; }
			else { u[0] = (char)(0xf0 | cp >> 18); u[1] = (char)(0x80 | ((cp >> 12) & 63)); u[2] = (char)(0x80 | ((cp >> 6) & 63)); u[3] = (char)(0x80 | (cp & 63)); n = 4; }
			put(&s, u, (size_t)n);
			break;
		}
		default:
			perr(ps, "bad escape in string");
			goto fail;
		}
		ps->p++;
	}
	if (ps->p >= ps->end) {
		perr(ps, "unterminated string");
		goto fail;
	}
	ps->p++;
	if (!s.buf)
		return xstrndup("", 0);
	return s.buf;
fail:
	free(s.buf);
	return NULL;
}

static struct json *pvalue(struct parser *ps, int depth);

static struct json *pnumber(struct parser *ps)
{
	char buf[64];
	const char *q = ps->p;
	size_t l;
	char *end;
	struct json *j;
	if (q < ps->end && *q == '-')
		q++;
	if (q >= ps->end || *q < '0' || *q > '9') {
		perr(ps, "expected a value");
		return NULL;
	}
	if (*q == '0' && q + 1 < ps->end && q[1] >= '0' && q[1] <= '9') {
		perr(ps, "leading zero in number");
		return NULL;
	}
	while (q < ps->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
			       *q == '+' || *q == '-'))
		q++;
	l = (size_t)(q - ps->p);
	if (l >= sizeof buf) {
		perr(ps, "number too long");
		return NULL;
	}
	memcpy(buf, ps->p, l);
	buf[l] = 0;
	j = node(J_NUM);
	j->num = strtod(buf, &end);
	if (*end || buf[l - 1] == '.' || strstr(buf, ".e") || strstr(buf, ".E")) {
		perr(ps, "malformed number");
		free(j);
		return NULL;
	}
	j->is_int = !strpbrk(buf, ".eE");
	ps->p = q;
	return j;
}

static struct json *pcontainer(struct parser *ps, int depth, int obj)
{
	struct json *j = node(obj ? J_OBJ : J_ARR);
	char close = obj ? '}' : ']';
	ps->p++;
	ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return j;
	}
	for (;;) {
		char *key = NULL;
		struct json *v;
		ws(ps);
		if (obj) {
			if (ps->p >= ps->end || *ps->p != '"') {
				perr(ps, "expected a member name in quotes");
				goto fail;
			}
			if (!(key = pstring(ps)))
				goto fail;
			ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				perr(ps, "expected ':'");
				goto fail;
			}
			ps->p++;
		}
		v = pvalue(ps, depth + 1);
		if (!v) {
			free(key);
			goto fail;
		}
		v->key = key;
		json_push(j, v);
		ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return j;
		}
		perr(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		goto fail;
	}
fail:
	json_free(j);
	return NULL;
}

static struct json *pvalue(struct parser *ps, int depth)
{
	if (depth > JSON_MAX_DEPTH) {
		perr(ps, "nested too deeply");
		return NULL;
	}
	ws(ps);
	if (ps->p >= ps->end) {
		perr(ps, "unexpected end of input");
		return NULL;
	}
	switch (*ps->p) {
	case '{': return pcontainer(ps, depth, 1);
	case '[': return pcontainer(ps, depth, 0);
	case '"': {
		char *s = pstring(ps);
		struct json *j;
		if (!s)
			return NULL;
		j = node(J_STR);
		j->str = s;
		return j;
	}
	default:
		if (lit(ps, "true")) return json_bool(1);
		if (lit(ps, "false")) return json_bool(0);
		if (lit(ps, "null")) return json_null();
		return pnumber(ps);
	}
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = { text, text, text + len, err, errlen, 0 };
	struct json *j = pvalue(&ps, 0);
	if (!j)
		return NULL;
	ws(&ps);
	if (ps.p != ps.end) {
		perr(&ps, "trailing characters after the document");
		json_free(j);
		return NULL;
	}
	return j;
}

struct json *json_copy(const struct json *j)
{
	struct json *c;
	switch (j->type) {
	case J_NULL: c = json_null(); break;
	case J_BOOL: c = json_bool(j->b); break;
	case J_NUM: c = j->is_int ? json_int((long long)j->num) : json_num(j->num); break;
	case J_STR: c = json_str(j->str); break;
	case J_ARR: c = json_arr(); break;
	default: c = json_obj(); break;
	}
	for (const struct json *k = j->child; k; k = k->next) {
		if (j->type == J_OBJ)
			json_add(c, k->key, json_copy(k));
		else
			json_push(c, json_copy(k));
	}
	return c;
}
