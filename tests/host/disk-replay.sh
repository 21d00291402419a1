# fio's I/O logs: a log fio wrote is replayed here (every read, write and sync of it), a
# log assay wrote is replayed by fio and by assay (the same I/Os in the same order), at
# the log's times (never sooner; --replay_time_scale, --replay_no_stall), v2 logs with
# waits; --replay_skip; writes in a log need a writing mode (the device is unchanged in
# readonly and rewrite modes, by checksum); bad logs and options are refused with one line
# naming the line.
# TIMEOUT: 180
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
dev=$(loopdev rp 32) || skip "losetup failed"
cd "$T" || exit 1
J() { jq -e "$1" out.json >/dev/null || fail "$2: $(jq -c '[.error, (.jobs[]? | {error, r: .read.total_ios, w: .write.total_ios, s: .sync.total_ios, rt: .read.runtime, rp: .assay.replay})]' out.json 2>&1 | head -c 400)"; }
ops() { grep -vE ' (add|open|close)$' "$1" | cut -d' ' -f3-; }   # a v3 log's I/Os, without times

# fio's log of a mixed job with syncs, replayed here: every entry
fio --name=x --filename="$dev" --rw=randrw --bs=4k --size=1m --fsync=8 --write_iolog=fio.log > /dev/null 2>&1 ||
	fail "fio --write_iolog failed"
nr=$(grep -c ' read ' fio.log) nw=$(grep -c ' write ' fio.log) ns=$(grep -c ' sync ' fio.log)
[ "$nr" -gt 0 ] && [ "$nw" -gt 0 ] && [ "$ns" -gt 0 ] || fail "fio's log: $nr reads, $nw writes, $ns syncs"
"$A" disk --filename="$dev" --read_iolog=fio.log --replay_no_stall=1 --mode=destroy -J > out.json 2>/dev/null ||
	fail "replay of fio's log: exit $?"
J ".jobs[0] | .read.total_ios == $nr and .write.total_ios == $nw and .sync.total_ios == $ns and
	.assay.replay.version == 3 and .assay.replay.reads == $nr and .assay.replay.log_file == \"$dev\" and
	.[\"job options\"].read_iolog == \"fio.log\"" "fio's log replayed"

# assay's log of a queued mixed job with datasyncs: fio replays every I/O of it; replayed
# here (one at a time) and logged again it is the same I/Os in the same order
"$A" disk --filename="$dev" --rw=randrw --size=2m --iodepth=8 --fdatasync=16 --mode=destroy --write_iolog=a.log \
	-J > out.json 2>/dev/null || fail "--write_iolog: exit $?"
r=$(jq '.jobs[0].read.total_ios' out.json) w=$(jq '.jobs[0].write.total_ios' out.json)
[ "$(head -1 a.log)" = "fio version 3 iolog" ] && [ "$(grep -c ' read ' a.log)" = "$r" ] &&
	[ "$(grep -c ' write ' a.log)" = "$w" ] && [ "$(grep -c ' datasync ' a.log)" = $((w / 16)) ] ||
	fail "assay's log: $(head -3 a.log | tr '\n' '|') $(grep -c ' read ' a.log)/$r reads"
fio --name=x --filename="$dev" --read_iolog=a.log --replay_no_stall=1 --output-format=json > fio.json 2>/dev/null ||
	fail "fio could not replay assay's log"
[ "$(jq -c '.jobs[0] | [.read.total_ios, .write.total_ios]' fio.json)" = "[$r,$w]" ] ||
	fail "fio's replay: $(jq -c '.jobs[0] | [.read.total_ios, .write.total_ios]' fio.json), want [$r,$w]"
"$A" disk --filename="$dev" --read_iolog=a.log --replay_no_stall=1 --mode=destroy --write_iolog=b.log -J > out.json \
	2>/dev/null || fail "replay of assay's log: exit $?"
J ".jobs[0] | .read.total_ios == $r and .write.total_ios == $w and .sync.total_ios == $((w / 16))" "assay's log replayed"
cmp -s <(ops a.log) <(ops b.log) || fail "the replay's log differs: $(diff <(ops a.log) <(ops b.log) | head -3)"

# the log's times: never sooner (a lower bound only: sleeping cannot be early)
fio --name=x --filename="$dev" --rw=read --bs=4k --size=16k --rate_iops=10 --write_iolog=slow.log > /dev/null 2>&1
"$A" disk --filename="$dev" --read_iolog=slow.log -J > out.json 2>/dev/null || fail "timed replay: exit $?"
J '.jobs[0].read | .total_ios == 4 and .runtime >= 290' "4 reads 100 ms apart take 300 ms"
"$A" disk --filename="$dev" --read_iolog=slow.log --replay_time_scale=200 -J > out.json 2>/dev/null
J '.jobs[0].read | .total_ios == 4 and .runtime >= 145' "--replay_time_scale=200: 150 ms"
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s wait 200000 0\n%s wait 50 0\n%s read 8192 4096\n%s close\n' \
	"$dev" "$dev" "$dev" "$dev" "$dev" "$dev" "$dev" > v2.log
"$A" disk --filename="$dev" --read_iolog=v2.log -J > out.json 2>/dev/null || fail "v2 replay: exit $?"
J '.jobs[0].read | .total_ios == 2 and .runtime >= 195' "v2: a wait of 200 ms (one under 100 us dropped)"
J '.jobs[0].assay.replay.version == 2' "v2 marked"

# writes in a log: skipped in readonly mode (the device unchanged); --replay_skip=write
# replays the reads alone; a log's trims need destroy mode
sum=$(sha "$dev")
"$A" disk --filename="$dev" --read_iolog=fio.log -J > out.json 2>/dev/null
[ $? = 77 ] || fail "readonly replay: exit code, want 77 (nothing run)"
J '.jobs[0] | .read.total_ios == 0 and .write.total_ios == 0 and (.assay.skipped | test("writes"))' "readonly: skipped"
"$A" disk --filename="$dev" --read_iolog=fio.log --replay_skip=write,sync --replay_no_stall=1 -J > out.json 2>/dev/null ||
	fail "replay_skip: exit $?"
J ".jobs[0] | .read.total_ios == $nr and .write.total_ios == 0 and .sync.total_ios == 0" "--replay_skip=write,sync"
[ "$(sha "$dev")" = "$sum" ] || fail "a read-only replay changed the device"
"$A" disk --filename="$dev" --read_iolog=fio.log --mode=rewrite --iodepth=8 --replay_no_stall=1 -J > out.json \
	2>/dev/null || fail "rewrite replay: exit $?"
J ".jobs[0] | .read.total_ios == $nr and .write.total_ios == $nw" "rewrite replay"
[ "$(sha "$dev")" = "$sum" ] || fail "a rewrite replay changed the device's content"

# bad logs and options: one line, naming the line
printf 'hello\n' > bad1.log
printf 'fio version 3 iolog\n0 %s add\n5 %s read 0 4096\n9 %s frob 0 4096\n' "$dev" "$dev" "$dev" > bad2.log
printf 'fio version 3 iolog\n5 %s read 33554432 4096\n' "$dev" > bad3.log
printf 'fio version 3 iolog\n5 %s read 0 4096\n6 /dev/other read 0 4096\n' "$dev" > bad4.log
printf 'fio version 3 iolog\n5 %s read 100 4096\n' "$dev" > bad5.log
printf 'fio version 3 iolog\n5 %s wait 100 0\n' "$dev" > bad6.log
printf 'fio version 3 iolog\nx %s read 0 4096\n' "$dev" > bad7.log
printf 'fio version 3 iolog\n0 %s add\n' "$dev" > bad8.log
D() { expect 1 "^assay: error: disk: $1\$" "$A" disk --filename="$dev" "${@:2}"; }
D "--read_iolog=none.log: No such file or directory" --read_iolog=none.log
D "--read_iolog=bad1.log:1: 'hello': not fio's iolog .*" --read_iolog=bad1.log
D "--read_iolog=bad2.log:4: 'frob': not an action \(read, write, trim, sync, datasync; v2 also wait\)" --read_iolog=bad2.log
D "--read_iolog=bad3.log:2: read at 33554432 of 4096 bytes: beyond the end of the device" --read_iolog=bad3.log
D "--read_iolog=bad4.log:3: /dev/other: a file more than the job's 1: give --filename as many \(a:b for two\), the log's taken in its order" --read_iolog=bad4.log
D "--read_iolog=bad5.log:2: read at 100 of 4096 bytes: not aligned to the device's logical block \(--direct=1\)" \
	--read_iolog=bad5.log --direct=1
D "--read_iolog=bad6.log:2: 'wait': not an action .*" --read_iolog=bad6.log
D "--read_iolog=bad7.log:2: 'x': not a timestamp \(microseconds\)" --read_iolog=bad7.log
D "--read_iolog=bad8.log: no read, write or trim to replay" --read_iolog=bad8.log
D "--read_iolog with --numjobs: a log is replayed as it is, by one thread" --read_iolog=slow.log --numjobs=2
D "--replay_no_stall: no --read_iolog to replay" --replay_no_stall=1
D "--replay_align=3000: not a power of 2" --read_iolog=slow.log --replay_align=3000
D "--write_iolog with --numjobs=2: one thread per logged job .*" --write_iolog=x.log --numjobs=2
D "--write_iolog=x.log: jobs 'a' and 'b' would both write it: give each job its own" --write_iolog=x.log --name=a --name=b
"$A" disk --filename="$dev" --read_iolog=bad5.log --replay_align=4096 --direct=1 -J > out.json 2>/dev/null ||
	fail "replay_align: exit $?"
J '.jobs[0].read.total_ios == 1' "--replay_align=4096 aligns offset 100 down"
[ "$(sha "$dev")" = "$sum" ] || fail "a refused run changed the device"
finish
