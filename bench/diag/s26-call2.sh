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
#      two-pass method's two kernels (sigma 32), FP64 sums.
# Output: $OUT/call.log, $OUT/sweep.txt, $OUT/p010-methods.txt,
# $OUT/profile.log, $OUT/logs.tgz.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s26
source bench/diag/lib-gpu-tests.sh
gpu_begin "$d"
gpu_tests
grep -h -E "^\[ +(OK|FAILED) +\] GpuExact.BlurFp64" $L/kgpu*.log
stamp "the sweep: cf-bench --only blur --reps 10"
timeout -k 5 120 $d/build/bench/cf-bench --only blur --reps 10 > $OUT/sweep.txt 2>&1
echo "rc $?"; grep -v "^| blur" $OUT/sweep.txt | head -4; grep "^| blur" $OUT/sweep.txt | cut -d'|' -f2,3,8
stamp "cf-bench --only P010 --methods --reps 5 (every method, FP64 sums and not)"
timeout -k 5 240 $d/build/bench/cf-bench --only P010 --methods --reps 5 > $OUT/p010-methods.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/p010-methods.txt | cut -d'|' -f2,3,8
stamp "Nsight Compute: blur_tile (4K P010 sigma 8), sep_cols and sep_rows (sigma 32)"
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section InstructionStats --section LaunchStats"
for kc in "blur_tile|blur sigma 8 P010_10LE 3840x2160 (65" "sep_cols|blur sigma 32 P010_10LE 3840x2160 (257" \
          "sep_rows|blur sigma 32 P010_10LE 3840x2160 (257"; do
    k=${kc%%|*} c=${kc#*|}
    echo "===== ncu $k: $c"
    timeout 150 ncu -k regex:$k --launch-skip 4 --launch-count 1 $S $d/build/bench/cf-bench --no-hold --reps 1 --only "$c" 2>&1 \
        | grep -vE "^\s*$|^==PROF==|----" | grep -vE "^\s+(OPT|INF|WRN)" | head -100
done > $OUT/profile.log 2>&1
echo "rc $?"; grep -E "=====|Duration|Issue Slots Busy|Achieved Occupancy|Registers Per|Stall|Memory Throughput|Compute \(SM\)" $OUT/profile.log | head -40
gpu_end
