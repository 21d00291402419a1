# Result documents read back: extract from noisy or truncated console logs, result files,
# results disk images via mtools (compare and certify: compare.sh).
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
