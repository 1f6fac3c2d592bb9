#!/bin/bash
# On the GPU host (16 cores), after bench/prepare-cpu-run.sh here, carrying
# .dev-16: the CPU path's exactness tests there, the command-line tool on
# vtest with --device cpu (frames/s), and cf-cpu-bench (ours against OpenCV,
# 1, 2 and all threads; cut at BENCH_LIMIT s, 120). Writes cpu-host.log
# and cpu-bench.md to $OUT. About 4 minutes: run with timeout_s 240 (or
# BENCH_LIMIT lower), e.g. command `bash .dev-16/cpu-host.sh`, carry
# [".dev-16"].
set -u
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
D=$(cd "$(dirname "$0")" && pwd)
exec > >(tee "$OUT/cpu-host.log") 2>&1
source "$D/rt/env.sh"
export LD_LIBRARY_PATH=$D/lib:$LD_LIBRARY_PATH
lscpu | grep -E "^Model name|^CPU\(s\)|^Thread|L2 cache|L3 cache"
grep -o -w -E "avx2|avx512f|avx512bw|avx512vl" /proc/cpuinfo | sort | uniq -c
echo "=== optimized CPU = reference (every level, 1/2/7 threads)"
LD_LIBRARY_PATH=$D/dbg:$LD_LIBRARY_PATH timeout 60 "$D/dbg/test-cpu-exact" 2>&1 | tail -15
T=$D/bin/cudafilters
fast=/dev/shm/cf16; mkdir -p $fast
fps() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["fps"])'; }
median3() {
    local out=$1; shift
    for i in 1 2 3; do
        rm -f $out
        timeout 60 $T transcode "$D/data/vtest.mp4" $out --json --quiet --device cpu "$@" | fps
    done | sort -g | sed -n 2p
}
echo "=== CLI --device cpu, vtest (768x576, 795 frames), median frames/s of 3 runs"
echo "| case | frames/s |"
echo "|---|---|"
echo "| decode only, to raw video | $(median3 $fast/dec.nut --codec rawvideo) |"
echo "| gray,blur=sigma=2 to raw video, all cores | $(median3 $fast/f.nut --vf gray,blur=sigma=2 --codec rawvideo) |"
echo "| gray,blur=sigma=2 to raw video, --threads 1 | $(median3 $fast/f1.nut --vf gray,blur=sigma=2 --codec rawvideo --threads 1) |"
echo "| gray,blur=sigma=2 to H.264 (libx264, the default), all cores | $(median3 $fast/f.mp4 --vf gray,blur=sigma=2) |"
# The reference once: about 18 s at the 44 frames/s the issue measured.
echo "| gray,blur=sigma=2 to H.264, CF_CPU=reference (the old path), one run | $(CF_CPU=reference timeout 60 $T transcode "$D/data/vtest.mp4" $fast/r.mp4 --json --quiet --device cpu --vf gray,blur=sigma=2 | fps) |"
rm -rf $fast
echo "=== cf-cpu-bench (written to cpu-bench.md as it goes)"
timeout ${BENCH_LIMIT:-120} "$D/bin/cf-cpu-bench" --threads 1,2,0 --min-time 0.1 | tee "$OUT/cpu-bench.md"
echo "[bench exit $?]"
