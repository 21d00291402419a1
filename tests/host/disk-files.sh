# fio's several files in one job (--filename=a:b): each file its own region and offsets,
# --size shared out, --file_service_type's order (compared with fio's own write_iolog when
# fio is here), every engine, the safety modes on each file, and what is refused.
# TIMEOUT: 240
. "$(dirname "$0")/lib.sh"
need_root
a=$(loopdev a 8) || skip "losetup failed"
b=$(loopdev b 4) || skip "losetup failed"
sa=$(sha "$a") sb=$(sha "$b")
cd "$T" || exit 1

J() { jq -e "$1" "$T/out.json" >/dev/null || fail "${2:-$1}: $(jq -c '[.jobs[] | {r: .read.total_ios, w: .write.total_ios, e: .error}]' "$T/out.json" 2>&1 | head -c 300)"; }
# the files of the I/O lines of a write_iolog, a for $a and b for $b, one letter each
order() { awk -v a="$a" -v b="$b" '$3 == "read" || $3 == "write" { printf "%s", $2 == a ? "a" : $2 == b ? "b" : "?" }' "$1"; }

# no --size: each file whole, every block of each once; roundrobin, one I/O each in turn
# (then a alone, b done)
"$A" disk --filename="$a:$b" --rw=randread --direct=1 --iodepth=8 --write_iolog=rr.log -J > out.json || fail "a:b: exit $?"
J '.jobs[0] | .read.total_ios == 3072 and .read.io_bytes == 12582912' "a:b: 8 MiB + 4 MiB read"
J ".jobs[0][\"job options\"] | .filename == \"$a:$b\" and .file_service_type == \"roundrobin\" and .size == \"12582912\"" \
	"a:b: job options"
for f in "$a:2048" "$b:1024"; do
	n=$(awk -v d="${f%:*}" '$2 == d && $3 == "read" && $4 % 4096 == 0 { s[$4]++ } END { print length(s) }' rr.log)
	[ "$n" = "${f#*:}" ] || fail "a:b: ${f%:*}: $n distinct blocks, want ${f#*:}"
done
o=$(order rr.log) last_b=$(order rr.log | sed 's/a*$//')
[ "${o:0:8}" = abababab ] && [ ${#last_b} = 2048 ] && [ ${#o} = 3072 ] || fail "roundrobin: ${o:0:20}..${o: -20} (the last b at ${#last_b})"

# --size shared out: 2 MiB of each (fio's); sequential: the whole of a, then b; roundrobin:4
"$A" disk --filename="$a:$b" --rw=read --size=4m --bs=64k --file_service_type=sequential --write_iolog=s.log \
	-J > out.json || fail "sequential: exit $?"
J '.jobs[0].read.total_ios == 64'
[ "$(order s.log)" = "$(printf 'a%.0s' $(seq 32))$(printf 'b%.0s' $(seq 32))" ] || fail "sequential: $(order s.log)"
awk '$3 == "read" && $4 >= 2097152 { bad++ } END { exit bad > 0 }' s.log || fail "--size=4m: offsets past each file's 2 MiB"
"$A" disk --filename="$a:$b" --rw=read --size=1m --file_service_type=roundrobin:4 --write_iolog=r4.log -J > out.json ||
	fail "roundrobin:4: exit $?"
case $(order r4.log) in aaaabbbbaaaabbbb*) ;; *) fail "roundrobin:4: $(order r4.log | head -c 40)" ;; esac
"$A" disk --filename="$a:$b" --rw=randread --size=2m --file_service_type=random --write_iolog=rnd.log -J > out.json ||
	fail "random: exit $?"
o=$(order rnd.log)
J '.jobs[0].read.total_ios == 512' "random: each block of each file's 1 MiB once"
case $o in *aaaa*) ;; *) fail "random: never a run of 4 on a ($o)" ;; esac
[ "$o" != "$(order rr.log | head -c 512)" ] || fail "random: the roundrobin order"
# time based, sequential: a pass over a, then one over b, then a again
"$A" disk --filename="$a:$b" --rw=read --size=128k --time_based --runtime=30 --number_ios=100 \
	--file_service_type=sequential --write_iolog=ts.log -J > out.json || fail "time based: exit $?"
[ "$(order ts.log)" = "$(printf 'a%.0s' $(seq 16))$(printf 'b%.0s' $(seq 16))$(printf 'a%.0s' $(seq 16))$(printf 'b%.0s' $(seq 16))$(printf 'a%.0s' $(seq 16))$(printf 'b%.0s' $(seq 16))aaaa" ] ||
	fail "time based, sequential: $(order ts.log)"

# every engine does the same I/Os
for e in io_uring:--registerfiles=1 io_uring:--fixedbufs=1 libaio psync null; do
	# shellcheck disable=SC2046 # the engine's options split into words
	"$A" disk --filename="$a:$b" --rw=randread --size=2m --iodepth=4 --direct=1 --ioengine="${e%%:*}" \
		$(case $e in *:*) echo "${e#*:}" ;; esac) -J > out.json || fail "$e: exit $?"
	J '.jobs[0].read.total_ios == 512 and .jobs[0].error == 0' "$e"
done

"$A" disk --filename="$a:$b" --rw=randread --size=2m --ioengine=sync --numjobs=2 -J > out.json || fail "sync: exit $?"
J '.jobs[0].read.total_ios == 1024 and .jobs[0].error == 0' "sync, two threads (each its own descriptors)"

# safety: a write job is skipped by default; rewrite writes back what both held; destroy
# changes both, and only where the job's regions are
"$A" disk --filename="$a:$b" --rw=randwrite --size=1m -J > out.json 2>/dev/null
J '.jobs[0].assay.status == "skipped"' "readonly: the write job skipped"
"$A" disk --filename="$a:$b" --rw=randrw --size=2m --iodepth=4 --direct=1 --mode=rewrite -J > out.json ||
	fail "rewrite: exit $?"
J '.jobs[0].write.total_ios > 100' "rewrite: writes"
[ "$(sha "$a")" = "$sa" ] && [ "$(sha "$b")" = "$sb" ] || fail "rewrite changed a file"
tail_a=$(dd if="$a" bs=1M skip=1 status=none | sha256sum) tail_b=$(dd if="$b" bs=1M skip=1 status=none | sha256sum)
"$A" disk --filename="$a:$b" --rw=write --size=2m --mode=destroy --force -J > out.json 2>/dev/null || fail "destroy: exit $?"
J '.jobs[0].write.total_ios == 512'
[ "$(sha "$a")" != "$sa" ] && [ "$(sha "$b")" != "$sb" ] || fail "destroy: a file unchanged"
[ "$(dd if="$a" bs=1M skip=1 status=none | sha256sum)" = "$tail_a" ] &&
	[ "$(dd if="$b" bs=1M skip=1 status=none | sha256sum)" = "$tail_b" ] || fail "destroy: written past the regions"

# --verify over both: each block read back from its file; a block changed on b is found,
# named with its file; --offset_increment, --pre_read on each
for more in "" "--verify_backlog=50 --offset=64k" --loops=2; do
	# shellcheck disable=SC2086 # the options split into words
	"$A" disk --filename="$a:$b" --rw=randwrite --size=4m --iodepth=4 --mode=destroy --force --verify=crc32c $more \
		-J > out.json 2>/dev/null || fail "verify $more: exit $?"
	J '.jobs[0] | .read.total_ios == .write.total_ios and .assay.verify.blocks == .write.total_ios and
		.assay.verify.bad == 0 and .write.total_ios >= 1024' "verify $more"
done
printf x | dd of="$b" bs=1 seek=$((1048576 + 100)) conv=notrunc status=none
"$A" disk --filename="$a:$b" --rw=randwrite --size=4m --verify=crc32c --verify_only -J > out.json 2>/dev/null
J ".jobs[0] | .assay.verify.bad == 1 and .assay.verify.blocks == 1024 and
	(.assay.verify.first_bad | startswith(\"the block at offset 1048576 of $b: \"))" "verify_only: the changed block on b"
"$A" disk --filename="$a:$b" --rw=read --size=2m --numjobs=2 --offset_increment=1m --pre_read=1 --write_iops_log=oi \
	--log_offset=1 --group_reporting -J > out.json || fail "offset_increment: exit $?"
J '.jobs[0].read.total_ios == 1024' "offset_increment: both threads, both files"
awk -F', ' '$5 >= 1048576 { exit 1 }' oi_iops.1.log && awk -F', ' '$5 < 1048576 || $5 >= 2097152 { exit 1 }' oi_iops.2.log ||
	fail "offset_increment: thread 2 not at 1 MiB on each file"

# a log of both files replayed onto both (the log's first file onto the first named): the
# same I/Os on the same files; a log of two files needs two, of one file one
"$A" disk --filename="$a:$b" --rw=randrw --size=1m --iodepth=4 --mode=rewrite --file_service_type=random \
	--write_iolog=w1.log -J > out.json || fail "log both: exit $?"
"$A" disk --filename="$a:$b" --read_iolog=w1.log --replay_no_stall=1 --iodepth=4 --mode=rewrite --write_iolog=w2.log \
	-J > out.json || fail "replay both: exit $?"
J '.jobs[0].read.total_ios + .jobs[0].write.total_ios == 256' "replay both: every entry"
[ "$(awk '$3 == "read" || $3 == "write" { print $2, $3, $4, $5 }' w1.log)" = \
	"$(awk '$3 == "read" || $3 == "write" { print $2, $3, $4, $5 }' w2.log)" ] || fail "replay both: other I/Os"
expect 1 "w1.log:3: $b: a file more than the job's 1" "$A" disk --filename="$a" --read_iolog=w1.log
"$A" disk --filename="$b" --rw=read --size=64k --write_iolog=one.log > /dev/null || fail "log one: exit $?"
expect 1 "read_iolog=one.log: the log names 1 file, --filename 2: one for each" "$A" disk --filename="$a:$b" --read_iolog=one.log

# fio's --nrfiles with no --filename: JOB.0.0, JOB.0.1, ... laid out in --directory (fio's
# names; --size shared out), each file's part read
mkdir d
"$A" disk --name=t --directory=d --nrfiles=3 --size=3m --rw=randread -J > out.json 2>/dev/null || fail "nrfiles: exit $?"
J '.jobs[0].read.total_ios == 768 and .jobs[0]["job options"].filename == "d/t.0.0:d/t.0.1:d/t.0.2"' "nrfiles=3"
[ "$(stat -c %s d/t.0.0 d/t.0.1 d/t.0.2 | sort -u)" = 1048576 ] || fail "nrfiles: $(ls -l d)"
# fio's per-thread names with --numjobs (DigitalOcean's line: no --filename): each thread
# its own files, JOB.THREAD.FILE; each changed by its own thread's writes
"$A" disk --name=rw --directory=d --ioengine=libaio --iodepth=1 --rw=randwrite --bs=4k --direct=0 --size=1M \
	--numjobs=2 --nrfiles=2 --runtime=30 --group_reporting --mode=rewrite -J > out.json 2>/dev/null ||
	fail "per-thread files: exit $?"
J '.jobs[0].write.total_ios == 512 and .jobs[0]["job options"].filename == "d/rw.0.0:d/rw.0.1"' "per-thread files"
for f in rw.0.0 rw.0.1 rw.1.0 rw.1.1; do [ "$(stat -c %s "d/$f")" = 524288 ] || fail "per-thread files: d/$f"; done
sums=$(sha256sum d/rw.* | cut -c1-64)
"$A" disk --name=rw --directory=d --rw=write --size=1M --numjobs=2 --nrfiles=2 --mode=destroy --group_reporting=0 \
	--verify=crc32c --verify_backlog=20 -J > out.json 2>/dev/null || fail "per-thread writes: exit $?"
J '[.jobs[].write.total_ios] == [256, 256] and [.jobs[].assay.verify.blocks] == [256, 256] and [.jobs[]["job options"].filename] == ["d/rw.0.0:d/rw.0.1", "d/rw.1.0:d/rw.1.1"]' \
	"per-thread writes: each thread's files"
for k in 1 2 3 4; do
	[ "$(echo "$sums" | sed -n ${k}p)" != "$(sha256sum d/rw.* | cut -c1-64 | sed -n ${k}p)" ] || fail "per-thread writes: file $k unchanged"
done
head -c 4096 /dev/urandom > d/small.1.0
head -c 1048576 /dev/urandom > d/small.0.0
expect 1 "--size=1m: 1048576 bytes of it \\(the job's files' share\\) from offset 0 go beyond the end of d/small.1.0 \\(4096" \
	"$A" disk --name=small --directory=d --rw=read --size=1m --numjobs=2 --mode=readonly
# with --mode=destroy, or no --mode (fio's semantics: a file of no disk image), extended to
# its share, as fio's (its 4096 bytes kept)
mkdir -p dn && cp d/small.* dn/ && low=$(sha dn/small.1.0)
"$A" disk --name=small --directory=dn --rw=read --size=1m --numjobs=2 -J > out.json 2>err || fail "no --mode: exit $?"
[ "$(stat -c %s dn/small.1.0)" = 1048576 ] && [ "$(head -c 4096 dn/small.1.0 | sha256sum | cut -d' ' -f1)" = "$low" ] &&
	[ ! -s err ] || fail "no --mode: not extended as fio: $(ls -l dn/small.1.0) $(cat err)"
mkdir -p dx && cp d/small.* dx/ && low=$(sha dx/small.1.0)
"$A" disk --name=small --directory=dx --rw=read --size=1m --numjobs=2 --mode=destroy -J > out.json 2>/dev/null ||
	fail "short file extended: exit $?"
J '.jobs[0].read.io_bytes == 2097152' "short file extended: each thread's share read"
[ "$(stat -c %s dx/small.1.0)" = 1048576 ] && [ "$(head -c 4096 dx/small.1.0 | sha256sum | cut -d' ' -f1)" = "$low" ] ||
	fail "short file extended: $(ls -l dx/small.1.0)"
expect 1 "d/small.1.0: 4096 bytes from --offset, thread 1's d/small.0.0 has 1048576: each thread's files as big" \
	"$A" disk --name=small --directory=d --rw=read --size=100% --numjobs=2 --mode=readonly
# fio's --sync_file_range=FLAGS:N: every N writes over the range written since, in the sync
# figures as --fdatasync's (every engine; the job's last N writes too, as ours)
for e in psync io_uring libaio; do
	rm -f sfr.dat
	"$A" disk --name=s --filename=./sfr.dat --size=4m --bs=4k --rw=write --ioengine=$e \
		--sync_file_range=wait_before,write:8 --mode=destroy -J > out.json 2>/dev/null || fail "sync_file_range $e: exit $?"
	J '.jobs[0] | .write.total_ios == 1024 and .sync.total_ios == 128 and .sync.lat_ns.N == 128' "sync_file_range $e"
done
# (the call made over what was written: on /dev/null, not a file, it fails with ESPIPE)
"$A" disk --filename=/dev/null --size=1m --rw=write --sync_file_range=write:8 -J > out.json 2>/dev/null
J '.jobs[0] | .error == 29 and .write.total_ios == 8' "sync_file_range: the call made after 8 writes"
expect 1 "sync_file_range=write: FLAGS:N, FLAGS one or more of wait_before, write, wait_after" \
	"$A" disk --filename=./sfr.dat --size=4m --sync_file_range=write
expect 1 "sync_file_range=flush:8: FLAGS:N" "$A" disk --filename=./sfr.dat --size=4m --sync_file_range=flush:8
rm -f sfr.dat
# fio's --filename_format: the names fio lays out, keywords in any case; without $jobnum the
# threads share the files
for fmt in 'x.$filenum.$JOBNUM' 'shared.$filenum' '$jobname/$clientuid.$jobnum.$filenum'; do
	rm -rf fd ad && mkdir -p fd/j ad/j
	fio --name=j --directory=fd --size=256k --nrfiles=2 --numjobs=2 --rw=write --filename_format="$fmt" \
		--output=/dev/null > /dev/null 2>&1 || fail "fio --filename_format=$fmt"
	"$A" disk --name=j --directory=ad --size=256k --nrfiles=2 --numjobs=2 --rw=write --filename_format="$fmt" \
		--mode=destroy -J > out.json 2>/dev/null || fail "--filename_format=$fmt: exit $?"
	[ "$(cd fd && find . -type f -printf '%p %s\n' | sort)" = "$(cd ad && find . -type f -printf '%p %s\n' | sort)" ] ||
		fail "--filename_format=$fmt: fio's $(cd fd && find . -type f | sort | tr '\n' ' '), ours $(cd ad && find . -type f | sort | tr '\n' ' ')"
done
J '.jobs[0].write.total_ios == 128 and .jobs[0]["job options"].filename == "ad/j/.0.0:ad/j/.0.1"' \
	"--filename_format: the job's files"
expect 1 "--filename_format=\\\$jobname.\\\$jobnum: the same name for each of --nrfiles: put \\\$filenum in it" \
	"$A" disk --name=j --directory=ad --size=256k --nrfiles=2 --rw=read --filename_format='$jobname.$jobnum'
expect 1 "--filename_format=a:b: a name with ':'" "$A" disk --name=j --size=256k --rw=read --filename_format=a:b
"$A" disk --directory=d --filename=t.0.0:t.0.2 --rw=read -J > out.json || fail "directory and a list: exit $?"
J '.jobs[0]["job options"].filename == "d/t.0.0:d/t.0.2" and .jobs[0].read.total_ios == 512' "directory joined to each name"

# refused, one line naming why
expect 1 "--filename=$a:: an empty name in the list" "$A" disk --filename="$a:" --rw=read
expect 1 "are the same device or file" "$A" disk --filename="$a:$a" --rw=read
expect 1 "--nrfiles=3: the job's files are those --filename names \\(2 here" "$A" disk --filename="$a:$b" --nrfiles=3
expect 1 "--file_service_type=zipf: roundrobin" "$A" disk --filename="$a:$b" --file_service_type=zipf
expect 1 "--file_service_type=roundrobin:0: N is a count" "$A" disk --filename="$a:$b" --file_service_type=roundrobin:0
expect 1 "/dev/null in a list of files" "$A" disk --filename="$a:/dev/null" --size=1m
expect 1 "$T/none: No such file or directory" "$A" disk --filename="$a:$T/none" --rw=read
expect 1 "--size=16m: 8388608 bytes of it \\(the job's files' share\\) from offset 0 go beyond the end of $b" \
	"$A" disk --filename="$a:$b" --size=16m

# --offset=N%: N% of each file (fio's), up to the block size: a's region from 2519040 (30%
# of 8 MiB), b's from 1261568 (of 4 MiB), each to its end; a --size in bytes shared out from
# each one's own; --verify writes and checks there, nothing below either offset changes
"$A" disk --filename="$a:$b" --rw=read --bs=4k --offset=30% --write_iolog=p.log -J > out.json || fail "offset=30%: exit $?"
J '.jobs[0].read.io_bytes == (8388608 - 2519040) + (4194304 - 1261568)' "offset=30%: each file from its own 30%"
[ "$(awk -v a="$a" '$3 == "read" { m[$2 == a ? "a" : "b"] = m[$2 == a ? "a" : "b"] == "" || $4 < m[$2 == a ? "a" : "b"] ? $4 : m[$2 == a ? "a" : "b"] }
	END { print m["a"], m["b"] }' p.log)" = "2519040 1261568" ] || fail "offset=30%: the files' first offsets"
"$A" disk --filename="$a:$b" --rw=read --bs=64k --offset=50% --size=2m -J > out.json || fail "offset=50% size=2m: exit $?"
J '.jobs[0].read.io_bytes == 2097152' "offset=50% --size=2m: 1 MiB of each"
head_a=$(dd if="$a" bs=4k count=615 status=none | sha256sum) head_b=$(dd if="$b" bs=4k count=308 status=none | sha256sum)
"$A" disk --filename="$a:$b" --rw=randwrite --offset=30% --iodepth=4 --mode=destroy --force --verify=crc32c \
	--verify_backlog=64 -J > out.json 2>/dev/null || fail "offset=30% verify: exit $?"
J '.jobs[0] | .write.total_ios == 1433 + 716 and .assay.verify.blocks == .write.total_ios and .assay.verify.bad == 0' \
	"offset=30% verify"
[ "$(dd if="$a" bs=4k count=615 status=none | sha256sum)" = "$head_a" ] &&
	[ "$(dd if="$b" bs=4k count=308 status=none | sha256sum)" = "$head_b" ] || fail "offset=30% verify: written below an offset"

# fio's order for the same jobs (its write_iolog)
if command -v fio >/dev/null; then
	for s in roundrobin sequential roundrobin:3; do
		rm -f f.log m.log
		fio --name=x --filename="$a:$b" --rw=read --size=256k --file_service_type=$s --write_iolog=f.log > /dev/null 2>&1 ||
			fail "fio $s failed"
		"$A" disk --filename="$a:$b" --rw=read --size=256k --file_service_type=$s --write_iolog=m.log > /dev/null ||
			fail "$s: exit $?"
		[ "$(order f.log)" = "$(order m.log)" ] || fail "$s: fio's $(order f.log), ours $(order m.log)"
		[ "$(awk '$3 == "read" { print $2, $4 }' f.log | sort)" = "$(awk '$3 == "read" { print $2, $4 }' m.log | sort)" ] ||
			fail "$s: offsets differ from fio's"
	done
	for o in --offset=30% "--offset=45% --size=1m" "--offset=10% --size=50%"; do
		rm -f f.log m.log
		# shellcheck disable=SC2086 # the options split into words
		fio --name=x --filename="$a:$b" --rw=read --bs=64k $o --write_iolog=f.log > /dev/null 2>&1 || fail "fio $o failed"
		# shellcheck disable=SC2086
		"$A" disk --filename="$a:$b" --rw=read --bs=64k $o --write_iolog=m.log > /dev/null || fail "$o: exit $?"
		[ "$(awk '$3 == "read" { print $2, $4 }' f.log | sort)" = "$(awk '$3 == "read" { print $2, $4 }' m.log | sort)" ] ||
			fail "$o: offsets differ from fio's"
	done
	# --offset=N% of files the run lays out (fio's: of the empty file, 0), then of the same
	# files, now too short for --offset + --size: fio extends them, assay with --mode=destroy
	rm -rf fo ao && mkdir fo ao
	offs() { awk '$3 == "write" { n = split($2, p, "/"); print p[n], $4 }' "$1" | sort; }
	for round in made extended; do
		rm -f f.log m.log
		fio --name=j --directory=fo --nrfiles=2 --size=4m --offset=50% --rw=write --bs=64k --write_iolog=f.log \
			> /dev/null 2>&1 || fail "fio offset=50% $round failed"
		[ $round = extended ] && low_a=$(head -c 1048576 ao/j.0.0 | sha256sum)
		"$A" disk --name=j --directory=ao --nrfiles=2 --size=4m --offset=50% --rw=write --bs=64k --mode=destroy \
			--write_iolog=m.log > /dev/null 2>&1 || fail "offset=50% $round: exit $?"
		[ -n "$(offs f.log)" ] && [ "$(offs f.log)" = "$(offs m.log)" ] || fail "offset=50% $round: offsets differ from fio's"
		[ "$(cd fo && stat -c '%n %s' j.0.*)" = "$(cd ao && stat -c '%n %s' j.0.*)" ] ||
			fail "offset=50% $round: fio's files $(ls -l fo), ours $(ls -l ao)"
	done
	[ "$(head -c 1048576 ao/j.0.0 | sha256sum)" = "$low_a" ] || fail "offset=50% extended: bytes below the offset changed"
	[ "$(stat -c %s ao/j.0.0)" = 3145728 ] || fail "offset=50%: $(ls -l ao)"
	# not with --mode=readonly or rewrite, nor a file holding a filesystem without --force:
	# untouched
	sum=$(sha ao/j.0.0)
	expect 1 "--size=4m: beyond the end of ao/j.0.0 .*; fio extends a file that short, assay with --mode=destroy" \
		"$A" disk --filename=ao/j.0.0 --size=4m --rw=read --mode=readonly
	[ "$(sha ao/j.0.0)" = "$sum" ] || fail "a short file changed without --mode=destroy"
	if command -v mkfs.ext4 >/dev/null; then
		truncate -s 8m ao/fs.img && mkfs.ext4 -q ao/fs.img && sum=$(sha ao/fs.img)
		expect 1 "--size=16m: beyond the end of ao/fs.img" "$A" disk --filename=ao/fs.img --size=16m --rw=read --mode=destroy
		[ "$(sha ao/fs.img)" = "$sum" ] || fail "a file holding ext4 was extended without --force"
	fi
	# --create_on_open=1: made empty (0600), not laid out; the writes make it, as fio's
	rm -f fo/c ao/c f.log m.log
	fio --name=j --filename=fo/c --size=1m --rw=write --bs=64k --create_on_open=1 --write_iolog=f.log > /dev/null 2>&1 ||
		fail "fio create_on_open failed"
	"$A" disk --name=j --filename=ao/c --size=1m --rw=write --bs=64k --create_on_open=1 --mode=destroy \
		--write_iolog=m.log -J > out.json 2>/dev/null || fail "create_on_open: exit $?"
	J '.jobs[0].write.io_bytes == 1048576' "create_on_open: the writes"
	[ "$(stat -c '%s %a' fo/c)" = "$(stat -c '%s %a' ao/c)" ] && [ "$(offs f.log)" = "$(offs m.log)" ] ||
		fail "create_on_open: fio's $(stat -c '%s %a' fo/c), ours $(stat -c '%s %a' ao/c)"
	rm -f ao/c
	"$A" disk --name=j --filename=ao/c --size=1m --rw=read --create_on_open=1 > /dev/null 2> err.txt
	rc=$?
	[ $rc = 1 ] && grep -q "^assay: error: disk: j: read returned no data (end of device?) at offset 0" err.txt ||
		fail "create_on_open read: exit $rc, $(cat err.txt)"
	[ "$(stat -c %s ao/c)" = 0 ] || fail "create_on_open read: $(ls -l ao/c)"
	fio --name=x --filename="$a:$b" --rw=randread --bs=16k --output-format=json > f.json 2>/dev/null || fail "fio a:b failed"
	"$A" disk --filename="$a:$b" --rw=randread --bs=16k -J > out.json || fail "a:b vs fio: exit $?"
	[ "$(jq '.jobs[0].read.total_ios' f.json)" = "$(jq '.jobs[0].read.total_ios' out.json)" ] ||
		fail "a:b: fio's $(jq '.jobs[0].read.total_ios' f.json) I/Os, ours $(jq '.jobs[0].read.total_ios' out.json)"
fi
finish
