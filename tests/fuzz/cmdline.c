/* libFuzzer target: the kernel command line and the option parser (init's assay.KEY=VALUE
 * words into its table; the same bytes as CLI words into a table of every option type). */
#include "bootopts.h"
#include "opt.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct all {
	int b, e, l;
	long long i;
	unsigned long long s, ss[3];
	double t, f;
	const char *str;
};

#define O(f) offsetof(struct all, f)
static const struct opt all_opts[] = {
	{ "bool", 'b', OPT_BOOL, O(b), "0", 0, 0, NULL, "", 0 },
	{ "int", 'i', OPT_INT, O(i), "1", -5, 1000, "all=0,auto=-1", "", 0 },
	{ "size", 's', OPT_SIZE, O(s), "4k", 1, 1ull << 40, NULL, "", 0 },
	{ "sizes", 0, OPT_SIZES, O(ss), "4k", 0, 0, NULL, "", 0 },
	{ "time", 't', OPT_TIME, O(t), "1", 0, 86400, NULL, "", 0 },
	{ "float", 'f', OPT_FLOAT, O(f), "0.5", 0, 1, NULL, "", 0 },
	{ "enum", 'e', OPT_ENUM, O(e), "a", 0, 0, "a|b|c", "", 0 },
	{ "list", 0, OPT_ENUM, O(l), "a", 0, 0, "a|b|c", "", OPT_LIST },
	{ "str", 0, OPT_STR, O(str), NULL, 0, 0, NULL, "", 0 },
	{ "alias", 'A', OPT_ALIAS, 0, NULL, 0, 0, "enum=b", "", OPT_NOARG },
	OPT_END,
};

static void key(const char *k, const char *v, void *arg)
{
	char err[512];
	opt_set(boot_opts, arg, k, v, err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *words[64], *p;
	struct boot_cfg bc;
	struct all a;
	int n = 0;
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	opt_defaults(boot_opts, &bc);
	opt_cmdline_each(text, "assay.", key, &bc);
	/* the same bytes as argv words (split at NUL, space and newline) */
	memcpy(text, data, size);
	text[size] = 0;
	words[n++] = "assay";
	for (p = text; n < 63 && p < text + size;) {
		size_t l = strcspn(p, " \n");
		p[l] = 0;
		if (l)
			words[n++] = p;
		p += l + 1;
	}
	words[n] = NULL;
	opt_defaults(all_opts, &a);
	opt_parse(all_opts, &a, n - 1, words + 1, NULL, NULL, 0);
	free(text);
	return 0;
}
