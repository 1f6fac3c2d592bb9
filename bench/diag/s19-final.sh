#!/bin/bash
# Session 19, issue 17: the GPU call on the final tree. Layout .dev-s19f/
# (bench/diag/s19-prepare-final.sh). In about 300 s: the tile harness
# (its kernel against a naive blur, then its times); every GPU test but
# the scheduler's (4 shards) with memcheck and racecheck of the forced
# methods' small frames beside them; cf-bench's whole blur sweep with the
# dispatch table's picks (4K and 8K, GRAY8/RGBA/NV12/P010, sigma 0.5-64
# and unequal); every method forced at every case; NPP
# GaussAdvanced and cupyx (bench/peers.py). Everything into
# $OUT/final.log and $OUT/final-logs.tgz.
# DEV= another layout (session 20: .dev-s20); SANITIZE_TOO= more tests
# for memcheck and racecheck (a gtest filter). A layout without npp-peer
# gets one built there (libnpp is on the GPU host only).
set -u
cd "$(dirname "$0")/../.."
d=$PWD/${DEV:-.dev-s19f}
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/l"; L=$OUT/l
exec > "$OUT/final.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|differs|ERROR SUMMARY|RACECHECK SUMMARY|error:" | head -${N:-30}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
PLAIN_PATH=$PATH PLAIN_LD=${LD_LIBRARY_PATH:-} # the host's Python and CuPy, for peers.py
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
TG=$d/build/tests/test-kernels-gpu
NPP_BUILD=
if [ ! -x $d/npp-peer ]; then
    (nvcc -O2 -std=c++17 -gencode arch=compute_90,code=sm_90 -o $d/npp-peer bench/npp_peer.cu \
        -lnppif -lnppicc -lnppc > $L/npp-build.log 2>&1; echo "npp-peer build rc $?" >> $L/npp-build.log) &
    NPP_BUILD=$!
fi
stamp "tile harness: check against a naive blur, then times (us)"; timeout 60 $d/tile-tune
stamp "GPU tests (4 shards, not the scheduler's), memcheck and racecheck beside them"
F="GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*${SANITIZE_TOO:+:$SANITIZE_TOO}"
pids=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 170 $TG --gtest_filter='-SchedulerGpu.*' > $L/kgpu$i.log 2>&1 &
    pids+=($!)
done
timeout 170 compute-sanitizer --tool memcheck --error-exitcode 9 $TG --gtest_filter="$F" > $L/memcheck.log 2>&1 &
pids+=($!)
timeout 170 compute-sanitizer --tool racecheck --error-exitcode 9 $TG --gtest_filter="$F" > $L/racecheck.log 2>&1 &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in kgpu0 kgpu1 kgpu2 kgpu3 memcheck racecheck; do echo "-- $f"; N=12 g < $L/$f.log; done
stamp "the sweep: cf-bench --only blur --reps 10"
timeout -k 5 100 $d/build/bench/cf-bench --only blur --reps 10 > $L/sweep.txt 2>&1
echo "rc $?"; grep -v "^| blur" $L/sweep.txt | head -6; grep "^| blur" $L/sweep.txt | cut -d'|' -f2,3,8,9,10
stamp "every method forced: cf-bench --only blur --methods --reps 5"
timeout -k 5 250 $d/build/bench/cf-bench --only blur --methods --reps 5 > $L/methods.txt 2>&1
echo "rc $?"; grep -c "^| blur" $L/methods.txt
stamp "NPP GaussAdvanced"
[ -n "$NPP_BUILD" ] && { wait $NPP_BUILD; cat $L/npp-build.log; }
if [ -x $d/npp-peer ]; then LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout -k 2 25 $d/npp-peer > $L/npp.txt 2>&1; echo "rc $?"; head -30 $L/npp.txt; fi
stamp "cupyx gaussian_filter (truncate=3)"
PATH=$PLAIN_PATH LD_LIBRARY_PATH=$PLAIN_LD PEERS_SIGMAS=0.5,2,8,32,64 PEERS_CASES=GRAY8,RGBA,NV12 \
    timeout -k 2 100 python3 bench/peers.py > $L/cupyx.txt 2>&1
echo "rc $?"; cat $L/cupyx.txt
stamp done
cd "$OUT" && tar -czf final-logs.tgz l && rm -rf l
