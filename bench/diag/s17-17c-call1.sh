#!/bin/bash
# Issue 17, session 17 (branch issue-17c), first GPU-host call (about 110 s):
# the blur GPU tests (3 shards) with memcheck and racecheck of the forced
# methods' small frames beside them; cf-bench 4K with each method forced
# (sigma <= 24), main's library under the same cf-bench; ncu on the wide
# register kernels, the narrow one at sigma 8 and the two-pass at sigma 32.
# Run from the repository root: bash .dev-17c/run1.sh (writes into $OUT).
set -u
D=$(cd "$(dirname "$0")" && pwd)
cd "$D"
OUT=${OUT:-$D/out}
mkdir -p "$OUT/l"
L=$OUT/l
export PATH=$PATH:/usr/local/cuda/bin
source "$D/rt/env.sh" # GLib (the host has none)
MINE=$D/core:$LD_LIBRARY_PATH
BASE=$D/base:$LD_LIBRARY_PATH # main's library (cc7f997), the before
T0=$SECONDS
stamp() { echo; echo "[t=$((SECONDS - T0))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader

stamp "blur tests (3 shards) and sanitizers, all at once"
T='*Blur*:GpuExact.TallFrameBeyondGridLimit'
F='GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*'
pids=()
for i in 0 1 2; do
    LD_LIBRARY_PATH=$MINE GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i timeout -k 5 75 \
        tests/test-kernels-gpu --gtest_filter="$T" > "$L/tests-shard$i.log" 2>&1 &
    pids+=($!)
done
for tool in memcheck racecheck; do
    LD_LIBRARY_PATH=$MINE timeout -k 5 75 compute-sanitizer --tool $tool --error-exitcode 9 \
        tests/test-kernels-gpu --gtest_filter="$F" > "$L/sanitizer-$tool.log" 2>&1 &
    pids+=($!)
done
for i in 0 1 2 3 4; do wait "${pids[$i]}"; echo "job $i rc $?"; done
grep -h "^\[  PASSED  \]\|^\[  FAILED  \] [0-9]\|^\[  SKIPPED \] [0-9]" "$L"/tests-shard*.log
grep -h "^\[  FAILED  \] [A-Z]" "$L"/tests-shard*.log | sort -u | head -20
grep -h -A8 "Failure" "$L"/tests-shard*.log | head -60
for tool in memcheck racecheck; do
    echo "== $tool"; grep -h "SUMMARY\|PASSED\|FAILED\|Failure" "$L/sanitizer-$tool.log" | head -8
done

stamp "cf-bench --only '3840x2160 (' --methods --reps 5 --max-sigma 24"
LD_LIBRARY_PATH=$MINE timeout -k 5 45 bench/cf-bench --only "3840x2160 (" --methods --reps 5 \
    --max-sigma 24 > "$L/bench-methods.txt" 2>&1
echo "rc $?"; grep -v "^| blur" "$L/bench-methods.txt" | head -6
grep "^| blur" "$L/bench-methods.txt" | grep -v "forced" | cut -c1-80
grep "forced" "$L/bench-methods.txt" | grep "sigma \(8\|12\|16\|24\) \|sigma-y" | cut -c1-80

stamp "main's library: cf-bench --only '3840x2160 (' --reps 5 --max-sigma 16"
LD_LIBRARY_PATH=$BASE timeout -k 5 20 bench/cf-bench --only "3840x2160 (" --reps 5 \
    --max-sigma 16 > "$L/bench-main.txt" 2>&1
echo "rc $?"; grep "^| blur" "$L/bench-main.txt" | cut -c1-80

stamp "ncu (clocks not locked)"
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats"
for c in "blur sigma 8 GRAY8 3840x2160 (" "blur sigma 16 GRAY8 3840x2160 (" \
         "blur sigma 16 RGBA 3840x2160 (" "blur sigma 32 GRAY8 3840x2160 ("; do
    n=$(echo "$c" | tr -c 'A-Za-z0-9\n' _)
    LD_LIBRARY_PATH=$MINE timeout -k 5 20 ncu --clock-control none $S -k 'regex:sep_|blur8_reg' -c 2 \
        bench/cf-bench --only "$c" --reps 1 --no-hold > "$L/ncu-$n.txt" 2>&1
    echo "$c rc $?"
    grep -E "^  [^ ].*(blur8_reg|sep_rows|sep_cols)|Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Issue Slots Busy|Executed Ipc A|No Eligible|Dynamic Shared" \
        "$L/ncu-$n.txt" | head -30
done
stamp done
tar -C "$OUT" -czf "$OUT/logs1.tgz" l && rm -rf "$L"
