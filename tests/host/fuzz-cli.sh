# Bad input never crashes or hangs: random option values for every engine, and mutated
# result documents and rules for compare/certify/extract, from fixed seeds.  Every run must
# end by itself, exit with a code (not a signal), and say why on stderr when it fails.
# TIMEOUT: 300
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
head -c $((16 << 20)) /dev/urandom > "$T/f"
"$A" run --tests=cpu --cpu-time=0.1 -J > "$T/good.json" 2>/dev/null || fail "a result to mutate"
printf 'cpu.events_per_second >= 10\ndisk.seq.write.bw >= 600MB/s\nmem.stream.triad >= 1GB/s\n' > "$T/good.rules"
A=$A T=$T python3 - <<'PY' > "$T/out" 2>&1 || fail "$(grep -c '^BAD' "$T/out") bad runs: $(grep '^BAD' "$T/out" | head -5)"
import os, random, subprocess, sys
A, T = os.environ["A"], os.environ["T"]
vals = ["", "0", "-1", "1", "2", "18446744073709551616", "9" * 40, "-0", "1e308", "nan", "inf", "0x10",
        "1k", "4k", "1m", "1g", "99999g", "3.5", "abc", "%s%n", "a" * 5000, "1,2", ",", "=", "..", "/dev/null",
        "/nonexistent", "-", "\x01", "\u00e9", "1kk", "k", "0.000001", "1s", "5ms", "read", "randread",
        "json", "global", "rnd", "write", "none", "127.0.0.1", "::1", "rewrite", "psync", "libaio", "sync",
        "50:99.9", "zipf:1.2", "pareto:0.9:0.5", "zoned:60/10:40/90", "normal:", "zoned_abs:1/1k", "crc32c", "dsync", "iops:2%", "bw_slope:1", "4k/50:64k/", "4k-1m", "4k,64k", ",1m", "4k/50:64k/50,1m/100", "1k-64m", "1e-300:100", "99.99999999:0.0000001", ":".join(["1"] * 25), "trim", "randtrimwrite", "io", "all", "EIO,ENOSPC:5", "EIO::5:1", ",,200", "1,2,3", "scan", "zbd", "strided",
        "sha256", "md5", "meta", "pattern", "xxhash", "null", "sha3-512", "rw:4k", "randread:8", "identical", "0xdeadface\"ab\"-12", "%o", "\"a\"%o", "0x", "'/etc/hostname'", "'", "\"\"", "4294967295", "(4k*2)", "(1/0)", "(", "(2^99)", "(1e308*1e308)", "(-(-(-1)))",
        "((((((((((1))))))))))", "(1m)", "(0x)", "(9" + "9" * 30 + ")", "(1.5k)%", "4z", "0z", "4294967296z", "z", "1kz", "working_set", "repeat", "posixaio", "mmap", "4k/30/2/3:64k/50", "4k/60:4k/50/1/1,8k/1", "1k/1/1/1:2k/1/1/2"]
opts = {
 "cpu": ["--cpu-max-prime", "--events", "--output-format", "--threads", "--time"],
 "mem": ["--memory-access-mode", "--memory-block-size", "--memory-oper", "--memory-scope",
         "--memory-total-size", "--output-format", "--threads", "--time"],
 "disk": ["--bs", "--buffer_compress_percentage", "--buffer_compress_chunk", "--direct", "--end_fsync", "--fdatasync", "--fixedbufs",
          "--io-timeout", "--iodepth", "--ioengine", "--iops_avg_time", "--name", "--numjobs", "--offset",
          "--output-format", "--profile", "--ramp_time", "--randseed", "--registerfiles", "--repeat",
          "--runtime", "--rw", "--rwmixread", "--size", "--spin", "--time_based", "--mode",
          "--iodepth_batch_submit", "--iodepth_batch_complete_min", "--iodepth_batch_complete_max",
          "--norandommap", "--invalidate", "--randrepeat", "--percentile_list", "--lat_percentiles",
          "--slat_percentiles", "--clat_percentiles", "--rate_iops", "--rate", "--rate_process",
          "--loops", "--zero_buffers", "--stonewall", "--bssplit", "--bsrange", "--cpus_allowed",
          "--cpus_allowed_policy", "--numa_cpu_nodes", "--numa_mem_policy", "--directory", "--sqthread_poll", "--sqthread_poll_cpu", "--hipri", "--hipri_percentage", "--nowait", "--sync_file_range", "--userspace_reap",
          "--thinktime", "--thinktime_blocks", "--thinktime_spin", "--thinktime_iotime", "--flow", "--flow_id", "--flow_sleep", "--unified_rw_reporting",
          "--io_size", "--offset_increment", "--buffered", "--write_iops_log", "--write_lat_log",
          "--log_avg_msec", "--log_max_value", "--log_offset", "--per_job_logs", "--random_distribution",
          "--verify", "--do_verify", "--verify_only", "--sync", "--fsync_on_close", "--steadystate",
          "--steadystate_duration", "--ss_ramp", "--percentage_random", "--write_hist_log",
          "--log_hist_msec", "--log_hist_coarseness", "--continue_on_error", "--ignore_error", "--error_dump",
          "--latency_target", "--latency_window", "--latency_percentile", "--latency_run",
          "--fadvise_hint", "--nrfiles", "--filesize", "--readonly", "--random_generator", "--ioscheduler",
          "--exitall_on_error", "--status-interval", "--log_unix_epoch", "--description", "--rate_min", "--rate_iops_min", "--rate_cycle", "--dedupe_percentage", "--fsync",
          "--verify_pattern", "--buffer_pattern", "--verify_fatal", "--verify_backlog", "--verify_backlog_batch", "--verify_interval", "--verify_offset", "--verify_dump", "--aux-path", "--iodepth_low", "--max_latency", "--nice",
          "--prio", "--prioclass", "--cmdprio_percentage", "--cmdprio_class", "--cmdprio", "--cmdprio_bssplit", "--disk_util", "--timeout", "--iomem", "--unit_base", "--atomic", "-iodepth", "-name",
          "--read_iolog", "--write_iolog", "--replay_no_stall", "--replay_time_scale", "--replay_skip", "--kb_base", "--rw_sequencer", "--number_ios",
          "--write_hint", "--cpumask", "--percentage_sequential", "--offset_align", "--pre_read", "--fill_device", "--wait_for",
          "--exit_what", "--allow_file_create", "--parse-only", "--showcmd", "--exitall", "--offset", "--ioengine",
          "--file_service_type", "--filename_format", "--zonemode", "--zonesize", "--zonerange", "--zoneskip",
          "--zonecapacity", "--read_beyond_wp", "--max_open_zones", "--job_max_open_zones", "--ignore_zone_limits",
          "--zone_reset_threshold", "--zone_reset_frequency", "--io_size", "--offset_increment",
          "--bs_is_seq_rand", "--serialize_overlap", "--thinktime_blocks_type", "--rate_ignore_thinktime", "--dedupe_mode", "--dedupe_working_set_percentage", "--dedupe_global", "--trim_percentage", "--trim_verify_zero"],
 "net": ["--connect-timeout", "--count", "--len", "--omit", "--output-format", "--parallel", "--port",
         "--reverse", "--time", "--latency", "--latency-port"],
 "dns": ["--limit", "--max-queries", "--output-format", "--outstanding", "--port", "--timeout"],
}
# loopback only, a scratch file, and short runs (the last of a repeated option wins)
fixed = {"cpu": ["--time=0.2"], "mem": ["--tests=sysbench", "--time=0.2"], "disk": ["--filename=" + T + "/f", "--runtime=0.2"],
         "net": ["--client=127.0.0.1", "--time=0.3"], "dns": ["--server=127.0.0.1", "--limit=0.3"]}
bad = runs = 0
codes = {}
def check(cmd, what):
    global bad, runs
    runs += 1
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=30, cwd=T)
        rc, err = p.returncode, p.stderr.decode(errors="replace").strip()
    except subprocess.TimeoutExpired:
        rc, err = "hang", ""
    codes[rc] = codes.get(rc, 0) + 1
    if rc == "hang" or rc < 0 or rc >= 128 or (rc not in (0, 1) and not err):
        bad += 1
        print("BAD", rc, what, repr([a[:40] for a in cmd[1:]])[:300])
rnd = random.Random(int(os.environ.get("FUZZ_SEED", "20261130")))   # FUZZ_SEED, FUZZ_RUNS: more
for _ in range(int(os.environ.get("FUZZ_RUNS", "250"))):
    c = rnd.choice(sorted(opts))
    args = []
    for _ in range(rnd.randint(1, 4)):
        o, v = rnd.choice(opts[c]), rnd.choice(vals)
        if o.startswith("--write_") and v.startswith("/"):
            v = T + v     # the logs go to the scratch directory, never /dev
        args.append(o + "=" + v if rnd.random() < 0.8 else o)
        if rnd.random() < 0.2:
            args.append(v)
    args = [a for a in args if not a.startswith(("--time=", "--runtime=", "--timeout=", "--limit=", "--mode=destroy"))]
    check([A, c] + args + fixed[c], c)
good = open(T + "/good.json", "rb").read()
rules = open(T + "/good.rules", "rb").read()
def mutate(d):
    d = bytearray(d)
    for _ in range(rnd.randint(1, 20)):
        k, i = rnd.random(), rnd.randrange(len(d) + 1)
        if k < 0.3 and i < len(d):
            d[i] = rnd.randrange(256)
        elif k < 0.5:
            del d[i:i + rnd.randint(1, 50)]
        elif k < 0.7:
            d[i:i] = rnd.choice([b"{", b"}", b"[", b"]", b'"', b"\\", b"1e999", b"-", b"null", b",",
                                 b"\\u0000", b"9" * 400, b"[" * 3000])
        else:
            j = rnd.randrange(len(d) + 1)
            d[i:i] = d[j:j + rnd.randint(1, 200)]
    return bytes(d)
for n in range(300):
    m = T + "/m"
    if n % 4 == 3:
        open(m, "wb").write(mutate(rules))
        check([A, "certify", "--profile", m, T + "/good.json"], "certify rules")
    else:
        open(m, "wb").write(mutate(good))
        cmd = [[A, "compare", m, T + "/good.json"], [A, "certify", "--profile", "ci", m], [A, "extract", m]][n % 4]
        check(cmd, cmd[1])
# fio job files: mutated lines of a good one (n of them), each run with extra arguments
def fuzz_jobs(good, n, extra, what):
    for _ in range(n):
        m = T + "/j.fio"
        d = mutate(good)
        open(m, "wb").write(d if b"[" in d else b"[x]\n" + d)
        check([A, "disk", m] + extra, what)
# run against the scratch file
jobfile = ("[global]\nioengine=libaio\ndirect=0\nruntime=0.1\ntime_based\n\n[rand]\nrw=randread\n"
           "iodepth=4\n; comment\n[seq]\nstonewall\nrw=read\nbs=64k\n").encode()
fuzz_jobs(jobfile, 60, ["--filename=" + T + "/f", "--runtime=0.1"], "job file")
# and jobs naming their own files (several targets in a run; no --size: nothing is laid
# out wherever a mutated name points)
open(T + "/g", "wb").write(os.urandom(1 << 20))
jobfile2 = ("[global]\nruntime=0.1\n[a]\nfilename=%s/f\nrw=randread\n[b]\nfilename=./g\nrw=read\n"
            "[c]\nfilename=f\ndirectory=%s\n" % (T, T)).encode()
fuzz_jobs(jobfile2, 40, [], "job file, own files")
# fio's a:b: one job over both files, mutated
jobfile3 = ("[global]\nruntime=0.1\n[ab]\nfilename=%s/f:%s/g\nrw=randread\nfile_service_type=random:2\nsize=1m\n"
            "[ba]\nfilename=./g:f\nrw=read\nfile_service_type=sequential\n" % (T, T)).encode()
fuzz_jobs(jobfile3, 30, [], "job file, several files")
print("bad runs:", bad, "of", runs, "; exit codes:", sorted(codes.items(), key=str))
sys.exit(bad > 0)
PY
tail -1 "$T/out"
finish
