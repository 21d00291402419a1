# Result documents read back: extract from noisy or truncated console logs, result files,
# results disk images via mtools (compare and certify: compare.sh).
. "$(dirname "$0")/lib.sh"

"$A" run --tests=cpu --cpu-time=0.2 > "$T/run.txt" 2> "$T/run.err" || fail "run: exit $?"
"$A" run --tests=cpu --cpu-time=0.2 -J > "$T/a.json" 2>/dev/null || fail "run -J: exit $?"

# --- extract: the compact block (base64 of gzip), and the older one (the JSON as it is) ---
"$A" extract "$T/run.txt" > "$T/x.json" || fail "extract from a clean log: exit $?"
jq -e '.schema_version >= 1 and (.summary | length) > 0' "$T/x.json" >/dev/null || fail "extract: not the document"
blk() { awk '/^-----BEGIN ASSAY RESULT-----$/ { on = 1; getline; next } /^-----END ASSAY RESULT-----$/ { on = 0 } on' "$1"; }
# the system's base64 and gzip read our block: the same document
blk "$T/run.txt" | base64 -d | gzip -dc | jq -S . > "$T/sys.json" || fail "the block is not base64 of a gzip stream"
jq -S . "$T/x.json" | cmp -s - "$T/sys.json" || fail "the system's gzip reads another document"
[ "$(blk "$T/run.txt" | wc -l)" -lt 200 ] || fail "the block is not compact: $(blk "$T/run.txt" | wc -l) lines"
# a block the system's gzip made (dynamic Huffman codes): read
jq . "$T/a.json" > "$T/pretty.json"
crc() { gzip -c < "$1" | tail -c 8 | od -An -tx4 -N4 | tr -d ' '; }
gzip -9c < "$T/pretty.json" > "$T/p.gz"
{ echo x; echo -----BEGIN ASSAY RESULT-----
  echo "format=gzip+base64 bytes=$(stat -c %s "$T/pretty.json") crc32=$(crc "$T/pretty.json") gzip=$(stat -c %s "$T/p.gz")"
  base64 -w 76 < "$T/p.gz"; echo -----END ASSAY RESULT-----; } > "$T/sysgz.log"
"$A" extract "$T/sysgz.log" | jq -S . | cmp -s - <(jq -S . "$T/a.json") || fail "a block of the system's gzip"
# the block before 2026-12-06: the JSON between the markers, its length and CRC-32
{ echo -----BEGIN ASSAY RESULT-----; echo "bytes=$(stat -c %s "$T/pretty.json") crc32=$(crc "$T/pretty.json")"
  cat "$T/pretty.json"; echo -----END ASSAY RESULT-----; } > "$T/old.log"
"$A" extract "$T/old.log" | jq -S . | cmp -s - <(jq -S . "$T/a.json") || fail "an old block is read"
sed 's/"schema_version": 1/"schema_version": 3/' "$T/old.log" > "$T/oldbad.log"
expect 2 'damaged: CRC-32' "$A" extract "$T/oldbad.log"
# a serial log: \r\n, kernel lines between and inside the block's lines
awk '{ printf "%s\r\n", $0 } /^format=/ { getline; printf "%s\r\n[   12.345678] virtio_blk virtio1: [vdb] 2048 512-byte logical blocks\r\n", $0;
	getline; printf "%s[   13.000001] random: crng init done\r\n%s\r\n", substr($0, 1, 30), substr($0, 31) }' \
	"$T/run.txt" > "$T/noisy.log"
grep -q 'crng init done' "$T/noisy.log" || fail "test setup: no kernel line inside a block line"
"$A" extract "$T/noisy.log" > "$T/x2.json" || fail "extract from a noisy serial log: exit $?"
cmp -s "$T/x.json" "$T/x2.json" || fail "noisy log: a different document"
# truncated: the log ends inside the block
head -n $(( $(grep -n 'BEGIN ASSAY' "$T/run.txt" | cut -d: -f1) + 5 )) "$T/run.txt" > "$T/trunc.log"
expect 2 'truncated: no .-----END ASSAY RESULT-----. line; about [0-9]+ of [0-9]+ gzip bytes present' "$A" extract "$T/trunc.log"
# damaged: a character changed, a line lost
awk '/^format=/ { print; getline; $0 = (substr($0, 5, 1) == "A" ? "B" : "A") substr($0, 2, 3) "A" substr($0, 6) } 1' \
	"$T/run.txt" > "$T/bad.log"
cmp -s "$T/bad.log" "$T/run.txt" && fail "test setup: nothing changed"
expect 2 'damaged: (CRC-32|not a valid gzip stream|longer|shorter)' "$A" extract "$T/bad.log"
awk '/^format=/ { print; getline; next } 1' "$T/run.txt" > "$T/lost.log"
expect 2 'damaged: [0-9]+ gzip bytes between the markers, [0-9]+ announced' "$A" extract "$T/lost.log"
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
# --- the last screen: fits 80 columns; steal over the limit makes the figures suspect ---
tail -n 25 "$T/run.txt" | awk 'length($0) > 80 { bad = 1 } END { exit bad }' || fail "the last screen is over 80 columns"
tail -n 12 "$T/run.txt" | grep -qE '^cpu +1 thread [0-9.]+ events/s, all [0-9.]+ events/s' || fail "the last screen's cpu line"
grep -q 'planned about [0-9]* s$' "$T/run.err" || fail "the planned time at the start"
grep -qE '^\[ 1/2\] cpu.1t: ok in [0-9.]+ s, steal [0-9.]+%$' "$T/run.err" || fail "a test's line with its steal: $(grep cpu.1t "$T/run.err")"
jq -e '.tests[0].steal_pct >= 0 and .steal_suspect == false and .steal_limit_pct == 5' "$T/a.json" >/dev/null || fail "steal in the document"
jq '(.summary[] | select(.name == "steal.max") | .value) = 7.5' "$T/a.json" > "$T/steal.json"
"$A" show "$T/steal.json" > "$T/steal.txt" || fail "show FILE: exit $?"
grep -qE '^steal +max 7.50%: over 5%, the figures are suspect' "$T/steal.txt" || fail "suspect steal: $(grep steal "$T/steal.txt")"
grep -qE "^results +$T/steal.json$" "$T/steal.txt" || fail "show FILE: where from"
expect 2 'show: /nonexistent: No such file' "$A" show /nonexistent
# assay.after=shell (in the image): the result files also in /run/assay for the console user
if [ ! -e /run/assay ]; then
	echo "assay.after=shell assay.tests=cpu assay.cpu-time=0.1 assay.results=none" > "$T/cmdline"
	ASSAY_IMAGE=1 "$A" run --cmdline="$T/cmdline" > "$T/shell.txt" 2>/dev/null || fail "after=shell: exit $?"
	ls /run/assay/*.json /run/assay/*.txt >/dev/null 2>&1 || fail "after=shell: no result files in /run/assay"
	grep -qE "^next +a shell on this console; the results are in /run/assay$" "$T/shell.txt" || fail "after=shell: the next line: $(tail -2 "$T/shell.txt")"
	rm -rf /run/assay
fi

finish
