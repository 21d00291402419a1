# SUMMARY: faults in one boot: a disk whose first sector always fails, one whose last sector fails once, writes failing on the disk destroy may write; each named on the console, the tests marked, the rest run, clean power-off, every disk not named for writing byte-identical; then the smallest memory the image is documented to boot with
# KERNELS: debian
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
drive() {   # ID IMAGE BLKDEBUG-CONF SERIAL: a virtio disk behind QEMU's blkdebug
	printf '%s\n' --qemu-arg -drive --qemu-arg "driver=raw,file.driver=blkdebug,file.config=$3,file.image.driver=file,file.image.filename=$2,if=none,id=$1,cache=none" \
		--qemu-arg -device --qemu-arg "virtio-blk-pci,drive=$1,serial=$4"
}
for d in w first last; do head -c $((16 << 20)) /dev/urandom > "$T/$d.img"; done
# vda: named for destroy, every write touching 4 MiB fails; vdb: reads of sector 0 always
# fail; vdc: the read of the last sector fails once
printf '[inject-error]\nevent = "write_aio"\nerrno = "5"\nsector = "8192"\n' > "$T/w.conf"
printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "0"\n' > "$T/first.conf"
printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "32767"\nonce = "on"\n' > "$T/last.conf"
sfirst=$(sha256sum < "$T/first.img") slast=$(sha256sum < "$T/last.img")
mapfile -t args < <(drive w "$T/w.img" "$T/w.conf" assay-w; drive first "$T/first.img" "$T/first.conf" assay-first
	drive last "$T/last.img" "$T/last.conf" assay-last)
boot --no-disk "${args[@]}" --append "assay.tests=cpu,disk assay.cpu-time=1 assay.disk-profile=seq assay.disk-time=1 assay.mode=destroy assay.destroy=vda:serial=assay-w"
[ "$rc" = 1 ] || fail "qemu/run exited $rc, want 1 (tests failed)"
has 'destroying the data on /dev/vda \(assay-w'
has 'disk vdb: not named in --destroy \(assay.destroy\): measured read-only'
# a buffered sequential write meets the error at its flush
has '^assay: error: disk: seq.write: (fdatasync|write at offset [0-9]+): I/O error$'
has '^\[ *[0-9]+/[0-9]+\] disk.vdb: failed .*read at offset 0: I/O error$'
has '^\[ *[0-9]+/[0-9]+\] disk.vdc: failed .*read at offset 15728640: I/O error$'
has '^status: failed$'
has '^\[ *[0-9]+/[0-9]+\] cpu.all: ok'
has '^init: powering off$'
result_json "$T/r.json"
jq -e '[.tests[] | select(.name | startswith("cpu"))] | length > 0 and all(.status == "ok")' "$T/r.json" >/dev/null ||
	fail "the CPU tests did not all run"
jq -e '[.tests[] | select(.status == "failed") | .name] == ["disk", "disk.vdb", "disk.vdc"] and
	([.tests[] | select(.status == "failed")] | all(.why | test("I/O error")))' "$T/r.json" >/dev/null ||
	fail "failed tests not marked with the I/O error: $(jq -c '[.tests[] | {name, status, why}]' "$T/r.json")"
[ "$(sha256sum < "$T/first.img")" = "$sfirst" ] || fail "vdb (read-only) changed"
[ "$(sha256sum < "$T/last.img")" = "$slast" ] || fail "vdc (read-only) changed"

# little memory (the smallest documented in docs/reliability.md: 176 MiB; 160 panics
# unpacking the initramfs), a test child that crashes and one that hangs (assay.fault, a
# hidden testing aid), and a hostile command line: a hundred unknown keys, bytes that are
# not text, a key given twice (the last wins: poweroff, not reboot)
junk=$(for i in $(seq 1 100); do printf 'assay.k%03d=v ' $i; done)
boot --no-disk --mem 176 --append "assay.after=reboot $junk assay.x=$(printf '\xff\xfe\x01') assay.tests=cpu,mem assay.cpu-time=1 assay.fault=cpu.1t:segv,mem.1t:hang assay.test-timeout=8 assay.after=poweroff"
[ "$rc" = 1 ] || fail "--mem 176: qemu/run exited $rc, want 1 (two tests failed, clean power-off)"
has '^\[ *1/[0-9]+\] cpu.1t: failed .*crashed: killed by SIGSEGV \(11\)$'
has '^\[ *2/[0-9]+\] cpu.all: ok'
has '^\[ *3/[0-9]+\] mem.1t: failed .*timed out after 8 s: killed$'
has '^\[ *4/[0-9]+\] mem.all: ok'
has '^assay: warning: kernel command line: assay.k100: unknown option'
has '^init: powering off$'
result_json "$T/m.json"
jq -e '[.tests[] | select(.status == "ok") | .name] == ["cpu.all", "mem.all"]' "$T/m.json" >/dev/null ||
	fail "the tests after the crash and the hang did not run: $(jq -c '[.tests[] | {name, status}]' "$T/m.json")"
echo ok
