# SUMMARY: the scratch disk's sha256 is identical before and after a run
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
head -c $((32 << 20)) /dev/urandom > "$T/disk0.img"
head -c $((8 << 20)) /dev/urandom > "$T/disk1.img"
before=$(sha256sum "$T/disk0.img" "$T/disk1.img" | awk '{ print $1 }')
boot --disk "$T/disk0.img" --disk "$T/disk1.img" --append "assay.tests=disk assay.disk-time=1"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has '^init: disks: vda vdb'
after=$(sha256sum "$T/disk0.img" "$T/disk1.img" | awk '{ print $1 }')
[ "$before" = "$after" ] || fail "a disk image changed: before $before after $after"
echo "ok: sha256 unchanged"
