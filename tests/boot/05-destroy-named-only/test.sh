# SUMMARY: assay.mode=destroy writes only the disk named with its serial; the other stays byte-identical
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
head -c $((16 << 20)) /dev/urandom > "$T/disk0.img"
truncate -s 16M "$T/disk1.img"
s0=$(sha256sum < "$T/disk0.img")
s1=$(sha256sum < "$T/disk1.img")
boot --disk "$T/disk0.img" --disk "$T/disk1.img" \
	--append "assay.tests=disk assay.mode=destroy assay.destroy=vdb:serial=assay-disk1 assay.disk-profile=seq"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has 'disk vda: not named in --destroy \(assay.destroy\): measured read-only'
has 'destroying the data on /dev/vdb \(assay-disk1, 16777216 bytes\)'
[ "$(sha256sum < "$T/disk0.img")" = "$s0" ] || fail "the disk not named (vda) changed"
[ "$(sha256sum < "$T/disk1.img")" != "$s1" ] || fail "the named disk (vdb) was not written"
echo "ok"
