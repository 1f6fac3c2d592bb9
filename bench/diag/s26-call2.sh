#!/bin/bash
# Session 26, issue 17: the second GPU call, on the tree whose tile
# kernels take the FP64 taps as a parameter of their own (in TileTaps they
# made the integer kernels of radius 20-32 spill). Layout .dev-s26/
# (bench/diag/s26-prepare.sh). In order:
#   1. the GPU tests as s26-call-fp64.sh (kernel tests in 4 shards,
#      memcheck and racecheck, the scheduler's, the element tests);
#   2. cf-bench's whole blur sweep (the dispatch table's picks);
#   3. P010 with every method forced, FP64 sums and not (--methods);
#   4. Nsight Compute on the tile kernel (4K P010 sigma 8) and the
#      two-pass method's columns kernel (sigma 32), FP64 sums.
# Output: $OUT/call.log, $OUT/sweep.txt, $OUT/p010-methods.txt,
# $OUT/profile.log, $OUT/logs.tgz.
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
TG=$d/build/tests/test-kernels-gpu B=$d/build/bench/cf-bench
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
stamp "the sweep: cf-bench --only blur --reps 10"
timeout -k 5 120 $B --only blur --reps 10 > $OUT/sweep.txt 2>&1
echo "rc $?"; grep -v "^| blur" $OUT/sweep.txt | head -4; grep "^| blur" $OUT/sweep.txt | cut -d'|' -f2,3,8
stamp "cf-bench --only P010 --methods --reps 5 (every method, FP64 sums and not)"
timeout -k 5 240 $B --only P010 --methods --reps 5 > $OUT/p010-methods.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/p010-methods.txt | cut -d'|' -f2,3,8
stamp "Nsight Compute: blur_tile (4K P010 sigma 8), sep_cols (sigma 32)"
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section InstructionStats --section LaunchStats"
for kc in "blur_tile|blur sigma 8 P010_10LE 3840x2160 (65" "sep_cols|blur sigma 32 P010_10LE 3840x2160 (257"; do
    k=${kc%%|*} c=${kc#*|}
    echo "===== ncu $k: $c"
    timeout 150 ncu -k regex:$k --launch-skip 4 --launch-count 1 $S $B --no-hold --reps 1 --only "$c" 2>&1 \
        | grep -vE "^\s*$|^==PROF==|----" | grep -vE "^\s+(OPT|INF|WRN)" | head -100
done > $OUT/profile.log 2>&1
echo "rc $?"; grep -E "=====|Duration|Issue Slots Busy|Achieved Occupancy|Registers Per|Stall|Memory Throughput|Compute \(SM\)" $OUT/profile.log | head -40
stamp done
cd "$OUT" && tar -czf logs.tgz l && rm -rf l
