/* Option values as fio/sysbench users write them; bad ones are refused with a reason. */
#include "engine.h"
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
	CHECK(!parse_size_fio("4k", &sz) && sz == 4096 && !parse_size_fio("4KiB", &sz) && sz == 4000 &&
	      !parse_size_fio("4kB", &sz) && sz == 4096 && !parse_size_fio("1GiB", &sz) && sz == 1000000000ull,
	      "fio units, kb_base 1024: %llu", sz);
	CHECK(!strcmp(opt_iec_seen, "4KiB"), "the first IEC size kept: %s", opt_iec_seen);
	opt_kb_base = 1000;
	CHECK(!parse_size_fio("4k", &sz) && sz == 4000 && !parse_size_fio("4KiB", &sz) && sz == 4096 &&
	      !parse_size_fio("2MB", &sz) && sz == 2000000 && !parse_size_fio("1g", &sz) && sz == 1000000000ull &&
	      !parse_size_fio("512", &sz) && sz == 512, "fio units, kb_base 1000: %llu", sz);
	CHECK(parse_size_fio("1.5x", &sz) && parse_size_fio("-1k", &sz) && parse_size_fio("4kiX", &sz), "bad fio sizes");
	opt_kb_base = 1024;
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
	/* every engine's table fits the given[] marks (an entry past them would never count
	 * as given, silently) */
	for (int i = 0; engines[i]; i++) {
		size_t k = 0;
		while (engines[i]->opts[k].name)
			k++;
		CHECK(k <= OPT_MAX_ENTRIES, "%s: %zu options, room for %d", engines[i]->name, k, OPT_MAX_ENTRIES);
	}
	return unit_done();
}
