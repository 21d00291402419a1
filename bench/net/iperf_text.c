/* iperf3's text output, line for line (iperf3 3.12's iperf_locale.c formats and the
 * choices of iperf_print_intermediate and iperf_print_results), made from the report's
 * JSON so a saved result prints as the live run did. */
#include "iperf.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

/* iperf3's unit_snprintf: bytes 1024-based ("MBytes"), bits/s 1000-based ("Gbits"),
 * always four places */
static void unit(char *s, size_t n, double v, int bits)
{
	static const char *const lb[] = { "Byte", "KByte", "MByte", "GByte", "TByte" };
	static const char *const lt[] = { "bit", "Kbit", "Mbit", "Gbit", "Tbit" };
	double base = bits ? 1000 : 1024;
	int c = 0;
	if (bits)
		v *= 8;
	while (v >= base && c < 4)
		v /= base, c++;
	snprintf(s, n, v < 9.995 ? "%4.2f %s" : v < 99.95 ? "%4.1f %s" : "%4.0f %s", v, bits ? lt[c] : lb[c]);
}

static double num(const struct json *o, const char *k)
{
	return json_get_num(o, k, 0);
}

static int flag(const struct json *o, const char *k)
{
	const struct json *x = json_get(o, k);
	return x && ((x->type == J_BOOL && x->b) || (x->type == J_NUM && x->num != 0));
}

static const char SEP[] = "- - - - - - - - - - - - - - - - - - - - - - - - -\n";

struct shape {
	int udp, bidir, server, nstreams;
};

static void shape_of(const struct json *r, struct shape *sh)
{
	const struct json *iv0 = json_path(r, "intervals");
	sh->udp = !strcmp(json_get_str(r, "start.test_start.protocol", "TCP"), "UDP");
	sh->server = json_path(r, "start.accepted_connection") != NULL;
	sh->nstreams = (int)num(r, "start.test_start.num_streams");
	iv0 = iv0 && iv0->child ? iv0->child : NULL;
	sh->bidir = json_path(r, "end.sum_sent_bidir_reverse") || json_path(r, "end.sum_bidir_reverse") ||
		    (iv0 && json_get(iv0, "sum_bidir_reverse"));
}

static void role(const struct shape *sh, int sender, char *m, size_t n)
{
	if (sh->bidir)
		snprintf(m, n, "[%s-%s]", sender ? "TX" : "RX", sh->server ? "S" : "C");
	else
		m[0] = 0;
}

void iperf_text_head(const struct json *r, int verbose, FILE *f)
{
	const struct json *c = json_path(r, "start.connected"), *ts = json_path(r, "start.test_start");
	struct shape sh;
	shape_of(r, &sh);
	if (verbose) {
		fprintf(f, "%s\n%s\n", json_get_str(r, "start.version", "?"), json_get_str(r, "start.system_info", "?"));
		fprintf(f, "Time: %s\n", json_get_str(r, "start.timestamp.time", "?"));
	}
	if (sh.server) {
		fprintf(f, "Accepted connection from %s, port %.0f\n", json_get_str(r, "start.accepted_connection.host", "?"),
			num(r, "start.accepted_connection.port"));
	} else {
		fprintf(f, "Connecting to host %s, port %.0f\n", json_get_str(r, "start.connecting_to.host", "?"),
			num(r, "start.connecting_to.port"));
		if (num(ts, "reverse"))
			fprintf(f, "Reverse mode, remote host %s is sending\n",
				json_get_str(r, "start.connecting_to.host", "?"));
	}
	if (verbose) {
		fprintf(f, "      Cookie: %s\n", json_get_str(r, "start.cookie", "?"));
		if (json_path(r, "start.tcp_mss"))
			fprintf(f, "      TCP MSS: %.0f\n", num(r, "start.tcp_mss"));
		else if (json_path(r, "start.tcp_mss_default"))
			fprintf(f, "      TCP MSS: %.0f (default)\n", num(r, "start.tcp_mss_default"));
		if (num(r, "start.target_bitrate") > 0)
			fprintf(f, "      Target Bitrate: %.0f\n", num(r, "start.target_bitrate"));
	}
	for (const struct json *o = c ? c->child : NULL; o; o = o->next)
		fprintf(f, "[%3.0f] local %s port %.0f connected to %s port %.0f\n", num(o, "socket"),
			json_get_str(o, "local_host", "?"), num(o, "local_port"), json_get_str(o, "remote_host", "?"),
			num(o, "remote_port"));
	if (verbose)
		fprintf(f, "Starting Test: protocol: %s, %.0f streams, %.0f byte blocks, omitting %.0f seconds, "
			"%.0f second test, tos %.0f\n", json_get_str(ts, "protocol", "?"), num(ts, "num_streams"),
			num(ts, "blksize"), num(ts, "omit"), num(ts, "duration"), num(ts, "tos"));
	fflush(f);
}

/* one line of an interval or of the summary: bytes and rate, then what follows */
static void line(FILE *f, const char *id, const char *m, double st, double et, double bytes, double secs,
		 const char *tail)
{
	char u[32], b[32];
	unit(u, sizeof u, bytes, 0);
	unit(b, sizeof b, secs > 0 ? bytes / secs : 0, 1);
	fprintf(f, "%s%s %6.2f-%-6.2f sec  %ss  %ss/sec%s\n", id, m, st, et, u, b, tail);
}

static void ivline(FILE *f, const struct shape *sh, const struct json *o, const char *id, const char *m)
{
	char tail[96], cw[32];
	const char *om = flag(o, "omitted") ? "(omitted)" : "";
	if (!sh->udp && json_get(o, "snd_cwnd")) {
		unit(cw, sizeof cw, num(o, "snd_cwnd"), 0);
		snprintf(tail, sizeof tail, "  %3.0f   %ss       %s", num(o, "retransmits"), cw, om);
	} else if (!sh->udp && json_get(o, "retransmits")) {
		snprintf(tail, sizeof tail, "  %3.0f             %s", num(o, "retransmits"), om);
	} else if (!sh->udp) {
		snprintf(tail, sizeof tail, "                  %s", om);
	} else if (json_get(o, "jitter_ms")) {
		snprintf(tail, sizeof tail, "  %5.3f ms  %.0f/%.0f (%.2g%%)  %s", num(o, "jitter_ms"), num(o, "lost_packets"),
			 num(o, "packets"), num(o, "lost_percent"), om);
	} else {
		snprintf(tail, sizeof tail, " %s %.0f  %s", sh->bidir ? "          " : "", num(o, "packets"), om);
	}
	line(f, id, m, num(o, "start"), num(o, "end"), num(o, "bytes"), num(o, "seconds"), tail);
}

void iperf_text_interval(const struct json *r, const struct json *iv, int first, FILE *f)
{
	const struct json *streams = json_get(iv, "streams");
	const struct json *s0 = streams ? streams->child : NULL;
	struct shape sh;
	int group = 0, sender = s0 ? flag(s0, "sender") : 1;
	char m[16], id[16];
	shape_of(r, &sh);
	sh.bidir |= json_get(iv, "sum_bidir_reverse") != NULL;
	if (first) {
		int cwnd = 0;
		for (const struct json *o = s0; o; o = o->next)
			cwnd |= json_get(o, "snd_cwnd") != NULL;
		if (!sh.udp)
			fprintf(f, "[ ID]%s Interval           Transfer     Bitrate%s\n", sh.bidir ? "[Role]" : "",
				cwnd ? "         Retr  Cwnd" : "");
		else if (!sh.bidir && sender)
			fprintf(f, "[ ID] Interval           Transfer     Bitrate         Total Datagrams\n");
		else
			fprintf(f, "[ ID]%s Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n",
				sh.bidir ? "[Role]" : "");
	} else if (sh.nstreams > 1) {
		fputs(SEP, f);
	}
	/* the streams of one direction, then their sum; then the other direction */
	for (group = 0; group < (sh.bidir ? 2 : 1); group++) {
		int want = group ? !sender : sender;
		role(&sh, want, m, sizeof m);
		for (const struct json *o = s0; o; o = o->next) {
			if (flag(o, "sender") != want)
				continue;
			snprintf(id, sizeof id, "[%3.0f]", num(o, "socket"));
			ivline(f, &sh, o, id, m);
		}
		if (sh.nstreams > 1) {
			const struct json *s = json_get(iv, group ? "sum_bidir_reverse" : "sum");
			if (s)
				ivline(f, &sh, s, "[SUM]", m);
		}
	}
	fflush(f);
}

static void udp_line(FILE *f, const char *id, const char *m, double et, double bytes, double bps_secs, double jit,
		     double lost, double pk, const char *who)
{
	char tail[96];
	snprintf(tail, sizeof tail, "  %5.3f ms  %.0f/%.0f (%.2g%%)  %s", jit, lost, pk, pk > 0 ? 100 * lost / pk : 0.0, who);
	line(f, id, m, 0, et, bytes, bps_secs, tail);
}

/* the summary of one direction: each stream's sender and receiver lines, then the sums */
static void end_group(FILE *f, const struct json *r, const struct shape *sh, int group, int must, int verbose)
{
	const struct json *end = json_get(r, "end"), *streams = json_get(end, "streams");
	const char *sfx = group ? "_bidir_reverse" : "";
	char m[16], id[16], k[64], tail[64];
	const struct json *ss, *sr;
	role(sh, must, m, sizeof m);
	for (const struct json *e = streams ? streams->child : NULL; e; e = e->next) {
		const struct json *snd = json_get(e, "sender"), *rcv = json_get(e, "receiver"), *u = json_get(e, "udp");
		const struct json *any = u ? u : snd;
		if (!any || flag(any, "sender") != must)
			continue;
		snprintf(id, sizeof id, "[%3.0f]", num(any, "socket"));
		if (sh->server && !must) {
			if (verbose)
				fprintf(f, "%s (sender statistics not available)\n", id);
		} else if (u) {
			udp_line(f, id, m, num(u, "end"), num(u, "bytes"), num(u, "seconds"), 0, 0,
				 num(u, "packets"), "sender");
		} else {
			if (json_get(snd, "retransmits"))
				snprintf(tail, sizeof tail, "  %3.0f             sender", num(snd, "retransmits"));
			else
				snprintf(tail, sizeof tail, "                  sender");
			line(f, id, m, 0, num(snd, "end"), num(snd, "bytes"), num(snd, "end"), tail);
		}
		if (u && num(u, "out_of_order") > 0 && !(sh->server && !must))
			fprintf(f, "[SUM]%s %4.1f-%4.1f sec  %.0f datagrams received out-of-order\n", m, 0.0, num(u, "end"),
				num(u, "out_of_order"));
		if (sh->server && must) {
			if (verbose)
				fprintf(f, "%s (receiver statistics not available)\n", id);
		} else if (u) {
			double rt = num(json_get(end, "sum_received"), "seconds");
			udp_line(f, id, m, rt, num(u, "received_bytes"), rt, num(u, "jitter_ms"), num(u, "lost_packets"),
				 num(u, "received_packets"), "receiver");
		} else {
			line(f, id, m, 0, num(rcv, "end"), num(rcv, "bytes"), num(rcv, "end"), "                  receiver");
		}
	}
	if (sh->nstreams < 2)
		return;
	snprintf(k, sizeof k, "sum_sent%s", sfx);
	ss = json_get(end, k);
	snprintf(k, sizeof k, "sum_received%s", sfx);
	sr = json_get(end, k);
	if (!(sh->server && !must) && ss) {
		if (sh->udp)
			udp_line(f, "[SUM]", m, num(ss, "end"), num(ss, "bytes"), num(ss, "seconds"), 0, 0, num(ss, "packets"),
				 "sender");
		else {
			if (json_get(ss, "retransmits"))
				snprintf(tail, sizeof tail, "  %3.0f             sender", num(ss, "retransmits"));
			else
				snprintf(tail, sizeof tail, "                  sender");
			line(f, "[SUM]", m, 0, num(ss, "end"), num(ss, "bytes"), num(ss, "seconds"), tail);
		}
	}
	if (!(sh->server && must) && sr) {
		if (sh->udp)
			udp_line(f, "[SUM]", m, num(sr, "end"), num(sr, "bytes"), num(sr, "seconds"), num(sr, "jitter_ms"),
				 num(sr, "lost_packets"), num(sr, "packets"), "receiver");
		else
			line(f, "[SUM]", m, 0, num(sr, "end"), num(sr, "bytes"), num(sr, "seconds"), "                  receiver");
	}
}

void iperf_text_end(const struct json *r, int verbose, FILE *f)
{
	const struct json *end = json_get(r, "end"), *streams = json_get(end, "streams");
	const struct json *cpu = json_get(end, "cpu_utilization_percent");
	const struct json *e0 = streams ? streams->child : NULL;
	struct shape sh;
	int retr = 0, first;
	shape_of(r, &sh);
	if (!end)
		return;
	fputs(SEP, f);
	if (verbose)
		fprintf(f, "Test Complete. Summary Results:\n");
	for (const struct json *e = e0; e; e = e->next)
		retr |= json_get(json_get(e, "sender"), "retransmits") != NULL;
	if (sh.udp)
		fprintf(f, "[ ID]%s Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n",
			sh.bidir ? "[Role]" : "");
	else
		fprintf(f, "[ ID]%s Interval           Transfer     Bitrate%s\n", sh.bidir ? "[Role]" : "",
			retr ? "         Retr" : "");
	first = e0 ? flag(json_get(e0, sh.udp ? "udp" : "sender"), "sender") : 1;
	for (int g = 0; g < (sh.bidir ? 2 : 1); g++) {
		int must = g ? !first : first;
		end_group(f, r, &sh, g, must, verbose);
		if (verbose && must) {
			static const char fmt[] = "CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), "
						  "remote/%s %.1f%% (%.1f%%u/%.1f%%s)\n";
			for (int k = 0; k < (sh.bidir ? 2 : 1); k++)
				fprintf(f, fmt, k ? "receiver" : "sender", num(cpu, "host_total"), num(cpu, "host_user"),
					num(cpu, "host_system"), k ? "sender" : "receiver", num(cpu, "remote_total"),
					num(cpu, "remote_user"), num(cpu, "remote_system"));
		}
		if (verbose && !sh.udp) {
			const char *a = json_get_str(end, "sender_tcp_congestion", NULL);
			const char *b = json_get_str(end, "receiver_tcp_congestion", NULL);
			if (a)
				fprintf(f, "snd_tcp_congestion %s\n", a);
			if (b)
				fprintf(f, "rcv_tcp_congestion %s\n", b);
		}
	}
	if (json_get(r, "server_output_text"))
		fprintf(f, "\nServer output:\n%s\n", json_get_str(r, "server_output_text", ""));
	if (!sh.server)
		fprintf(f, "\niperf Done.\n");
	fflush(f);
}

void iperf_text(const struct json *r, int verbose, FILE *f)
{
	const struct json *ivs = json_get(r, "intervals");
	int k = 0;
	iperf_text_head(r, verbose, f);
	for (const struct json *iv = ivs ? ivs->child : NULL; iv; iv = iv->next)
		iperf_text_interval(r, iv, !k++, f);
	iperf_text_end(r, verbose, f);
}
