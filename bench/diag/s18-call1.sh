#!/bin/bash
# Session 18, first GPU call (issue 17, the sliding-window method): every
# GPU blur test (4 shards), memcheck and racecheck of the forced methods'
# small frames beside them; then cf-bench's blur rows up to sigma 3 with
# every method forced (--methods), 4K and 8K, GRAY8/RGBA/NV12/P010, to set
# the dispatch table. Layout .dev-s18/ (bench/diag/s18-prepare.sh).
# Everything goes to $OUT/call1.log; no bare `wait`.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s18
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"; L=$OUT
exec > "$OUT/call1.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|Which is|Expected|differs|ERROR SUMMARY|RACECHECK SUMMARY|error:" | head -${N:-30}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
TG=$d/build/tests/test-kernels-gpu
stamp "GPU blur tests (4 shards), memcheck and racecheck beside them"
jobs=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 150 $TG --gtest_filter='GpuExact.Blur*:BlurDispatch.*' > $L/kgpu$i.log 2>&1 &
    jobs+=($!)
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $TG \
    --gtest_filter='GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*' > $L/memcheck.log 2>&1 & jobs+=($!)
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $TG \
    --gtest_filter='GpuExact.BlurMethodsSmallFrames' > $L/racecheck.log 2>&1 & jobs+=($!)
for p in "${jobs[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in kgpu0 kgpu1 kgpu2 kgpu3 memcheck racecheck; do echo "-- $f"; N=25 g < $L/$f.log; done
stamp "cf-bench --only blur --max-sigma 3 --methods --reps 5"
timeout -k 5 150 $d/build/bench/cf-bench --only blur --max-sigma 3 --methods --reps 5 > $L/methods.txt 2>&1
echo "rc $?"; grep -v "^| blur" $L/methods.txt | head -8; grep "^| blur" $L/methods.txt | cut -d'|' -f2,3,5,8
stamp done
