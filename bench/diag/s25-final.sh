#!/bin/bash
# Session 25, issue 17: the one GPU call on the final tree (e25d0eb's
# kernels), everything the issue asks to be shown, in one run. Layout
# .dev-s22f/ (bench/diag/s22-prepare-final.sh, the library, cf-bench and
# test-kernels-gpu refreshed from build-gpu). In order:
#   1. the tensor-core harness (layout probe, check against a naive blur
#      on 1, 2 and 4 channels, times) into $OUT/tensor.log;
#   2. every kernel GPU test but the scheduler's (4 shards), memcheck and
#      racecheck of the forced methods' small frames and of the
#      tensor-core test of frames many tiles high beside them; then the
#      scheduler's GPU tests alone (they watch GPU memory);
#   3. the sweep with the dispatch table's picks (cf-bench --only blur);
#   4. NPP GaussAdvanced (bench/npp_peer.cu, built there);
#   5. cupyx gaussian_filter at every sigma of the sweep and its unequal
#      pairs, on GRAY8, RGBA, NV12, P010 luma and 8K GRAY8 (bench/peers.py).
# Output: $OUT/final.log, $OUT/sweep.txt, $OUT/npp.txt, $OUT/cupyx.txt,
# $OUT/final-logs.tgz (the tests' and sanitizers' whole logs).
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s22f
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/l"; L=$OUT/l
exec > "$OUT/final.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|ERROR SUMMARY|RACECHECK SUMMARY|error:" | head -${N:-12}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
PLAIN_PATH=$PATH PLAIN_LD=${LD_LIBRARY_PATH:-} # the host's Python and CuPy, for peers.py
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
TG=$d/build/tests/test-kernels-gpu
(nvcc -O2 -std=c++17 -gencode arch=compute_90,code=sm_90 -o /tmp/npp-peer bench/npp_peer.cu \
    -lnppif -lnppicc -lnppc > $L/npp-build.log 2>&1; echo "npp-peer build rc $?" >> $L/npp-build.log) &
NPP_BUILD=$!
stamp "tensor-core harness: layout probe, check against a naive blur, times (us)"
timeout 120 $d/tensor-tune > "$OUT/tensor.log" 2>&1; echo "rc $?"; head -5 "$OUT/tensor.log"
wait $NPP_BUILD; cat $L/npp-build.log
stamp "kernel GPU tests (4 shards, not the scheduler's), memcheck and racecheck beside them"
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
for f in kgpu0 kgpu1 kgpu2 kgpu3 memcheck racecheck; do echo "-- $f"; g < $L/$f.log; done
stamp "the scheduler's GPU tests, alone"
timeout 60 $TG --gtest_filter='SchedulerGpu.*' > $L/sched.log 2>&1; echo "rc $?"; g < $L/sched.log
stamp "the sweep: cf-bench --only blur --reps 10"
timeout -k 5 100 $d/build/bench/cf-bench --only blur --reps 10 > $OUT/sweep.txt 2>&1
echo "rc $?"; grep -v "^| blur" $OUT/sweep.txt | head -6; grep "^| blur" $OUT/sweep.txt | cut -d'|' -f2,3,8
stamp "NPP GaussAdvanced"
LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout -k 2 120 /tmp/npp-peer > $OUT/npp.txt 2>&1; echo "rc $?"
cat $OUT/npp.txt
stamp "cupyx gaussian_filter (truncate=3; 4 for the 16-bit luma), every sigma and unequal pair"
PATH=$PLAIN_PATH LD_LIBRARY_PATH=$PLAIN_LD timeout -k 2 330 python3 bench/peers.py > $OUT/cupyx.txt 2>&1
echo "rc $?"; cat $OUT/cupyx.txt
stamp done
cd "$OUT" && tar -czf final-logs.tgz l && rm -rf l
