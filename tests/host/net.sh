# assay net and assay dns against real peers on loopback: Debian's iperf3 server and
# client, dnsmasq, busybox httpd; hostile peers and bad input get clear errors, in bounded time.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
command -v iperf3 >/dev/null || skip "iperf3 missing"
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; cleanup' EXIT

# --- our client, iperf3's server ---
iperf3_server || finish
"$A" net -c 127.0.0.1 -p $P -t 2 -J > "$T/c.json" || fail "client vs iperf3 -s: exit $?"
jq -e '.end.sum_sent.bits_per_second > 0 and .end.sum_received.bits_per_second > 0 and
	(.end.sum_received.bytes <= .end.sum_sent.bytes) and (.intervals | length) >= 2 and
	(.end.cpu_utilization_percent | has("host_total") and has("remote_total")) and
	(.start.connected | length) == 1' "$T/c.json" >/dev/null || fail "iperf3 JSON shape: $(jq -c .end "$T/c.json")"
"$A" net -c 127.0.0.1 -p $P -t 2 -R -P 3 -O 1 -J > "$T/r.json" || fail "reverse/parallel/omit: exit $?"
jq -e '.start.test_start.num_streams == 3 and .start.test_start.reverse == 1 and
	.intervals[0].sum.omitted == true and .end.sum_received.bytes > 0' "$T/r.json" >/dev/null ||
	fail "-R -P 3 -O 1: $(jq -c '{s: .start.test_start, i0: .intervals[0].sum}' "$T/r.json")"
"$A" net -c 127.0.0.1 -p $P -t 1 -P 2 | grep -qE '^\[SUM\] +0.00-[0-9.]+ +sec .* +receiver$' || fail "text shape"

# --- iperf3's client, our server ---
P2=$(free_port)
"$A" serve -B 127.0.0.1 -p $P2 > "$T/serve.log" 2>&1 &
pids+=($!)
listening $P2 || finish
iperf3 -c 127.0.0.1 -p $P2 -t 2 -P 2 -J > "$T/i.json" || fail "iperf3 -c vs assay serve: exit $?"
jq -e '.end.sum_sent.bits_per_second > 0 and .end.sum_received.bits_per_second > 0 and (.error == null)' \
	"$T/i.json" >/dev/null || fail "iperf3 against assay serve: $(jq -c '{e: .error, s: .end.sum_sent}' "$T/i.json")"
wait ${pids[-1]} 2>/dev/null
grep -q '^serve: 2 streams, received' "$T/serve.log" || fail "serve log: $(cat "$T/serve.log")"
"$A" serve -B 127.0.0.1 -p $P2 > "$T/serve.log" 2>&1 &
pids+=($!)
listening $P2 || finish
iperf3 -c 127.0.0.1 -p $P2 -t 1 -R -J > "$T/i.json" || fail "iperf3 -R vs assay serve: exit $?"
jq -e '.end.sum_received.bits_per_second > 0' "$T/i.json" >/dev/null || fail "iperf3 -R against assay serve"

# --- hostile and absent peers: clear errors, bounded time ---
expect 1 'connect to 127.0.0.1:[0-9]+: Connection refused' "$A" net -c 127.0.0.1 -p 1 -t 1
python3 - "$T" <<'PY' &
import socket, sys, struct, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1] + "/port", "w").write(str(s.getsockname()[1]))
for mode in ("garbage", "hugejson", "close", "busy"):
    c, _ = s.accept(); c.recv(37)
    if mode == "garbage": c.send(b"\x07")
    elif mode == "busy": c.send(struct.pack("b", -1))
    elif mode == "hugejson":
        c.send(b"\x09"); time.sleep(0.2); c.recv(4096); c.send(b"\x0a")
        d, _ = s.accept(); d.recv(37)
        c.send(b"\x01\x02"); time.sleep(1.5); c.recv(100); c.send(b"\x0d"); c.recv(65536)
        c.send(struct.pack(">I", 1 << 30))
        time.sleep(0.5); d.close()
    c.close()
PY
pids+=($!)
wait_until test -s "$T/port" || fail "the hostile server wrote no port"
HP=$(cat "$T/port")
listening $HP || finish
expect 1 'expected PARAM_EXCHANGE, got an unknown state \(7\)' "$A" net -c 127.0.0.1 -p $HP -t 1
expect 1 'announced a JSON message of 1073741824 bytes: refused' "$A" net -c 127.0.0.1 -p $HP -t 1
expect 1 'closed the control connection' "$A" net -c 127.0.0.1 -p $HP -t 1
expect 1 'server is busy running another test \(tried 1 times\)' "$A" net -c 127.0.0.1 -p $HP -t 1 --busy-retries=0
expect 2 'nothing to measure' "$A" net
expect 2 'omit=5 is not shorter than --time=2' "$A" net -c 127.0.0.1 -t 2 -O 5
expect 1 "cannot resolve 'no.such.host.invalid'" "$A" net -c no.such.host.invalid -t 1

# --- latency and HTTP ---
# connect times: a plain listener (every probe must connect), then iperf3's server (the
# default port), which re-opens its socket between clients: at least one probe connects
LP=$(free_port)
python3 -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1',$LP)); s.listen(64); time.sleep(30)" &
pids+=($!)
listening $LP || finish
"$A" net --latency 127.0.0.1 --latency-port $LP --count 5 -J > "$T/l.json" || fail "latency: exit $?"
jq -e '.latency.tcp_connect | .received == 5 and .lost == 0 and .refused == 0 and .p99_ms >= .p50_ms and
	.min_ms > 0 and .max_ms >= .avg_ms' "$T/l.json" >/dev/null || fail "connect times: $(jq -c .latency "$T/l.json")"
jq -e '.latency.icmp.received == 5 or (.latency | has("icmp_error"))' "$T/l.json" >/dev/null || fail "icmp"
"$A" net --latency 127.0.0.1 --latency-port $P --count 3 -J > "$T/l2.json" || fail "latency vs iperf3 -s: exit $?"
jq -e '.latency.tcp_connect | .received >= 1 and .sent == 3 and .refused == .lost' "$T/l2.json" >/dev/null ||
	fail "connect times vs iperf3 -s: $(jq -c .latency "$T/l2.json")"
# nothing listening: every probe refused, a clear error, exit 1
expect 1 'TCP connect to 127.0.0.1: connect to 127.0.0.1:1: Connection refused' "$A" net --latency 127.0.0.1 --latency-port 1 --count 2
mkdir -p "$T/www"
head -c 3000000 /dev/urandom > "$T/www/f.bin"
HP2=$(free_port)
busybox httpd -f -p 127.0.0.1:$HP2 -h "$T/www" &
pids+=($!)
listening $HP2 || finish
"$A" net --http http://127.0.0.1:$HP2/f.bin -J > "$T/h.json" || fail "http: exit $?"
jq -e '.http.status == 200 and .http.bytes == 3000000 and .http.mbit_per_sec > 0' "$T/h.json" >/dev/null ||
	fail "http: $(jq -c .http "$T/h.json")"
expect 1 'HTTP status 404' "$A" net --http http://127.0.0.1:$HP2/missing
expect 2 'only http:// URLs' "$A" net --http https://example.com/

# --- dns against dnsmasq, checked against dnsperf's counts ---
if command -v dnsmasq >/dev/null; then
	printf '10.1.2.3 a.test\n10.1.2.4 b.test\n' > "$T/hosts"
	printf 'a.test A\nb.test A\nnope.test A\n# a comment\na.test MX\n' > "$T/q.txt"
	DP=$(free_port)
	dnsmasq --no-daemon --port=$DP --listen-address=127.0.0.1 --bind-interfaces --no-resolv --no-hosts \
		--addn-hosts="$T/hosts" --local=/test/ --log-facility=/dev/null --pid-file= >/dev/null 2>&1 &
	pids+=($!)
	listening $DP udp || finish
	"$A" dns -s 127.0.0.1 -p $DP -d "$T/q.txt" -l 1 -J > "$T/d.json" || fail "dns: exit $?"
	jq -e '.queries_completed > 0 and .queries_lost == 0 and .rcodes.NOERROR > 0 and .rcodes.NXDOMAIN > 0 and
		(.rcodes.NXDOMAIN / .queries_completed - 0.25 | fabs) < 0.02 and .queries_per_second > 0 and
		(.latency_s | has("avg") and has("stddev") and has("percentile"))' "$T/d.json" >/dev/null ||
		fail "dns: $(jq -c '{c: .queries_completed, l: .queries_lost, r: .rcodes}' "$T/d.json")"
	"$A" dns -s 127.0.0.1 -p $DP -d "$T/q.txt" -n 400 -J > "$T/d2.json" || fail "dns -n: exit $?"
	jq -e '.queries_sent == 400 and .queries_completed == 400' "$T/d2.json" >/dev/null || fail "dns -n 400"
	"$A" dns -s 127.0.0.1 -p $DP -d "$T/q.txt" -l 0.3 | grep -qE '^  Queries per second: +[0-9.]+$' || fail "dns text shape"
else
	echo "note: dnsmasq missing: DNS checks against a real server not run"
fi
# a silent server: every query lost, after the timeout
SP=$(free_port)
python3 -c "import socket,time; s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.bind(('127.0.0.1',$SP)); time.sleep(5)" &
pids+=($!)
listening $SP udp || finish
expect 1 'no replies from 127.0.0.1:[0-9]+' "$A" dns -s 127.0.0.1 -p $SP -l 0.5 -t 0.5 -q 5
# a hostile server: a truncated packet, then a reply with the wrong ID, for every query
HP3=$(free_port)
python3 -c "
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', $HP3)); s.settimeout(5)
try:
    while True:
        q, a = s.recvfrom(512)
        s.sendto(q[:5], a)
        bad = bytearray(q); bad[0] ^= 0xff; bad[2] |= 0x80
        s.sendto(bytes(bad), a)
except socket.timeout:
    pass
" &
pids+=($!)
listening $HP3 udp || finish
"$A" dns -s 127.0.0.1 -p $HP3 -l 0.5 -t 0.3 -q 3 -J > "$T/h.json" 2>/dev/null
[ $? = 1 ] || fail "hostile DNS server: want exit 1 (no valid replies)"
jq -e '.replies_malformed > 0 and .replies_unexpected > 0 and .queries_completed == 0 and .queries_lost == .queries_sent' \
	"$T/h.json" >/dev/null || fail "hostile DNS: $(jq -c '{m: .replies_malformed, u: .replies_unexpected, c: .queries_completed, l: .queries_lost, s: .queries_sent}' "$T/h.json")"
echo 'bad..name A' > "$T/bad.txt"
expect 2 'bad.txt:1: .bad..name.: a label is empty' "$A" dns -s 127.0.0.1 -d "$T/bad.txt"
echo 'a.test BOGUS' > "$T/bad2.txt"
expect 2 "bad2.txt:1: unknown query type 'BOGUS'" "$A" dns -s 127.0.0.1 -d "$T/bad2.txt"
finish
