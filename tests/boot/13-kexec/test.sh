# SUMMARY: assay kexec boots the image again from the running image: the suite runs twice
# KERNELS: debian custom
# TIMEOUT: 900
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
command -v mcopy >/dev/null || skip "mtools missing"
set -- $(image_files)
"$A" mkresults "$T/r.img" 48m >/dev/null || fail "mkresults"
mmd -i "$T/r.img" ::kexec && mcopy -i "$T/r.img" "$1" ::kexec/vmlinuz && mcopy -i "$T/r.img" "$2" ::kexec/initramfs.cpio.xz ||
	fail "mcopy"
boot --no-disk --results "$T/r.img" --append "assay.after=kexec assay.tests=cpu assay.cpu-time=1"
[ "$rc" = 0 ] || fail "qemu/run exited $rc, want 0"
has '^init: assay .* image, booted by qemu, '
has '^init: booting again with kexec$'
has '^init: assay .* image, booted by kexec, '
[ "$(grep -c '^init: suite status 0$' "$console")" = 2 ] || fail "want the suite to run twice"
has '^init: powering off$'
"$A" fetch "$T/r.img" "$T/res" || fail "fetch"
[ "$(ls "$T/res"/*.json | wc -l)" = 2 ] || fail "want two result files, one per boot: $(ls "$T/res")"
echo ok
