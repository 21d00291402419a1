# fio's --random_distribution (and --percentage_random): the offsets each I/O went to (read back from the job's own
# --write_iops_log --log_offset=1) follow the distribution asked for: zipf's hottest
# blocks take their share 1/H(n,theta), pareto:h sends h of the accesses to (1 - h) of
# the blocks, normal:dev its 68% to the 2 x dev% hottest, zoned/zoned_abs their zones'
# shares; every offset aligned and in the region; a fixed seed repeats the offsets and the
# job's threads share the hot blocks; bad specs are refused with one line.
# TIMEOUT: 240
. "$(dirname "$0")/lib.sh"
need_root
dev=$(loopdev d 8) || skip "losetup failed"
sum0=$(sha "$dev")
cd "$T" || exit 1

# run SPEC [OPTS...]: 51200 4k reads over a 4 MiB region (1024 blocks), offsets to o.log
run() {
	local spec=$1
	shift
	rm -f o_iops.*.log
	"$A" disk --filename="$dev" --size=4m --rw=randread --direct=1 --iodepth=8 --io_size=200m \
		--random_distribution="$spec" --write_iops_log=o --log_offset=1 "$@" -J > out.json ||
		{ fail "$spec: exit $?"; return 1; }
	cat o_iops.*.log > o.log
	awk -F'[, ]+' '$5 % 4096 || $5 >= 4194304 { exit 1 } END { exit NR != 51200 * (ENVIRON["NT"] ? ENVIRON["NT"] : 1) }' o.log ||
		fail "$spec: offsets outside the region or unaligned, or not every I/O logged ($(wc -l < o.log))"
}
# share TOPK: the share of the accesses that went to the TOPK most accessed blocks
share() { awk -F'[, ]+' '{ c[$5]++ } END { for (b in c) print c[b] }' o.log | sort -rn |
	awk -v k="$1" 'NR <= k { s += $1 } { t += $1 } END { printf "%.4f\n", s / t }'; }
near() { awk -v a="$1" -v b="$2" -v e="$3" 'BEGIN { d = a - b; exit !(d < e && d > -e) }' || fail "$4: $1, expected $2 +- $3"; }

run zipf:1.2
# H(k, 1.2) = sum of i^-1.2 for i <= k
h() { awk -v k="$1" 'BEGIN { for (i = 1; i <= k; i++) s += i ^ -1.2; print s }'; }
near "$(share 1)" "$(awk -v a="$(h 1)" -v b="$(h 1024)" 'BEGIN { print a / b }')" 0.015 "zipf:1.2 hottest block"
near "$(share 10)" "$(awk -v a="$(h 10)" -v b="$(h 1024)" 'BEGIN { print a / b }')" 0.02 "zipf:1.2 ten hottest"
cut -d, -f5 o.log | sort > zipf1.off    # in the order issued, completions may swap: as sets
run zipf:1.2
cut -d, -f5 o.log | sort | cmp -s - zipf1.off || fail "zipf: the same seed, other offsets"
run pareto:0.8
near "$(share 205)" 0.8 0.03 "pareto:0.8: the hottest 20% of blocks"
run normal:10
near "$(share 205)" 0.6827 0.03 "normal:10: the hottest 20% of blocks (2 x 10%)"
run zoned:60/10:40/90
near "$(awk -F'[, ]+' '$5 < 102 * 4096 { s++ } END { print s / NR }' o.log)" 0.6 0.02 "zoned: the first 10%"
# fio's left-out range (examples/rand-zones.fio): 20% of the accesses over the other 80%
run zoned:50/5:30/15:20/
near "$(awk -F'[, ]+' '$5 < 51 * 4096 { s++ } END { print s / NR }' o.log)" 0.5 0.02 "zoned, a range left out: the first 5%"
near "$(awk -F'[, ]+' '$5 >= 205 * 4096 { s++ } END { print s / NR }' o.log)" 0.2 0.02 "zoned, a range left out: the last 80%"
# ranges adding up to less than 100%: the rest of the region is not read (fio's)
run zoned:70/10:30/20
awk -F'[, ]+' '$5 >= 308 * 4096 { exit 1 }' o.log || fail "zoned over 30%: an offset beyond the zones"
near "$(awk -F'[, ]+' '$5 < 102 * 4096 { s++ } END { print s / NR }' o.log)" 0.7 0.02 "zoned over 30%: the first 10%"
run zoned_abs:50/1m:50/3m
near "$(awk -F'[, ]+' '$5 < 1048576 { s++ } END { print s / NR }' o.log)" 0.5 0.02 "zoned_abs: the first 1m"
jq -e '.jobs[0]["job options"].random_distribution == "zoned_abs:50/1m:50/3m"' out.json >/dev/null ||
	fail "job options: $(jq -c '.jobs[0]["job options"]' out.json)"
# the threads of a job share the hot blocks
NT=2 run zipf:1.5 --numjobs=2
t1=$(awk -F'[, ]+' '{ c[$5]++ } END { for (b in c) print c[b], b }' o_iops.1.log | sort -rn | head -1 | cut -d' ' -f2)
t2=$(awk -F'[, ]+' '{ c[$5]++ } END { for (b in c) print c[b], b }' o_iops.2.log | sort -rn | head -1 | cut -d' ' -f2)
[ -n "$t1" ] && [ "$t1" = "$t2" ] || fail "zipf with 2 threads: hottest blocks $t1 and $t2"
# uniform (random): every block once per pass, as before
run random
[ "$(awk -F'[, ]+' '{ c[$5]++ } END { n = 0; for (b in c) if (c[b] != 50) n++; print n }' o.log)" = 0 ] ||
	fail "random: not each block 50 times"

# fio's percentage_random: the rest of the I/Os continue where the direction's last one
# ended (QD1: in order), per direction with reads,writes
for pr in 30:0.7:0.7 0:1:1 0,100:1:0; do
	rm -f p_iops.1.log
	"$A" disk --filename="$dev" --rw=randrw --mode=rewrite --size=4m --io_size=40m --ioengine=psync \
		--percentage_random="${pr%%:*}" --write_iops_log=p --log_offset=1 -J > out.json 2>/dev/null ||
		fail "percentage_random=${pr%%:*}: exit $?"
	# the share of each direction's I/Os right after that direction's previous one (each
	# direction has its own cursor, as fio's; the region wraps)
	seq=$(awk -F'[, ]+' '$3 in prev { n[$3]++; if ($5 == (prev[$3] + 4096) % 4194304) s[$3]++ } { prev[$3] = $5 }
		END { printf "%.3f %.3f\n", s[0] / n[0], s[1] / n[1] }' p_iops.1.log)
	r=${pr#*:}
	near "${seq% *}" "${r%:*}" 0.03 "percentage_random=${pr%%:*}: reads in sequence"
	near "${seq#* }" "${r#*:}" 0.03 "percentage_random=${pr%%:*}: writes in sequence"
done
jq -e '.jobs[0]["job options"].percentage_random == "0,100"' out.json >/dev/null || fail "percentage_random: job options"
expect 1 "percentage_random=101: a percent from 0 to 100" "$A" disk --filename="$dev" --rw=randread --percentage_random=101
expect 1 "percentage_random=1,2,3,4: a percent" "$A" disk --filename="$dev" --rw=randread --percentage_random=1,2,3,4

for bad in zipf zipf:0 zipf:x pareto:1 pareto:0.5:2 normal:0 normal:101 zoned:60/10:30/90 zoned:50/50 zoned:/ zoned:60/60:40/60 zoned_abs:50/:50/1m \
	zoned:100/0.001:0/99.999 zoned_abs:50/1m:50/9m gamma:1 zipf:1.2,zipf:1.1 random:1; do
	expect 1 "random_distribution=$bad: " "$A" disk --filename="$dev" --size=4m --rw=randread \
		--random_distribution="$bad"
done
expect 1 "random_distribution=zipf:1.2: for random I/O" "$A" disk --filename="$dev" --rw=read \
	--random_distribution=zipf:1.2
[ "$(sha "$dev")" = "$sum0" ] || fail "the device changed"
finish
