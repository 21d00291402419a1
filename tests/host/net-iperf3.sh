# assay net and assay serve as iperf3 3.12 users meet them: UDP both ways and with stock
# iperf3 on either end, --bidir, -P 4, -R; the JSON key sets of both tools' reports equal
# (assay may add keys, never lack one); the text in iperf3's shape; -V, -i, --logfile,
# --get-server-output, -w, -C, -Z, -M, --cport, -B; options that cannot be, refused in one line.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
command -v iperf3 >/dev/null || skip "iperf3 missing"
command -v jq >/dev/null || skip "jq missing"
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; cleanup' EXIT
iperf3_server || finish
K='[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]'

# --- the same test through both clients against iperf3's server: the same keys ---
for args in "" "-u -b 20M" "-R" "--bidir" "-P 4" "-u -b 10M -R" "-u -b 10M --bidir -P 2"; do
	iperf3 -c 127.0.0.1 -p $P -t 1 $args -J > "$T/i.json" || fail "iperf3 $args: exit $?"
	"$A" net -c 127.0.0.1 -p $P -t 1 $args -J > "$T/a.json" || fail "assay net $args: exit $?"
	jq -r "$K" "$T/i.json" > "$T/i.keys"
	jq -r "$K" "$T/a.json" > "$T/a.keys"
	missing=$(comm -23 "$T/i.keys" "$T/a.keys" | tr '\n' ' ')
	[ -z "$missing" ] || fail "assay net $args -J lacks iperf3's keys: $missing"
done

# --- UDP figures: the rate met; the loss as iperf3's server counts it, consistent with the
# bytes it received (a loaded machine drops some datagrams on loopback: counted, not failed) ---
"$A" net -c 127.0.0.1 -p $P -t 2 -u -b 20M -l 1400 -J > "$T/u.json" || fail "udp: exit $?"
jq -e '.start.test_start.protocol == "UDP" and .start.test_start.blksize == 1400 and
	(.end.sum_sent.bits_per_second / 20e6 - 1 | fabs) < 0.05 and .end.sum.lost_percent < 50 and
	.end.sum_received.bytes == (.end.sum_received.packets - .end.sum_received.lost_packets) * 1400 and
	(.end.sum_received.lost_percent - 100 * .end.sum_received.lost_packets / .end.sum_received.packets | fabs) < 1e-6 and
	.end.sum_received.packets > 3000 and .end.sum.jitter_ms >= 0 and .end.streams[0].udp.out_of_order == 0 and
	(.intervals | length) >= 2 and .intervals[0].sum.packets > 0' "$T/u.json" >/dev/null ||
	fail "udp figures: $(jq -c '{s: .end.sum_sent, r: .end.sum_received}' "$T/u.json")"
# the sequence numbers as iperf3 counts them: its server's loss figures match ours
"$A" net -c 127.0.0.1 -p $P -t 1 -u -b 5M -R -J > "$T/ur.json" || fail "udp -R: exit $?"
jq -e '.end.sum_received.packets > 0 and .end.sum_received.lost_packets < .end.sum_received.packets and
	.end.sum_received.jitter_ms > 0 and .end.streams[0].udp.received_packets == .end.sum_received.packets' \
	"$T/ur.json" >/dev/null || fail "udp -R: $(jq -c .end.sum_received "$T/ur.json")"

# --- text in iperf3's shape ---
"$A" net -c 127.0.0.1 -p $P -t 2 -P 2 > "$T/t.txt" || fail "text: exit $?"
grep -qE '^\[ ID\] Interval           Transfer     Bitrate         Retr  Cwnd$' "$T/t.txt" || fail "text: header"
[ "$(grep -cE '^\[ +[0-9]+\]   [01]\.[0-9]{2}-[12]\.[0-9]{2} +sec ' "$T/t.txt")" -ge 4 ] || fail "text: per-stream interval lines: $(cat "$T/t.txt")"
grep -qE '^\[SUM\]   0.00-2.[0-9]+   sec .* +sender$' "$T/t.txt" || fail "text: [SUM] sender line"
grep -qE '^\[ +[0-9]+\]   0.00-2.[0-9]+   sec .* +receiver$' "$T/t.txt" || fail "text: stream receiver line"
tail -n 1 "$T/t.txt" | grep -qx 'iperf Done.' || fail "text: no 'iperf Done.' at the end"
"$A" net -c 127.0.0.1 -p $P -t 1 -R > "$T/r.txt" || fail "-R text: exit $?"
grep -qx 'Reverse mode, remote host 127.0.0.1 is sending' "$T/r.txt" || fail "-R text: reverse line"
grep -qxE '\[ ID\] Interval           Transfer     Bitrate' "$T/r.txt" || fail "-R: interval lines have no Retr column"
"$A" net -c 127.0.0.1 -p $P -t 1 --bidir > "$T/b.txt" || fail "--bidir text: exit $?"
grep -q '\]\[TX-C\]' "$T/b.txt" && grep -q '\]\[RX-C\]' "$T/b.txt" || fail "--bidir text: roles"
"$A" net -c 127.0.0.1 -p $P -t 1 -u -b 2M > "$T/u.txt" || fail "udp text: exit $?"
grep -qE '^\[ +[0-9]+\]   0.00-1.[0-9]+   sec .* ms  [0-9]+/[0-9]+ \([0-9.e+-]+%\)  receiver$' "$T/u.txt" ||
	fail "udp text: receiver line: $(cat "$T/u.txt")"
"$A" net -c 127.0.0.1 -p $P -t 1 -V > "$T/v.txt" || fail "-V: exit $?"
for l in '^Time: ' '^      Cookie: ' '^Starting Test: protocol: TCP, 1 streams, 131072 byte blocks' \
	'^Test Complete. Summary Results:$' '^CPU Utilization: local/sender' '^snd_tcp_congestion '; do
	grep -qE "$l" "$T/v.txt" || fail "-V: no line like $l"
done
"$A" net -c 127.0.0.1 -p $P -t 2 -i 0.5 -J | jq -e '(.intervals | length) >= 4 and .intervals[0].sum.seconds < 0.7' >/dev/null ||
	fail "-i 0.5: intervals"
"$A" net -c 127.0.0.1 -p $P -t 1 -i 0 -J | jq -e '(.intervals | length) == 1' >/dev/null || fail "-i 0: one interval"
"$A" net -c 127.0.0.1 -p $P -t 1 --logfile "$T/log" > "$T/stdout" || fail "--logfile: exit $?"
[ ! -s "$T/stdout" ] && grep -qx 'iperf Done.' "$T/log" || fail "--logfile: output not in the file"
"$A" net -c 127.0.0.1 -p $P -t 1 -w 256k -C reno -Z -M 1400 -J > "$T/o.json" || fail "-w -C -Z -M: exit $?"
jq -e '.start.sock_bufsize == 262144 and .start.tcp_mss == 1400 and .end.sender_tcp_congestion == "reno" and
	.end.receiver_tcp_congestion == "reno" and .end.sum_received.bytes > 0' "$T/o.json" >/dev/null ||
	fail "-w -C -Z -M: $(jq -c '{b: .start.sock_bufsize, m: .start.tcp_mss, c: .end.sender_tcp_congestion}' "$T/o.json")"
CP=$(free_port)
"$A" net -c 127.0.0.1 -p $P -t 1 -B 127.0.0.1 --cport $CP -P 2 -J > "$T/c.json" || fail "--cport: exit $?"
jq -e --argjson p $CP '[.start.connected[].local_port] == [$p, $p + 1]' "$T/c.json" >/dev/null ||
	fail "--cport: $(jq -c '[.start.connected[].local_port]' "$T/c.json")"

# --- stock iperf3 clients against assay serve ---
SP=$(free_port)
"$A" serve -B 127.0.0.1 -p $SP --forever > "$T/serve.log" 2>&1 &
pids+=($!)
listening $SP || finish
for args in "-u -b 20M" "-u -b 10M -R" "--bidir -P 2" "-u -b 5M --bidir" "-P 4 -R"; do
	iperf3 -c 127.0.0.1 -p $SP -t 1 $args -J > "$T/s.json" || fail "iperf3 $args vs assay serve: exit $?"
	jq -e '.error == null and .end.sum_received.bytes > 0' "$T/s.json" >/dev/null ||
		fail "iperf3 $args vs assay serve: $(jq -c '{e: .error, r: .end.sum_received}' "$T/s.json")"
done
iperf3 -c 127.0.0.1 -p $SP -t 1 -u -b 10M --get-server-output > "$T/so.txt" || fail "--get-server-output: exit $?"
grep -q '^Server output:$' "$T/so.txt" && grep -qE '^Accepted connection from 127.0.0.1, port [0-9]+$' "$T/so.txt" &&
	grep -qE '^\[ +[0-9]+\] +0.00-[0-9.]+ +sec .* ms  [0-9]+/[0-9]+ \([0-9.e+-]+%\)  receiver$' "$T/so.txt" ||
	fail "--get-server-output: $(cat "$T/so.txt")"
"$A" net -c 127.0.0.1 -p $SP -t 1 -u -b 10M --get-server-output -J | jq -e '.server_output_text | test("Accepted connection")' \
	>/dev/null || fail "assay --get-server-output against assay serve"
grep -q '^serve: 1 stream, UDP, received' "$T/serve.log" || fail "serve log: $(cat "$T/serve.log")"

# --- assay serve survives hostile and vanishing clients, and tells a second client it is busy ---
python3 - 127.0.0.1 $SP > "$T/hostile.out" 2>&1 <<'PY' &
import json, socket, struct, sys, time
host, port = sys.argv[1], int(sys.argv[2])
def conn():
    s = socket.create_connection((host, port), timeout=20)
    return s
def hello(s):
    s.sendall(b"a" * 36 + b"\0")
    return s.recv(1)
cookie = b"b" * 36 + b"\0"
s = conn(); s.close()                                      # vanishes before its cookie
s = conn(); s.sendall(b"xy"); s.close()                    # a cut cookie
s = conn(); hello(s); s.sendall(struct.pack(">I", 1 << 30)); time.sleep(0.3); s.close()   # a huge message
s = conn(); hello(s); s.sendall(struct.pack(">I", 7) + b"{nope!}"); time.sleep(0.3); s.close()
s = conn(); hello(s); p = json.dumps({"tcp": True, "time": 2, "parallel": 100000, "len": 131072}).encode()
s.sendall(struct.pack(">I", len(p)) + p); st = s.recv(1)
print("parallel=100000 answered", struct.unpack("b", st)[0]); s.close()
# a client that starts a test and vanishes in the middle of it
c = conn(); c.sendall(cookie); c.recv(1)
p = json.dumps({"tcp": True, "time": 3, "parallel": 1, "len": 131072}).encode()
c.sendall(struct.pack(">I", len(p)) + p); c.recv(1)        # CREATE_STREAMS
d = conn(); d.sendall(cookie); c.recv(2)                   # TEST_START, TEST_RUNNING
d.sendall(b"z" * 100000)
# meanwhile another client is told the server is busy
e = conn(); e.sendall(b"c" * 36 + b"\0"); r = e.recv(1)
print("second client got", struct.unpack("b", r)[0] if r else "nothing"); e.close()
d.close(); c.close()
print("done")
PY
hpid=$!
pids+=($hpid)
wait $hpid
grep -qx 'parallel=100000 answered -2' "$T/hostile.out" || fail "serve: out-of-range params not refused: $(cat "$T/hostile.out")"
grep -qx 'second client got -1' "$T/hostile.out" || fail "serve: a second client not told busy: $(cat "$T/hostile.out")"
grep -qx done "$T/hostile.out" || fail "serve: hostile client script: $(cat "$T/hostile.out")"
iperf3 -c 127.0.0.1 -p $SP -t 1 -J > "$T/after.json" && jq -e '.end.sum_received.bytes > 0' "$T/after.json" >/dev/null ||
	fail "assay serve after the hostile clients: $(jq -c .error "$T/after.json")"
for m in 'announced a JSON message of 1073741824 bytes: refused' 'malformed JSON from the peer' \
	'asked for 100000 streams' 'sent no cookie'; do
	grep -q "$m" "$T/serve.log" || fail "serve log lacks: $m"
done

# --- what cannot be, in one line ---
expect 2 '-R and --bidir: give one' "$A" net -c 127.0.0.1 -t 1 -R --bidir
expect 2 "iperf3's /BURST is not supported" "$A" net -c 127.0.0.1 -t 1 -u -b 10M/100
expect 2 'bitrate=fast: want bits/s' "$A" net -c 127.0.0.1 -t 1 -u -b fast
expect 2 'interval=0.05: at least 0.1 s' "$A" net -c 127.0.0.1 -t 1 -i 0.05
expect 1 "TCP congestion control 'nosuchcc' \(-C\): not available on this host" \
	"$A" net -c 127.0.0.1 -p $P -t 1 -C nosuchcc
finish
