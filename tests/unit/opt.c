/* Option values as fio/sysbench users write them; bad ones are refused with a reason. */
#include "cli/command.h"
#include "opt.h"
#include "unit.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

struct cfg {
	int flag;
	long long n;
	unsigned long long size;
	double t;
	int mode;
	const char *s;
};

static const struct opt tab[] = {
	{ "flag", 'f', OPT_BOOL, offsetof(struct cfg, flag), "0", 0, 0, NULL, "a flag", 0 },
	{ "num", 'n', OPT_INT, offsetof(struct cfg, n), "4", 1, 64, "all=0", "a number", 0 },
	{ "bs", 0, OPT_SIZE, offsetof(struct cfg, size), "4k", 512, 1 << 26, NULL, "a size", 0 },
	{ "runtime", 0, OPT_TIME, offsetof(struct cfg, t), "10", 0, 3600, NULL, "a time", 0 },
	{ "rw", 0, OPT_ENUM, offsetof(struct cfg, mode), "read", 0, 0, "read|write|randread", "mode", 0 },
	{ "name", 0, OPT_STR, offsetof(struct cfg, s), NULL, 0, 0, NULL, "name", 0 },
	{ "fast", 0, OPT_ALIAS, 0, NULL, 0, 0, "rw=randread", "alias", OPT_NOARG },
	OPT_END,
};

struct seen { char keys[256]; };
static void each(const char *k, const char *v, void *arg)
{
	struct seen *s = arg;
	size_t l = strlen(s->keys);
	snprintf(s->keys + l, sizeof s->keys - l, "[%s=%s]", k, v ? v : "(none)");
}

int main(void)
{
	struct cfg c;
	unsigned long long sz;
	double t;
	char err[512];

	CHECK(!parse_size("4k", &sz) && sz == 4096, "4k");
	CHECK(!parse_size("1M", &sz) && sz == 1048576, "1M");
	CHECK(!parse_size("1GiB", &sz) && sz == 1073741824ull, "1GiB");
	/* fio's units: by default k is 1024 and Ki 1000 (as fio reads them); kb_base=1000 swaps */
	{
		char seen[64] = "";
		struct opt_ctx k1024 = { 1024, seen, sizeof seen }, k1000 = { 1000, seen, sizeof seen };
		CHECK(!parse_size_fio("4k", &k1024, &sz) && sz == 4096 && !parse_size_fio("4KiB", &k1024, &sz) &&
		      sz == 4000 && !parse_size_fio("4kB", &k1024, &sz) && sz == 4096 &&
		      !parse_size_fio("1GiB", &k1024, &sz) && sz == 1000000000ull, "fio units, kb_base 1024: %llu", sz);
		CHECK(!strcmp(seen, "4KiB"), "the first IEC size kept: %s", seen);
		CHECK(!parse_size_fio("4k", &k1000, &sz) && sz == 4000 && !parse_size_fio("4KiB", &k1000, &sz) &&
		      sz == 4096 && !parse_size_fio("2MB", &k1000, &sz) && sz == 2000000 &&
		      !parse_size_fio("1g", &k1000, &sz) && sz == 1000000000ull && !parse_size_fio("512", &k1000, &sz) &&
		      sz == 512, "fio units, kb_base 1000: %llu", sz);
		CHECK(parse_size_fio("1.5x", &k1000, &sz) && parse_size_fio("-1k", &k1000, &sz) &&
		      parse_size_fio("4kiX", &k1000, &sz), "bad fio sizes");
		CHECK(!parse_size_fio("4k", NULL, &sz) && sz == 4096, "no context: kb_base 1024");
	}
	CHECK(!parse_size("2g", &sz) && sz == 2147483648ull, "2g");
	CHECK(!parse_size("512", &sz) && sz == 512, "512");
	CHECK(!parse_size("1.5k", &sz) && sz == 1536, "1.5k");
	CHECK(parse_size("1.1", &sz), "fraction of a byte refused");
	CHECK(parse_size("-4k", &sz), "negative refused");
	CHECK(parse_size("4x", &sz), "bad suffix refused");
	CHECK(parse_size("", &sz), "empty refused");
	CHECK(!parse_time("10", &t) && t == 10, "10");
	CHECK(!parse_time("500ms", &t) && fabs(t - 0.5) < 1e-12, "500ms");
	CHECK(!parse_time("2m", &t) && t == 120, "2m");
	CHECK(!parse_time("250us", &t) && fabs(t - 250e-6) < 1e-12, "250us");
	CHECK(parse_time("abc", &t), "abc refused");
	CHECK(parse_time("5 s", &t), "'5 s' refused");

	opt_defaults(tab, &c);
	CHECK(c.n == 4 && c.size == 4096 && c.t == 10 && c.mode == 0 && !c.s && !c.flag, "defaults");
	{
		char *argv[] = { "--num=8", "--bs", "64k", "-f", "--rw=write", "pos1", "--name=x",
				 "--runtime=2m", "--", "--not-an-option" };
		char *pos[4];
		int np = 0;
		CHECK(!opt_parse(tab, &c, 10, argv, pos, &np, 4), "parse");
		CHECK(c.n == 8 && c.size == 65536 && c.flag == 1 && c.mode == 1 && c.t == 120 &&
		      c.s && !strcmp(c.s, "x"), "values");
		CHECK(np == 2 && !strcmp(pos[0], "pos1") && !strcmp(pos[1], "--not-an-option"), "positional");
	}
	CHECK(!opt_set(tab, &c, "num", "all", err, sizeof err) && c.n == 0, "named word");
	CHECK(!opt_set(tab, &c, "fast", NULL, err, sizeof err) && c.mode == 2, "alias");
	CHECK(opt_set(tab, &c, "num", "65", err, sizeof err) == OPT_EVALUE && strstr(err, "out of range") &&
	      strstr(err, "from 1 to 64"), "range: %s", err);
	CHECK(opt_set(tab, &c, "bs", "3x", err, sizeof err) == OPT_EVALUE && strstr(err, "bs=3x"), "bad size: %s", err);
	CHECK(opt_set(tab, &c, "rw", "sideways", err, sizeof err) == OPT_EVALUE &&
	      strstr(err, "read|write|randread"), "enum names choices: %s", err);
	CHECK(opt_set(tab, &c, "nope", "1", err, sizeof err) == OPT_EUNKNOWN && strstr(err, "accepted: flag num"),
	      "unknown lists accepted: %s", err);
	CHECK(opt_set(tab, &c, "flag", "maybe", err, sizeof err) == OPT_EVALUE, "bad bool");
	CHECK(opt_set(tab, &c, "runtime", NULL, err, sizeof err) == OPT_EVALUE && strstr(err, "missing"), "missing value");
	{
		char *argv[] = { "--bogus=1" };
		CHECK(opt_parse(tab, &c, 1, argv, NULL, NULL, 0) == -1, "unknown flag refused");
	}
	{
		/* fio's single-dash long options (getopt_long_only), else short ones */
		char *argv[] = { "-num=16", "-bs", "8k", "-name", "y", "-runtime=3", "-f", "-n7" };
		opt_defaults(tab, &c);
		CHECK(!opt_parse(tab, &c, 6, argv, NULL, NULL, 0) && c.n == 16 && c.size == 8192 && c.s &&
		      !strcmp(c.s, "y") && c.t == 3, "single-dash long: n %lld size %llu t %g", c.n, c.size, c.t);
		CHECK(!opt_parse(tab, &c, 2, argv + 6, NULL, NULL, 0) && c.flag == 1 && c.n == 7, "short still short");
		char *bad[] = { "-nope=1" };
		CHECK(opt_parse(tab, &c, 1, bad, NULL, NULL, 0) == -1, "single-dash unknown refused");
	}
	{
		char text[] = "BOOT_IMAGE=/vmlinuz assay.a=1 quiet assay.b=\"x y\" assay.c assay.=z ip=dhcp";
		struct seen s = { "" };
		int n = opt_cmdline_each(text, "assay.", each, &s);
		CHECK(n == 4 && !strcmp(s.keys, "[a=1][b=x y][c=(none)][=z]"), "cmdline: %d %s", n, s.keys);
	}
	{
		/* fio's bs=reads,writes: one size for both, a pair, an empty side kept */
		struct pair { unsigned long long v[3]; } pc = { { 0, 0, 0 } };
		static const struct opt ptab[] = {
			{ "bs", 0, OPT_SIZES, offsetof(struct pair, v), "4k", 512, 1 << 26, NULL, "sizes", 0 },
			OPT_END,
		};
		opt_defaults(ptab, &pc);
		CHECK(pc.v[0] == 4096 && pc.v[1] == 4096, "sizes default: %llu %llu", pc.v[0], pc.v[1]);
		CHECK(!opt_set(ptab, &pc, "bs", "8k,64k", err, sizeof err) && pc.v[0] == 8192 && pc.v[1] == 65536,
		      "sizes pair");
		CHECK(!opt_set(ptab, &pc, "bs", ",1m", err, sizeof err) && pc.v[0] == 8192 && pc.v[1] == 1048576,
		      "sizes: an empty side kept");
		CHECK(!opt_set(ptab, &pc, "bs", "16k,", err, sizeof err) && pc.v[0] == 16384 && pc.v[1] == 1048576,
		      "sizes: a trailing comma");
		CHECK(!opt_set(ptab, &pc, "bs", "2k", err, sizeof err) && pc.v[0] == 2048 && pc.v[1] == 2048,
		      "sizes: one for both");
		CHECK(pc.v[2] == 2048, "sizes: one for all, trims too: %llu", pc.v[2]);
		CHECK(!opt_set(ptab, &pc, "bs", "1k,2k,3k", err, sizeof err) && pc.v[0] == 1024 && pc.v[1] == 2048 &&
		      pc.v[2] == 3072, "sizes: reads,writes,trims");
		CHECK(!opt_set(ptab, &pc, "bs", "8k,16k", err, sizeof err) && pc.v[2] == 16384,
		      "sizes: two, trims as writes: %llu", pc.v[2]);
		CHECK(!opt_set(ptab, &pc, "bs", ",,4k", err, sizeof err) && pc.v[0] == 8192 && pc.v[1] == 16384 &&
		      pc.v[2] == 4096, "sizes: trims alone");
		CHECK(opt_set(ptab, &pc, "bs", "1k,2k,3k,4k", err, sizeof err) == OPT_EVALUE &&
		      strstr(err, "more than reads,writes,trims"), "sizes: four: %s", err);
		CHECK(!opt_set(ptab, &pc, "bs", "2k", err, sizeof err), "sizes: back to one");
		CHECK(opt_set(ptab, &pc, "bs", "1k,100", err, sizeof err) == OPT_EVALUE && strstr(err, "out of range") &&
		      pc.v[0] == 2048 && pc.v[1] == 2048, "sizes: range, nothing set: %s", err);
		CHECK(opt_set(ptab, &pc, "bs", ",", err, sizeof err) == OPT_EVALUE, "sizes: a comma alone");
		CHECK(opt_set(ptab, &pc, "bs", ",,", err, sizeof err) == OPT_EVALUE, "sizes: commas alone");
	}
	{
		/* a list of choices (fio's --output-format=normal,json): a bitmask; a value that
		 * may be left out (fio's --write_bw_log): "" alone, never the next word */
		struct lc { int fmts; const char *log; int flag; } lc;
		static const struct opt ltab[] = {
			{ "fmt", 0, OPT_ENUM, offsetof(struct lc, fmts), "a", 0, 0, "a|b|c", "list", OPT_LIST },
			{ "log", 0, OPT_STR, offsetof(struct lc, log), NULL, 0, 0, NULL, "prefix", OPT_OPTARG },
			{ "flag", 0, OPT_BOOL, offsetof(struct lc, flag), "0", 0, 0, NULL, "flag", 0 },
			OPT_END,
		};
		char *argv[] = { "--log", "--flag", "--fmt=c,a,c" };
		char *argv2[] = { "--log=x", "word" };
		char *pos[2];
		int np = 0;
		opt_defaults(ltab, &lc);
		CHECK(lc.fmts == 1 && !lc.log, "list default: %d", lc.fmts);
		CHECK(!opt_parse(ltab, &lc, 3, argv, pos, &np, 2) && lc.fmts == 5 && lc.log && !*lc.log &&
		      lc.flag == 1 && np == 0, "list and optional value: %d", lc.fmts);
		CHECK(!opt_parse(ltab, &lc, 2, argv2, pos, &np, 2) && !strcmp(lc.log, "x") && np == 1,
		      "optional value given");
		CHECK(opt_set(ltab, &lc, "fmt", "a,,b", err, sizeof err) == OPT_EVALUE && strstr(err, "empty item") &&
		      strstr(err, "one or more (a,b) of a|b|c"), "list: empty item: %s", err);
		CHECK(opt_set(ltab, &lc, "fmt", "a,d", err, sizeof err) == OPT_EVALUE && strstr(err, "unknown value") &&
		      lc.fmts == 5, "list: unknown item, nothing set: %s", err);
		CHECK(opt_set(ltab, &lc, "fmt", "b,", err, sizeof err) == OPT_EVALUE, "list: trailing comma");
	}
	/* fio's arithmetic, by its grammar's rules (precedence, a suffix's own level, the
	 * left operand's kind, truncation) and its lexer's units */
	{
		static const struct { const char *e; int kind; double want; } ok[] = {
			{ "(4k*3)", FX_INT, 12288 }, { "(1+2k)", FX_INT, 2049 }, { "(6/3k)", FX_INT, 2048 },
			{ "(1.5k)", FX_INT, 1024 }, { "(2^10)", FX_INT, 1024 }, { "(2^3^2)", FX_INT, 512 },
			{ "(-2^2)", FX_INT, 4 }, { "(10%4)", FX_INT, 2 }, { "(7/2)", FX_INT, 3 }, { "(7.0/2)", FX_INT, 3 },
			{ "(7.0/2)", FX_FLOAT, 3.5 }, { "(1 + 0.5)", FX_FLOAT, 1.5 }, { "(1 + 0.5)", FX_INT, 1 },
			{ "(2*(3+1)k)", FX_INT, 8192 }, { "(1m)", FX_INT, 1048576 }, { "(1m)", FX_SECONDS, 60 },
			{ "(1m)", FX_USEC, 60e6 }, { "(10)", FX_SECONDS, 10 }, { "(1500ms)", FX_SECONDS, 1 },
			{ "(90s)", FX_SECONDS, 90 }, { "(1.5)", FX_SECONDS, 1 }, { "(1h)", FX_SECONDS, 3600 },
			{ "(0.5ms)", FX_USEC, 0 }, { "(2ms)", FX_USEC, 2000 }, { "(250)", FX_USEC, 250 },
			{ "(1KiB)", FX_INT, 1000 }, { "(1mib)", FX_INT, 1e6 }, { "(2mb)", FX_INT, 2097152 },
			{ "(0x10)", FX_INT, 16 }, { "(1e3)", FX_INT, 1000 }, { "(64k) # a comment", FX_INT, 65536 },
			{ "(4k),8k", FX_INT, 4096 }, { "(1+2)*4k", FX_INT, 12288 }, { "(2kk)", FX_INT, 2097152 },
			{ "( 8 *\t1k )", FX_INT, 8192 }, { "(99.9/1)", FX_FLOAT, 99.9 }, { "(3-1-1)", FX_INT, 1 },
			{ "(12/2/3)", FX_INT, 2 },
		};
		static const char *const bad[] = { "(8/0)", "(1min)", "(2", "(1+)", "()", "(abc)", "(1)x", "(1.)",
						   "(5 5)", "(3%0)", "(1tib)", "4k", "" };
		double v;
		for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++)
			CHECK(!fio_expr(ok[k].e, ok[k].kind, &v) && fabs(v - ok[k].want) < 1e-9, "fio_expr(%s, %d): %g, want %g",
			      ok[k].e, ok[k].kind, fio_expr(ok[k].e, ok[k].kind, &v) ? -1.0 : v, ok[k].want);
		for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
			CHECK(fio_expr(bad[k], FX_INT, &v), "fio_expr(%s) accepted: %g", bad[k], v);
		{       /* nesting is bounded: deep input is refused, not a stack overflow */
			static char deep[200001];
			memset(deep, '(', 100000);
			deep[100000] = '1';
			memset(deep + 100001, ')', 100000);
			CHECK(fio_expr(deep, FX_INT, &v), "100000 parentheses accepted");
			memset(deep, '-', 100000);
			deep[0] = '(';
			CHECK(fio_expr(deep, FX_INT, &v), "100000 minus signs accepted");
			CHECK(!fio_expr("((((((((((1))))))))))", FX_INT, &v) && v == 1, "10 parentheses");
		}
		/* through the option parsers */
		CHECK(!opt_set(tab, &c, "bs", "(4k*2)", err, sizeof err) && c.size == 8192, "bs=(4k*2): %llu", c.size);
		CHECK(!opt_set(tab, &c, "num", "(2^4)", err, sizeof err) && c.n == 16, "num=(2^4): %lld", c.n);
		CHECK(!opt_set(tab, &c, "runtime", "(2m)", err, sizeof err) && c.t == 120, "runtime=(2m): %g", c.t);
		CHECK(opt_set(tab, &c, "bs", "(4k/0)", err, sizeof err) == OPT_EVALUE, "bs=(4k/0) refused");
		CHECK(opt_set(tab, &c, "num", "(2^10)", err, sizeof err) == OPT_EVALUE && strstr(err, "out of range"),
		      "num=(2^10): out of range: %s", err);
	}
	/* OPT_BASE: the base every size among the words is read under, wherever it stands;
	 * a parse's context, nothing kept between parses */
	{
		struct kb { int base; unsigned long long bs; } k;
		static const struct opt kbtab[] = {
			{ "kb_base", 0, OPT_ENUM, offsetof(struct kb, base), "1024", 0, 0, "1024|1000", "", OPT_BASE },
			{ "bs", 0, OPT_SIZE, offsetof(struct kb, bs), "4k", 0, 0, NULL, "", OPT_FIOUNITS },
			OPT_END,
		};
		char *w1[] = { "--bs=4k", "--kb_base=1000" }, *w2[] = { "--bs=4k" }, *pos[1];
		int np;
		struct opt_ctx ctx = { 0 };
		opt_defaults(kbtab, &k);
		CHECK(!opt_parse_ctx(kbtab, &k, 2, w1, pos, &np, 0, NULL, &ctx) && k.bs == 4000 && ctx.kb_base == 1000,
		      "kb_base after the size: %llu under %d", k.bs, ctx.kb_base);
		opt_defaults(kbtab, &k);
		CHECK(!opt_parse_ctx(kbtab, &k, 1, w2, pos, &np, 0, NULL, NULL) && k.bs == 4096, "the next parse: %llu", k.bs);
	}
	/* every command's table fits the given[] marks (an entry past them would never count
	 * as given, silently) */
	for (int i = 0; commands[i]; i++) {
		size_t k = 0;
		while (commands[i]->opts && commands[i]->opts[k].name)
			k++;
		CHECK(k <= OPT_MAX_ENTRIES, "%s: %zu options, room for %d", commands[i]->name, k, OPT_MAX_ENTRIES);
	}
	return unit_done();
}
