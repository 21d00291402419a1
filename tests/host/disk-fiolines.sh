# fio command lines as people paste them: single-dash long options (fio's
# getopt_long_only, the classic `fio -filename=... -iodepth 1 -thread ...` line), --timeout,
# options fio users set that change nothing here (accepted at their default value, refused
# with one line otherwise), and the ones that do: --max_latency (ETIMEDOUT), --nice and
# --prioclass/--prio (seen on the job threads in /proc), --disk_util=0, --pre_read,
# --fill_device, --offset_align (fio's offsets), --exec_prerun/--exec_postrun. The device's
# content is unchanged by every read-only run.
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev fl 32) || skip "losetup failed"
cd "$T" || exit 1
J() { jq -e "$1" out.json >/dev/null || fail "$2: $(jq -c '[.error, (.jobs[]? | {error, o: .["job options"]})]' out.json 2>&1 | head -c 400)"; }
sum=$(sha "$dev")

# the line in every Chinese and English fio tutorial, single dashes and spaces as pasted
"$A" disk -filename="$dev" -direct=1 -iodepth 1 -thread -rw=randread -ioengine=psync -bs=16k -size=8M \
	-numjobs=2 -runtime=0.3 -group_reporting -name=mytest -J > out.json 2>/dev/null || fail "classic line: exit $?"
J '.jobs[0] | .jobname == "mytest" and .["job options"].bs == "16384" and .["job options"].numjobs == "2" and
	.["job options"].ioengine == "psync" and .read.total_ios > 0' "classic line"
expect 1 "^assay: error: -nice_try=1: unknown option, long or short \(see --help\)$" \
	"$A" disk -filename="$dev" -nice_try=1
"$A" disk --filename="$dev" --rw=randread --size=8m --timeout 0.2 --time_based -J > out.json 2>/dev/null ||
	fail "--timeout: exit $?"
J '.jobs[0]["job options"].runtime == "0.2" and .jobs[0].read.runtime < 1000' "--timeout is --runtime"

# accepted at fio's default (no effect here), refused otherwise
for o in --iomem=shmhuge --mem=malloc --iomem_align=4k --hugepage-size=2m --stats=1 --significant_figures=6 \
	--unit_base=8 --io_submit_mode=inline --nonvectored=1 --serialize_overlap=0 --atomic=0 --zonemode=none \
	--uncached=0 --pre_read=0 --write_barrier=0 --lockmem=0 --trim_percentage=0 --experimental_verify=0 \
	--cmdprio_percentage=0 --bs_is_seq_rand=0; do
	"$A" disk --filename="$dev" --rw=randread --size=4m --runtime=0.1 "$o" -J > out.json 2>/dev/null ||
		fail "$o: exit $?"
done
expect 1 "^assay: error: --atomic=1: unknown value; accepted: one of 0$" "$A" disk --filename="$dev" --atomic=1
expect 1 "^assay: error: --unit_base=1: unknown value; accepted: one of 0\|8$" "$A" disk --filename="$dev" --unit_base=1
expect 1 "^assay: error: --iomem_align=64k: out of range" "$A" disk --filename="$dev" --iomem_align=64k

# --max_latency: an I/O slower than it ends the job (fio's ETIMEDOUT, exit 1); per direction
"$A" disk --filename="$dev" --rw=randread --size=8m --runtime=1 --max_latency=1 -J > out.json 2>err.txt
[ $? = 1 ] || fail "max_latency: exit code"
J '.jobs[0] | .error == 110 and .assay.status == "failed"' "max_latency: ETIMEDOUT"
grep -qE "^assay: error: disk: job: a read at offset [0-9]+ took [0-9]+ us, over --max_latency=1 us$" err.txt ||
	fail "max_latency message: $(cat err.txt)"
"$A" disk --filename="$dev" --rw=randread --size=8m --runtime=0.3 --max_latency=10s,1 -J > out.json 2>/dev/null ||
	fail "max_latency for writes only, a read job: exit $?"
expect 1 "^assay: error: --max_latency=x: not a time" "$A" disk --filename="$dev" --max_latency=x

# --nice, --prioclass/--prio: each job thread's, read from /proc while it runs
"$A" disk --filename="$dev" --rw=randread --runtime=3 --time_based --numjobs=2 --nice=7 --prioclass=3 \
	-J > out.json 2>/dev/null &
pid=$!
seen=""
for _ in $(seq 40); do
	sleep 0.1
	seen=$(for t in /proc/$pid/task/*; do
		[ "$(awk '{print $19}' "$t/stat" 2>/dev/null)" = 7 ] && ionice -p "${t##*/}" 2>/dev/null
	done | sort | uniq -c | tr -s ' ')
	[ "$seen" = " 2 idle" ] && break
done
wait $pid || fail "nice/prioclass run: exit $?"
[ "$seen" = " 2 idle" ] || fail "two threads at nice 7, class idle: saw '$seen'"
"$A" disk --filename="$dev" --rw=randread --runtime=2 --time_based --prio=6 -J > out.json 2>/dev/null &
pid=$!
seen=""
for _ in $(seq 30); do
	sleep 0.1
	seen=$(for t in /proc/$pid/task/*; do ionice -p "${t##*/}" 2>/dev/null; done | grep -c "best-effort: prio 6")
	[ "$seen" = 1 ] && break
done
wait $pid || fail "prio run: exit $?"
[ "$seen" = 1 ] || fail "one thread best-effort prio 6: saw $seen"

# sizes as fio reads them under its kb_base (given first, as in a [global] section): by
# default 4k is 4096 and 4KiB 4000 (sic), with --kb_base=1000 the other way round; I/O
# sizes and bytes done equal fio's; an IEC size in the default mode is warned about
for args in "--bs=4k --size=8m" "--bs=4KiB --size=8MiB" "--kb_base=1000 --bs=4k --size=8MB" \
	"--kb_base=1000 --bs=4KiB --size=8MiB" "--kb_base=1000 --bs=8KiB --size=8m" "--kb_base=1024 --bs=2k --size=6MB"; do
	# shellcheck disable=SC2086
	want=$(fio --name=x --filename="$dev" --rw=randread $args --output-format=json 2>/dev/null |
		jq -c '.jobs[0].read | [.io_bytes, .total_ios]')
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" --rw=randread $args -J > out.json 2>err.txt || fail "$args: exit $?"
	got=$(jq -c '.jobs[0].read | [.io_bytes, .total_ios]' out.json)
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "$args: assay $got, fio $want"
	case $args in
	"--bs=4KiB --size=8MiB") grep -q "^assay: warning: disk: 4KiB read as fio reads it, 4000 bytes" err.txt ||
		fail "$args: no warning: $(cat err.txt)" ;;
	*) grep -q "read as fio reads it" err.txt && fail "$args: a warning: $(cat err.txt)" ;;
	esac
done
printf '[global]\nkb_base=1000\nbs=4KiB\nsize=8MiB\n[a]\nrw=randread\n[b]\nkb_base=1024\nrw=randread\n' > kb.fio
"$A" disk kb.fio --filename="$dev" -J > out.json 2>/dev/null || fail "kb_base job file: exit $?"
J '[.jobs[] | .read | [.io_bytes, .total_ios]] == [[8388608, 2048], [8000000, 2000]]' "kb_base in a job file, per job"

# fio's rw=rw and offset modifiers: sequential with holes (the same offsets as fio's, read
# from both tools' --write_iolog; a readwrite job's reads and writes each with its own
# cursor, as fio's), random runs of N (sequential or identical in between); --number_ios
offs() { grep -E ' (read|write|trim) ' "$1" | awk '{print $3, $4, $5}'; }
for rw in read:8k rw:4k write:4k; do
	fio --name=x --filename="$dev" --rw=$rw --bs=4k --size=1m --direct=1 --write_iolog=f.log > /dev/null 2>&1 ||
		fail "fio --rw=$rw"
	mode=--mode=destroy
	"$A" disk --filename="$dev" --rw=$rw --bs=4k --size=1m --direct=1 $mode --write_iolog=a.log -J > out.json \
		2>/dev/null || fail "--rw=$rw: exit $?"
	case $rw in rw:*) # readwrite mixes at random: each direction with its own cursor, as fio's
		steps() { offs "$1" | awk '{if ($2 != n[$1]++ * 8192) bad++} END {print bad + 0, (n["read"] > 0), (n["write"] > 0)}'; }
		[ "$(steps f.log)" = "0 1 1" ] && [ "$(steps a.log)" = "0 1 1" ] ;;
	*) cmp -s <(offs f.log) <(offs a.log) ;;
	esac || fail "--rw=$rw: not fio's offsets: $(offs a.log | head -3 | tr '\n' '|') vs $(offs f.log | head -3 | tr '\n' '|')"
	J ".jobs[0][\"job options\"].rw == \"$(echo $rw | sed 's/^rw/readwrite/; s/4k/4096/; s/8k/8192/')\"" "--rw=$rw reported"
	rm -f f.log a.log
done
"$A" disk --filename="$dev" --rw=randread:4 --size=1m --write_iolog=a.log -J > out.json 2>/dev/null || fail "randread:4"
runs=$(offs a.log | awk '{o = $2 / 4096; if (NR % 4 != 1 && o != p + 1) bad++; p = o} END {print NR, bad + 0}')
[ "$runs" = "256 0" ] || fail "randread:4: runs of 4 consecutive blocks (I/Os, breaks): $runs"
"$A" disk --filename="$dev" --rw=randread:4 --rw_sequencer=identical --size=1m --write_iolog=a.log -J > out.json \
	2>/dev/null || fail "identical"
runs=$(offs a.log | awk '{if (NR % 4 != 1 && $2 != p) bad++; p = $2} END {print NR, bad + 0}')
[ "$runs" = "256 0" ] || fail "randread:4 identical: the same offset 4 times (I/Os, breaks): $runs"
J '.jobs[0]["job options"] | .rw == "randread:4" and .rw_sequencer == "identical"' "identical reported"
"$A" disk --filename="$dev" --rw=randread --number_ios=100 --size=1m -J > out.json 2>/dev/null || fail "number_ios"
J '.jobs[0].read.total_ios == 100 and .jobs[0]["job options"].number_ios == 100' "--number_ios=100"
expect 1 "^assay: error: disk: --rw=write:8k: a hole takes one block size" \
	"$A" disk --filename="$dev" --rw=write:8k --bs=4k,8k --mode=destroy
expect 1 "^assay: error: --rw=randread:0: '0' is not a number of I/Os" "$A" disk --filename="$dev" --rw=randread:0
# sequential patterns are deterministic: the same offsets as fio's for the same options
for args in "--rw=read --size=64k --offset=8k" "--rw=trimwrite --size=32k" "--rw=read --size=32k --loops=2" \
	"--rw=read --size=32k --io_size=48k" "--rw=write --bs=4k,8k --size=64k" "--rw=read --size=64k --offset=10%" \
	"--rw=write --bs=4k,8k --bs_is_seq_rand=1 --size=64k" "--rw=read --bssplit=8k/50:16k/50,4k --bs_is_seq_rand=1 --size=64k" \
	"--rw=read --size=10% --offset=50%" "--rw=read --offset=1% --bs=64k --size=64k" "--rw=write:8k --size=1m --offset=4k" \
	"--rw=read --size=32k --io_size=48k --loops=2" "--rw=write --size=32k --io_size=16k --loops=3" \
	"--rw=read --zonemode=strided --zonesize=64k --zoneskip=1m --size=4m --io_size=512k" \
	"--rw=read --zonemode=strided --zonesize=64k --zonerange=256k --zoneskip=128k --size=4m" \
	"--rw=read --zonemode=strided --zonesize=256k --zonerange=64k --zoneskip=64k --size=2m --io_size=1m" \
	"--rw=write --zonemode=strided --zonesize=1m --zoneskip=20m --io_size=4m --offset=1m" \
	"--rw=read --zonemode=strided --zonesize=64k --zoneskip=2z --io_size=3z" \
	"--rw=read --zonemode=strided --zonesize=64k --size=2z --offset=3z" \
	"--rw=read:512k --bs=1m --size=4m" "--rw=write:1000 --size=64k" "--rw=read:300k --bs=1m --size=4500k" \
	"--rw=read:-8k --size=64k" "--rw=read:-16k --size=64k --offset=8k"; do
	rm -f f.log a.log
	# shellcheck disable=SC2086
	fio --name=x --filename="$dev" $args --write_iolog=f.log > /dev/null 2>&1 || fail "fio $args"
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" $args --mode=destroy --write_iolog=a.log -J > out.json 2>/dev/null || fail "$args: exit $?"
	cmp -s <(offs f.log) <(offs a.log) ||
		fail "$args: not fio's offsets ($(offs f.log | wc -l) / $(offs a.log | wc -l) I/Os): $(diff <(offs f.log) <(offs a.log) | head -3 | tr '\n' '|')"
done
sum=$(sha "$dev")

# fio's strided zones, random: each zone's blocks once per --zonerange (its random map
# reset), the same blocks as fio's (above: the sequential ones are fio's offsets)
for z in "--zonesize=64k --zoneskip=1m --io_size=512k" "--zonesize=128k --zonerange=64k --zoneskip=3m --io_size=1m"; do
	rm -f f.log a.log
	# shellcheck disable=SC2086
	fio --name=x --filename="$dev" --rw=randread --zonemode=strided $z --write_iolog=f.log > /dev/null 2>&1 || fail "fio $z"
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" --rw=randread --zonemode=strided $z --write_iolog=a.log -J > out.json || fail "$z: exit $?"
	cmp -s <(offs f.log | sort -n) <(offs a.log | sort -n) || fail "randread $z: not fio's blocks"
done
expect 1 "^assay: error: disk: --zonemode=strided: strided zones need --zonesize$" "$A" disk --filename="$dev" --zonemode=strided
expect 1 "zonemode=none and --zonesize: give --zonemode=strided" "$A" disk --filename="$dev" --zonemode=none --zonesize=64k
expect 1 "^assay: error: disk: --zonemode=zbd: $dev is not a zoned device: give --zonesize \(the zones kept here\)$" \
	"$A" disk --filename="$dev" --zonemode=zbd
expect 1 "zonesize, --zonerange, --zoneskip: multiples of --bs=4096" "$A" disk --filename="$dev" --zonesize=6k

# --verify over strided zones: every block the zones' writes reached read back once and
# checked, nothing else read; sequential: the same writes and reads as fio's; random, with
# zones revisited: the last write of each block checked (fio 3.33 fails its own check
# there: "bad header numberio"), also time based and with --verify_backlog
wblk() { awk -v d="$1" '$3 == d { print $4 }' "$2" | sort -un; }
for z in "--rw=write --zonesize=64k --zonerange=1m --size=1m" "--rw=write --zonesize=2m --zonerange=1m --size=4m" \
	"--rw=write --zonesize=64k --zonerange=1m --zoneskip=1m --size=2m" "--rw=randwrite --zonesize=64k --zonerange=1m --size=1m"; do
	rm -f f.log a.log
	# shellcheck disable=SC2086
	fio --name=x --filename="$dev" --zonemode=strided $z --verify=crc32c --write_iolog=f.log --output-format=json \
		> f.json 2>/dev/null || fail "fio verify $z"
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" --zonemode=strided $z --verify=crc32c --mode=destroy --write_iolog=a.log -J > out.json \
		2>/dev/null || fail "verify $z: exit $?"
	[ "$(jq -c '.jobs[0] | [.write.total_ios, .read.total_ios, .error]' out.json)" = \
	  "$(sed -n '/^{/,$p' f.json | jq -c '.jobs[0] | [.write.total_ios, .read.total_ios, .error]')" ] &&
		J '.jobs[0].assay.verify | .bad == 0 and .blocks > 0' "verify $z" ||
		fail "verify $z: $(jq -c '.jobs[0] | [.write.total_ios, .read.total_ios, .assay.verify]' out.json), fio's $(sed -n '/^{/,$p' f.json | jq -c '.jobs[0] | [.write.total_ios, .read.total_ios]')"
	[ "$(wblk write a.log)" = "$(wblk read a.log)" ] && { [ "${z%% *}" = --rw=randwrite ] || cmp -s <(wblk write a.log) <(wblk write f.log); } ||
		fail "verify $z: the blocks read back are not those written (or not fio's)"
done
for z in "--rw=randwrite --zonesize=2m --zonerange=1m --size=4m --iodepth=4" \
	"--rw=randwrite --zonesize=64k --zonerange=1m --zoneskip=1m --size=2m --verify_backlog=32" \
	"--rw=randwrite --zonesize=64k --zonerange=512k --time_based --runtime=0.3 --iodepth=4"; do
	rm -f a.log
	# shellcheck disable=SC2086
	"$A" disk --filename="$dev" --zonemode=strided $z --verify=crc32c --mode=destroy --write_iolog=a.log -J > out.json \
		2>/dev/null || fail "verify $z: exit $?"
	# (with a backlog each write is checked as it goes: a block written again, checked again)
	n=$(wblk write a.log | wc -l) want=$n
	more='>'   # blocks written again (a slow machine's 0.3 s may not get round the zones: >=)
	case $z in *backlog*) want=.write.total_ios ;; *time_based*) more='>=' ;; esac
	J ".jobs[0] | .error == 0 and .assay.verify.bad == 0 and .assay.verify.blocks == $want and .write.total_ios $more $n" \
		"verify $z"
	[ "$(wblk write a.log)" = "$(wblk read a.log)" ] || fail "verify $z: the blocks read back are not those written"
done
expect 1 "strided zones \(--zonesize\) with --verify and --numjobs \(the threads' zones would cross\): not here" \
	"$A" disk --filename="$dev" --zonesize=64k --verify=crc32c --rw=write --numjobs=2 --mode=destroy
expect 1 "strided zones \(--zonesize\) with --verify_only" "$A" disk --filename="$dev" --zonesize=64k --verify=crc32c \
	--rw=write --verify_only

# --bs_is_seq_rand: the first side of --bs sizes the sequential I/Os (percentage_random's share,
# each going on from the last of its direction), the second the random ones, reads and
# writes alike; the shares those of fio's (its random map off: it shortens I/Os otherwise)
for t in fio "$A disk --mode=destroy"; do
	rm -f sr.log
	$t --name=x --filename="$dev" --rw=randrw --percentage_random=40,75 --bs=4k,16k --bs_is_seq_rand=1 \
		--norandommap --write_iolog=sr.log > /dev/null 2>&1 || fail "bs_is_seq_rand: $t: exit $?"
	# (a 4k one after the region's end goes elsewhere; assay's last is cut to the size)
	shares=$(awk -v end=$((32 << 20)) '$3 == "read" || $3 == "write" { n[$3]++
		if ($5 == 4096) { s[$3]++; if ($4 != e[$3] && e[$3] != end) b++ }
		else if ($5 != 16384) o++; e[$3] = $4 + $5 } END { if (o == 1) o = 0 }
		END { r = s["read"] / n["read"]; w = s["write"] / n["write"]
		      print (n["read"] > 900 && r > .54 && r < .66 && w > .19 && w < .31) ? "ok" : r " " w " " n["read"], b + 0, o + 0 }' sr.log)
	[ "$shares" = "ok 0 0" ] || fail "bs_is_seq_rand ($t): sequential shares of reads, writes (60%, 25%) / 4k ones not going on from the last / other sizes: $shares"
done
"$A" disk --filename="$dev" --rw=randread --bs=4k,64k --bs_is_seq_rand=1 --size=8m --mode=destroy -J > out.json 2>/dev/null ||
	fail "bs_is_seq_rand randread: exit $?"
J '.jobs[0] | .read.total_ios == 128 and .["job options"].bs_is_seq_rand == "1"' "bs_is_seq_rand: a random job's I/Os the second size"
sum=$(sha "$dev")

# --blockalign (--ba): random offsets on a 4k grid for 16k I/Os, inside the region, as many
# as fio's
"$A" disk --filename="$dev" --rw=randread --bs=16k --ba=4k --size=1m --write_iolog=ba.log -J > out.json 2>/dev/null ||
	fail "blockalign: exit $?"
J '.jobs[0].read.total_ios == 64 and .jobs[0].read.io_bytes == 1048576' "blockalign: the region's bytes"
[ "$(awk '$3 == "read" && ($4 % 4096 || $4 + $5 > 1048576) {b++} $3 == "read" && $4 % 16384 {o++} END {print b + 0, (o > 0)}' ba.log)" = "0 1" ] ||
	fail "blockalign: offsets not on the 4k grid inside the region, or all on 16k"
expect 1 "^assay: error: disk: --blockalign=1000: not a multiple of the logical block size \(512\)$" \
	"$A" disk --filename="$dev" --rw=randread --ba=1000
expect 1 "^assay: error: disk: --blockalign with --verify: offsets off the --bs grid$" \
	"$A" disk --filename="$dev" --rw=randwrite --bs=16k --ba=4k --verify=crc32c --mode=destroy

# fio's null engine: I/Os done at once with no data moved (even writes in destroy mode)
"$A" disk --filename="$dev" --rw=randrw --ioengine=null --size=8m --mode=destroy -J > out.json 2>/dev/null ||
	fail "null engine: exit $?"
J '.jobs[0] | .read.total_ios + .write.total_ios == 2048 and .["job options"].ioengine == "null"' "null engine"
[ "$(sha "$dev")" = "$sum" ] || fail "the null engine wrote to the device"
expect 1 "^assay: error: disk: --ioengine=null moves no data: nothing to --verify$" \
	"$A" disk --filename="$dev" --rw=write --ioengine=null --verify=md5 --mode=destroy

# --disk_util=0: no device counters
"$A" disk --filename="$dev" --rw=randread --size=4m --disk_util=0 -J > out.json 2>/dev/null || fail "disk_util=0: exit $?"
J '.disk_util == null' "disk_util=0"
"$A" disk --filename="$dev" --rw=randread --size=4m -J > out.json 2>/dev/null || fail "disk_util: exit $?"
J '.disk_util[0].read_ios > 0' "disk_util by default"

# --pre_read: the region read into the page cache before the job (and not dropped): the
# job's buffered random reads then reach the device not once; without it, each one does
blockdev --flushbufs "$dev"
"$A" disk --filename="$dev" --rw=randread --size=8m --pre_read=1 -J > out.json 2>/dev/null || fail "pre_read: exit $?"
J '.jobs[0].read.total_ios == 2048 and .disk_util[0].read_ios < 512' "pre_read: the region read in large requests" \
	'[.jobs[0].read.total_ios, .disk_util[0].read_ios]'
"$A" disk --filename="$dev" --rw=randread --size=8m -J > out.json 2>/dev/null || fail "no pre_read: exit $?"
J '.disk_util[0].read_ios >= 2000' "no pre_read: a device read per I/O"
# --fill_device (--fill_fs): to the device's end whatever --size says; a file is refused
"$A" disk --filename="$dev" --rw=read --bs=1m --size=1m --offset=8m --fill_fs=1 -J > out.json 2>/dev/null ||
	fail "fill_device: exit $?"
J '.jobs[0].read.io_bytes == 25165824' "fill_device: from --offset to the end"
head -c 1048576 /dev/zero > small.f
expect 1 "^assay: error: disk: --fill_device: \./small.f is a file \(fio would grow it" \
	"$A" disk --filename=small.f --rw=read --fill_device=1
# --offset_align: a percentage offset aligned up to it, fio's offsets exactly
for o in 33% 50% 7%; do
	rm -f a.log f.log
	"$A" disk --filename="$dev" --rw=read --bs=4k --offset=$o --offset_align=1m --number_ios=2 --write_iolog=a.log \
		>/dev/null 2>&1 || fail "offset_align $o: exit $?"
	if command -v fio >/dev/null; then
		fio --name=x --filename="$dev" --rw=read --bs=4k --offset=$o --offset_align=1m --number_ios=2 \
			--write_iolog=f.log >/dev/null 2>&1 || fail "fio offset_align $o: exit $?"
		[ "$(awk '$2 == "read" || $3 == "read" {print $(NF-1)}' a.log)" = "$(awk '$3 == "read" {print $(NF-1)}' f.log)" ] ||
			fail "offset_align $o: $(grep read a.log | tr '\n' ' ') vs fio's $(grep read f.log | tr '\n' ' ')"
	fi
done
# --exec_prerun/--exec_postrun: once per thread, in order around the job, output in
# JOBNAME.prerun.txt; a failing prerun fails the job (its status named), a failing postrun
# is a warning
"$A" disk --filename="$dev" --rw=read --size=1m --numjobs=2 --name=hk --exec_prerun='echo pre >> order; echo out-$((1+1))' \
	--exec_postrun='echo post >> order' -J > out.json 2>/dev/null || fail "exec_prerun: exit $?"
J '.jobs[0].assay.status == "ok"' "exec hooks: the job ran"
[ "$(tr '\n' ' ' < order)" = "pre pre post post " ] && [ "$(cat hk.prerun.txt)" = "out-2" ] ||
	fail "exec hooks: order '$(tr '\n' ' ' < order)', output '$(cat hk.prerun.txt)'"
expect 1 "^assay: error: disk: bad: --exec_prerun=echo no >&2; exit 3: exit status 3 \(its output: bad.prerun.txt\)$" \
	"$A" disk --filename="$dev" --rw=read --size=1m --name=bad --exec_prerun='echo no >&2; exit 3'
[ "$(cat bad.prerun.txt)" = no ] || fail "exec_prerun: stderr not in bad.prerun.txt"
expect 0 "^assay: warning: disk: bad2: --exec_postrun=kill -9 \\\$\\\$: killed by signal 9" \
	"$A" disk --filename="$dev" --rw=read --size=1m --name=bad2 --exec_postrun='kill -9 $$'

# --write_hint: the target's hint while the job runs (seen from outside), the old one after
hint() { python3 -c 'import fcntl, os, struct, sys; fd = os.open(sys.argv[1], os.O_RDONLY)
print(struct.unpack("Q", fcntl.fcntl(fd, 1035, bytes(8)))[0])' "$1"; }
if command -v python3 >/dev/null && h0=$(hint "$dev"); then
	"$A" disk --filename="$dev" --rw=randread --runtime=3 --time_based --write_hint=long >/dev/null 2>&1 &
	for _ in $(seq 25); do   # seen while it runs, however slow its start on a loaded machine
		sleep 0.1
		during=$(hint "$dev")
		[ "$during" = 4 ] && break
	done
	wait $! || fail "write_hint: exit $?"
	[ "$during" = 4 ] && [ "$(hint "$dev")" = "$h0" ] || fail "write_hint=long: $during during the run, $(hint "$dev") after (was $h0)"
fi
# fio's other spellings: --cpumask (a mask), --percentage_sequential (the inverse of
# --percentage_random), --ratemin, --ratecycle, --mem_align, --fileoffset, --nr_files
"$A" disk --filename="$dev" --rw=randread --size=1m --cpumask=0x1 --percentage_sequential=100 --write_iolog=ps.log \
	--ratemin=1k --ratecycle=500 --mem_align=4k --fileoffset=4k --nr_files=1 -J > out.json 2>/dev/null ||
	fail "fio's spellings: exit $?"
J '.jobs[0]["job options"] | .cpus_allowed == "0" and .offset == "4096"' "cpumask, fileoffset"
[ "$(awk '$3 == "read" {printf "%d ", $4}' ps.log | cut -d' ' -f1-4)" = "4096 8192 12288 16384" ] ||
	fail "percentage_sequential=100: $(awk '$3 == "read" {printf "%d ", $4}' ps.log | cut -c1-80)"
expect 1 "^assay: error: disk: --cpumask=0x0: not a mask of CPUs" "$A" disk --filename="$dev" --cpumask=0x0
expect 1 "give one or the other" "$A" disk --filename="$dev" --cpumask=1 --cpus_allowed=0
# fio's NUMA options: --numa_cpu_nodes puts the threads on those nodes' CPUs (node 0: every
# CPU here), --numa_mem_policy is the threads' memory policy (their buffers' mappings say
# so in numa_maps while the job runs)
if [ -e /sys/devices/system/node/node0/cpulist ]; then
	"$A" disk --filename="$dev" --rw=randread --size=1m --numa_cpu_nodes=0 --numa_mem_policy=bind:0 -J > out.json ||
		fail "numa: exit $?"
	n0=$(awk -F, '{ for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } } END { print n }' \
		/sys/devices/system/node/node0/cpulist)
	J ".jobs[0].read.total_ios == 256 and (.jobs[0][\"job options\"].cpus_allowed | split(\",\") | length) == $n0" \
		"numa_cpu_nodes=0: node 0's $n0 CPUs"
	"$A" disk --filename="$dev" --rw=randread --bs=64k --runtime=3 --time_based --numa_mem_policy=interleave:all \
		> /dev/null 2>&1 & pid=$!
	found=0
	for i in $(seq 60); do
		grep -qs " interleave:" /proc/$pid/task/*/numa_maps && { found=1; break; }
		sleep 0.05
	done
	wait $pid || fail "numa_mem_policy=interleave:all: exit $?"
	[ $found = 1 ] || fail "numa_mem_policy=interleave:all: no mapping of the job's threads says interleave"
	[ -e /sys/devices/system/node/node9 ] ||
		expect 1 "^assay: error: disk: --numa_mem_policy=prefer:0,9: node 9: no such NUMA node here \\(online: " \
			"$A" disk --filename="$dev" --numa_mem_policy=prefer:0,9
fi
expect 1 "numa_mem_policy=local:0: local takes no nodes" "$A" disk --filename="$dev" --numa_mem_policy=local:0
expect 1 "numa_mem_policy=bind: bind needs nodes" "$A" disk --filename="$dev" --numa_mem_policy=bind
expect 1 "numa_cpu_nodes=x: not a list of NUMA node numbers" "$A" disk --filename="$dev" --numa_cpu_nodes=x

# fio's /dev/null and /dev/zero targets (its steadystate.fio): what a system call costs;
# --size in bytes gives the region, writes need no --mode (they keep nothing), no
# disk_util; other character devices refused
"$A" disk --rw=randread --bs=4k --size=8m --name=z --filename=/dev/zero --name=n --filename=/dev/null --rw=write \
	--bs=128k -J > out.json 2>/dev/null || fail "/dev/zero, /dev/null: exit $?"
J '.jobs[0].read.io_bytes == 8388608 and .jobs[1].write.io_bytes == 8388608 and .disk_util == null and
	[.assay.devices[].type] == ["char", "char"]' "/dev/zero reads, /dev/null writes"
expect 1 "^assay: error: disk: /dev/null has no size: give --size in bytes" "$A" disk --filename=/dev/null --rw=write
expect 1 "^assay: error: disk: --verify: /dev/null keeps nothing to read back" \
	"$A" disk --filename=/dev/null --rw=write --size=1m --verify=md5 --mode=destroy
expect 1 "^assay: error: disk: /dev/urandom: neither a block device nor a regular file" \
	"$A" disk --filename=/dev/urandom --rw=read --size=1m

# accepted, no effect here: verify_async, verify_state_save, verifysort, aux-path, max-jobs
"$A" disk --filename="$dev" --rw=read --size=1m --verify_async=2 --verify_state_save=0 --verifysort=1 \
	--aux-path=/tmp --max-jobs=8 --create_fsync=1 --lockfile=none --exit_what=group --log_entries=64 --gtod_cpu=1 \
	--thinktime_blocks_type=complete --dedupe_mode=repeat --unique_filename=1 -J > out.json 2>/dev/null ||
	fail "accepted options: exit $?"
expect 1 "^assay: error: --lockfile=exclusive: unknown value; accepted: one of none" \
	"$A" disk --filename="$dev" --lockfile=exclusive

[ "$(sha "$dev")" = "$sum" ] || fail "a read-only run changed the device"
finish
