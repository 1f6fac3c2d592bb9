#!/bin/bash
# Session 26, issue 17: the FP64 vertical sums of 10-bit planes
# (kernels/blur_f64.cuh) on the H200. Layout .dev-s26/
# (bench/diag/s26-prepare.sh). In order:
#   1. every kernel GPU test but the scheduler's (4 shards), memcheck and
#      racecheck of the forced methods' small frames and of the FP64 test
#      beside them; the scheduler's GPU tests alone; every element test;
#   2. cf-bench on P010 (the dispatch table's picks), then every method
#      forced with the FP64 sums and without (--methods).
# Output: $OUT/call.log, $OUT/p010.txt, $OUT/p010-methods.txt,
# $OUT/logs.tgz (the tests' and sanitizers' whole logs).
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s26
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/l"; L=$OUT/l
exec > "$OUT/call.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|ERROR SUMMARY|RACECHECK SUMMARY|error:" | head -${N:-12}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH GST_PLUGIN_PATH=$d/build/plugins
export GST_REGISTRY=/tmp/reg-s26.bin
TG=$d/build/tests/test-kernels-gpu
stamp "kernel GPU tests (4 shards, not the scheduler's), memcheck and racecheck beside them"
F="GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuExact.BlurFp64VerticalSumsAndIntegerOnes"
pids=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 200 $TG --gtest_filter='-SchedulerGpu.*' > $L/kgpu$i.log 2>&1 &
    pids+=($!)
done
for tool in memcheck racecheck; do
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 $TG --gtest_filter="$F" > $L/$tool.log 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in kgpu0 kgpu1 kgpu2 kgpu3 memcheck racecheck; do echo "-- $f"; g < $L/$f.log; done
grep -h -E "^\[ +(OK|FAILED) +\] GpuExact.BlurFp64" $L/kgpu*.log
stamp "the scheduler's GPU tests, alone; the element tests"
timeout 60 $TG --gtest_filter='SchedulerGpu.*' > $L/sched.log 2>&1; echo "rc $?"; g < $L/sched.log
timeout 200 $d/build/tests/test-elements > $L/el.log 2>&1; echo "elements rc $?"; g < $L/el.log
stamp "cf-bench --only P010 --reps 10 (the table's picks)"
timeout -k 5 120 $d/build/bench/cf-bench --only P010 --reps 10 > $OUT/p010.txt 2>&1
echo "rc $?"; grep -v "^| blur" $OUT/p010.txt | head -4; grep "^| blur" $OUT/p010.txt | cut -d'|' -f2,3,8
stamp "cf-bench --only P010 --methods --reps 5 (every method, FP64 sums and not)"
timeout -k 5 300 $d/build/bench/cf-bench --only P010 --methods --reps 5 > $OUT/p010-methods.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/p010-methods.txt | cut -d'|' -f2,3,8
stamp done
cd "$OUT" && tar -czf logs.tgz l && rm -rf l
