# fio's --zonemode=zbd on a loop device with --zonesize zones (fio's way for a device that
# is not zoned; QEMU's ZNS namespace in boot test 15-zoned is the real one): every write
# at its zone's write pointer, full zones reset, reads below the write pointers, at most
# --max_open_zones zones written at once, a trim a zone's reset -- checked in the I/O
# logs of assay and of fio 3.33 run in the same test, with writes per reset and the I/O
# counts compared to fio's; rewrite mode leaves the device as it was; bad zone options get
# one line.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
dev=$(loopdev zbd 64) || skip "losetup failed"
cd "$T" || exit 1
Z=4194304
e() { expect 1 "^assay: error: disk: $1" "$A" disk --filename="$dev" --mode=destroy --force --rw=randwrite "${@:2}"; }

# zcheck LOG [CAP]: "writes resets early bad reads rbad maxopen" of an I/O log: a write at
# its zone's write pointer, or at its start (a reset: early when the zone was not full);
# bad: anywhere else or past the capacity; rbad: a read above the write pointer; maxopen:
# the most zones partly written at once
zcheck() {
	awk -v zs=$Z -v cap="${2:-$Z}" '
	function part(z) { return wp[z] > z * zs && wp[z] < z * zs + cap }
	$3 == "write" { z = int($4 / zs); s = z * zs
		if (!(z in wp)) wp[z] = s
		was = part(z)
		if ($4 == wp[z]) wp[z] += $5
		else if ($4 == s) { resets++; early += wp[z] < s + cap; wp[z] = s + $5 }
		else bad++
		if (wp[z] > s + cap) bad++
		open += part(z) - was; if (open > maxopen) maxopen = open
		n++ }
	$3 == "read" { z = int($4 / zs); if (!(z in wp) || $4 + $5 > wp[z]) rbad++; r++ }
	END { printf "%d %d %d %d %d %d %d\n", n, resets, early, bad, r, rbad, maxopen }' "$1"
}
# near A B PCT: A within PCT% of B
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'; }
J() { jq -e "$1" out.json >/dev/null || fail "$2: $(jq -c '[.error, (.jobs[]? | {error, w: .write.total_ios, r: .read.total_ios, z: .assay.zbd, e: .assay.error})]' out.json 2>&1 | head -c 400)"; }

# random and sequential writes (2.5 times the region: the zones fill and are reset), each
# engine (size based: the resets of a time-based run would follow the machine's speed)
for args in "--rw=randwrite --bs=64k --ioengine=io_uring --iodepth=8" "--rw=randwrite --bs=64k --ioengine=libaio --iodepth=8" \
	"--rw=randwrite --bs=32k --ioengine=psync" "--rw=write --bs=128k --ioengine=io_uring --iodepth=4"; do
	rm -f a.log f.log
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m $args --direct=1 --io_size=160m \
		--name=z --write_iolog=a.log -J > out.json 2>err.txt || fail "$args: exit $? ($(cat err.txt))"
	# shellcheck disable=SC2086
	fio --name=z --filename="$dev" --zonemode=zbd --zonesize=4m $args --direct=1 --io_size=160m \
		--write_iolog=f.log > fio.txt 2>&1 || fail "fio $args: $(tail -3 fio.txt)"
	read -r n resets early bad _ <<< "$(zcheck a.log)"
	read -r fn fresets _ fbad _ <<< "$(zcheck f.log)"
	[ "$bad" = 0 ] && [ "$fbad" = 0 ] || fail "$args: writes off the write pointers: assay $bad, fio $fbad"
	[ "$resets" -gt 0 ] && [ "$early" = 0 ] || fail "$args: $resets resets ($early of zones not full)"
	J ".jobs[0] | .error == 0 and .write.total_ios == $n and .assay.zbd.zone_resets == $resets and
		.assay.zbd.zones_of == \"zonesize\" and .assay.zbd.zone_bytes == $Z and .assay.zbd.zones == 16 and
		.\"job options\".zonemode == \"zbd\"" "$args"
	# as many resets as fio's
	[ "$n" = "$fn" ] && near "$resets" "$fresets" 10 ||
		fail "$args: writes per reset $n/$resets, fio's $fn/$fresets"
done
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --rw=randwrite --bs=64k --direct=1 \
	--time_based --runtime=0.3 --name=z > out.txt 2>&1 || fail "text: exit $?"
grep -qE '^  write: IOPS=.*msec\); [1-9][0-9]* zone resets$' out.txt || fail "text: no zone resets: $(grep write: out.txt)"

# reads and writes, 4 zones open at most: reads below the write pointers, the first I/Os
# writes (nothing to read yet: fio's)
rm -f a.log f.log
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --rw=randrw --bs=16k --iodepth=16 \
	--max_open_zones=4 --direct=1 --time_based --runtime=1 --name=z --write_iolog=a.log -J > out.json 2>err.txt ||
	fail "randrw: exit $? ($(cat err.txt))"
fio --name=z --filename="$dev" --ioengine=io_uring --zonemode=zbd --zonesize=4m --rw=randrw --bs=16k --iodepth=16 \
	--max_open_zones=4 --direct=1 --time_based --runtime=1 --write_iolog=f.log > fio.txt 2>&1 || fail "fio randrw"
for l in a.log f.log; do
	read -r n resets _ bad r rbad maxopen <<< "$(zcheck $l)"
	[ "$bad" = 0 ] && [ "$rbad" = 0 ] && [ "$maxopen" -le 4 ] && [ "$r" -gt 1000 ] && [ "$resets" -gt 0 ] ||
		fail "randrw max_open_zones=4 ($l): writes $n resets $resets off $bad, reads $r above $rbad, open $maxopen"
	awk '$3 == "read" || $3 == "write" { print $3; exit }' $l | grep -qx write || fail "randrw ($l): a read first"
done
J '.jobs[0] | .error == 0 and .assay.zbd.max_open_zones == 4' "randrw"

# the zones outlive the job: a write job's 8 MiB (its --size of 10m rounded down to whole
# zones, as fio's, said on stderr), then reads of them only; a job reading fresh zones
# reads nothing (fio's)
for t in a f; do
	if [ $t = a ]; then
		"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --direct=1 --name=w \
			--rw=write --bs=1m --size=10m --name=r --stonewall --rw=randread --bs=4k --runtime=0.3 --time_based \
			--write_iolog=r.a --name=s --rw=read --bs=64k --write_iolog=s.a -J > out.json 2>err.txt || fail "reads: exit $?"
		grep -q "^assay: warning: disk: w: --zonemode=zbd: its region is whole zones: 8388608 bytes from 0 (fio's rounding)$" \
			err.txt || fail "no rounding line: $(cat err.txt)"
		jq -r '.jobs[] | .read.total_ios + .write.total_ios' out.json > counts.a
	else
		fio --filename="$dev" --ioengine=io_uring --zonemode=zbd --zonesize=4m --direct=1 --name=w --rw=write --bs=1m \
			--size=10m --name=r --stonewall --rw=randread --bs=4k --runtime=0.3 --time_based --write_iolog=r.f \
			--name=s --rw=read --bs=64k --write_iolog=s.f --output-format=json --output=out.f > /dev/null 2>&1 || fail "fio reads"
		# (fio's "rounded down io_size" line comes before its JSON)
		sed -n '/^{/,$p' out.f | jq -r '.jobs[] | .read.total_ios + .write.total_ios' > counts.f
	fi
	read -r _ _ _ _ r rbad _ <<< "$(cat <(printf '0 /dev/x write 0 %s\n0 /dev/x write %s %s\n' $Z $Z $Z) r.$t | zcheck /dev/stdin)"
	[ "$r" -gt 100 ] && [ "$(awk '$3 == "read" && $4 + $5 > 8388608' r.$t | wc -l)" = 0 ] ||
		fail "randread after 8 MiB written ($t): $r reads, $(awk '$3 == "read" && $4 + $5 > 8388608' r.$t | wc -l) beyond"
	[ "$(awk '$3 == "read" { n++; b += $5 } END { print n, b }' s.$t)" = "128 8388608" ] ||
		fail "seq read after 8 MiB written ($t): $(awk '$3 == "read" { n++; b += $5 } END { print n, b }' s.$t)"
done
[ "$(sed -n '1p;3p' counts.a)" = "$(sed -n '1p;3p' counts.f)" ] || fail "write and seq read counts $(cat counts.a) vs fio's $(cat counts.f)"
"$A" disk --filename="$dev" --zonemode=zbd --zonesize=4m --direct=1 --rw=randread --runtime=0.2 -J > out.json 2>/dev/null ||
	fail "fresh zones: exit $?"
J '.jobs[0] | .error == 0 and .read.total_ios == 0' "a read of fresh zones"

# trims reset zones (bs: the zone size): a random one only zones with data, 10 of the
# 10 written, as fio's; a read after them finds nothing
for t in a f; do
	if [ $t = a ]; then
		"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --direct=1 --name=w --rw=write \
			--bs=1m --size=40m --name=t --stonewall --rw=randtrim --bs=4m --write_iolog=t.a --name=r --stonewall \
			--rw=read --bs=1m -J > out.json 2>/dev/null || fail "trims: exit $?"
		J '[.jobs[] | .write.total_ios, .trim.total_ios, .read.total_ios] == [40, 0, 0, 0, 10, 0, 0, 0, 0] and
			.jobs[1].assay.zbd.zone_resets == 10' "trims"
	else
		fio --filename="$dev" --ioengine=io_uring --zonemode=zbd --zonesize=4m --direct=1 --name=w --rw=write --bs=1m \
			--size=40m --name=t --stonewall --rw=randtrim --bs=4m --write_iolog=t.f > /dev/null 2>&1 || fail "fio trims"
	fi
	[ "$(awk '$3 == "trim" { print $4 / 4194304 }' t.$t | sort -n | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 " ] ||
		fail "randtrim ($t): zones $(awk '$3 == "trim" { print $4 / 4194304 }' t.$t | tr '\n' ' ')"
done

# --verify: the region's zones reset first, none while writing (the job ends when they are
# full), each block read back and checked: as many as fio's; time based, a pass is the
# zones' worth, checked, its zones reset for the next (fio's): two zones (512 writes) a
# pass, so a slow machine's 0.6 s still holds several, and two resets a pass checked
# (a CI run once wrote 5622 blocks of 16 zones in 0.6 s: one pass)
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --direct=1 --rw=randwrite --bs=16k \
	--iodepth=8 --verify=crc32c --size=32m --name=v -J > out.json 2>/dev/null || fail "verify: exit $?"
J '.jobs[0] | .error == 0 and .write.total_ios == 2048 and .assay.verify.blocks == 2048 and .assay.verify.bad == 0' "verify"
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --direct=1 --rw=write --bs=64k \
	--verify=crc32c --loops=3 --size=16m --name=v -J > out.json 2>/dev/null || fail "verify loops: exit $?"
fio --filename="$dev" --zonemode=zbd --zonesize=4m --direct=1 --rw=write --bs=64k --verify=crc32c --loops=3 --size=16m \
	--name=v --output-format=json --output=out.f > /dev/null 2>&1 || fail "fio verify loops"
[ "$(jq -c '[.jobs[0] | .write.total_ios, .read.total_ios, .error]' out.json)" = \
  "$(sed -n '/^{/,$p' out.f | jq -c '[.jobs[0] | .write.total_ios, .read.total_ios, .error]')" ] ||
	fail "verify loops=3: $(jq -c '[.jobs[0] | .write.total_ios, .read.total_ios]' out.json), fio's $(sed -n '/^{/,$p' out.f | jq -c '[.jobs[0] | .write.total_ios, .read.total_ios]')"
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --direct=1 --rw=randwrite --bs=16k \
	--iodepth=8 --verify=crc32c --time_based --runtime=0.6 --size=8m --name=v -J > out.json 2>/dev/null ||
	fail "verify time based: exit $?"
J '.jobs[0] | .error == 0 and .write.total_ios > 1024 and .assay.verify.blocks == .write.total_ios and
	.assay.verify.bad == 0 and .assay.zbd.zone_resets == (.write.total_ios / 512 | floor) * 2' "verify time based"

# --numjobs with a file of each thread's own (fio's JOB.N.0): each file its own zones, each
# thread's writes at its file's write pointers (its clat log with offsets: psync completes
# in order), writes per thread as fio's, resets within one; with --verify, each block checked, as
# many as fio's. (fio 3.33 reads a file's zones before laying it out: they must exist.)
mkdir pa pf && truncate -s 16m pa/z.0.0 pa/z.1.0 pf/z.0.0 pf/z.1.0 || fail "per-thread files"
"$A" disk --directory=pa --name=z --numjobs=2 --group_reporting=0 --size=16m --zonemode=zbd --zonesize=4m \
	--rw=randwrite --bs=64k --ioengine=psync --direct=1 --io_size=40m --write_lat_log=pl --log_offset=1 -J > out.json ||
	fail "per-thread files: exit $?"
fio --directory=pf --name=z --numjobs=2 --size=16m --zonemode=zbd --zonesize=4m --rw=randwrite --bs=64k --ioengine=psync \
	--direct=1 --io_size=40m > fio.txt 2>&1 || fail "fio per-thread files: $(tail -3 fio.txt)"
fr=$(sed -n 's/.*write:.*; \([0-9]*\) zone resets$/\1/p' fio.txt | tr '\n' ' ')
ar=
for t in 1 2; do
	awk -F', ' '{ print 0, "f", $3 == 1 ? "write" : "read", $5, $4 }' "pl_clat.$t.log" > pt.log
	read -r n resets early bad _ <<< "$(zcheck pt.log)"
	[ "$n" = 640 ] && [ "$bad" = 0 ] && [ "$early" = 0 ] || fail "per-thread file $t: $n writes, $bad off the write pointers"
	ar="$ar$resets "
done
# (each thread's zones drawn by its own generator: within one reset of fio's)
awk -v a="$ar" -v f="$fr" 'BEGIN { n = split(a, x, " "); if (split(f, y, " ") != 2 || n != 2) exit 1
	for (i = 1; i <= n; i++) if (x[i] < 1 || x[i] - y[i] > 1 || y[i] - x[i] > 1) exit 1 }' ||
	fail "per-thread files: resets per thread $ar, fio's $fr"
J '[.jobs[] | .write.total_ios == 640 and .assay.zbd.files == 2 and .assay.zbd.zones == 4] == [true, true]' "per-thread files"
"$A" disk --directory=pa --name=z --numjobs=2 --size=16m --zonemode=zbd --zonesize=4m --rw=randwrite --bs=16k \
	--iodepth=8 --direct=1 --verify=crc32c -J > out.json 2>/dev/null || fail "per-thread files, verify: exit $?"
fio --directory=pf --name=z --numjobs=2 --size=16m --zonemode=zbd --zonesize=4m --rw=randwrite --bs=16k --iodepth=8 \
	--ioengine=io_uring --direct=1 --verify=crc32c --output-format=json --output=out.f > /dev/null 2>&1 ||
	fail "fio per-thread files, verify"
fw=$(sed -n '/^{/,$p' out.f | jq '[.jobs[].write.total_ios] | add')
J ".jobs[0] | .error == 0 and .write.total_ios == $fw and .assay.verify.blocks == $fw and .assay.verify.bad == 0" \
	"per-thread files, verify (fio's writes: $fw)"

# random writes of a size the zones are not a multiple of: as much of each zone as they fill
# (the rest left, as fio's)
rm -f a.log
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --rw=randwrite --bs=768k --iodepth=4 \
	--direct=1 --time_based --runtime=0.3 --write_iolog=a.log -J > out.json 2>/dev/null || fail "768k: exit $?"
read -r n resets early bad _ <<< "$(zcheck a.log 3932160)"
[ "$bad" = 0 ] && [ "$resets" -gt 0 ] && [ "$early" = 0 ] || fail "768k writes in 4m zones: $n writes, $resets resets, $early early, $bad off"

# --zonecapacity: writes end there; --zone_reset_threshold/frequency: zones reset before
# they are full
rm -f a.log
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --zonecapacity=3m --rw=randwrite \
	--bs=64k --iodepth=8 --direct=1 --time_based --runtime=0.5 --write_iolog=a.log -J > out.json 2>/dev/null ||
	fail "zonecapacity: exit $?"
read -r n resets early bad _ <<< "$(zcheck a.log 3145728)"
[ "$bad" = 0 ] && [ "$resets" -gt 0 ] && [ "$early" = 0 ] || fail "zonecapacity=3m: $n writes, $resets resets, $early early, $bad off"
# sequential: at a zone's capacity on to the next zone's start (fio's offsets, wrapping)
rm -f a.log f.log
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --zonecapacity=3m --rw=write --bs=1m \
	--direct=1 --io_size=80m --write_iolog=a.log -J > out.json 2>/dev/null || fail "zonecapacity seq: exit $?"
fio --name=c --filename="$dev" --zonemode=zbd --zonesize=4m --zonecapacity=3m --rw=write --bs=1m --direct=1 --io_size=80m \
	--write_iolog=f.log > /dev/null 2>&1 || fail "fio zonecapacity seq"
cmp -s <(awk '$3 == "write" { print $4, $5 }' a.log) <(awk '$3 == "write" { print $4, $5 }' f.log | head -80) ||
	fail "zonecapacity=3m sequential: not fio's offsets: $(awk '$3 == "write" { print $4 / 1048576 }' a.log | head -8 | tr '\n' ' ')"
rm -f a.log
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --rw=randwrite --bs=8k --ioengine=psync \
	--zone_reset_threshold=0.1 --zone_reset_frequency=0.01 --direct=1 --io_size=24m --write_iolog=a.log \
	-J > out.json 2>/dev/null || fail "zone_reset_frequency: exit $?"
read -r n resets early bad _ <<< "$(zcheck a.log)"
# (past the threshold, 10% of the region: 819 writes of 8k, one reset in 100 writes)
[ "$bad" = 0 ] && [ "$early" -gt 0 ] && near "$resets" $(((n - 819) / 100)) 30 ||
	fail "zone_reset_frequency=0.01: $n writes, $resets resets ($early early), $bad off"

# fio's sizes in zones (--size=4z, --offset, --io_size, --offset_increment): the same
# writes as fio's
for args in "--size=4z --offset=2z --bs=1m" "--io_size=6z --size=3z --bs=2m" "--size=2z --offset=5z --rw=randwrite --bs=64k"; do
	rm -f a.log f.log
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --rw=write --direct=1 $args \
		--write_iolog=a.log -J > out.json 2>/dev/null || fail "zones $args: exit $?"
	# shellcheck disable=SC2086
	fio --name=c --filename="$dev" --zonemode=zbd --zonesize=4m --rw=write --direct=1 $args --write_iolog=f.log \
		> /dev/null 2>&1 || fail "fio zones $args"
	cmp -s <(awk '$3 == "write" { print $4, $5 }' a.log | sort -n) <(awk '$3 == "write" { print $4, $5 }' f.log | sort -n) ||
		fail "$args: not fio's writes ($(grep -c write a.log) / $(grep -c write f.log))"
done
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --rw=write --bs=1m --direct=1 --numjobs=2 \
	--size=1z --offset_increment=3z -J > out.json 2>/dev/null || fail "offset_increment=3z: exit $?"
J '.jobs[0] | .write.io_bytes == 8388608 and .["job options"].offset_increment == "12582912"' "offset_increment=3z"
e "--size=4z: zones of what size\? give --zonemode=zbd on a zoned device, or --zonesize$" --size=4z
e "--offset=0z: no zones$" --zonemode=zbd --zonesize=4m --offset=0z
expect 1 "^assay: error: --io_size=4x: not a size; accepted: .*, or a number of zones \(4z\)$" "$A" disk --filename="$dev" --io_size=4x

# threads sharing the zones (2 jobs x 2 threads, 3 open at most, 2 each; twice the
# region written): no error, every write done, zones reset; a zone's writes are one
# thread's at a time (the real device's check: boot test 15-zoned)
"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=4m --rw=randwrite --bs=4k --iodepth=16 \
	--numjobs=2 --max_open_zones=3 --job_max_open_zones=2 --direct=1 --io_size=32m --name=a --name=b \
	-J > out.json 2>err.txt || fail "threads: exit $? ($(cat err.txt))"
J '[.jobs[] | .error == 0 and .write.total_ios == 16384] == [true, true] and ([.jobs[].assay.zbd.zone_resets] | add) > 0' "threads"
# 8 threads over 1 MiB zones, 3 open: a thread finding every open zone full, with another
# thread's last writes to them in flight, waits for them (they close the zones) rather than
# ending early (fio's any_io_in_flight; before, ~1 run in 8 here lost a thread's I/Os);
# a zone counts in the open limit of the thread that opened it, not of the one whose write
# fills it (before, a thread could stay at its limit with nothing open and end early: CI
# once saw a job 202 writes short; unit test zbd checks it step by step)
for i in 1 2 3 4 5 6; do
	"$A" disk --filename="$dev" --mode=destroy --force --zonemode=zbd --zonesize=1m --rw=randwrite --bs=4k \
		--iodepth=16 --numjobs=2 --max_open_zones=3 --job_max_open_zones=2 --direct=1 --io_size=16m \
		--name=a --name=b --name=c --name=d -J > out.json 2>err.txt || fail "threads $i: exit $? ($(cat err.txt))"
	J '[.jobs[] | .error == 0 and .write.total_ios == 8192] == [true, true, true, true]' "8 threads, run $i"
done

# rewrite mode: the same bytes back at the write pointers (the device unchanged);
# readonly: skipped
sum=$(sha "$dev")
"$A" disk --filename="$dev" --mode=rewrite --zonemode=zbd --zonesize=4m --rw=randwrite --bs=16k --iodepth=8 --direct=1 \
	--time_based --runtime=0.5 -J > out.json 2>/dev/null || fail "rewrite: exit $?"
J '.jobs[0] | .error == 0 and .write.total_ios > 0 and .assay.zbd.zone_resets > 0' "rewrite"
"$A" disk --filename="$dev" --zonemode=zbd --zonesize=4m --rw=randwrite -J > out.json 2>/dev/null
rc=$?
[ $rc = 77 ] || fail "readonly: exit $rc, want 77 (every job skipped)"
J '.jobs[0].assay.status == "skipped"' "readonly"
[ "$(sha "$dev")" = "$sum" ] || fail "rewrite or readonly changed the device"

# bad zone options: one line each
e "--zonemode=zbd: $dev is not a zoned device: give --zonesize" --zonemode=zbd
e "--zonesize=4194000: a multiple of 512$" --zonemode=zbd --zonesize=4194000
e "--zonemode=zbd, sequential: the zones' size and capacity are to be multiples of --bs=786432$" --zonemode=zbd \
	--zonesize=4m --bs=768k --rw=write
e "--zonemode=zbd --verify: the zones' size and capacity are to be multiples of --bs=786432 \(fio's rule\)$" \
	--zonemode=zbd --zonesize=4m --bs=768k --verify=crc32c
e "--zonemode=zbd: an I/O of 8388608 bytes is longer than a zone \(4194304\)" --zonemode=zbd --zonesize=4m --bs=8m
e "--zonecapacity=5242880: at most --zonesize=4194304, a multiple of 512" --zonemode=zbd --zonesize=4m --zonecapacity=5m
e "--zonemode=zbd with --zonerange/--zoneskip \(strided zones\): not here" --zonemode=zbd --zonesize=4m --zoneskip=4m
e "--zonemode=zbd with --verify on a read job: not here" --zonemode=zbd --zonesize=4m --verify=crc32c --rw=randread
e "--zonemode=zbd with trimwrite: not here" --zonemode=zbd --zonesize=4m --rw=trimwrite
e "--zonemode=zbd: a trim resets a zone: --bs is to be the zone size \(4194304" --zonemode=zbd --zonesize=4m --rw=randtrim
e "--job_max_open_zones: needs a limit for the device" --zonemode=zbd --zonesize=4m --job_max_open_zones=2
e "--zonemode=zbd: the region \(--offset, --size\) holds no whole zone of 4194304 bytes" --zonemode=zbd --zonesize=4m --size=3m
e "--offset_increment=1048576: whole zones" --zonemode=zbd --zonesize=4m --numjobs=2 --size=8m --offset_increment=1m
e "--max_open_zones: for --zonemode=zbd" --max_open_zones=2
expect 1 "^assay: error: --max_open_zones=5000: out of range" "$A" disk --filename="$dev" --zonemode=zbd --zonesize=4m --max_open_zones=5000
finish
