/* Reading result documents back: load one (a file holding the JSON, or a console log
 * holding the block), look up a summary figure, convert units, tell which way is better. */
#include "figures.h"
#include "fileio.h"
#include "json.h"
#include "report.h"
#include "engine.h"
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
	json_add_int(doc, "schema_version", REPORT_SCHEMA_VERSION);
	json_add_str(doc, "from_engine_output", path);
	json_add_obj(doc, "machine");
	t = json_push(json_add_arr(doc, "tests"), json_obj());
	json_add_str(t, "name", engine);
	json_add_str(t, "engine", engine);
	json_add_str(t, "status", "ok");
	json_add(t, "result", res);
	report_summary(doc);
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
	if (doc && (json_get_num(doc, "schema_version", 0) != REPORT_SCHEMA_VERSION ||
		    !json_get(doc, "summary") || json_get(doc, "summary")->type != J_ARR)) {
		snprintf(err, n, "%s: not an assay result document of schema version %d, nor the JSON of an "
			 "assay engine (disk, net, cpu, mem, dns -J)", path, REPORT_SCHEMA_VERSION);
		json_free(doc);
		doc = NULL;
	}
	return doc;
}

/* machine.*: what the machine is (inventory), from the document's machine section */
static int machine_figure(const struct json *doc, const char *name, double *v, const char **unit)
{
	const struct json *m = json_get(doc, "machine"), *arr;
	char sub[96];
	int k = 0;
	if (!m || strncmp(name, "machine.", 8))
		return -1;
	name += 8;
	if (!strcmp(name, "cpus") && json_path(m, "cpu.online")) {
		*v = json_get_num(m, "cpu.online", 0);
		*unit = "count";
	} else if (!strcmp(name, "memory_bytes") && json_path(m, "memory.total_bytes")) {
		*v = json_get_num(m, "memory.total_bytes", 0);
		*unit = "bytes";
	} else if ((!strcmp(name, "disks") || !strcmp(name, "nics")) && (arr = json_get(m, name))) {
		for (const struct json *e = arr->child; e; e = e->next)
			k += strcmp(json_get_str(e, "name", ""), "lo") != 0;
		*v = k;
		*unit = "count";
	} else if (sscanf(name, "disk.%95[^.].size_bytes%n", sub, &k) == 1 && !name[k]) {
		for (const struct json *e = (arr = json_get(m, "disks")) ? arr->child : NULL; e; e = e->next)
			if (!strcmp(json_get_str(e, "name", ""), sub)) {
				*v = json_get_num(e, "size_bytes", 0);
				*unit = "bytes";
				return 0;
			}
		return -1;
	} else if (sscanf(name, "nic.%95[^.].speed_mbps%n", sub, &k) == 1 && !name[k]) {
		for (const struct json *e = (arr = json_get(m, "nics")) ? arr->child : NULL; e; e = e->next)
			if (!strcmp(json_get_str(e, "name", ""), sub) && json_get(e, "speed_mbps")) {
				*v = json_get_num(e, "speed_mbps", 0);
				*unit = "Mbit/s";
				return 0;
			}
		return -1;
	} else {
		return -1;
	}
	return 0;
}

int figure_value(const struct json *doc, const char *name, double *v, const char **unit, enum better *b)
{
	const struct json *r = figure_find(doc, name);
	if (r) {
		*v = json_get_num(r, "value", NAN);
		*unit = json_get_str(r, "unit", "");
		*b = figure_better(r);
		return 0;
	}
	*b = HIGHER_BETTER;
	return machine_figure(doc, name, v, unit);
}

/* a CPU model in a few words: "AMD EPYC 7B13 64-Core Processor" -> "EPYC 7B13" */
static void short_cpu(const char *model, char *out, size_t n)
{
	static const char *const drop[] = { "(R)", "(TM)", "(tm)", "CPU", "Processor", "Intel", "AMD", "Core",
					    "Genuine", "with", "Radeon", "Graphics", NULL };
	char buf[256], *save = NULL;
	size_t l = 0;
	snprintf(buf, sizeof buf, "%s", model);
	for (char *at = strchr(buf, '@'); at; at = NULL)
		*at = 0;    /* "@ 2.20GHz" */
	out[0] = 0;
	for (char *w = strtok_r(buf, " ", &save); w && l < n; w = strtok_r(NULL, " ", &save)) {
		int skip = strstr(w, "-Core") != NULL || !strcmp(w, "version");
		for (int i = 0; drop[i] && !skip; i++)
			skip = strstr(w, drop[i]) == w && strlen(w) == strlen(drop[i]);
		if (!skip)
			l += (size_t)snprintf(out + l, n - l, "%s%s", l ? " " : "", w);
	}
}

/* "kvm EPYC 7B13 2c 3.8G": the hypervisor, CPU, vCPUs, memory of a run */
void machine_label(const struct json *doc, char *out, size_t n)
{
	const struct json *m = json_get(doc, "machine");
	const char *hv = json_get_str(m, "hypervisor", NULL);
	char cpu[48];
	short_cpu(json_get_str(m, "cpu.model", "?"), cpu, sizeof cpu);
	snprintf(out, n, "%s %.24s %.0fc %.1fG", hv ? hv : "metal", cpu, json_get_num(m, "cpu.online", 0),
		 json_get_num(m, "memory.total_bytes", 0) / 1073741824.0);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '|' || *p == ',')
			*p = '?';
}

/* the figures a person compares: about twenty, in this order (patterns), each with the
 * few words the final screen shows it under */
static const struct headline {
	const char *pattern, *label;
} headline[] = {
	{ "disk.[*].seq.write.bw", "seq write" }, { "disk.[*].seq.read.bw", "seq read" },
	{ "disk.[*].qd1.read.iops", "4k QD1" }, { "disk.[*].qd1.read.clat.p99", "QD1 p99" },
	{ "disk.[*].qd8.read.iops", "4k QD8" }, { "disk.[*].randrw64.read.iops", "4k mix QD64 r" },
	{ "disk.[*].randrw64.write.iops", "w" }, { "disk.[*].randrw64.read.clat.p99", "p99" },
	{ "disk.[*].randwrite4.write.iops", "4k write QD4" }, { "disk.[*].randread16x4.read.iops", "4k 16x4" },
	{ "disk.[*].latency.uncached.read.clat.p50", "latency" },
	{ "cpu.events_per_sec.1t", "1 thread" }, { "cpu.events_per_sec.all", "all" }, { "cpu.scaling", "scaling" },
	{ "mem.mib_per_sec.1t", "write 1t" }, { "mem.mib_per_sec.all", "write all" }, { "mem.triad.1t", "triad 1t" },
	{ "mem.triad.all", "triad all" }, { "mem.latency_ns.@largest", "latency" },
	{ "net.tcp.gbit_per_sec.received", "TCP" }, { "net.tcp.reverse.gbit_per_sec.received", "reverse" },
	{ "net.tcp.p4.gbit_per_sec.received", "4 streams" }, { "net.latency.rtt.avg", "RTT" },
	{ "net.http.mbit_per_sec", "HTTP" }, { "dns.qps", "DNS" }, { "steal.max", "max" }, { NULL, NULL },
};

/* the largest working set of mem.latency_ns.* in the document (DRAM's latency) */
static const char *largest_latency(const struct json *doc)
{
	const struct json *sum = json_get(doc, "summary");
	const char *best = NULL;
	unsigned long long bv = 0;
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
		const char *nm = json_get_str(r, "name", "");
		unsigned long long v;
		if (strncmp(nm, "mem.latency_ns.", 15) || parse_size(nm + 15, &v))
			continue;
		if (!best || v > bv) {
			best = nm;
			bv = v;
		}
	}
	return best;
}

int figure_headline(const char *name, const struct json *doc)
{
	for (int i = 0; headline[i].pattern; i++) {
		if (strstr(headline[i].pattern, "@largest")) {
			const char *l = doc ? largest_latency(doc) : NULL;
			if (l && !strcmp(l, name))
				return i + 1;
		} else if (figure_pattern_match(headline[i].pattern, name)) {
			return i + 1;
		}
	}
	return 0;
}

const char *figure_headline_label(int rank)
{
	return rank >= 1 && rank <= (int)(sizeof headline / sizeof headline[0]) - 1 ? headline[rank - 1].label : "";
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
	{ "count", "count", 1 }, { "x", "x", 1 }, { "C", "C", 1 },
	{ "bytes", "bytes", 1 }, { "B", "bytes", 1 }, { "kB", "bytes", 1e3 }, { "KB", "bytes", 1e3 },
	{ "MB", "bytes", 1e6 }, { "GB", "bytes", 1e9 }, { "TB", "bytes", 1e12 }, { "KiB", "bytes", 1024 },
	{ "MiB", "bytes", 1048576 }, { "GiB", "bytes", 1073741824.0 }, { "TiB", "bytes", 1099511627776.0 },
};

int unit_known(const char *unit)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(units[i].name, unit))
			return 1;
	return 0;
}

void units_list(char *out, size_t n)
{
	size_t l = 0;
	out[0] = 0;
	for (size_t i = 0; i < sizeof units / sizeof units[0] && l < n; i++) {
		int seen = 0;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(units[k].name, units[i].name);
		if (!seen)
			l += (size_t)snprintf(out + l, n - l, "%s%s", l ? " " : "", units[i].name);
	}
}

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
