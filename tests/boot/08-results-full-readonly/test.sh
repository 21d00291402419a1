# SUMMARY: a full and a read-only results partition: a clear line, the console copy complete, older results untouched
# TIMEOUT: 600
. "$(dirname "$0")/../lib.sh"
A=$BUILD/assay
command -v mcopy >/dev/null || skip "mtools missing"
# full: an 8 MiB FAT nearly filled by one file
"$A" mkresults "$T/full.img" 8m >/dev/null || fail "mkresults"
free=$(mdir -i "$T/full.img" ::assay | awk '/bytes free/ { gsub(/ /, "", $0); sub(/bytesfree/, ""); print }')
head -c $((free - 1024)) /dev/urandom > "$T/filler"
mcopy -i "$T/full.img" "$T/filler" ::assay/filler || fail "mcopy filler"
boot --no-disk --results "$T/full.img" --append "assay.tests=cpu assay.cpu-time=1"
[ "$rc" = 0 ] || fail "full: qemu/run exited $rc, want 0"
has '^assay: warning: results not written: cannot (write|create) .*: No space left on device$'
has '^-----END ASSAY RESULT-----$'
"$A" fetch "$T/full.img" "$T/f1" || fail "fetch full"
cmp -s "$T/filler" "$T/f1/filler" || fail "full: the older file changed"
[ "$(ls "$T/f1" | wc -l)" = 1 ] || fail "full: left files behind: $(ls "$T/f1")"

# read-only: the results disk attached read-only
"$A" mkresults "$T/ro.img" 8m >/dev/null || fail "mkresults ro"
s0=$(sha256sum < "$T/ro.img")
boot --no-disk --append "assay.tests=cpu assay.cpu-time=1" \
	--qemu-arg -drive --qemu-arg "file=$T/ro.img,format=raw,if=none,id=ro,readonly=on" \
	--qemu-arg -device --qemu-arg "virtio-blk-pci,drive=ro,serial=assay-results"
[ "$rc" = 0 ] || fail "read-only: qemu/run exited $rc, want 0"
has '^assay: warning: results not written: cannot mount the results partition /dev/vda: .*\(read-only\)$'
has '^-----END ASSAY RESULT-----$'
[ "$(sha256sum < "$T/ro.img")" = "$s0" ] || fail "the read-only results disk changed"
echo ok
