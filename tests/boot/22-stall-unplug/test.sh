# SUMMARY: a disk that stops answering mid-test, one too slow to answer from the start, and one removed mid-test (QEMU monitor: block_set_io_throttle to 16 B/s; device_del of a disk on a PCIe hot-plug port): the watchdog ends the stalled test and names the disk, the test left behind does not hold the run, the stalled disk is not read again (results search), the removed disk's test fails with its error, the disk after them is measured, results written, clean power-off, every image unchanged
# KERNELS: debian
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
for d in stall dead gone good; do head -c $((32 << 20)) /dev/urandom > "$T/$d.img"; done
sums() { sha256sum "$T/stall.img" "$T/dead.img" "$T/gone.img" "$T/good.img" | awk '{ print $1 }'; }
s0=$(sums)
"$A" mkresults "$T/results.img" 8m >/dev/null || fail "mkresults"
mon=$T/monitor
# the results disk is vda, the root bus's disks come first (vdb, vdc), then the hot-plug
# ports' (vdd, vde).  vdc answers 512 B/s from the start (the kernel's partition scan
# passes; the suite's 68 KiB signature read would wait minutes: after 10 s the disk is
# taken as stopped); once vdb's test runs, its throttle drops to 16 B/s (a 4 KiB read
# waits minutes); once vdd's test runs, vdd is unplugged (PCIe native hot-plug: the guest
# lets it go after its 5 s attention delay)
(
	console_wait '\] disk: start' && sleep 2 && monitor_send "$mon" "block_set_io_throttle stall 16 0 0 0 0 0"
	console_wait '\] disk.vdd: start' && sleep 1 && monitor_send "$mon" "device_del gone-dev"
) 2> "$T/monitor.log" &
inj=$!
boot --no-disk --results "$T/results.img" --timeout 500 \
	--qemu-arg -monitor --qemu-arg "unix:$mon,server=on,wait=off" \
	--qemu-arg -drive --qemu-arg "file=$T/stall.img,format=raw,if=none,id=stall,cache=none" \
	--qemu-arg -device --qemu-arg "virtio-blk-pci,drive=stall,serial=assay-stall" \
	--qemu-arg -drive --qemu-arg "file=$T/dead.img,format=raw,if=none,id=dead,cache=none,throttling.bps-total=512" \
	--qemu-arg -device --qemu-arg "virtio-blk-pci,drive=dead,serial=assay-dead" \
	--qemu-arg -device --qemu-arg "pcie-root-port,id=rp1,chassis=1,slot=1" \
	--qemu-arg -drive --qemu-arg "file=$T/gone.img,format=raw,if=none,id=gone,cache=none" \
	--qemu-arg -device --qemu-arg "virtio-blk-pci,drive=gone,serial=assay-gone,bus=rp1,id=gone-dev" \
	--qemu-arg -drive --qemu-arg "file=$T/good.img,format=raw,if=none,id=good,cache=none" \
	--qemu-arg -device --qemu-arg "pcie-root-port,id=rp2,chassis=2,slot=2" \
	--qemu-arg -device --qemu-arg "virtio-blk-pci,drive=good,serial=assay-good,bus=rp2" \
	--append "assay.tests=disk,cpu assay.cpu-time=1 assay.disk-profile=qd1 assay.disk-time=10 assay.test-timeout=20"
wait $inj
cat "$T/monitor.log"
[ "$rc" = 1 ] || fail "qemu/run exited $rc, want 1 (tests failed, clean power-off)"
# the stalled disk: the watchdog's line names it and what it saw
has '^\[ *[0-9]+/[0-9]+\] disk: failed .*timed out after 20 s: killed; vdb: [0-9]+ I/Os? in flight, none completed for [0-9]+ s'
# the removed disk: its test fails with the error it met
# the disk that did not answer the suite's first read: failed at once, not read again
has '^\[ *[0-9]+/[0-9]+\] disk.vdc: failed in 0.0 s, .*: vdc stopped answering \(a read waited over 10 s'
has '^\[ *[0-9]+/[0-9]+\] disk.vdd: failed .*: I/O error \(vdd is gone: removed from /sys/block\)$'
has '^\[ *[0-9]+/[0-9]+\] disk.vde: ok'
has '^\[ *[0-9]+/[0-9]+\] cpu.all: ok'
has '^init: powering off$'
result_json "$T/r.json"
jq -e '[.tests[] | select(.status == "failed") | .name] == ["disk", "disk.vdc", "disk.vdd"]' "$T/r.json" >/dev/null ||
	fail "failed tests: $(jq -c '[.tests[] | {name, status, why}]' "$T/r.json")"
# the results partition was found past the stalled disk and the document written
"$A" fetch "$T/results.img" "$T/got" >/dev/null || fail "fetch results"
ls "$T/got"/*.json >/dev/null 2>&1 || fail "no result document on the results disk: $(ls "$T/got")"
[ "$(sums)" = "$s0" ] || fail "a disk image changed (all were read-only)"
echo ok
