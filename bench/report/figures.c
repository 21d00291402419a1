/* Reading result documents back: load one (a file holding the JSON, or a console log
 * holding the block), look up a summary figure, convert units, tell which way is better. */
#include "figures.h"
#include "fileio.h"
#include "json.h"
#include "report.h"
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct json *doc_load(const char *path, char *err, size_t n)
{
	char *buf, perr[256];
	size_t len;
	struct json *doc = NULL;
	const char *s;
	buf = read_file(path, (size_t)1 << 30, &len);
	if (!buf) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		return NULL;
	}
	s = buf;
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	if (*s == '{') {
		doc = json_parse(buf, len, perr, sizeof perr);
		if (!doc)
			snprintf(err, n, "%s: not a result document: %s", path, perr);
	} else if (extract_doc(buf, len, &doc, perr, sizeof perr)) {
		snprintf(err, n, "%s: %s", path, perr);
		doc = NULL;
	}
	free(buf);
	if (doc && (json_get_num(doc, "schema_version", 0) != REPORT_SCHEMA_VERSION ||
		    !json_get(doc, "summary"))) {
		snprintf(err, n, "%s: not an assay result document of schema version %d", path,
			 REPORT_SCHEMA_VERSION);
		json_free(doc);
		doc = NULL;
	}
	return doc;
}

const struct json *figure_find(const struct json *doc, const char *name)
{
	const struct json *sum = json_get(doc, "summary");
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next)
		if (!strcmp(json_get_str(r, "name", ""), name))
			return r;
	return NULL;
}

static const struct unit {
	const char *name;
	const char *base;   /* the figure unit it converts to */
	double mult;        /* value in base = value * mult */
} units[] = {
	{ "MB/s", "MB/s", 1 }, { "B/s", "MB/s", 1e-6 }, { "kB/s", "MB/s", 1e-3 }, { "KB/s", "MB/s", 1e-3 },
	{ "GB/s", "MB/s", 1e3 }, { "KiB/s", "MB/s", 1024 / 1e6 }, { "MiB/s", "MB/s", 1048576 / 1e6 },
	{ "GiB/s", "MB/s", 1073741824 / 1e6 },
	{ "MiB/s", "MiB/s", 1 }, { "GiB/s", "MiB/s", 1024 }, { "MB/s", "MiB/s", 1e6 / 1048576 },
	{ "us", "us", 1 }, { "ns", "us", 1e-3 }, { "ms", "us", 1e3 }, { "s", "us", 1e6 },
	{ "ms", "ms", 1 }, { "us", "ms", 1e-3 }, { "ns", "ms", 1e-6 }, { "s", "ms", 1e3 },
	{ "ns", "ns", 1 }, { "us", "ns", 1e3 }, { "ms", "ns", 1e6 },
	{ "%", "%", 1 },
	{ "IOPS", "IOPS", 1 }, { "kIOPS", "IOPS", 1e3 },
	{ "events/s", "events/s", 1 },
	{ "Gbit/s", "Gbit/s", 1 }, { "Mbit/s", "Gbit/s", 1e-3 },
	{ "Mbit/s", "Mbit/s", 1 }, { "Gbit/s", "Mbit/s", 1e3 },
	{ "qps", "qps", 1 },
	{ "errors", "errors", 1 },
};

int unit_convert(const char *from, const char *to, double *mult)
{
	if (!from || !*from || !strcmp(from, to)) {
		*mult = 1;
		return 0;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(units[i].name, from) && !strcmp(units[i].base, to)) {
			*mult = units[i].mult;
			return 0;
		}
	return -1;
}

int unit_lower_is_better(const char *unit)
{
	return !strcmp(unit, "us") || !strcmp(unit, "ms") || !strcmp(unit, "ns") ||
	       !strcmp(unit, "s") || !strcmp(unit, "%") || !strcmp(unit, "errors");
}

/* A figure name a result could hold: an engine's first (or steal), and among the other
 * dotted parts a word of that engine's figures (disk.qd1.read.clat.p99,
 * cpu.events_per_sec.all, mem.latency_ns.64m, steal.max) */
int figure_name_known(const char *name)
{
	static const char *const steal[] = { "max", "mean", NULL };
	const struct engine *e = figure_engine(name);
	const char *const *words = e ? e->metrics : !strncmp(name, "steal.", 6) ? steal : NULL;
	const char *p = strchr(name, '.');
	if (!words || !p)
		return 0;
	for (p++; *p; p += strcspn(p, ".") + (p[strcspn(p, ".")] != 0)) {
		size_t l = strcspn(p, ".");
		for (int i = 0; words[i]; i++)
			if (strlen(words[i]) == l && !strncmp(p, words[i], l))
				return 1;
	}
	return 0;
}

/* a column title: the file's name without directories and .json */
void doc_label(const char *path, char *out, size_t n)
{
	const char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;
	size_t l = strlen(b);
	if (l > 5 && !strcmp(b + l - 5, ".json"))
		l -= 5;
	snprintf(out, n, "%.*s", (int)l, b);
}
