# assay memtest: every pattern over a locked region, a bit flipped through the test hook
# is caught with its physical address (and makes the run's memtest.errors figure, which
# hw-certify fails on), --time bounds it on any size and the coverage says what it covered
# (a rule on an incomplete pass is NOT MEASURED), bad input is one line.
# TIMEOUT: 120
. "$(dirname "$0")/lib.sh"
"$A" memtest --size=32m -J > "$T/ok.json" || fail "clean run: exit $?"
jq -e '.memtest | .errors == 0 and .bytes_tested == 33554432 and .passes_done == 1 and .stopped_by == "passes" and
	.coverage.complete == true and .coverage.patterns_done == 11 and
	(.patterns | length == 11) and ([.patterns[].mib_per_sec] | all(. > 0)) and .tested_pct > 0' "$T/ok.json" >/dev/null ||
	fail "clean run: $(jq -c '.memtest | del(.patterns)' "$T/ok.json")"
# every pattern catches a flipped bit in its first sweep's output, low bit and high bit
for p in stuck_address random_value compare_xor_sub_mul_div solid_bits checkerboard block_sequential bit_spread \
	bit_flip walking_ones walking_zeros moving_inversions; do
	off=$(( (RANDOM * 32768 + RANDOM) % (8 << 20) ))
	"$A" memtest --size=8m --patterns=$p --test-flip=$p:$off:$((RANDOM % 8)) -J > "$T/f.json"
	rc=$?
	[ $rc = 1 ] || fail "$p: a flipped bit: exit $rc, want 1"
	jq -e --argjson o $off '.memtest | .errors >= 1 and .error_list[0].pattern == "'$p'" and
		.error_list[0].offset == ($o - $o % 8) and (.error_list[0].phys_addr | test("^0x[0-9a-f]+$"))' \
		"$T/f.json" >/dev/null || fail "$p: flip at $off: $(jq -c '.memtest.error_list' "$T/f.json")"
done
"$A" memtest --size=8m --patterns=checkerboard --test-flip=checkerboard:4096:7 2>/dev/null |
	grep -q '^  checkerboard pass 1: offset 4096, physical 0x[0-9a-f]*: expected 0x5555555555555555, read 0x55555555555555d5 (bits 0x0000000000000080)$' ||
	fail "text of an error"
# --time: stops when reached, says so
"$A" memtest --size=16m --passes=1000 --time=0.5 -J > "$T/t.json" || fail "--time: exit $?"
jq -e '.memtest | .stopped_by == "time" and .passes_done < 1000 and .time_s < 30' "$T/t.json" >/dev/null ||
	fail "--time: $(jq -c '.memtest | del(.patterns)' "$T/t.json")"
# on a size one pattern alone outlasts: mid-pattern, locking what a quarter of the time
# allows; the coverage incomplete (the bound is loose: a loaded machine)
"$A" memtest --size=2g --time=1 -J > "$T/big.json" 2>/dev/null || fail "--time on 2g: exit $?"
jq -e '.memtest | .stopped_by == "time" and .time_s < 8 and .coverage.complete == false and
	(.coverage.what | test("^[0-9]+ of 11 patterns over"))' "$T/big.json" >/dev/null ||
	fail "--time on 2g: $(jq -c '.memtest | del(.patterns)' "$T/big.json")"
# in a run: the errors are a figure with where they were; hw-certify fails on it
"$A" run --tests=memtest --memtest-size=16m -J > "$T/r0.json" 2>/dev/null
jq -e '[.summary[] | select(.name == "memtest.tested_pct")][0].value > 0' "$T/r0.json" >/dev/null || fail "run: no memtest figures"
printf 'memtest.errors == 0\n' > "$T/rules"
"$A" certify --profile "$T/rules" "$T/r0.json" >/dev/null || fail "clean memtest: certify failed"
# a memtest that did not cover a whole pass certifies nothing: NOT MEASURED, a failure
"$A" run --tests=memtest --memtest-size=1g --memtest-time=0.3 -J > "$T/r1.json" 2>/dev/null
"$A" certify --profile "$T/rules" "$T/r1.json" > "$T/nm.txt"; [ $? = 1 ] || fail "part of a pass certified: $(cat "$T/nm.txt")"
grep -qE '^FAIL  memtest.errors == 0 +NOT MEASURED: [0-9]+ of 11 patterns over [0-9.]+ GiB covered' "$T/nm.txt" ||
	fail "not measured line: $(cat "$T/nm.txt")"
jq -e '.certify == null' "$T/r1.json" >/dev/null || fail "setup"
# a run certifying with hw-certify plans the memory test whatever its tests
"$A" run --tests=cpu --cpu-time=0.2 --memtest-size=16m --certify=hw-certify -J > "$T/hw.json" 2>/dev/null
jq -e '[.tests[].name] | index("memtest") != null' "$T/hw.json" >/dev/null || fail "hw-certify: no memtest planned"
jq -e '.certify.rules[] | select(.rule | startswith("memtest.errors")) | .result == "PASS"' "$T/hw.json" >/dev/null ||
	fail "hw-certify's memtest rule: $(jq -c '.certify.rules[] | select(.rule | startswith("memtest"))' "$T/hw.json")"
expect 2 "memtest: --test-flip=x: expected PATTERN:BYTE-OFFSET:BIT" "$A" memtest --test-flip=x
expect 2 "memtest: --patterns=checker: unknown pattern 'checker'; accepted: all or stuck_address" "$A" memtest --patterns=checker
expect 2 "memtest: --size=lots: expected auto or a size" "$A" memtest --size=lots
finish
