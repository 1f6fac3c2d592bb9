#!/bin/bash
# Issue 17's next GPU call, prepared in session 18 while the device tool
# lent no machine, run as its seventh call. Layout .dev-s18/
# (bench/diag/s18-prepare-next.sh). In about 250 s: the slide check
# harness; every GPU test but the scheduler's (4 shards) with memcheck and
# racecheck of the forced methods' small frames beside them; the slide
# tuning variants; cf-bench's whole blur sweep with the dispatch table's
# picks (4K and 8K, GRAY8/RGBA/NV12/P010, sigma 0.5-64 and unequal) and
# the methods forced up to sigma 2; cf-convert-scale-bench; NPP GaussAdvanced (npp-peer, if
# carried) and cupyx (bench/peers.py). Everything into $OUT/next.log and
# $OUT/next-logs.tgz. No bare `wait`.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s18
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/l"; L=$OUT/l
exec > "$OUT/next.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|differs|ERROR SUMMARY|RACECHECK SUMMARY|error:" | head -${N:-30}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
PLAIN_PATH=$PATH PLAIN_LD=${LD_LIBRARY_PATH:-} # the host's Python and CuPy, for peers.py
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
TG=$d/build/tests/test-kernels-gpu
stamp "slide check harness"; timeout 30 $d/tune/slide-check | tail -14
stamp "GPU tests (4 shards, not the scheduler's), memcheck and racecheck beside them"
F='GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*'
pids=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 150 $TG --gtest_filter='-SchedulerGpu.*' > $L/kgpu$i.log 2>&1 &
    pids+=($!)
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $TG --gtest_filter="$F" > $L/memcheck.log 2>&1 &
pids+=($!)
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $TG --gtest_filter="$F" > $L/racecheck.log 2>&1 &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in kgpu0 kgpu1 kgpu2 kgpu3 memcheck racecheck; do echo "-- $f"; N=12 g < $L/$f.log; done
stamp "slide tuning variants"
for t in asis rows4 rows8 rows12 rows24 words1; do timeout 20 $d/tune/tune-$t; done
stamp "the sweep: cf-bench --only blur --reps 10"
timeout -k 5 90 $d/build/bench/cf-bench --only blur --reps 10 > $L/sweep.txt 2>&1
echo "rc $?"; grep -v "^| blur" $L/sweep.txt | head -6; grep "^| blur" $L/sweep.txt | cut -d'|' -f2,3,8,9,10
stamp "methods forced up to sigma 2: cf-bench --only blur --max-sigma 2 --methods --reps 5"
timeout -k 5 90 $d/build/bench/cf-bench --only blur --max-sigma 2 --methods --reps 5 > $L/methods.txt 2>&1
echo "rc $?"
stamp "cf-convert-scale-bench --reps 10 (its same-bytes copy now bench/same_bytes_copy.cuh)"
timeout -k 5 60 $d/build/bench/cf-convert-scale-bench --reps 10 > $L/convert-scale.txt 2>&1
echo "rc $?"; head -40 $L/convert-scale.txt
stamp "NPP GaussAdvanced"
if [ -x $d/npp-peer ]; then LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout -k 2 25 $d/npp-peer > $L/npp.txt 2>&1; echo "rc $?"; cat $L/npp.txt; fi
stamp "cupyx gaussian_filter (truncate=3)"
PATH=$PLAIN_PATH LD_LIBRARY_PATH=$PLAIN_LD PEERS_SIGMAS=0.5,2,8,32,64 PEERS_CASES=GRAY8,RGBA,NV12 \
    timeout -k 2 100 python3 bench/peers.py > $L/cupyx.txt 2>&1
echo "rc $?"; cat $L/cupyx.txt
stamp done
cd "$OUT" && tar -czf next-logs.tgz l && rm -rf l
