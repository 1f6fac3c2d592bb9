#!/bin/bash
# Session 23, issue 17: the fourth GPU call, on the tree whose columns pass
# takes 3 blocks an SM up to vertical radius 40 (kernels/blur_tensor.cu,
# cols_launch). Layout .dev-s22f/ with that library. Every GPU test but
# the scheduler's (4 shards), memcheck and racecheck of the forced
# methods' small frames and of the tensor-core test of frames many tiles
# high, then the sweep with the table's picks. Output: $OUT/final4.log,
# $OUT/sweep.txt.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s22f
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/l"; L=$OUT/l
exec > "$OUT/final4.log" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
TG=$d/build/tests/test-kernels-gpu
F="GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuExact.BlurTensorMethodEveryFormatRandomRadii"
pids=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 170 $TG --gtest_filter='-SchedulerGpu.*' > $L/kgpu$i.log 2>&1 &
    pids+=($!)
done
for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $TG --gtest_filter="$F" > $L/$tool.log 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in kgpu0 kgpu1 kgpu2 kgpu3 memcheck racecheck; do
    echo "-- $f"; grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|ERROR SUMMARY|RACECHECK SUMMARY" $L/$f.log | head -12
done
echo "=== the sweep: cf-bench --only blur --reps 10"
timeout -k 5 100 $d/build/bench/cf-bench --only blur --reps 10 > $OUT/sweep.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/sweep.txt | cut -d'|' -f2,3,8
