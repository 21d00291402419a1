/* A result's figures as Prometheus text (the exposition format 0.0.4 that the Pushgateway,
 * node_exporter's textfile collector and promtool read, with OpenMetrics' `# UNIT` and
 * `# EOF` lines, comments to them): each summary figure a sample of a family named after
 * it, in base units (seconds, bytes, ratios, celsius) with `# TYPE` and `# HELP`; what a
 * figure is about goes in labels (the disk and its model and serial, the profile, the
 * threads) and every sample carries the machine's and the run's (docs/results.md
 * "OpenMetrics").  Health's absolute counts are counters, named ..._total. */
#include "report.h"
#include "report.h"

#include "json.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct om_unit {
	const char *unit, *base;
	double mult;
} om_units[] = {
	{ "MB/s", "bytes_per_second", 1e6 }, { "MiB/s", "bytes_per_second", 1048576 },
	{ "Gbit/s", "bytes_per_second", 1.25e8 }, { "Mbit/s", "bytes_per_second", 1.25e5 },
	{ "us", "seconds", 1e-6 }, { "ms", "seconds", 1e-3 }, { "ns", "seconds", 1e-9 }, { "s", "seconds", 1 },
	{ "%", "ratio", 0.01 }, { "percent", "ratio", 0.01 }, { "C", "celsius", 1 }, { "bytes", "bytes", 1 },
};

/* Every family, for its HELP line and docs/fleet.md (assay --metrics-markdown; a test fails
 * when a run prints a family this table lacks): name, type, labels besides every sample's,
 * what it is. */
static const struct family {
	const char *name, *type, *labels, *help;
} families[] = {
	{ "assay_cpu_events_per_second", "gauge", "threads", "sysbench's CPU test: events (prime counts) per second" },
	{ "assay_cpu_latency_seconds", "summary", "threads, quantile (0.95)", "an event's latency" },
	{ "assay_cpu_scaling", "gauge", "", "events per second of every CPU over one's" },
	{ "assay_cpu_steal_ratio", "gauge", "threads", "steal during the CPU test" },
	{ "assay_cpu_wrong_results", "gauge", "threads", "passes whose count of primes was wrong (a CPU computing wrong)" },
	{ "assay_mem_write_bytes_per_second", "gauge", "threads", "sysbench's memory test: 1K blocks written" },
	{ "assay_mem_copy_bytes_per_second", "gauge", "threads", "STREAM copy" },
	{ "assay_mem_scale_bytes_per_second", "gauge", "threads", "STREAM scale" },
	{ "assay_mem_add_bytes_per_second", "gauge", "threads", "STREAM add" },
	{ "assay_mem_triad_bytes_per_second", "gauge", "threads", "STREAM triad" },
	{ "assay_mem_memcpy_bytes_per_second", "gauge", "threads", "memcpy of STREAM's arrays" },
	{ "assay_mem_latency_seconds", "gauge", "working_set", "a dependent load's latency (pointer chase)" },
	{ "assay_mem_steal_ratio", "gauge", "threads", "steal during the memory test" },
	{ "assay_memtest_errors", "gauge", "", "memory words that read back wrong" },
	{ "assay_memtest_tested_ratio", "gauge", "", "the share of the memory tested" },
	{ "assay_memtest_bytes_per_second", "gauge", "stat (min)", "the slowest pattern's bandwidth" },
	{ "assay_disk_bytes_per_second", "gauge", "profile, job, direction, device, model, serial", "a disk job's bandwidth" },
	{ "assay_disk_iops", "gauge", "profile, job, direction, device, model, serial", "a disk job's I/Os per second" },
	{ "assay_disk_clat_seconds", "summary", "profile, job, direction, device, model, serial, quantile (0.5, 0.99)",
	  "a disk job's completion latency" },
	{ "assay_disk_errors", "gauge", "profile, job, device, model, serial", "I/O errors a job went on after (a scan)" },
	{ "assay_disk_steal_ratio", "gauge", "profile, job, device, model, serial", "steal during a disk job" },
	{ "assay_net_tcp_bytes_per_second", "gauge", "variant (reverse, p4), direction", "TCP throughput (iperf3's protocol)" },
	{ "assay_net_tcp_retransmits", "gauge", "variant", "TCP retransmits" },
	{ "assay_net_udp_bytes_per_second", "gauge", "direction", "UDP throughput at the rate asked" },
	{ "assay_net_udp_lost_ratio", "gauge", "", "UDP datagrams lost" },
	{ "assay_net_udp_jitter_seconds", "gauge", "", "UDP jitter" },
	{ "assay_net_latency_connect_seconds", "gauge", "stat (avg)", "TCP connect time" },
	{ "assay_net_latency_rtt_seconds", "gauge", "stat (avg)", "ICMP echo round trip" },
	{ "assay_net_http_bytes_per_second", "gauge", "", "an HTTP download's throughput" },
	{ "assay_net_http_ttfb_seconds", "gauge", "", "an HTTP download's time to first byte" },
	{ "assay_dns_queries_per_second", "gauge", "", "DNS queries answered per second (dnsperf's)" },
	{ "assay_dns_latency_seconds", "gauge", "stat (avg)", "a DNS query's latency" },
	{ "assay_dns_lost", "gauge", "", "DNS queries never answered" },
	{ "assay_steal_ratio", "gauge", "stat (max, mean)", "steal over every test: noisy neighbours" },
	{ "assay_burnin_rounds", "gauge", "", "burn-in rounds run" },
	{ "assay_burnin_failed_tests", "gauge", "", "tests that failed over every burn-in round" },
	{ "assay_health_*", "gauge, counter (_total)", "device (a disk's)", "the hardware's own health: docs/health.md" },
	{ "assay_run_start_timestamp_seconds", "gauge", "", "when the run started" },
	{ "assay_certify_pass", "gauge", "profile", "1 when the run's certify verdict is PASS, 0 for FAIL or INCONCLUSIVE" },
	{ "assay_rule_pass", "gauge", "profile, rule", "1 when a certify rule passed, 0 when it failed, was not measured or "
	  "could not tell" },
};

/* the table's row of a family (health's by prefix), or NULL */
static const struct family *family_of(const char *name)
{
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
		const char *f = families[i].name, *star = strchr(f, '*');
		if (star ? !strncmp(name, f, (size_t)(star - f)) : !strcmp(name, f))
			return &families[i];
	}
	return NULL;
}

void report_metrics_markdown(FILE *f)
{
	fprintf(f, "| metric | type | labels (beside machine, hostname, product, product_serial, mac, suite) | "
		   "what |\n|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		fprintf(f, "| `%s` | %s | %s | %s |\n", families[i].name, families[i].type,
			*families[i].labels ? families[i].labels : "", families[i].help);
}

/* health figures that only grow: OpenMetrics counters (the name gets _total) */
static int is_counter(const char *name)
{
	static const char *const c[] = { "media_errors", "num_err_log_entries", "unsafe_shutdowns", "reallocated_sectors",
					 "pending_sectors", "offline_uncorrectable", "crc_errors", "error_count",
					 "throttle_events", NULL };
	const char *last = strrchr(name, '.');
	if (strncmp(name, "health.", 7) || !last)
		return 0;
	if (!strcmp(name, "health.edac.ce") || !strcmp(name, "health.edac.ue"))
		return 1;
	for (int i = 0; c[i]; i++)
		if (!strcmp(last + 1, c[i]))
			return 1;
	return 0;
}

struct sample {
	char family[160];
	char labels[600];
	const char *unit, *help, *type;
	double value;
};

static void label(char *out, size_t n, const char *key, const char *val)
{
	size_t l = strlen(out);
	if (!val || !*val || l + 8 >= n)
		return;
	l += (size_t)snprintf(out + l, n - l, "%s%s=\"", l ? "," : "", key);
	for (const char *p = val; *p && l + 4 < n; p++) {
		if (*p == '\\' || *p == '"' || *p == '\n')
			out[l++] = '\\';
		out[l++] = *p == '\n' ? 'n' : *p;
	}
	snprintf(out + l, n - l, "\"");
}

/* words into a metric name part: letters, digits, '_'; "per_sec" spelt out (the
 * conventions want no abbreviated units) */
static void name_part(char *out, size_t n, const char *s, size_t len)
{
	size_t l = strlen(out);
	char *p;
	for (size_t i = 0; i < len && l + 1 < n; i++)
		out[l++] = isalnum((unsigned char)s[i]) ? (char)tolower((unsigned char)s[i]) : '_';
	out[l] = 0;
	if ((p = strstr(out, "per_sec")) && strncmp(p, "per_second", 10) && strlen(out) + 4 < n) {
		memmove(p + 10, p + 7, strlen(p + 7) + 1);
		memcpy(p, "per_second", 10);
	}
}

/* the disk test a figure comes from ("disk" or "disk.NAME") and its device's facts */
static const struct json *disk_of(const struct json *doc, const char *fig, const char **rest)
{
	const struct json *tests = json_get(doc, "tests"), *best = NULL;
	size_t bl = 0;
	for (const struct json *t = tests ? tests->child : NULL; t; t = t->next) {
		const char *nm = json_get_str(t, "name", "");
		size_t l = strlen(nm);
		if (strcmp(json_get_str(t, "engine", ""), "disk") || strncmp(fig, nm, l) || fig[l] != '.')
			continue;
		if (l > bl)
			best = t, bl = l;
	}
	*rest = fig + (best ? bl + 1 : 5);
	return best;
}

static void disk_labels(const struct json *doc, const struct json *test, char *lab, size_t n)
{
	const struct json *args = json_get(test, "args"), *disks = json_path(doc, "machine.disks");
	const char *dev = NULL;
	for (const struct json *a = args ? args->child : NULL; a; a = a->next)
		if (a->type == J_STR && !strncmp(a->str, "--filename=", 11))
			dev = a->str + 11;
	label(lab, n, "device", dev);
	for (const struct json *d = disks ? disks->child : NULL; dev && d; d = d->next) {
		const char *nm = json_get_str(d, "name", "");
		size_t dl = strlen(dev), nl = strlen(nm);
		if (nl && dl >= nl && !strcmp(dev + dl - nl, nm) && (dl == nl || dev[dl - nl - 1] == '/')) {
			label(lab, n, "model", json_get_str(d, "model", NULL));
			label(lab, n, "serial", json_get_str(d, "serial", NULL));
		}
	}
}

/* a figure's words as a family and labels (Prometheus' naming: the unit once, as the base
 * unit the family ends with; what says which in labels): the words that are units left out,
 * those that name a percentile, a statistic, a direction, the threads or a variant of a
 * test made labels (net.tcp.p4.gbit_per_sec.received: assay_net_tcp_bytes_per_second
 * {variant="p4",direction="received"}) */
static void words(const char *fig, struct sample *s)
{
	static const struct { const char *word, *key, *value; } as_label[] = {
		{ "p50", "quantile", "0.5" }, { "p95", "quantile", "0.95" }, { "p99", "quantile", "0.99" },
		{ "1t", "threads", "1" }, { "all", "threads", "all" }, { "avg", "stat", "avg" }, { "max", "stat", "max" },
		{ "mean", "stat", "mean" }, { "min", "stat", "min" }, { "sent", "direction", "sent" },
		{ "received", "direction", "received" }, { "reverse", "variant", "reverse" }, { "p4", "variant", "p4" },
	};
	static const char *const units[] = { "mib_per_sec", "gbit_per_sec", "mbit_per_sec", "ms", "ns", "us", "pct",
					     "percent", "bw", NULL };
	static const struct { const char *from, *to; } renames[] = {
		{ "mem.mib_per_sec", "mem.write" }, { "dns.qps", "dns.queries_per_sec" },
	};
	char name[160], *save = NULL;
	snprintf(name, sizeof name, "%s", fig);
	for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++) {
		size_t l = strlen(renames[i].from);
		if (!strncmp(name, renames[i].from, l) && (!name[l] || name[l] == '.')) {
			char rest[160];
			snprintf(rest, sizeof rest, "%s", name + l);
			snprintf(name, sizeof name, "%s%s", renames[i].to, rest);
		}
	}
	/* the words, split at dots and underscores ("latency_p95"), but "per_sec" kept whole */
	for (char *w = strtok_r(name, "._", &save); w; w = strtok_r(NULL, "._", &save)) {
		int done = 0;
		if (!strcmp(w, "per") && save && !strncmp(save, "sec", 3) && (!save[3] || strchr("._", save[3]))) {
			/* "mib_per_sec" as one word: a unit, unless after a count (events_per_sec) */
			size_t fl = strlen(s->family);
			static const char *const unit_before[] = { "mib", "gbit", "mbit", NULL };
			for (int k = 0; unit_before[k] && !done; k++) {
				size_t ul = strlen(unit_before[k]);
				if (fl > ul && !strcmp(s->family + fl - ul, unit_before[k]) && s->family[fl - ul - 1] == '_') {
					s->family[fl - ul - 1] = 0;   /* the unit word before it dropped too */
					done = 1;
				}
			}
			strtok_r(NULL, "._", &save);   /* "sec" */
			if (!done)
				name_part(s->family, sizeof s->family, "_per_second", 11);
			continue;
		}
		for (size_t i = 0; i < sizeof as_label / sizeof as_label[0] && !done; i++)
			if (!strcmp(w, as_label[i].word)) {
				label(s->labels, sizeof s->labels, as_label[i].key, as_label[i].value);
				done = 1;
			}
		for (int i = 0; units[i] && !done; i++)
			done = !strcmp(w, units[i]);
		if (!done) {
			if (strcmp(s->family, "assay_"))
				name_part(s->family, sizeof s->family, "_", 1);
			name_part(s->family, sizeof s->family, w, strlen(w));
		}
	}
}

/* the family and labels of figure `fig`: disk figures by profile, direction and device;
 * memory latency by working set; health's by device; the rest by their words */
static void shape(const struct json *doc, const char *fig, struct sample *s)
{
	const char *rest;
	snprintf(s->family, sizeof s->family, "assay_");
	if (!strncmp(fig, "disk.", 5)) {
		const struct json *t = disk_of(doc, fig, &rest);
		static const char *const metrics[] = { "clat.p50", "clat.p99", "bw", "iops", "errors", "steal", NULL };
		const char *m = NULL;
		char *dir = NULL;
		size_t pl = strcspn(rest, ".");
		for (int i = 0; metrics[i] && !m; i++) {
			size_t ml = strlen(metrics[i]), rl = strlen(rest);
			if (rl > ml && !strcmp(rest + rl - ml, metrics[i]) && rest[rl - ml - 1] == '.')
				m = rest + rl - ml;
		}
		if (!m)
			m = strrchr(rest, '.') ? strrchr(rest, '.') + 1 : rest;
		if (!strncmp(m, "clat.p", 6)) {   /* a percentile: a quantile of one family */
			name_part(s->family, sizeof s->family, "disk_clat", 9);
			label(s->labels, sizeof s->labels, "quantile", !strcmp(m, "clat.p50") ? "0.5" : "0.99");
		} else if (!strcmp(m, "bw")) {
			name_part(s->family, sizeof s->family, "disk", 4);
		} else {
			name_part(s->family, sizeof s->family, "disk_", 5);
			name_part(s->family, sizeof s->family, m, strlen(m));
		}
		{
			char prof[64], job[96] = "";
			snprintf(prof, sizeof prof, "%.*s", (int)pl, rest);
			label(s->labels, sizeof s->labels, "profile", prof);
			if (m > rest + pl + 1) {
				/* between the profile and the metric: the job's own words, then its direction */
				snprintf(job, sizeof job, "%.*s", (int)(m - 1 - rest), rest);
				dir = strrchr(job, '.') ? strrchr(job, '.') + 1 : NULL;
				if (dir && (!strcmp(dir, "read") || !strcmp(dir, "write") || !strcmp(dir, "trim"))) {
					label(s->labels, sizeof s->labels, "direction", dir);
					dir[-1] = 0;
				}
				if (strcmp(job, prof))      /* a profile of several jobs: which */
					label(s->labels, sizeof s->labels, "job", job);
			}
		}
		if (t)
			disk_labels(doc, t, s->labels, sizeof s->labels);
		return;
	}
	if (!strncmp(fig, "mem.latency_ns.", 15)) {
		name_part(s->family, sizeof s->family, "mem_latency", 11);
		label(s->labels, sizeof s->labels, "working_set", fig + 15);
		return;
	}
	if (!strncmp(fig, "health.", 7)) {
		const char *dev = fig + 7;
		size_t dl = strcspn(dev, ".");
		static const char *const own[] = { "disks", "edac", "cpu", "temp", "kernel_errors", "mce", NULL };
		int is_dev = 1;
		for (int i = 0; own[i]; i++)
			is_dev &= !(strlen(own[i]) == dl && !strncmp(own[i], dev, dl));
		if (is_dev && dev[dl]) {
			char d[64];
			snprintf(d, sizeof d, "%.*s", (int)dl, dev);
			name_part(s->family, sizeof s->family, "health_", 7);
			name_part(s->family, sizeof s->family, dev + dl + 1, strlen(dev + dl + 1));
			label(s->labels, sizeof s->labels, "device", d);
			return;
		}
	}
	words(fig, s);
}

static int by_family(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	int c = strcmp(x->family, y->family);
	return c ? c : (x < y ? -1 : x > y);
}

/* the machine's MAC: its first NIC's that is not the loopback's nor all zero (NULL: none) */
static const char *machine_mac(const struct json *m)
{
	const struct json *nics = json_get(m, "nics");
	for (const struct json *c = nics ? nics->child : NULL; c; c = c->next) {
		const char *mac = json_get_str(c, "mac", "");
		if (strcmp(json_get_str(c, "name", ""), "lo") && *mac && strspn(mac, "0:") != strlen(mac))
			return mac;
	}
	return NULL;
}

/* labels every sample carries: the machine (not the run: a label new every run is a new
 * series every run; when it ran is assay_run_start_timestamp_seconds) */
static void common_labels(const struct json *doc, char *out, size_t n)
{
	const struct json *m = json_get(doc, "machine");
	out[0] = 0;
	label(out, n, "machine", json_get_str(m, "id", NULL));
	label(out, n, "hostname", json_get_str(m, "hostname", NULL));
	label(out, n, "product", json_path(doc, "machine.dmi.product_name") ? json_path(doc, "machine.dmi.product_name")->str : NULL);
	label(out, n, "product_serial", json_path(doc, "machine.dmi.product_serial") ? json_path(doc, "machine.dmi.product_serial")->str : NULL);
	label(out, n, "mac", machine_mac(m));
	label(out, n, "suite", json_get_str(json_get(doc, "options"), "suite", NULL));
}

/* when the run started (started_utc), seconds since the epoch */
static void start_metric(const struct json *doc, const char *common, FILE *f)
{
	struct tm tm = { 0 };
	const char *when = json_get_str(doc, "started_utc", "");
	char *end = strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return;
	fprintf(f, "# TYPE assay_run_start_timestamp_seconds gauge\n# UNIT assay_run_start_timestamp_seconds seconds\n"
		   "# HELP assay_run_start_timestamp_seconds when the run started (docs/results.md)\n"
		   "assay_run_start_timestamp_seconds{%s} %lld\n", common, (long long)timegm(&tm));
}

/* the certify verdict, and each rule's (those not applicable left out): what a fleet
 * alerts on */
static void verdict_metrics(const struct json *doc, const char *common, FILE *f)
{
	const struct json *c = json_get(doc, "certify"), *rules = json_get(c, "rules");
	char lab[1200] = "";
	if (!c || !json_get(c, "verdict"))
		return;
	label(lab, sizeof lab, "profile", json_get_str(c, "profile", ""));
	fprintf(f, "# TYPE assay_certify_pass gauge\n# HELP assay_certify_pass 1 when the run's certify verdict is "
		   "PASS, 0 for FAIL or INCONCLUSIVE (docs/results.md)\n");
	fprintf(f, "assay_certify_pass{%s,%s} %d\n", common, lab, !strcmp(json_get_str(c, "verdict", ""), "PASS"));
	fprintf(f, "# TYPE assay_rule_pass gauge\n# HELP assay_rule_pass 1 when the certify rule passed, 0 when it "
		   "failed, was not measured or could not tell (docs/results.md)\n");
	for (const struct json *r = rules ? rules->child : NULL; r; r = r->next) {
		const char *res = json_get_str(r, "result", "");
		char rl[1500];
		if (!strcmp(res, "N/A"))
			continue;
		snprintf(rl, sizeof rl, "%s", lab);
		label(rl, sizeof rl, "rule", json_get_str(r, "rule", "?"));
		fprintf(f, "assay_rule_pass{%s,%s} %d\n", common, rl, !strcmp(res, "PASS"));
	}
}

void report_openmetrics(const struct json *doc, FILE *f)
{
	const struct json *sum = json_get(doc, "summary");
	struct sample *s = calloc(sum ? sum->n + 1 : 1, sizeof *s);
	char common[800];
	size_t n = 0;
	if (!s)
		return;
	common_labels(doc, common, sizeof common);
	for (const struct json *r = sum ? sum->child : NULL; r; r = r->next) {
		const char *name = json_get_str(r, "name", ""), *unit = json_get_str(r, "unit", "");
		double v = json_get_num(r, "value", NAN);
		struct sample *x = &s[n];
		if (!isfinite(v))
			continue;
		memset(x, 0, sizeof *x);
		shape(doc, name, x);
		x->value = v;
		x->unit = "";
		for (size_t i = 0; i < sizeof om_units / sizeof om_units[0]; i++)
			if (!strcmp(om_units[i].unit, unit)) {
				x->unit = om_units[i].base;
				x->value = v * om_units[i].mult;
			}
		if (x->unit[0] && (strlen(x->family) < strlen(x->unit) ||
				   strcmp(x->family + strlen(x->family) - strlen(x->unit), x->unit)))
			snprintf(x->family + strlen(x->family), sizeof x->family - strlen(x->family), "_%s", x->unit);
		/* percentiles as a quantile label: a summary's samples (its _sum, _count left out) */
		x->type = is_counter(name) ? "counter" : strstr(x->labels, "quantile=") ? "summary" : "gauge";
		/* the name the TYPE line gives is the samples' (the text format 0.0.4 that the
		 * Pushgateway, node_exporter and promtool read) */
		if (is_counter(name))
			snprintf(x->family + strlen(x->family), sizeof x->family - strlen(x->family), "_total");
		x->help = name;
		n++;
	}
	qsort(s, n, sizeof *s, by_family);
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(s[i].family, s[i - 1].family)) {
			fprintf(f, "# TYPE %s %s\n", s[i].family, s[i].type);
			if (s[i].unit[0])
				fprintf(f, "# UNIT %s %s\n", s[i].family, s[i].unit);
			const struct family *fam = family_of(s[i].family);
			if (fam && !strchr(fam->name, '*'))
				fprintf(f, "# HELP %s %s (assay's %s; docs/fleet.md)\n", s[i].family, fam->help, s[i].help);
			else
				fprintf(f, "# HELP %s assay's figure %s%s (docs/results.md)\n", s[i].family,
					s[i].labels[0] ? "such as " : "", s[i].help);
		}
		fprintf(f, "%s{%s%s%s} %.15g\n", s[i].family, common, s[i].labels[0] ? "," : "", s[i].labels, s[i].value);
	}
	start_metric(doc, common, f);
	verdict_metrics(doc, common, f);
	fprintf(f, "# EOF\n");
	free(s);
}
