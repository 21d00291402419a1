/* Reading result documents back: load one (a file holding the JSON, or a console log
 * holding the block), look up a summary figure, convert units, tell which way is better. */
#include "report.h"
#include "fileio.h"
#include "json.h"
#include "report.h"
#include "engine/engine.h"
#include "opt.h"

#include <math.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* which engine's output an engine's own JSON (assay disk -J, net -J...) is, by its keys;
 * NULL when it is none */
static const char *engine_of(const struct json *j)
{
	if (!strcmp(json_get_str(j, "test", ""), "mem"))
		return "mem";
	if (json_get(j, "fio version") && json_get(j, "jobs"))
		return "disk";        /* assay disk -J, or fio's own --output-format=json */
	if (json_get(j, "start") && json_get(j, "end"))
		return "net";         /* assay net -J, or iperf3 -J */
	if (json_path(j, "latency.tcp_connect") || json_path(j, "latency.icmp"))
		return "net";
	if (json_path(j, "http.mbit_per_sec"))
		return "net";
	if (json_get(j, "events_per_second"))
		return "cpu";
	if (json_get(j, "queries_per_second"))
		return "dns";
	return NULL;
}

/* an engine's own output as a result document of one test, its summary computed */
static struct json *wrap_engine(struct json *res, const char *engine, const char *path)
{
	struct json *doc = json_obj(), *t;
	json_add_int(doc, "schema_version", RESULT_SCHEMA_VERSION);
	json_add_str(doc, "from_engine_output", path);
	json_add_obj(doc, "machine");
	t = json_push(json_add_arr(doc, "tests"), json_obj());
	json_add_str(t, "name", engine);
	json_add_str(t, "engine", engine);
	json_add_str(t, "status", "ok");
	json_add(t, "result", res);
	result_summary(doc);
	return doc;
}

struct json *doc_load(const char *path, char *err, size_t n)
{
	char *buf, perr[256];
	size_t len;
	struct json *doc = NULL;
	const char *s, *eng;
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
	if (doc && !json_get(doc, "schema_version") && (eng = engine_of(doc)))
		return wrap_engine(doc, eng, path);
	if (doc && (json_get_num(doc, "schema_version", 0) != RESULT_SCHEMA_VERSION ||
		    !json_get(doc, "summary") || json_get(doc, "summary")->type != J_ARR)) {
		snprintf(err, n, "%s: not an assay result document of schema version %d, nor the JSON of an "
			 "assay engine (disk, net, cpu, mem, dns -J)", path, RESULT_SCHEMA_VERSION);
		json_free(doc);
		doc = NULL;
	}
	return doc;
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
