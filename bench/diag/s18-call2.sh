#!/bin/bash
# Session 18, second GPU call: the sliding-window method after its fix (a
# warp takes one path): the debug harness (.dev-dbg/dbg), the slide and
# small-frames tests, memcheck of the small frames, and cf-bench's rows up
# to sigma 2 with every method forced. Layout .dev-s18/ as call 1.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s18
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"; L=$OUT
exec > "$OUT/call${CALL:-2}.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|differs|ERROR SUMMARY|error:" | head -${N:-30}; }
export PATH=/usr/local/cuda/bin:$PATH
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
TG=$d/build/tests/test-kernels-gpu
stamp "debug harness"; timeout 30 .dev-dbg/dbg | tail -12
which ncu nsys compute-sanitizer
stamp "every blur test (3 shards), memcheck of the small frames beside them"
pids=()
for i in 0 1 2; do
    GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i timeout 100 $TG --gtest_filter='GpuExact.Blur*:BlurDispatch.*' > $L/blur$i.log 2>&1 &
    pids+=($!)
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $TG --gtest_filter='GpuExact.BlurMethodsSmallFrames' > $L/memcheck2.log 2>&1 &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; echo "job rc $?"; done
for i in 0 1 2; do N=12 g < $L/blur$i.log; done; N=6 g < $L/memcheck2.log
stamp "cf-bench --only blur --max-sigma 2 --methods --reps 5"
timeout -k 5 120 $d/build/bench/cf-bench --only blur --max-sigma 2 --methods --reps 5 > $L/methods2.txt 2>&1
echo "rc $?"; grep -v "^| blur" $L/methods2.txt | head -6; grep "^| blur" $L/methods2.txt | grep -v "forced sep\|forced tile\|forced reg" | cut -d'|' -f2,3,8,9,10
stamp done
