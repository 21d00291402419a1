# SUMMARY: network boot: iPXE fetches assay.ipxe, the kernel and the initramfs over QEMU's TFTP
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
set -- $(image_files)
PXE_APPEND="assay.tests=cpu assay.cpu-time=1" "$top/mk/pxe.sh" "$T/pxe" "$1" "$2" >/dev/null || fail "mk/pxe.sh"
boot_only --pxe "$T/pxe" --no-disk
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has '^init: assay .* image, booted by pxe, '
has '^init: suite status 0$'
has '^init: powering off$'
echo ok
