# SUMMARY: the default image boots, runs the quick suite, prints a results block and powers off
# TIMEOUT: 600
# KERNELS: debian custom
. "$(dirname "$0")/../lib.sh"
head -c $((16 << 20)) /dev/urandom > "$T/disk.img"
boot --disk "$T/disk.img"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
if [ "${ASSAY_KERNEL:-debian}" = custom ]; then
	has '^init: modules: none in this image'
else
	has '^init: modules: .*virtio_blk'
fi
has '^init: disks: vda'
has '^init: suite status 0$'
has '^init: powering off$'
has '^== summary'
hasnt 'Kernel panic|Oops|BUG:|segfault'
result_json "$T/result.json"
jq -e '.schema_version == 1 and .status == "ok" and .boot.in_image == true' "$T/result.json" >/dev/null ||
	fail "document: want schema 1, status ok, in_image"
jq -e '[.tests[] | select(.status == "ok")] | length >= 2' "$T/result.json" >/dev/null ||
	fail "want at least two ok tests"
jq -e '.summary[] | select(.name == "cpu.events_per_sec.1t") | .value > 0' "$T/result.json" >/dev/null ||
	fail "no measured cpu.events_per_sec.1t"
jq -e '.summary[] | select(.name == "disk.seq.read.bw") | .value > 0' "$T/result.json" >/dev/null ||
	fail "no measured disk.seq.read.bw"
jq -e '.tests[] | select(.name == "disk") | .result.jobs[] | select(.jobname == "seq.write") | .assay.status == "skipped"' \
	"$T/result.json" >/dev/null || fail "seq.write not skipped in the default read-only mode"
# the last screen: what an 80x25 console shows when the run is over
tail -n 25 "$console" > "$T/screen"
echo "--- the last 25 lines ---"; cat "$T/screen"
for want in '^==== assay .*, quick suite, ' '^disk vda +seq read [0-9.]+ MB/s, 4k QD1 [0-9]+ IOPS' \
	'^cpu +1 thread [0-9.]+ events/s, all [0-9.]+ events/s' '^memory +write 1t [0-9.]+ MiB/s' '^steal +max [0-9.]+%' \
	'^tests +[0-9]+ of [0-9]+ ok in [0-9]+ s' '^results +in the block above' '^next +powering off$' '^init: powering off$'; do
	grep -qE "$want" "$T/screen" || fail "the last screen lacks /$want/"
done
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$T/screen" || fail "a line of the last screen is over 80 columns"
grep -q -- '-----END ASSAY RESULT-----' "$T/screen" && grep -q '^==== assay' "$T/screen" ||
	fail "the result block ends before the last screen starts"
echo "ok"
