# SUMMARY: results go to the ASSAY partition (json + txt + the HTML report, read back with mtools); it is not benchmarked; older files stay intact
# TIMEOUT: 600
# KERNELS: debian custom
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
command -v mcopy >/dev/null || skip "mtools missing"
head -c $((16 << 20)) /dev/urandom > "$T/disk0.img"
"$A" mkresults "$T/results.img" 16m >/dev/null || fail "mkresults"
head -c 5000 /dev/urandom > "$T/old.bin"
mcopy -i "$T/results.img" "$T/old.bin" ::assay/old.bin || fail "mcopy"
boot --disk "$T/disk0.img" --results "$T/results.img" --append "assay.tests=disk assay.disk-profile=qd1 assay.disk-time=1"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
[ "${ASSAY_KERNEL:-debian}" = custom ] || has '^init: filesystem modules: vfat'
has '^assay: results written to /run/assay-results/assay/[0-9]{8}-[0-9]{6}-[0-9a-f]+\.\{json,txt,html\} \(/dev/vdb\)$'
result_json "$T/console.json"
jq -e '[.tests[] | select(.engine == "disk")] | length == 1 and .[0].result.assay.device.name == "vda"' \
	"$T/console.json" >/dev/null || fail "the results disk was benchmarked, or vda was not"
"$A" fetch "$T/results.img" "$T/fetched" || fail "fetch"
cmp -s "$T/old.bin" "$T/fetched/old.bin" || fail "the older file on the results partition changed"
ls "$T/fetched"/*.json "$T/fetched"/*.txt >/dev/null 2>&1 || fail "no .json/.txt on the results partition"
[ "$(ls "$T/fetched" | grep -ci tmp)" = 0 ] || fail "a temp file was left on the results partition"
# the file holds the console's document, less the "results" note written after it
jq -S 'del(.results)' "$T/console.json" > "$T/a"
jq -S . "$T"/fetched/*.json > "$T/b"
cmp -s "$T/a" "$T/b" || fail "the result file differs from the console's document: $(diff "$T/a" "$T/b" | head -5)"
grep -q '^== summary' "$T"/fetched/*.txt || fail "the .txt lacks the summary"
# the report beside them: the same page assay report makes from the .json on the host
html=$(ls "$T"/fetched/*.html 2>/dev/null | head -n 1)
if [ -z "$html" ]; then
	fail "no .html report on the results partition"
else
	"$A" report "$T"/fetched/*.json -o "$T/host.html" || fail "assay report of the fetched .json"
	cmp -s "$html" "$T/host.html" || fail "the image's report differs from assay report's of the same result"
	grep -q 'Disk latency: share of I/Os slower than x' "$html" || fail "the report lacks the disk latency chart"
fi
echo ok
