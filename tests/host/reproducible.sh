# The initramfs is reproducible: two builds (with every input's mtime changed between
# them) are byte-identical; every entry is owned by root with the fixed timestamp.
# TIMEOUT: 300
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
export BUILD=${BUILD:-$top/build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -f "$BUILD/kernel/kver" ] && [ -x "$BUILD/mkcpio" ] || { echo "SKIP: run make first"; exit 77; }
rootfs/build.sh "$T/a.cpio.xz" || exit 1
touch rootfs/etc/* "$BUILD/init" "$BUILD/assay"
rootfs/build.sh "$T/b.cpio.xz" || exit 1
cmp "$T/a.cpio.xz" "$T/b.cpio.xz" || { echo "FAIL: two builds differ"; exit 1; }
xz -dc "$T/a.cpio.xz" | cpio -itv --quiet > "$T/list" 2>&1 || { echo "FAIL: cpio cannot read it"; exit 1; }
bad=$(awk '$3 != "root" || $4 != "root"' "$T/list" | head -n 3)
[ -z "$bad" ] || { echo "FAIL: entries not owned by root: $bad"; exit 1; }
bad=$(grep -v ' 1970 ' "$T/list" | head -n 3)
[ -z "$bad" ] || { echo "FAIL: entries with another timestamp: $bad"; exit 1; }
grep -q ' init$' "$T/list" && grep -q ' bin/assay$' "$T/list" && grep -q ' dev/console$' "$T/list" ||
	{ echo "FAIL: init, bin/assay or dev/console missing"; exit 1; }
# the archive is the list: same entries, same order
n_list=$(grep -c . "$BUILD/rootfs/files.list")
n_cpio=$(grep -c . "$T/list")
[ "$n_list" = "$n_cpio" ] || { echo "FAIL: files.list has $n_list entries, archive $n_cpio"; exit 1; }
size=$(stat -c %s "$T/a.cpio.xz")
echo "ok: identical, $n_cpio entries, $size bytes compressed"
