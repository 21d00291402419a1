# Result documents read back: extract from noisy or truncated console logs, compare,
# certify (rules, units, bad profiles), result files, results disk images via mtools.
. "$(dirname "$0")/lib.sh"

"$A" run --tests=cpu --cpu-time=0.2 > "$T/run.txt" 2> "$T/run.err" || fail "run: exit $?"
"$A" run --tests=cpu --cpu-time=0.2 -J > "$T/a.json" 2>/dev/null || fail "run -J: exit $?"

# --- extract ---
"$A" extract "$T/run.txt" > "$T/x.json" || fail "extract from a clean log: exit $?"
jq -e '.schema_version == 1 and (.summary | length) > 0' "$T/x.json" >/dev/null || fail "extract: not the document"
# a serial log: \r\n, kernel lines between and inside the block's lines
awk '{ printf "%s\r\n", $0 }
     /"tests": \[/ { printf "[   12.345678] virtio_blk virtio1: [vdb] 2048 512-byte logical blocks\r\n" }' \
	"$T/run.txt" > "$T/noisy.log"
sed -i '0,/"schema_version": 1,/s//"schema_v[   13.000001] random: crng init done\r\nersion": 1,/' "$T/noisy.log"
grep -q 'crng init done' "$T/noisy.log" || fail "test setup: no kernel line inside a block line"
"$A" extract "$T/noisy.log" > "$T/x2.json" || fail "extract from a noisy serial log: exit $?"
cmp -s "$T/x.json" "$T/x2.json" || fail "noisy log: a different document"
# truncated: the log ends inside the block
head -n 30 "$T/run.txt" > "$T/trunc.log"
grep -q -- '-----BEGIN ASSAY RESULT-----' "$T/trunc.log" || head -n $(( $(grep -n 'BEGIN ASSAY' "$T/run.txt" | cut -d: -f1) + 20 )) "$T/run.txt" > "$T/trunc.log"
expect 2 'truncated: no .-----END ASSAY RESULT-----. line; [0-9]+ of [0-9]+ bytes present' "$A" extract "$T/trunc.log"
# damaged: a byte changed
sed 's/"schema_version": 1/"schema_version": 2/' "$T/run.txt" > "$T/bad.log"
expect 2 'damaged: CRC-32' "$A" extract "$T/bad.log"
expect 1 'no result block' "$A" extract "$T/run.err"
expect 2 'No such file' "$A" extract "$T/nonexistent.log"

# --- compare ---
jq '.summary = [{"name":"disk.seq.write.bw","value":812.5,"unit":"MB/s"},
                {"name":"disk.qd1.read.clat.p99","value":950,"unit":"us"},
                {"name":"cpu.events_per_sec.all","value":1800,"unit":"events/s"},
                {"name":"steal.max","value":0.5,"unit":"%"}]' "$T/a.json" > "$T/vps1.json"
jq '.summary = [{"name":"disk.seq.write.bw","value":450,"unit":"MB/s"},
                {"name":"disk.qd1.read.clat.p99","value":1500,"unit":"us"},
                {"name":"cpu.events_per_sec.all","value":2100,"unit":"events/s"},
                {"name":"steal.max","value":7.5,"unit":"%"}]' "$T/a.json" > "$T/vps2.json"
"$A" compare "$T/vps1.json" "$T/vps2.json" > "$T/cmp.txt" || fail "compare: exit $?"
grep -qE '^disk.seq.write.bw +MB/s +812 ?\* +450 ' "$T/cmp.txt" || fail "compare: seq write row ($(grep seq.write "$T/cmp.txt"))"
grep -qE '^disk.qd1.read.clat.p99 +us +950\* +1500 ' "$T/cmp.txt" || fail "compare: lower latency is best ($(grep qd1 "$T/cmp.txt"))"
grep -qE '^cpu.events_per_sec.all +events/s +1800 +2100\*' "$T/cmp.txt" || fail "compare: cpu row ($(grep events "$T/cmp.txt"))"
"$A" compare --format=markdown "$T/vps1.json" "$T/vps2.json" | grep -qF '| disk.seq.write.bw | MB/s | **812** | 450 |' ||
	fail "compare: markdown"
"$A" compare --format=csv "$T/vps1.json" "$T/vps2.json" | grep -qx 'steal.max,%,0.50,7.50' || fail "compare: csv"
"$A" compare "$T/vps1.json" "$T/run.txt" >/dev/null || fail "compare: a console log as input"
"$A" compare -J "$T/vps1.json" "$T/vps2.json" | jq -e '.runs == ["vps1","vps2"] and
	(.rows[] | select(.figure == "disk.qd1.read.clat.p99") | .best == 0 and .values == [950,1500])' >/dev/null ||
	fail "compare -J"
# the machines above the figures: vps2 on bare metal with a CPU model holding a comma, a
# quote and a newline; a third result without a machine object
jq '.machine.cpu.model = "Acme \"X\", 8-core\nrev 2" | .machine.hypervisor = null |
    .machine.cpu.online = 8 | .machine.cpu.idle = {"halt_poll_ns": 200000} | .machine.memory.total_bytes = 4294967296' \
	"$T/vps2.json" > "$T/vps3.json"
jq 'del(.machine)' "$T/vps1.json" > "$T/vps4.json"
"$A" compare "$T/vps1.json" "$T/vps3.json" "$T/vps4.json" > "$T/cmp2.txt" || fail "compare with machines: exit $?"
grep -qE '^machine.hypervisor +[^ ].* bare metal +- *$' "$T/cmp2.txt" || fail "compare: hypervisor row ($(grep hypervisor "$T/cmp2.txt"))"
grep -qE '^machine.cpus +[0-9]+ +8 +- *$' "$T/cmp2.txt" || fail "compare: cpus row ($(grep cpus "$T/cmp2.txt"))"
grep -qE '^machine.memory +GiB +[0-9.]+ +4.0 +- *$' "$T/cmp2.txt" || fail "compare: memory row ($(grep memory "$T/cmp2.txt"))"
grep -qE '^machine.cpu +.*Acme "X", 8-co' "$T/cmp2.txt" || fail "compare: cpu row ($(grep machine.cpu "$T/cmp2.txt"))"
[ "$(grep -c . "$T/cmp2.txt")" = "$(( $(grep -c '^machine\.' "$T/cmp2.txt") + 6 ))" ] || fail "compare: a row broke in two: $(cat "$T/cmp2.txt")"
grep -qE '^machine.halt_poll +ns +[0-9]+ +200000 +- *$' "$T/cmp2.txt" || [ ! -r /sys/module/haltpoll/parameters/guest_halt_poll_ns ] ||
	fail "compare: halt poll row ($(grep halt_poll "$T/cmp2.txt"))"
"$A" compare --format=csv "$T/vps1.json" "$T/vps3.json" | grep -qx 'machine.cpu,,[^,]*,"Acme ""X"", 8-core?rev 2"' ||
	fail "compare: csv quoting ($("$A" compare --format=csv "$T/vps1.json" "$T/vps3.json" | grep machine.cpu))"
"$A" compare -J "$T/vps3.json" "$T/vps4.json" | jq -e '.machines[0] == {"cpu": "Acme \"X\", 8-core\nrev 2", "cpus": 8,
	"memory_bytes": 4294967296, "hypervisor": null, "halt_poll_ns": 200000, "kernel": .machines[0].kernel} and
	(.machines[1] | [.[]] | all(. == null))' >/dev/null || fail "compare -J machines: $("$A" compare -J "$T/vps3.json" "$T/vps4.json" | jq -c .machines)"
echo '{"schema_version": 1, "summary": [' > "$T/broken.json"
expect 2 'broken.json: not a result document: line [0-9]+, column' "$A" compare "$T/vps1.json" "$T/broken.json"
echo '{"hello": 1}' > "$T/other.json"
expect 2 'other.json: not an assay result document' "$A" compare "$T/other.json"
expect 2 'unknown value' "$A" compare --format=html "$T/vps1.json"

# --- certify ---
cat > "$T/p1" <<'P'
# thresholds
disk.seq.write.bw >= 600MB/s
disk.qd1.read.clat.p99 <= 1 ms
cpu.events_per_sec.all >= 1500
steal.max <= 5%
P
"$A" certify --profile "$T/p1" "$T/vps1.json" > "$T/c1.txt" || fail "certify vps1: exit $?, want 0: $(cat "$T/c1.txt")"
grep -qE '^PASS  disk.seq.write.bw >= 600 MB/s +measured 812 MB/s$' "$T/c1.txt" || fail "certify: PASS line ($(head -1 "$T/c1.txt"))"
grep -q '^verdict: PASS (0 of 4 rules failed)$' "$T/c1.txt" || fail "certify: verdict line"
"$A" certify -J --profile "$T/p1" "$T/vps1.json" | jq -e '.verdict == "PASS" and (.rules | length) == 4' >/dev/null ||
	fail "certify -J"
"$A" certify --profile "$T/p1" "$T/vps2.json" > "$T/c2.txt"
[ $? = 1 ] || fail "certify vps2: want exit 1"
grep -qE '^FAIL  disk.qd1.read.clat.p99 <= 1 ms +measured 1500 us$' "$T/c2.txt" || fail "certify: ms vs us ($(grep qd1 "$T/c2.txt"))"
grep -q '^verdict: FAIL (3 of 4 rules failed)$' "$T/c2.txt" || fail "certify: FAIL verdict ($(tail -1 "$T/c2.txt"))"
echo 'disk.randrw64.read.bw >= 150MB/s' > "$T/p2"
"$A" certify --profile "$T/p2" "$T/vps1.json" | grep -qE '^FAIL  disk.randrw64.read.bw >= 150 MB/s +not measured' ||
	fail "certify: a missing figure fails"
printf 'steal.max <= 5%%\ndisk.seq.wrte.bandwidth >= 600MB/s\n' > "$T/p3"
expect 2 'p3:2: unknown figure .disk.seq.wrte.bandwidth.' "$A" certify --profile "$T/p3" "$T/vps1.json"
echo 'disk.seq.write.bw >= 600 furlongs' > "$T/p4"
expect 2 "the unit 'furlongs' does not convert to the figure's 'MB/s'" "$A" certify --profile "$T/p4" "$T/vps1.json"
echo 'disk.seq.write.bw => 600MB/s' > "$T/p5"
expect 2 'p5:1: .disk.seq.write.bw.: expected an operator' "$A" certify --profile "$T/p5" "$T/vps1.json"
expect 2 'built-in profiles: vps-tasting, hw-certify, surface, ci' "$A" certify --profile nosuch "$T/vps1.json"
# the surface profile: disk.scan.errors, absent from a result without a scan (not measured: FAIL)
"$A" certify --profile surface "$T/vps1.json" > "$T/surface.txt" 2>&1
[ $? = 1 ] && grep -q '^FAIL  disk.scan.errors == 0 .*not measured' "$T/surface.txt" || fail "surface: $(cat "$T/surface.txt")"
expect 2 'broken.json: not a result document' "$A" certify --profile ci "$T/broken.json"
"$A" certify --profile ci "$T/a.json" >/dev/null; [ $? = 1 ] || fail "certify ci on a cpu-only run: want 1 (no disk figures)"

# --- result files in a directory, atomically named <date>-<machine>.{json,txt} ---
"$A" run --tests=cpu --cpu-time=0.1 --results="$T/res" > "$T/r.txt" 2> "$T/r.err" || fail "run --results=DIR: exit $?"
ls "$T/res"/*.json "$T/res"/*.txt >/dev/null 2>&1 || fail "no result files in $T/res"
[ "$(ls "$T/res" | grep -c tmp)" = 0 ] || fail "temp files left behind"
grep -q "results written to $T/res/" "$T/r.err" || fail "no 'results written' line"
jq -e '.summary | length > 0' "$T"/res/*.json >/dev/null || fail "result file is not the document"
grep -q '^== summary' "$T"/res/*.txt || fail "the .txt lacks the summary"
# the machine line and the idle state it reads (the host's own sysfs)
grep -q '^machine: .*, [0-9]* CPUs, ' "$T"/res/*.txt || fail "the .txt lacks the machine line: $(head -3 "$T"/res/*.txt)"
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
[ -z "$cs" ] || jq -e --arg cs "$cs" '.machine.kernel.clocksource == $cs' "$T"/res/*.json >/dev/null ||
	fail "machine.kernel.clocksource is not $cs"
if [ -r /sys/module/haltpoll/parameters/guest_halt_poll_ns ]; then
	hp=$(cat /sys/module/haltpoll/parameters/guest_halt_poll_ns)
	jq -e --argjson hp "$hp" '.machine.cpu.idle.halt_poll_ns == $hp' "$T"/res/*.json >/dev/null ||
		fail "machine.cpu.idle.halt_poll_ns is not $hp"
	grep -q "(halt poll $hp ns)" "$T"/res/*.txt || fail "the machine line lacks the halt poll"
fi
drv=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)
[ -z "$drv" ] || jq -e --arg d "$drv" '.machine.cpu.idle.driver == $d' "$T"/res/*.json >/dev/null ||
	fail "machine.cpu.idle.driver is not $drv"
"$A" run --tests=cpu --cpu-time=0.1 --results=/proc/nonexistent/dir >/dev/null 2> "$T/r2.err"
grep -q 'results not written: cannot create /proc/nonexistent/dir' "$T/r2.err" || fail "unwritable results dir not reported"

# --- results disk images, no root ---
if command -v mkfs.fat >/dev/null && command -v mcopy >/dev/null; then
	"$A" mkresults "$T/r.img" 8m > /dev/null || fail "mkresults: exit $?"
	mdir -i "$T/r.img" ::assay >/dev/null 2>&1 || fail "mkresults: no assay/ directory"
	[ "$(dd if="$T/r.img" bs=1 skip=43 count=5 status=none)" = ASSAY ] || fail "mkresults: label is not ASSAY"
	expect 2 'exists: not overwriting' "$A" mkresults "$T/r.img"
	mcopy -i "$T/r.img" "$T/res"/*.json ::assay/ || fail "mcopy into the image"
	"$A" fetch "$T/r.img" "$T/fetched" || fail "fetch: exit $?"
	ls "$T/fetched"/*.json >/dev/null 2>&1 || fail "fetch: nothing copied"
else
	echo "note: mkfs.fat or mtools missing: results image checks not run"
fi
finish
