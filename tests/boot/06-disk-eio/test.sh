# SUMMARY: a disk returning EIO mid-run (QEMU blkdebug): clear error, partial results kept and marked, run goes on, powers off; the scan profile goes past it and certify=surface fails
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
head -c $((32 << 20)) /dev/urandom > "$T/eio.img"
# reads touching sector 40960 (20 MiB) fail with EIO
printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "40960"\n' > "$T/blkdebug.conf"
eio_disk=(--qemu-arg -drive --qemu-arg "driver=raw,file.driver=blkdebug,file.config=$T/blkdebug.conf,file.image.driver=file,file.image.filename=$T/eio.img,if=none,id=eio,cache=none"
	--qemu-arg -device --qemu-arg "virtio-blk-pci,drive=eio,serial=assay-eio")
boot --no-disk --append "assay.disk-profile=seq,qd1 assay.disk-time=1" \
	"${eio_disk[@]}"
[ "$rc" = 1 ] || fail "qemu/run exited $rc, want 1 (a test failed)"
has '^assay: error: disk: seq.read: read at offset 20971520: I/O error$'
has 'FAILED: read at offset 20971520: I/O error \(figures above are partial\)'
has '^\[ *[0-9]+/[0-9]+\] cpu.all: ok'
has '^init: suite status 1$'
has '^init: powering off$'
result_json "$T/result.json"
jq -e '.tests[] | select(.name == "disk") | .status == "failed" and (.why | test("I/O error"))' "$T/result.json" >/dev/null ||
	fail "the disk test is not marked failed with the I/O error"
jq -e '.tests[] | select(.name == "disk") | .result.jobs[] | select(.jobname == "seq.read") |
	.read.total_ios == 20 and .error == 5 and .assay.status == "failed"' "$T/result.json" >/dev/null ||
	fail "seq.read: want 20 MiB read before the error, error 5, marked failed"
jq -e '.tests[] | select(.name == "cpu.all") | .status == "ok"' "$T/result.json" >/dev/null || fail "cpu tests did not run"
# the kernel's I/O error lines, read from /dev/kmsg, are the disk test's and a health figure
jq -e '[.health.kernel_events[] | select(.class == "io")] | length >= 1 and all(.test == "disk")' "$T/result.json" \
	>/dev/null || fail "kernel I/O errors not attributed to the disk test: $(jq -c .health.kernel_events "$T/result.json")"
jq -e '[.summary[] | select(.name == "health.kernel_errors")][0].value >= 1' "$T/result.json" >/dev/null ||
	fail "health.kernel_errors"

# the same disk scanned (assay.disk-profile=scan): the run goes on past the bad sector, the
# failed read is listed, and assay.certify=surface fails on disk.scan.errors
boot --no-disk --append "assay.tests=disk assay.disk-profile=scan assay.disk-time=60 assay.certify=surface" \
	"${eio_disk[@]}"
[ "$rc" = 1 ] || fail "scan + certify=surface: qemu/run exited $rc, want 1 (the verdict)"
has '^FAIL  disk.scan.errors == 0 +measured [1-9][0-9]* errors$'
has '^     failed    : (read [0-9]+\+1048576, )*read 20971520\+1048576'
has '^init: powering off$'
result_json "$T/scan.json"
# (QEMU's virtio-blk merges neighbouring requests: one that holds the bad sector fails
# whole, so the reads next to it may fail too; each listed)
jq -e '.tests[] | select(.name == "disk") | .status == "ok" and (.result.jobs[0] | .total_err as $e | .jobname == "scan"
	and $e >= 1 and .read.total_ios == 32 and .read.io_bytes == (32 - $e) * 1048576 and
	(.assay.errors | length == $e and any(.offset == 20971520) and
	 all(.op == "read" and .length == 1048576 and .errno == 5 and .offset >= 16777216 and .offset <= 25165824)))' \
	"$T/scan.json" >/dev/null ||
	fail "scan: $(jq -c '.tests[] | select(.name == "disk") | [.status, .why, (.result.jobs[0] | [.total_err, .assay.errors])]' "$T/scan.json")"
echo "ok"
