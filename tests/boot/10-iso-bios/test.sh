# SUMMARY: the hybrid ISO boots under SeaBIOS (grub menu on serial, default entry), runs the suite, powers off
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
command -v grub-mkrescue >/dev/null || skip "grub-mkrescue missing"
set -- $(image_files)
ISO_APPEND="assay.tests=cpu assay.cpu-time=1" "$top/mk/iso.sh" "$T/assay.iso" "$1" "$2" || fail "mk/iso.sh"
boot_only --iso "$T/assay.iso" --no-disk
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has 'assay: standard suite \(read-only\)'
has 'assay: rescue shell'
has '^init: assay .* image, booted by iso, '
has '^init: suite status 0$'
has '^init: powering off$'
echo ok
