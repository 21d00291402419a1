# SUMMARY: the image pushes its figures (assay.push) to the real Prometheus Pushgateway on the host's loopback through QEMU's gateway (10.0.2.2), grouped by job and the machine's id; the same figures as the console's block
# KERNELS: debian
# TIMEOUT: 300
. "$(dirname "$0")/../lib.sh"
command -v prometheus-pushgateway >/dev/null || skip "prometheus-pushgateway missing"
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
GW=$(free_port)
# (its own persistence file: Debian's default is one shared by every gateway started)
prometheus-pushgateway --web.listen-address=127.0.0.1:$GW --persistence.file="$T/gw.data" > "$T/gw.log" 2>&1 &
pids+=($!)
listening $GW
boot --no-disk --append "assay.tests=cpu assay.cpu-time=1 assay.push=http://10.0.2.2:$GW/metrics/job/fleet"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has "^assay: push: http://10.0.2.2:$GW/metrics/job/fleet: HTTP 200"
result_json "$T/r.json"
id=$(jq -r .machine.id "$T/r.json")
jq -e '.push[0] | .status == 200 and .kind == "pushgateway"' "$T/r.json" >/dev/null || fail "push entry: $(jq -c .push "$T/r.json")"
curl -s "http://127.0.0.1:$GW/metrics" > "$T/gw.txt"
v=$(jq '[.summary[] | select(.name == "cpu.events_per_sec.all")][0].value' "$T/r.json")
got=$(grep "^assay_cpu_events_per_second{.*instance=\"$id\".*job=\"fleet\".*threads=\"all\"}" "$T/gw.txt" | sed 's/.* //')
awk -v a="$got" -v b="$v" 'BEGIN { exit !(a != "" && (a - b) ^ 2 < 1e-6 * b * b) }' ||
	fail "the gateway's figure ($got) is not the run's ($v): $(grep -m2 assay_cpu "$T/gw.txt")"
echo ok
