#!/bin/bash
# Issue 17, session 17 (branch issue-17c), the final GPU-host call (at most
# about 250 s; its timeouts add up to 249): every GPU unit test (4 shards)
# with memcheck and racecheck of the forced methods' small frames beside
# them; cf-bench's blur sweep (4K and 8K, GRAY8/RGBA/NV12/P010, sigma 0.5 to
# 64 and unequal sigmas, the dispatch table's picks); reg against sep forced
# at sigma 24 and 32 (4K); the library without the huge kernels (safe/,
# b80f089) at sigma >= 24, in case they fail; NPP GaussAdvanced; cupyx
# gaussian_filter (bench/peers.py) at every sigma.
# Run from the repository root: bash .dev-17c/run2.sh (writes into $OUT).
set -u
D=$(cd "$(dirname "$0")" && pwd)
cd "$D"
OUT=${OUT:-$D/out}
mkdir -p "$OUT/l"
L=$OUT/l
export PATH=$PATH:/usr/local/cuda/bin
PLAIN_PATH=$PATH PLAIN_LD=${LD_LIBRARY_PATH:-} # CuPy's Python without the bundle
source "$D/rt/env.sh" # GLib (the host has none)
MINE=$D/core:$LD_LIBRARY_PATH
SAFE=$D/safe:$LD_LIBRARY_PATH
T0=$SECONDS
stamp() { echo; echo "[t=$((SECONDS - T0))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader

stamp "GPU unit tests (4 shards) and sanitizers, all at once"
F='GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*'
pids=()
for i in 0 1 2 3; do
    LD_LIBRARY_PATH=$MINE GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout -k 5 80 \
        tests/test-kernels-gpu > "$L/tests-shard$i.log" 2>&1 &
    pids+=($!)
done
for tool in memcheck racecheck; do
    echo "\$ compute-sanitizer --tool $tool --error-exitcode 9 tests/test-kernels-gpu --gtest_filter=$F"
    LD_LIBRARY_PATH=$MINE timeout -k 5 80 compute-sanitizer --tool $tool --error-exitcode 9 \
        tests/test-kernels-gpu --gtest_filter="$F" > "$L/sanitizer-$tool.log" 2>&1 &
    pids+=($!)
done
for i in 0 1 2 3 4 5; do wait "${pids[$i]}"; echo "job $i rc $?"; done
grep -h "^\[  PASSED  \]\|^\[  FAILED  \] [0-9]\|^\[  SKIPPED \] [0-9]\|tests ran" "$L"/tests-shard*.log
grep -h "^\[  FAILED  \] [A-Z]" "$L"/tests-shard*.log | sort -u | head -20
grep -h -A8 "Failure" "$L"/tests-shard*.log | head -60
for tool in memcheck racecheck; do
    echo "== $tool"; grep -h "SUMMARY\|PASSED\|FAILED\|Failure" "$L/sanitizer-$tool.log" | head -8
done

stamp "the sweep: cf-bench --only blur --reps 10"
LD_LIBRARY_PATH=$MINE timeout -k 5 45 bench/cf-bench --only blur --reps 10 > "$L/sweep.txt" 2>&1
echo "rc $?"; grep -v "^| blur" "$L/sweep.txt" | head -6
grep "^| blur" "$L/sweep.txt" | cut -d'|' -f2,3 | sed 's/blur sigma //'

stamp "reg and sep forced, 4K: cf-bench --only CASE --methods --reps 5"
for c in "sigma 24 GRAY8 3840x2160 (" "sigma 32 GRAY8 3840x2160 (" "sigma 32 NV12 3840x2160 ("; do
    LD_LIBRARY_PATH=$MINE timeout -k 2 8 bench/cf-bench --only "$c" --methods --reps 5 \
        >> "$L/methods.txt" 2>&1
    echo "rc $?"
done
grep "forced \(reg\|sep\)" "$L/methods.txt" | cut -d'|' -f2,3

stamp "without the huge kernels (safe/, b80f089): cf-bench --only blur --reps 5 --max-sigma 64, sigma >= 24 rows"
LD_LIBRARY_PATH=$SAFE timeout -k 2 15 bench/cf-bench --only "3840x2160 (" --reps 5 > "$L/safe.txt" 2>&1
echo "rc $?"; grep "sigma \(24\|32\|48\|64\) " "$L/safe.txt" | cut -d'|' -f2,3

stamp "NPP GaussAdvanced: npp-peer"
LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout -k 2 20 ./npp-peer > "$L/npp.txt" 2>&1
echo "rc $?"; cat "$L/npp.txt"

stamp "cupyx gaussian_filter (truncate=3): python3 peers.py"
PATH=$PLAIN_PATH LD_LIBRARY_PATH=$PLAIN_LD timeout -k 2 65 python3 peers.py > "$L/peers.txt" 2>&1
echo "rc $?"; cat "$L/peers.txt" | head -120
stamp done
tar -C "$OUT" -czf "$OUT/logs2.tgz" l && rm -rf "$L"
