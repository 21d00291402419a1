# SUMMARY: the guest gets a DHCP lease and runs net and dns against servers on the host's loopback (through QEMU's gateway)
# KERNELS: debian
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
command -v iperf3 >/dev/null || skip "iperf3 missing"
command -v dnsmasq >/dev/null || skip "dnsmasq missing"
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
IP=$(free_port) HP=$(free_port) DP=$(free_port)
iperf3 -s -B 127.0.0.1 -p $IP >/dev/null 2>&1 &
pids+=($!)
mkdir -p "$T/www"
head -c 4000000 /dev/urandom > "$T/www/f.bin"
busybox httpd -f -p 127.0.0.1:$HP -h "$T/www" &
pids+=($!)
printf '10.1.2.3 a.test\n' > "$T/hosts"
dnsmasq --no-daemon --port=$DP --listen-address=127.0.0.1 --bind-interfaces --no-resolv --no-hosts \
	--addn-hosts="$T/hosts" --local=/test/ --log-facility=/dev/null --pid-file= >/dev/null 2>&1 &
pids+=($!)
listening $IP && listening $HP && listening $DP udp
# QEMU's user-mode network: the guest reaches the host's 127.0.0.1 at 10.0.2.2
boot --no-disk --append "assay.tests=net,dns assay.net-time=2 assay.iperf=10.0.2.2:$IP:udp:20M assay.ping=10.0.2.2:$IP assay.http=http://10.0.2.2:$HP/f.bin assay.dns=10.0.2.2:$DP"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has '^init: eth0: DHCP lease in [0-9.]+ s: 10\.0\.2\.15/24$'
result_json "$T/r.json"
for t in net.tcp net.udp net.latency net.http dns; do
	jq -e --arg t $t '.tests[] | select(.name == $t) | .status == "ok"' "$T/r.json" >/dev/null ||
		fail "$t: $(jq -c --arg t $t '.tests[] | select(.name == $t) | {status, why}' "$T/r.json")"
done
jq -e '.summary[] | select(.name == "net.tcp.gbit_per_sec.received") | .value > 0' "$T/r.json" >/dev/null || fail "no throughput"
jq -e '.summary[] | select(.name == "dns.qps") | .value > 0' "$T/r.json" >/dev/null || fail "no dns.qps"
# UDP through QEMU's user-mode network: iperf3's server counted the datagrams the guest sent
jq -e '.tests[] | select(.name == "net.udp") | .result.end.sum_received.packets > 0 and
	.result.start.test_start.protocol == "UDP" and .result.start.target_bitrate == 20000000' "$T/r.json" >/dev/null ||
	fail "net.udp: $(jq -c '.tests[] | select(.name == "net.udp") | .result.end.sum_received' "$T/r.json")"
jq -e '[.summary[] | select(.name == "net.udp.lost_percent" or .name == "net.udp.jitter_ms")] | length == 2' \
	"$T/r.json" >/dev/null || fail "net.udp figures missing"
jq -e '.tests[] | select(.name == "net.http") | .result.http.bytes == 4000000' "$T/r.json" >/dev/null || fail "http bytes"
jq -e '.network_setup | map(test("dhcp=ok")) | any' "$T/r.json" >/dev/null || fail "network_setup lacks the lease"
jq -e '.machine.nics[] | select(.name == "eth0") | .addresses | index("10.0.2.15") != null' "$T/r.json" >/dev/null ||
	fail "eth0 has not 10.0.2.15: $(jq -c '.machine.nics' "$T/r.json")"

# a static address (rtnetlink from init) instead of DHCP
boot --no-disk --append "assay.tests=net assay.net=eth0:10.0.2.15/24:10.0.2.2 assay.net-time=1 assay.iperf=10.0.2.2:$IP"
[ "$rc" = 0 ] || fail "static: qemu/run exited $rc, want 0"
has '^init: eth0: static address 10.0.2.15/24$'
result_json "$T/r3.json"
jq -e '.tests[] | select(.name == "net.tcp") | .status == "ok"' "$T/r3.json" >/dev/null || fail "static: net.tcp not ok"

# the kernel's own ip= form
boot --no-disk --append "ip=10.0.2.15::10.0.2.2:255.255.255.0::eth0:off assay.tests=net assay.net-time=1 assay.iperf=10.0.2.2:$IP"
[ "$rc" = 0 ] || fail "ip=: qemu/run exited $rc, want 0"
has "^init: network from the kernel's ip= parameter: eth0:10.0.2.15/24:10.0.2.2$"
has '^init: eth0: static address 10.0.2.15/24$'

# no network: the tests are skipped and marked, the run goes on
boot --no-disk --net none --append "assay.tests=cpu,net assay.cpu-time=1 assay.iperf=10.0.2.2:$IP"
[ "$rc" = 0 ] || fail "no network: qemu/run exited $rc, want 0"
result_json "$T/r2.json"
jq -e '.tests[] | select(.name == "net.tcp") | .status == "skipped" and (.why | test("network"))' "$T/r2.json" >/dev/null ||
	fail "no network: net.tcp not skipped: $(jq -c '.tests[] | select(.name == "net.tcp")' "$T/r2.json")"
echo ok
