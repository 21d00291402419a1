#include "opt.h"
#include "msg.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- fio's arithmetic in values: "(expr)" ----
 * As fio's parser (exp/expression-parser.y and .l) reads it: numbers (integers, decimals,
 * 1e3, 0x1f), + - * / % ^, unary minus, parentheses, and unit suffixes with their own
 * precedence (between + - and * /: "1+2k" is 2049, "6/3k" is 2048); an integer and a
 * decimal operand give what fio's rules give (a value keeps the left operand's kind, a
 * suffix on a decimal truncates it first: "(1.5k)" is 1024, as in fio).  Anything after
 * '#', ':' or ',' is ignored, as fio's lexer does. */
struct xv {
	long long i;
	double d;
	int hasd;
};
struct xp {
	const char *s;
	int is_time, units, err;
	int depth;              /* parentheses and minus signs open: at most 64 */
};
enum { BP_ADD = 10, BP_SUFFIX = 20, BP_MUL = 30, BP_POW = 40, BP_MOD = 50, BP_NEG = 60 };

static void x_space(struct xp *e)
{
	e->s += strspn(e->s, " \t");
	if (*e->s == '#' || *e->s == ':' || *e->s == ',')
		e->s += strlen(e->s);
}

/* the unit at e->s (fio's lexer: the longest match, any case); its length, 0 if none */
static size_t x_suffix(const struct xp *e, struct xv *v)
{
	static const struct { const char *w; long long i; double d; int hasd; } tab[] = {
		{ "msec", 1000, 1000, 1 }, { "usec", 1, 1, 1 }, { "nsec", 0, 0.001, 1 }, { "sec", 1000000, 1e6, 0 },
		{ "kib", 1000, 1000, 0 }, { "mib", 1000000, 1e6, 0 }, { "gib", 1000000000, 1e9, 0 },
		{ "pib", 1000000000000ll, 1e12, 0 }, { "kb", 1024, 1024, 0 }, { "mb", 1 << 20, 1 << 20, 0 },
		{ "gb", 1 << 30, 1 << 30, 0 }, { "tb", 1ll << 40, 1099511627776.0, 0 },
		{ "pb", 1ll << 50, 1125899906842624.0, 0 }, { "ms", 1000, 1000, 1 }, { "us", 1, 1, 1 },
		{ "ns", 0, 0.001, 1 }, { "k", 1024, 1024, 0 }, { "g", 1 << 30, 1 << 30, 0 },
		{ "t", 1ll << 40, 1099511627776.0, 0 }, { "p", 1ll << 50, 1125899906842624.0, 0 },
		{ "s", 1000000, 1e6, 0 }, { "d", 86400000000ll, 86400e6, 0 }, { "h", 3600000000ll, 3600e6, 0 },
	};
	for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
		size_t l = strlen(tab[k].w);
		if (!strncasecmp(e->s, tab[k].w, l)) {
			*v = (struct xv){ tab[k].i, tab[k].d, tab[k].hasd };
			return l;
		}
	}
	if (*e->s == 'm' || *e->s == 'M') {      /* minutes in a time, else MiB */
		*v = e->is_time ? (struct xv){ 60000000, 60e6, 0 } : (struct xv){ 1 << 20, 1 << 20, 0 };
		return 1;
	}
	return 0;
}

static struct xv x_parse(struct xp *e, int rbp);
static long long x_ll(struct xp *e, double d);

static struct xv x_primary(struct xp *e)
{
	struct xv v = { 0, 0, 0 };
	const char *s;
	char *end;
	x_space(e);
	s = e->s;
	if ((*s == '-' || *s == '(') && ++e->depth > 64) {
		e->err = 1;
		return v;
	}
	if (*s == '-') {
		e->s++;
		v = x_parse(e, BP_NEG);
		e->depth--;
		if (v.i == LLONG_MIN)
			e->err = 1;
		return (struct xv){ v.i == LLONG_MIN ? 0 : -v.i, -v.d, v.hasd };
	}
	if (*s == '(') {
		e->s++;
		v = x_parse(e, 0);
		e->depth--;
		x_space(e);
		if (*e->s == ')')
			e->s++;
		else
			e->err = 1;
		return v;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
		v.i = strtoll(s + 2, &end, 16);
		v.d = (double)v.i;
	} else if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
		size_t dig = strspn(s, "0123456789");
		if (s[dig] == '.' && !isdigit((unsigned char)s[dig + 1])) {
			e->err = 1;      /* fio's lexer: digits after the point */
			return v;
		}
		if (s[dig] == '.' || s[dig] == 'e' || s[dig] == 'E') {
			v.d = strtod(s, &end);   /* 1.5, .5, 1e3: a decimal */
			v.i = x_ll(e, v.d);
			v.hasd = 1;
		} else {
			v.i = strtoll(s, &end, 10);
			v.d = (double)v.i;
		}
	} else {
		e->err = 1;
		return v;
	}
	if (errno == ERANGE || end == s)
		e->err = 1;
	e->s = end;
	return v;
}

/* a value outside long long is refused, never wrapped */
static long long x_ll(struct xp *e, double d)
{
	if (!(d > -9.2e18 && d < 9.2e18)) {
		e->err = 1;
		return 0;
	}
	return (long long)d;
}

static struct xv x_op(struct xp *e, struct xv l, char op, struct xv r)
{
	struct xv v = l;       /* fio's: the result keeps the left operand's kind */
	int dec = l.hasd || r.hasd, over = 0;
	switch (op) {
	case '+':
		v.d = l.d + r.d;
		if (dec)
			v.i = x_ll(e, v.d);
		else
			over = __builtin_add_overflow(l.i, r.i, &v.i);
		break;
	case '-':
		v.d = l.d - r.d;
		if (dec)
			v.i = x_ll(e, v.d);
		else
			over = __builtin_sub_overflow(l.i, r.i, &v.i);
		break;
	case '*':
		v.d = l.d * r.d;
		if (dec)
			v.i = x_ll(e, v.d);
		else
			over = __builtin_mul_overflow(l.i, r.i, &v.i);
		break;
	case '/':
		if ((r.d < 1e-20 && r.d > -1e-20) || (!dec && !r.i)) {
			e->err = 1;        /* fio prints "divide by zero" and goes on: refused here */
			break;
		}
		v.d = l.d / r.d;
		if (dec)
			v.i = x_ll(e, v.d);
		else if (r.i == -1 && l.i == LLONG_MIN)
			over = 1;
		else
			v.i = l.i / r.i;
		break;
	case '%':
		if (!r.i || (r.i == -1 && l.i == LLONG_MIN)) {
			e->err = 1;
			break;
		}
		v.i = l.i % r.i;
		v.d = (double)v.i;
		break;
	case '^':
		v.d = pow(l.d, r.d);
		if (dec || r.i < 0) {
			v.i = x_ll(e, v.d);
		} else {
			long long p = 1;
			if (l.i == 0 || l.i == 1)
				p = r.i ? l.i : 1;
			else if (l.i == -1)
				p = r.i & 1 ? -1 : 1;
			else   /* |l| >= 2: past 63 steps it has overflowed */
				for (long long k = 0; k < r.i && !over; k++)
					over = __builtin_mul_overflow(p, l.i, &p);
			v.i = p;
		}
		break;
	}
	if (over)
		e->err = 1;
	return v;
}

static struct xv x_parse(struct xp *e, int rbp)
{
	struct xv l = x_primary(e), u;
	for (;;) {
		size_t sl;
		int lbp;
		char op;
		x_space(e);
		if (e->err || !*e->s || *e->s == ')')
			return l;
		if ((sl = x_suffix(e, &u))) {
			if (BP_SUFFIX <= rbp)
				return l;
			e->s += sl;
			e->units = 1;
			if (!l.hasd && !u.hasd) {
				if (__builtin_mul_overflow(l.i, u.i, &l.i))
					e->err = 1;
				l.d = (double)l.i;
			} else {
				l.i = x_ll(e, (double)x_ll(e, l.d) * u.d);
				l.d *= u.d;
			}
			continue;
		}
		op = *e->s;
		lbp = op == '+' || op == '-' ? BP_ADD : op == '*' || op == '/' ? BP_MUL : op == '^' ? BP_POW
			: op == '%' ? BP_MOD : -1;
		if (lbp < 0) {
			e->err = 1;
			return l;
		}
		if (lbp <= rbp)
			return l;
		e->s++;
		l = x_op(e, l, op, x_parse(e, op == '^' ? lbp - 1 : lbp));
	}
}

int fio_expr(const char *s, int kind, double *out)
{
	struct xp e = { s, kind == FX_SECONDS || kind == FX_USEC, 0, 0, 0 };
	struct xv v;
	if (!s || *s != '(')
		return -1;
	errno = 0;
	v = x_parse(&e, 0);
	x_space(&e);
	if (e.err || *e.s)
		return -1;
	switch (kind) {
	case FX_FLOAT:
		*out = v.d;
		break;
	case FX_SECONDS:
		/* fio's: a bare number is seconds, a unit gives microseconds; whole seconds */
		*out = e.units ? (double)(v.i / 1000000) : (double)v.i;
		break;
	default:               /* bytes, a count, microseconds: the integer */
		*out = (double)v.i;
		break;
	}
	return isfinite(*out) ? 0 : -1;
}

int parse_int(const char *s, long long *out)
{
	char *end;
	long long v;
	if (s && *s == '(') {
		double x;
		if (fio_expr(s, FX_INT, &x) || fabs(x) > 9.2e18)
			return -1;
		*out = (long long)x;
		return 0;
	}
	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* a size: a number, then k, m, g, t or p (powers of base; with an i after it, of ibase:
 * *iec set), then an optional b */
static int size_in(const char *s, double base, double ibase, int *iec, unsigned long long *out)
{
	char *end;
	double v, mult = 1;
	const char *units = "kmgtp", *u;
	if (s && *s == '(') {   /* fio's arithmetic: bytes */
		if (fio_expr(s, FX_INT, &v) || v < 0 || v >= 18446744073709551615.0)
			return -1;
		*out = (unsigned long long)v;
		return 0;
	}
	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (*end && (u = strchr(units, tolower((unsigned char)*end)))) {
		end++;
		if (*end == 'i' || *end == 'I') {
			*iec = 1;
			base = ibase;
			end++;
		}
		for (int i = 0; i <= u - units; i++)
			mult *= base;
		if (*end == 'b' || *end == 'B')
			end++;
	} else if (*end == 'b' || *end == 'B') {
		end++;
	}
	if (*end)
		return -1;
	v *= mult;
	if (v >= 18446744073709551615.0 || v != floor(v))
		return -1;
	*out = (unsigned long long)v;
	return 0;
}

/* 4096, 4k, 4K, 4KiB, 4kb, 1m, 1.5g: multiples of 1024 */
int parse_size(const char *s, unsigned long long *out)
{
	int iec = 0;
	return size_in(s, 1024, 1024, &iec, out);
}

int parse_size_fio(const char *s, const struct opt_ctx *ctx, unsigned long long *out)
{
	int iec = 0, k1000 = ctx && ctx->kb_base == 1000;
	if (size_in(s, k1000 ? 1000 : 1024, k1000 ? 1024 : 1000, &iec, out))
		return -1;
	if (iec && !k1000 && ctx && ctx->iec_seen && !ctx->iec_seen[0])
		snprintf(ctx->iec_seen, ctx->iec_n, "%s", s);
	return 0;
}

/* seconds by default; us ms s m h d suffixes */
int parse_time(const char *s, double *out)
{
	static const struct { const char *suf; double mult; } tab[] = {
		{ "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 }, { "sec", 1 }, { "m", 60 },
		{ "min", 60 }, { "h", 3600 }, { "d", 86400 }, { "", 1 },
	};
	char *end;
	double v;
	if (s && *s == '(')    /* fio's arithmetic: seconds, as fio reads a seconds option */
		return fio_expr(s, FX_SECONDS, out) || *out < 0 ? -1 : 0;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcasecmp(end, tab[i].suf)) {
			*out = v * tab[i].mult;
			return 0;
		}
	return -1;
}

int parse_bool(const char *s, int *out)
{
	static const char *yes[] = { "1", "yes", "true", "on", "y" };
	static const char *no[] = { "0", "no", "false", "off", "n" };
	for (size_t i = 0; i < 5; i++) {
		if (!strcasecmp(s, yes[i]))
			return *out = 1, 0;
		if (!strcasecmp(s, no[i]))
			return *out = 0, 0;
	}
	return -1;
}

const struct opt *opt_find(const struct opt *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

static const struct opt *opt_find_short(const struct opt *tab, char c)
{
	for (; tab->name; tab++)
		if (tab->alias == c)
			return tab;
	return NULL;
}

/* index of word in "a|b|c", -1 if absent */
static int choice_index(const char *choices, const char *word)
{
	size_t wl = strlen(word);
	int i = 0;
	for (const char *p = choices; p && *p; i++) {
		const char *bar = strchr(p, '|');
		size_t l = bar ? (size_t)(bar - p) : strlen(p);
		if (l == wl && !strncmp(p, word, l))
			return i;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

/* "all=0,auto=-1": value of a named word, 0 when found */
static int named_int(const char *choices, const char *word, long long *out)
{
	size_t wl = strlen(word);
	for (const char *p = choices; p && *p;) {
		const char *eq = strchr(p, '=');
		const char *comma = strchr(p, ',');
		if (!eq)
			break;
		if ((size_t)(eq - p) == wl && !strncmp(p, word, wl)) {
			char num[32];
			size_t l = comma ? (size_t)(comma - eq - 1) : strlen(eq + 1);
			if (l >= sizeof num)
				return -1;
			memcpy(num, eq + 1, l);
			num[l] = 0;
			return parse_int(num, out);
		}
		p = comma ? comma + 1 : NULL;
	}
	return -1;
}

static void fmt_num(char *buf, size_t n, enum opt_type t, double v)
{
	if (t == OPT_SIZE || t == OPT_SIZES) {
		static const char *suf[] = { "", "k", "m", "g", "t", "p" };
		int i = 0;
		while (v >= 1024 && fmod(v, 1024) == 0 && i < 5)
			v /= 1024, i++;
		snprintf(buf, n, "%.0f%s", v, suf[i]);
	} else if (t == OPT_TIME) {
		if (v < 1e-3)
			snprintf(buf, n, "%gus", v * 1e6);
		else if (v < 1)
			snprintf(buf, n, "%gms", v * 1e3);
		else
			snprintf(buf, n, "%gs", v);
	} else {
		snprintf(buf, n, "%g", v);
	}
}

void opt_accepts(const struct opt *o, char *buf, size_t n)
{
	char lo[32], hi[32], range[80] = "";
	if (o->max > o->min) {
		fmt_num(lo, sizeof lo, o->type, o->min);
		fmt_num(hi, sizeof hi, o->type, o->max);
		snprintf(range, sizeof range, " from %s to %s", lo, hi);
	}
	switch (o->type) {
	case OPT_BOOL:
		snprintf(buf, n, "1/0, yes/no, true/false, on/off");
		break;
	case OPT_INT:
		snprintf(buf, n, "an integer%s%s%s", range, o->choices ? " or " : "",
			 o->choices ? o->choices : "");
		break;
	case OPT_SIZE:
		snprintf(buf, n, "a size in bytes with optional k/m/g/t suffix%s%s", range,
			 o->flags & OPT_ZONES ? ", or a number of zones (4z)" : "");
		break;
	case OPT_SIZES:
		snprintf(buf, n, "a size in bytes with optional k/m/g/t suffix%s, or reads,writes[,trims] "
			 "(4k,64k)", range);
		break;
	case OPT_TIME:
		snprintf(buf, n, "a duration in seconds or with us/ms/s/m/h suffix%s", range);
		break;
	case OPT_FLOAT:
		snprintf(buf, n, "a number%s", range);
		break;
	case OPT_ENUM:
		snprintf(buf, n, "%s %s", o->flags & OPT_LIST ? "one or more (a,b) of" : "one of", o->choices);
		break;
	case OPT_STR:
		snprintf(buf, n, "%s", o->choices ? o->choices : "any text");
		break;
	case OPT_CB:   /* its reader says what it takes when asked with no value */
		if (o->choices || o->cb(o, NULL, NULL, NULL, buf, n))
			snprintf(buf, n, "%s", o->choices ? o->choices : "any text");
		break;
	case OPT_ALIAS:
		snprintf(buf, n, strchr(o->choices, '=') ? "no value (means --%s)" : "what --%s accepts", o->choices);
		break;
	}
}

int opt_dir_part(const char *v, int d, const char **p, size_t *l)
{
	const char *start = v, *comma;
	int ncomma = 0;
	for (const char *c = v; *c; c++)
		ncomma += *c == ',';
	if (ncomma > 2)
		return -1;
	for (int k = 0; k < d && (comma = strchr(start, ',')); k++)
		start = comma + 1;
	comma = strchr(start, ',');
	*p = start;
	*l = comma ? (size_t)(comma - start) : strlen(start);
	return 0;
}

static int bad(const struct opt *o, const char *val, const char *why, char *err, size_t n)
{
	char acc[256];
	opt_accepts(o, acc, sizeof acc);
	snprintf(err, n, "%s=%s: %s; accepted: %s", o->name, val ? val : "", why, acc);
	return OPT_EVALUE;
}

/* the size in s[0..l) of option o's value val, in o's range */
static int one_size(const struct opt *o, const char *val, const char *s, size_t l, unsigned long long *v,
		    const struct opt_ctx *ctx, char *err, size_t errlen)
{
	char b[64];
	if (l >= sizeof b)
		return bad(o, val, "not a size", err, errlen);
	memcpy(b, s, l);
	b[l] = 0;
	if ((o->flags & OPT_FIOUNITS) ? parse_size_fio(b, ctx, v) : parse_size(b, v))
		return bad(o, val, "not a size", err, errlen);
	if (o->max > o->min && ((double)*v < o->min || (double)*v > o->max))
		return bad(o, val, "out of range", err, errlen);
	return OPT_OK;
}

static int opt_set_given(const struct opt *tab, void *cfg, const char *name, const char *val,
			 const struct opt_ctx *ctx, char *err, size_t errlen, unsigned char *given);

int opt_set(const struct opt *tab, void *cfg, const char *name, const char *val,
	    char *err, size_t errlen)
{
	return opt_set_given(tab, cfg, name, val, NULL, err, errlen, NULL);
}

int opt_was_given(const struct opt *tab, const unsigned char *given, const char *name)
{
	const struct opt *o = opt_find(tab, name);
	return o && (size_t)(o - tab) < OPT_MAX_ENTRIES && given[o - tab];
}

unsigned edits(const char *a, const char *b)
{
	unsigned row[128], la = (unsigned)strnlen(a, 127), lb = (unsigned)strnlen(b, 127);
	for (unsigned j = 0; j <= lb; j++)
		row[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* "NAME: unknown option; accepted: a b c" while the whole list fits in err; a longer
 * list is not cut short but replaced by the nearest names ("did you mean") */
static void unknown(const struct opt *tab, const char *name, char *err, size_t errlen)
{
	size_t l = (size_t)snprintf(err, errlen, "%s: unknown option; accepted:", name), want = l;
	unsigned best = 3, n = 0;
	for (const struct opt *t = tab; t->name; t++)
		if (!(t->flags & OPT_HIDDEN)) {
			want += 1 + strlen(t->name);
			n++;
		}
	if (want < errlen) {
		for (const struct opt *t = tab; t->name; t++)
			if (!(t->flags & OPT_HIDDEN))
				l += (size_t)snprintf(err + l, errlen - l, " %s", t->name);
		return;
	}
	for (const struct opt *t = tab; t->name; t++) {   /* hidden ones too: fio's names */
		unsigned d = edits(name, t->name);
		if (d < best)
			best = d;
	}
	l = (size_t)snprintf(err, errlen, "%s: unknown option", name);
	const char *sep = "; did you mean ";
	for (const struct opt *t = tab; best < 3 && t->name && l < errlen; t++)
		if (edits(name, t->name) == best) {
			l += (size_t)snprintf(err + l, errlen - l, "%s%s", sep, t->name);
			sep = " or ";
		}
	if (l < errlen)
		snprintf(err + l, errlen - l, best < 3 ? "? (%u options: see --help)" : "; %u options: see --help", n);
}

static int opt_set_given(const struct opt *tab, void *cfg, const char *name, const char *val,
			 const struct opt_ctx *ctx, char *err, size_t errlen, unsigned char *given)
{
	const struct opt *o = opt_find(tab, name);
	char *p;
	if (!o) {
		unknown(tab, name, err, errlen);
		return OPT_EUNKNOWN;
	}
	p = (char *)cfg + o->off;
	if (o->type == OPT_ALIAS) {
		char n2[64];
		const char *eq = strchr(o->choices, '=');
		if (!eq)   /* another name of that option */
			return opt_set_given(tab, cfg, o->choices, val, ctx, err, errlen, given);
		if (val && *val)
			return bad(o, val, "takes no value", err, errlen);
		snprintf(n2, sizeof n2, "%.*s", (int)(eq - o->choices), o->choices);
		return opt_set_given(tab, cfg, n2, eq + 1, ctx, err, errlen, given);
	}
	if (given && (size_t)(o - tab) < OPT_MAX_ENTRIES)
		given[o - tab] = 1;
	if (!val)
		return bad(o, val, "missing value", err, errlen);
	switch (o->type) {
	case OPT_BOOL: {
		int b;
		if (parse_bool(val, &b))
			return bad(o, val, "not a yes/no value", err, errlen);
		*(int *)p = b;
		break;
	}
	case OPT_INT: {
		long long v;
		if (!named_int(o->choices, val, &v)) {
			*(long long *)p = v;
			break;
		}
		if (parse_int(val, &v))
			return bad(o, val, "not an integer", err, errlen);
		if (o->max > o->min && (v < o->min || v > o->max))
			return bad(o, val, "out of range", err, errlen);
		*(long long *)p = v;
		break;
	}
	case OPT_SIZE: {
		unsigned long long v;
		size_t l = strlen(val);
		int r;
		if ((o->flags & OPT_ZONES) && l > 1 && val[l - 1] == 'z') {
			/* fio's zone count, in bytes once the zones are known */
			char *e;
			errno = 0;
			v = strtoull(val, &e, 10);
			if (!isdigit((unsigned char)*val) || errno || e != val + l - 1 || v > 0xffffffffull)
				return bad(o, val, "not a number of zones", err, errlen);
			*(unsigned long long *)p = OPT_ZONE_COUNT | v;
			break;
		}
		r = one_size(o, val, val, l, &v, ctx, err, errlen);
		if (r)
			return r;
		*(unsigned long long *)p = v;
		break;
	}
	case OPT_SIZES: {
		/* fio's "a" for all; "a,b" reads and writes (trims: as writes); "a,b,c" reads, writes,
		 * trims; an empty part keeps its value */
		unsigned long long v[3];
		const char *part;
		size_t len;
		int any = 0;
		memcpy(v, p, sizeof v);
		if (opt_dir_part(val, 0, &part, &len))
			return bad(o, val, "more than reads,writes,trims", err, errlen);
		for (int k = 0; k < 3; k++) {
			int r;
			opt_dir_part(val, k, &part, &len);
			if (!len)
				continue;      /* an empty part keeps its value */
			any = 1;
			if ((r = one_size(o, val, part, len, &v[k], ctx, err, errlen)))
				return r;
		}
		if (!any)
			return bad(o, val, "not a size", err, errlen);
		memcpy(p, v, sizeof v);
		break;
	}
	case OPT_TIME: {
		double v;
		if (parse_time(val, &v))
			return bad(o, val, "not a duration", err, errlen);
		if (o->max > o->min && (v < o->min || v > o->max))
			return bad(o, val, "out of range", err, errlen);
		*(double *)p = v;
		break;
	}
	case OPT_FLOAT: {
		char *end = (char *)"";
		double v = 0;
		errno = 0;
		if (*val == '(' ? fio_expr(val, FX_FLOAT, &v) : ((v = strtod(val, &end)), errno || end == val || *end ||
								  !isfinite(v)))
			return bad(o, val, "not a number", err, errlen);
		if (o->max > o->min && (v < o->min || v > o->max))
			return bad(o, val, "out of range", err, errlen);
		*(double *)p = v;
		break;
	}
	case OPT_ENUM: {
		int i, mask = 0;
		if (!(o->flags & OPT_LIST)) {
			if ((i = choice_index(o->choices, val)) < 0)
				return bad(o, val, "unknown value", err, errlen);
			*(int *)p = i;
			break;
		}
		for (const char *w = val;; w++) {    /* "a,b": each item a choice */
			char item[64];
			size_t l = strcspn(w, ",");
			if (!l || l >= sizeof item)
				return bad(o, val, !l ? "an empty item" : "unknown value", err, errlen);
			memcpy(item, w, l);
			item[l] = 0;
			if ((i = choice_index(o->choices, item)) < 0 || i > 30)
				return bad(o, val, "unknown value", err, errlen);
			mask |= 1 << i;
			if (!w[l])
				break;
			w += l;
		}
		*(int *)p = mask;
		break;
	}
	case OPT_STR:
		*(const char **)p = val;
		break;
	case OPT_CB:
		if (o->cb(o, p, val, ctx, err, errlen))
			return OPT_EVALUE;
		break;
	case OPT_ALIAS:
		break;
	}
	return OPT_OK;
}

void opt_defaults(const struct opt *tab, void *cfg)
{
	char err[512];
	/* (opt_set's context: a default is a number of bytes, whatever kb_base says, as fio's) */
	for (const struct opt *o = tab; o->name; o++) {
		if (o->type == OPT_ALIAS)
			continue;
		if (!o->def) {
			char *p = (char *)cfg + o->off;
			switch (o->type) {
			case OPT_BOOL: case OPT_ENUM: *(int *)p = 0; break;
			case OPT_INT: *(long long *)p = 0; break;
			case OPT_SIZE: *(unsigned long long *)p = 0; break;
			case OPT_SIZES: memset(p, 0, 3 * sizeof(unsigned long long)); break;
			case OPT_TIME: case OPT_FLOAT: *(double *)p = 0; break;
			case OPT_STR: *(const char **)p = NULL; break;
			case OPT_CB: case OPT_ALIAS: break;   /* (the config starts zeroed) */
			}
			continue;
		}
		if (opt_set(tab, cfg, o->name, o->def, err, sizeof err))
			die(EXIT_SYS, "internal: bad default %s", err);
	}
}

/* the long option body names (up to '='), as given or with '_' and '-' swapped (fio
 * and sysbench spell some options either way); its name goes to name */
static const struct opt *long_opt(const struct opt *tab, const char *body, char *name, size_t n)
{
	const char *eq = strchr(body, '=');
	size_t l = eq ? (size_t)(eq - body) : strlen(body);
	const struct opt *o;
	if (l >= n)
		return NULL;
	memcpy(name, body, l);
	name[l] = 0;
	if ((o = opt_find(tab, name)))
		return o;
	for (char *c = name; *c; c++)
		*c = *c == '_' ? '-' : *c == '-' ? '_' : *c;
	if ((o = opt_find(tab, name)))
		return o;
	memcpy(name, body, l);
	return NULL;
}

const char *opt_prefix;
/* "NAME: " before a message, when there is a name */
#define P(name) (name) ? (name) : "", (name) ? ": " : ""

int opt_parse(const struct opt *tab, void *cfg, int argc, char **argv,
	      char **pos, int *npos, int maxpos)
{
	return opt_parse_given(tab, cfg, argc, argv, pos, npos, maxpos, NULL);
}

int opt_parse_given(const struct opt *tab, void *cfg, int argc, char **argv,
		    char **pos, int *npos, int maxpos, unsigned char *given)
{
	return opt_parse_ctx(tab, cfg, argc, argv, pos, npos, maxpos, given, NULL);
}

/* OPT_BASE: the base the words' sizes are read under, from the last such option among
 * them (--kb_base=1000, -kb_base 1000), before any is read; one that does not parse is
 * left for the words' own reading to refuse */
static void words_base(const struct opt *tab, int argc, char **argv, struct opt_ctx *ctx)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i], *body = a + (a[0] == '-' ? 1 + (a[1] == '-') : 0), *val, *c;
		char name[128];
		const struct opt *o;
		if (body == a || !(o = long_opt(tab, body, name, sizeof name)) || !(o->flags & OPT_BASE))
			continue;
		val = strchr(body, '=') ? strchr(body, '=') + 1 : i + 1 < argc ? argv[++i] : "";
		for (c = o->choices; c && *c; c += strcspn(c, "|") + (c[strcspn(c, "|")] == '|'))
			if (strlen(val) == strcspn(c, "|") && !strncmp(c, val, strlen(val)))
				ctx->kb_base = atoi(c);
	}
}

int opt_parse_ctx(const struct opt *tab, void *cfg, int argc, char **argv, char **pos, int *npos, int maxpos,
		  unsigned char *given, struct opt_ctx *ctx)
{
	char err[1024];
	int np = 0, only_pos = 0;
	struct opt_ctx own = { 1024, NULL, 0 };
	if (!ctx)
		ctx = &own;
	if (!ctx->kb_base)
		ctx->kb_base = 1024;
	words_base(tab, argc, argv, ctx);
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		const struct opt *o = NULL;
		char name[128];
		const char *val = NULL;
		int r;
		if (only_pos || a[0] != '-' || !a[1]) {
			if (np >= maxpos) {
				errmsg("%s%sunexpected argument '%s'", P(opt_prefix), a);
				return -1;
			}
			pos[np++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		/* --name, or fio's -name (getopt_long_only: a word after one dash is a long
		 * option when it names one, else short options) */
		if (a[1] == '-' || (a[2] && long_opt(tab, a + 1, name, sizeof name))) {
			const char *body = a + (a[1] == '-' ? 2 : 1), *eq = strchr(body, '=');
			size_t l = eq ? (size_t)(eq - body) : strlen(body);
			if (l >= sizeof name) {
				errmsg("%s%s%.40s...: unknown option", P(opt_prefix), a);
				return -1;
			}
			o = long_opt(tab, body, name, sizeof name);
			if (!o) {
				memcpy(name, body, l);
				name[l] = 0;
			}
			if (eq)
				val = eq + 1;
		} else {
			o = opt_find_short(tab, a[1]);
			if (!o && a[2]) {
				errmsg("%s%s%.60s: unknown option, long or short (see --help)", P(opt_prefix), a);
				return -1;
			}
			if (!o) {
				errmsg("%s%s-%c: unknown option (see --help)", P(opt_prefix), a[1]);
				return -1;
			}
			snprintf(name, sizeof name, "%s", o->name);
			if (a[2])
				val = a + 2;
		}
		if (!o)
			o = opt_find(tab, name);
		if (o && !val) {
			if ((o->type == OPT_ALIAS && strchr(o->choices, '=')) || (o->flags & OPT_NOARG))
				val = o->type == OPT_BOOL ? "1" : NULL;
			else if (o->flags & OPT_OPTARG)
				val = "";
			else if (o->type == OPT_BOOL)
				val = (i + 1 < argc && !parse_bool(argv[i + 1], &r)) ? argv[++i] : "1";
			else if (i + 1 < argc)
				val = argv[++i];
		}
		r = opt_set_given(tab, cfg, name, val, ctx, err, sizeof err, given);
		if (r) {
			errmsg("%s%s--%s", P(opt_prefix), err);
			return -1;
		}
	}
	if (npos)
		*npos = np;
	return 0;
}

static void help_line(const struct opt *o, FILE *f)
{
	char left[64], acc[256], def[96] = "";
	if (o->alias)
		snprintf(left, sizeof left, "-%c, --%s", o->alias, o->name);
	else
		snprintf(left, sizeof left, "    --%s", o->name);
	acc[0] = 0;
	if (o->type == OPT_ENUM)
		snprintf(acc, sizeof acc, " (%s)", o->choices);
	else if (o->type == OPT_CB && !o->choices) {
		char what[200];
		if (!o->cb(o, NULL, NULL, NULL, what, sizeof what) && !strncmp(what, "one of ", 7))
			snprintf(acc, sizeof acc, " (%s)", what + 7);
	}
	if (o->def && *o->def)
		snprintf(def, sizeof def, " [%s]", o->def);
	fprintf(f, "  %-24s %s%s%s\n", left, o->help ? o->help : "", acc, def);
}

void opt_help(const struct opt *tab, FILE *f)
{
	for (const struct opt *o = tab; o->name; o++)
		if (!(o->flags & OPT_HIDDEN))
			help_line(o, f);
}

int opt_help_one(const struct opt *tab, const char *name, FILE *f)
{
	const struct opt *o = opt_find(tab, name);
	char acc[256];
	if (!o)
		return -1;
	help_line(o, f);
	if (o->type == OPT_ALIAS)
		return 0;
	opt_accepts(o, acc, sizeof acc);
	fprintf(f, "  %-24s accepts %s\n", "", acc);
	return 0;
}

int opt_cmdline_each(char *s, const char *prefix,
		     void (*fn)(const char *key, const char *val, void *arg), void *arg)
{
	size_t pl = strlen(prefix);
	int n = 0;
	while (*s) {
		char *word, *w;
		int q = 0;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		/* a word ends at unquoted space; quotes are removed (as the kernel does) */
		word = w = s;
		for (; *s && (q || !isspace((unsigned char)*s)); s++) {
			if (*s == '"')
				q = !q;
			else
				*w++ = *s;
		}
		if (*s)
			s++;
		*w = 0;
		if (!strncmp(word, prefix, pl)) {
			char *key = word + pl, *eq = strchr(key, '=');
			if (eq)
				*eq = 0;
			fn(key, eq ? eq + 1 : NULL, arg);
			n++;
		}
	}
	return n;
}

int list_has(const char *list, const char *word)
{
	size_t l = strlen(word);
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t pl = comma ? (size_t)(comma - p) : strlen(p);
		if (pl == l && !strncmp(p, word, l))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* a table cell: '|' escaped, newlines as spaces */
static void md_cell(const char *s, FILE *f)
{
	for (; s && *s; s++)
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s == '\n' ? ' ' : *s, f);
}

void opt_markdown(const struct opt *tab, FILE *f)
{
	int hidden = 0;
	fprintf(f, "\n| option | accepts | default | what it does |\n|---|---|---|---|\n");
	for (const struct opt *o = tab; o->name; o++) {
		char acc[256];
		if (o->flags & OPT_HIDDEN) {
			hidden++;
			continue;
		}
		opt_accepts(o, acc, sizeof acc);
		fprintf(f, "| `--%s`", o->name);
		if (o->alias)
			fprintf(f, " (`-%c`)", o->alias);
		fputs(" | ", f);
		md_cell(acc, f);
		fputs(" | ", f);
		if (o->def && *o->def) {
			fputc('`', f);
			md_cell(o->def, f);
			fputc('`', f);
		}
		fputs(" | ", f);
		md_cell(o->help, f);
		fputs(" |\n", f);
	}
	if (!hidden)
		return;
	/* fio's other spellings and options accepted for a pasted line: named, one line */
	fprintf(f, "\nAlso accepted (other spellings, and options kept for pasted command lines):");
	for (const struct opt *o = tab; o->name; o++)
		if (o->flags & OPT_HIDDEN)
			fprintf(f, " `--%s`", o->name);
	fputc('\n', f);
}
