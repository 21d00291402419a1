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
echo "ok"
