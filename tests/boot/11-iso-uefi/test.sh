# SUMMARY: the same ISO boots under UEFI (OVMF), runs the suite, powers off
# TIMEOUT: 1200
. "$(dirname "$0")/../lib.sh"
command -v grub-mkrescue >/dev/null || skip "grub-mkrescue missing"
[ -f /usr/share/ovmf/OVMF.fd ] || skip "ovmf missing"
set -- $(image_files)
ISO_APPEND="assay.tests=cpu assay.cpu-time=1" "$top/mk/iso.sh" "$T/assay.iso" "$1" "$2" || fail "mk/iso.sh"
BOOT_TIMEOUT=1100 boot_only --iso "$T/assay.iso" --bios ovmf --no-disk
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has '^init: assay .* image, booted by iso, '
has '^init: suite status 0$'
has '^init: powering off$'
echo ok
