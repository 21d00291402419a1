/* The headings figures go under, the ~20 headline figures a person compares, and the
 * machine in a few words (result.h). */
#include "result.h"

#include "engine/engine.h"
#include "json.h"
#include "opt.h"

#include <stdio.h>
#include <string.h>

#define STEAL_TITLE "Steal (noisy neighbours)"
#define OTHER_TITLE "Other"

/* the engine whose figure this is: the one named by its first word (disk.vdb.qd1... is
 * disk's), NULL for the run's own (steal.*) */
const struct engine *figure_engine(const char *name)
{
	char first[32];
	size_t l = strcspn(name, ".");
	if (l >= sizeof first)
		return NULL;
	snprintf(first, sizeof first, "%.*s", (int)l, name);
	return engine_find(first);
}

/* the heading a figure goes under: its engine's title, Steal, or the title of the
 * document's figures its first word names */
const char *figure_family(const char *name)
{
	const struct engine *e = figure_engine(name);
	size_t l = strcspn(name, ".");
	if (e && e->title)
		return e->title;
	if (!strncmp(name, "steal.", 6))
		return STEAL_TITLE;
	for (int i = 0; doc_figures[i]; i++)
		if (doc_figures[i]->title && strlen(doc_figures[i]->prefix) == l && !strncmp(name, doc_figures[i]->prefix, l))
			return doc_figures[i]->title;
	return OTHER_TITLE;
}

/* the k-th heading of a table: the engines' in the registry's order, steal, the
 * document's figures' titles, then anything else; NULL past the last */
const char *figure_heading(int k)
{
	int n = 0;
	for (; engines[n]; n++)
		if (k == n)
			return engines[n]->title;
	if (k == n)
		return STEAL_TITLE;
	for (int i = 0; doc_figures[i]; i++)
		if (doc_figures[i]->title && ++n == k)
			return doc_figures[i]->title;
	return k == n + 1 ? OTHER_TITLE : NULL;
}

void short_cpu(const char *model, char *out, size_t n)
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

