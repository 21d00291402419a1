#!/bin/sh
# usage: tests/fuzz/run.sh [SECONDS]   (make fuzz; FUZZ_TARGETS="jobfile http" for some)
# Builds each libFuzzer target with clang (address + undefined sanitizers, glibc: these run
# on the host, apart from the musl build) and runs it for SECONDS (default 60), starting
# from a small seed corpus, after the inputs in tests/fuzz/regress/TARGET/ (each crash or
# hang found once).  Exit 1 when a target finds a crash.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
out=${BUILD:-$top/build}/fuzz
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null || { echo "fuzz: $CC missing: apt-get install clang-14 libfuzzer-14-dev" >&2; exit 1; }
mkdir -p "$out"
src="$top/lib/json.c $top/bench/net/dnswire.c $top/bench/report/extract.c $top/lib/crc32.c $top/lib/gzip.c $top/lib/base64.c $top/lib/msg.c $top/lib/fileio.c $top/bench/health/nvme.c $top/bench/health/ata.c $top/bench/health/kmsg.c $top/bench/health/sysfs.c $top/lib/opt.c $top/lib/bootopts.c $top/bench/net/iperf_json.c $top/bench/net/iperf_text.c $top/bench/net/iperf_proto.c $top/bench/net/netio.c"
fail=0
# certify links all of assay (its rules name every engine's figures), as do the disk and
# HTTP targets: liburing and the main build's BearSSL
all_src=$(cd "$top" && ls lib/*.c bench/*.c bench/*/*.c bench/*/*/*.c | grep -v -E '^bench/main.c|^bench/probe/' | sed "s|^|$top/|")
tls=${BUILD:-$top/build}/bearssl
for t in ${FUZZ_TARGETS:-json dns extract health cmdline iperf certify jobfile iolog http tls}; do
	bin=$out/fuzz-$t
	case $t in certify|jobfile|iolog|http|tls) whole=1 ;; *) whole=0 ;; esac
	if [ $whole = 1 ]; then
		[ -f "$tls/lib/libbearssl.a" ] || { echo "fuzz: $t skipped: no $tls (make builds it)"; continue; }
		$CC -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_GNU_SOURCE \
			-DASSAY_VERSION=\"fuzz\" -I"$top/lib" -I"$top/bench" -I"${BUILD:-$top/build}/include" -I"$tls/include" \
			-o "$bin" "$top/tests/fuzz/$t.c" $all_src -luring "$tls/lib/libbearssl.a" -lm -lpthread
	else
		$CC -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_GNU_SOURCE \
			-DASSAY_VERSION=\"fuzz\" -I"$top/lib" -I"$top/bench" -o "$bin" "$top/tests/fuzz/$t.c" $src
	fi
	corpus=$out/corpus-$t
	mkdir -p "$corpus"
	case $t in
	json) printf '{"a":[{"b":1.5e3}],"s":"\\u00e9"}' > "$corpus/seed1"; printf '[1,2,null,true]' > "$corpus/seed2" ;;
	dns) printf '\x12\x34\x81\x80\x00\x01\x00\x01\x00\x00\x00\x00\x01a\x04test\x00\x00\x01\x00\x01' > "$corpus/seed1" ;;
	extract) printf 'x\n-----BEGIN ASSAY RESULT-----\nbytes=3 crc32=9cd5a6a1\n{}\n-----END ASSAY RESULT-----\n' > "$corpus/seed1"
		{ printf 'x\n-----BEGIN ASSAY RESULT-----\nformat=gzip+base64 bytes=3 crc32=9cd5a6a1 gzip=23\n'
		  printf '{}\n' | gzip -nc | base64; printf -- '-----END ASSAY RESULT-----\n'; } > "$corpus/seed2" ;;
	health) printf '4,2,9000000,-;nvme nvme0: resetting controller\n SUBSYSTEM=nvme' > "$corpus/seed1"
		head -c 600 /dev/zero > "$corpus/seed2" ;;
	cmdline) printf 'BOOT_IMAGE=/vmlinuz assay.after=reboot assay.timeout=10m "assay.net=eth0:10.0.0.2/24" --size=4k -t 1s --list=a,b -A' > "$corpus/seed1" ;;
	certify) { "$top/build/assay" certify --show vps-tasting 2>/dev/null || printf 'cpu.events_per_sec.1t >= 800\n'
		  printf '\0{"schema_version":1,"summary":[{"name":"cpu.events_per_sec.1t","value":900,"unit":"events/s"}]}'; } > "$corpus/seed1" ;;
	jobfile) printf '; a job file\n[global]\nioengine=psync\nbs=4k\nsize=$mb_memory/2\nruntime=(1+2)*3\n\n[job1]\nrw=randread\nfilename=/dev/null\n' > "$corpus/seed1"
		printf '[a]\ninclude other.fio\n[b]\nstonewall\nrw=read:512k\n' > "$corpus/seed2" ;;
	iolog) printf 'fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n10 /dev/x read 0 4096\n20 /dev/x write 8192 512\n30 /dev/x close\n' > "$corpus/seed1"
		printf 'fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x read 4096 4096\n/dev/x wait 100 0\n/dev/x trim 0 8192\n' > "$corpus/seed2" ;;
	http) printf 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: x\r\n\r\nhello' > "$corpus/seed1"
		printf 'HTTP/1.0 404 Not Found\r\n\r\n' > "$corpus/seed2" ;;
	tls) printf 'sha256//47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=' > "$corpus/seed1"
		[ -r /etc/ssl/certs/ca-certificates.crt ] && head -c 60000 /etc/ssl/certs/ca-certificates.crt > "$corpus/seed2" ;;
	iperf) printf '\x00{"cpu_util_total":1,"cpu_util_user":1,"cpu_util_system":0,"sender_has_retransmits":1,"congestion_used":"cubic","streams":[{"id":1,"bytes":1000,"retransmits":0,"jitter":0,"errors":0,"packets":0,"start_time":0,"end_time":1}]}' > "$corpus/seed1"
		printf '\x02{"start":{"test_start":{"protocol":"UDP","num_streams":2}},"intervals":[{"streams":[{"socket":5,"jitter_ms":1,"sender":false}],"sum":{}}],"end":{"streams":[{"udp":{"sender":true}}],"sum_sent_bidir_reverse":{}}}' > "$corpus/seed2" ;;
	esac
	# every input that once crashed or hung a target stays as a regression input
	for r in "$top/tests/fuzz/regress/$t"/*; do
		[ -f "$r" ] || continue
		if ! "$bin" -timeout=10 "$r" > "$out/$t.regress.log" 2>&1; then
			echo "fuzz: $t: regression input $(basename "$r") fails again (see $out/$t.regress.log)" >&2
			fail=1
		fi
	done
	echo "fuzz: $t for ${secs}s"
	if ! "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -artifact_prefix="$out/crash-$t-" "$corpus" \
		> "$out/$t.log" 2>&1; then
		echo "fuzz: $t FAILED (see $out/$t.log and $out/crash-$t-*)" >&2
		fail=1
	else
		echo "fuzz: $t ok: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$out/$t.log" || tail -n 1 "$out/$t.log")"
	fi
done
rm -f /dev/shm/assay-fuzz-iolog.*
exit $fail
