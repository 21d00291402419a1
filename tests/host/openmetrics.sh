# Figures as Prometheus text: assay export, run and each engine's --output-format=openmetrics pass
# Prometheus's own checker (promtool check metrics), carry base units (bytes per second,
# seconds, ratios) and the labels of what each figure is about; --textfile writes a .prom
# for node_exporter atomically; health's absolute counts are counters.
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"
head -c $((64 << 20)) /dev/urandom > "$T/d.img"
"$A" run --tests=cpu,disk --disks="$T/d.img" --disk-profile=qd1,seq --disk-time=0.3 --cpu-time=0.2 --mode=rewrite \
	-J > "$T/r.json" 2>/dev/null || fail "run: exit $?"
"$A" export "$T/r.json" > "$T/r.prom" || fail "export: exit $?"
promtool check metrics < "$T/r.prom" > "$T/lint" 2>&1 || fail "promtool: $(cat "$T/lint")"
[ "$(tail -n 1 "$T/r.prom")" = "# EOF" ] || fail "no # EOF at the end"
# values in base units, equal to the summary's
iops=$(jq '[.summary[] | select(.name == "disk.qd1.read.iops")][0].value' "$T/r.json")
bw=$(jq '[.summary[] | select(.name == "disk.seq.write.bw")][0].value' "$T/r.json")
p99=$(jq '[.summary[] | select(.name == "disk.qd1.read.clat.p99")][0].value' "$T/r.json")
id=$(jq -r .machine.id "$T/r.json")
val() { grep -E "^$1\{.*$2" "$T/r.prom" | sed 's/.* //'; }
awk -v a="$(val assay_disk_iops 'profile="qd1",direction="read"')" -v b="$iops" 'BEGIN { exit !(a != "" && (a - b) ^ 2 < 1e-6 * b * b) }' ||
	fail "iops: $(val assay_disk_iops 'profile="qd1"') vs $iops"
awk -v a="$(val assay_disk_bytes_per_second 'profile="seq",direction="write"')" -v b="$bw" 'BEGIN { exit !(a != "" && (a - b * 1e6) ^ 2 < 1e-6 * (b * 1e6) ^ 2) }' ||
	fail "bw not in bytes per second: $(val assay_disk_bytes_per_second 'profile="seq",direction="write"') vs $bw MB/s"
# a percentile is a quantile of one summary family, in seconds
awk -v a="$(val assay_disk_clat_seconds 'quantile="0.99",profile="qd1"')" -v b="$p99" 'BEGIN { exit !(a != "" && (a - b / 1e6) ^ 2 < 1e-6 * (b / 1e6) ^ 2) }' ||
	fail "clat not in seconds: $(grep -m2 clat_seconds "$T/r.prom")"
grep -q '^# TYPE assay_disk_clat_seconds summary$' "$T/r.prom" || fail "a percentile family is not a summary"
grep -q "^assay_disk_iops{machine=\"$id\",.*,device=\"$T/d.img\"}" "$T/r.prom" || fail "labels: $(grep -m1 ^assay_disk_iops "$T/r.prom")"
grep -q '^# UNIT assay_disk_clat_seconds seconds$' "$T/r.prom" || fail "no UNIT line"
# Prometheus' naming: no unit inside a unit, ratios 0-1 named _ratio, no label new every
# run (the start a gauge), the machine's MAC (not the loopback's zeros)
grep -qE '_(mib|gbit|mbit)_per_second|_pct_|_ms_|_ns_|_p(50|95|99)_' "$T/r.prom" && fail "a unit in a name: $(grep -m1 -E '_(mib|gbit|mbit)_per_second|_pct_|_ms_|_ns_|_p(50|95|99)_' "$T/r.prom")"
grep -q 'run="' "$T/r.prom" && fail "a run label"
grep -q '^assay_run_start_timestamp_seconds{machine=' "$T/r.prom" || fail "no start time gauge"
grep -q 'mac="00:00:00:00:00:00"' "$T/r.prom" && fail "the loopback's MAC"

grep -q '^assay_cpu_events_per_second{.*threads="all"} ' "$T/r.prom" || fail "cpu family"
# straight from a run, and the textfile written whole
mkdir -p "$T/tf"
"$A" run --tests=cpu --cpu-time=0.2 --output-format=openmetrics --textfile="$T/tf/assay.prom" > "$T/run.prom" 2>/dev/null ||
	fail "run openmetrics: exit $?"
promtool check metrics < "$T/run.prom" >/dev/null 2>&1 || fail "run's output fails promtool"
[ -s "$T/tf/assay.prom" ] && promtool check metrics < "$T/tf/assay.prom" >/dev/null 2>&1 || fail "textfile"
ls -a "$T/tf" | grep -v '^\.\.\?$' | grep -qv '^assay.prom$' && fail "a temporary file left: $(ls -a "$T/tf")"
# health counters: counters named _total, from a fixture EDAC
R=$T/root
mkdir -p "$R/sys/devices/system/edac/mc/mc0/dimm0" "$R/dev" "$R/proc"
echo 2 > "$R/sys/devices/system/edac/mc/mc0/ce_count"; echo 0 > "$R/sys/devices/system/edac/mc/mc0/ue_count"
: > "$R/dev/kmsg"
ASSAY_SYSROOT=$R "$A" run --tests=cpu --cpu-time=0.2 --output-format=openmetrics > "$T/h.prom" 2>/dev/null
promtool check metrics < "$T/h.prom" >/dev/null 2>&1 || fail "health: promtool"
grep -q '^# TYPE assay_health_edac_ce_total counter$' "$T/h.prom" && grep -q '^assay_health_edac_ce_total{.*} 2$' "$T/h.prom" ||
	fail "EDAC counter: $(grep edac_ce "$T/h.prom")"
# each engine on its own: --output-format=openmetrics, the same families as in a run
"$A" cpu --time 0.2 --threads 1 --output-format=openmetrics > "$T/e-cpu.prom" || fail "cpu: exit $?"
"$A" mem --tests=stream --output-format=openmetrics > "$T/e-mem.prom" 2>/dev/null || fail "mem: exit $?"
"$A" disk --filename="$T/d.img" --profile=qd1 --runtime=0.3 --output-format=openmetrics > "$T/e-disk.prom" ||
	fail "disk: exit $?"
for e in cpu mem disk; do
	promtool check metrics < "$T/e-$e.prom" > "$T/lint" 2>&1 || fail "$e: promtool: $(cat "$T/lint")"
	[ "$(tail -n 1 "$T/e-$e.prom")" = "# EOF" ] || fail "$e: no # EOF"
done
grep -q '^assay_cpu_events_per_second{machine=.*threads="1"} [0-9]' "$T/e-cpu.prom" || fail "cpu: $(grep -m1 -v '^#' "$T/e-cpu.prom")"
grep -q '^assay_mem_triad_bytes_per_second{' "$T/e-mem.prom" || fail "mem: $(grep -m1 -v '^#' "$T/e-mem.prom")"
grep -q '^assay_disk_iops{.*profile="qd1",direction="read".*} [0-9]' "$T/e-disk.prom" ||
	fail "disk: $(grep -m1 iops "$T/e-disk.prom")"
# a certified run: the verdict and each rule's outcome, what a fleet alerts on
printf 'cpu.events_per_sec.1t > 0\ncpu.events_per_sec.all > 1e12\n' > "$T/rules"
"$A" run --tests=cpu --cpu-time=0.2 --certify="$T/rules" --output-format=openmetrics > "$T/v.prom" 2>/dev/null
[ $? = 1 ] || fail "a failing rule: want exit 1"
promtool check metrics < "$T/v.prom" > "$T/lint" 2>&1 || fail "verdict metrics: promtool: $(cat "$T/lint")"
grep -q '^assay_certify_pass{machine=.*,profile=".*rules"} 0$' "$T/v.prom" &&
	grep -q '^assay_rule_pass{.*,rule="cpu.events_per_sec.1t > 0"} 1$' "$T/v.prom" &&
	grep -q '^assay_rule_pass{.*,rule="cpu.events_per_sec.all > 1e+12"} 0$' "$T/v.prom" ||
	fail "verdict metrics: $(grep -E 'certify_pass|rule_pass' "$T/v.prom")"
# every family the runs above printed is in the documented table (docs/fleet.md: export
# --list-metrics)
"$A" export --list-metrics > "$T/families.md" || fail "export --list-metrics: exit $?"
for fam in $(cat "$T"/*.prom "$T"/tf/*.prom | grep '^# TYPE ' | awk '{ print $3 }' | sed 's/_total$//' | sort -u); do
	case $fam in assay_health_*) continue ;; esac
	grep -q "^| \`$fam\` |" "$T/families.md" || fail "$fam: not in the metrics table"
done
expect 2 "export: $T/nope.json:" "$A" export "$T/nope.json"
expect 1 "export: --textfile=$T/x.txt: node_exporter reads only files ending in .prom" "$A" export --textfile="$T/x.txt" "$T/r.json"
finish
