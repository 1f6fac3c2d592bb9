#!/bin/bash
# Session 18: Nsight Compute on the sliding-window and register kernels,
# 4K GRAY8 sigma 0.5 and P010 sigma 0.5 (cf-bench --methods, one sample):
# speed of light, occupancy, warp states. Layout .dev-s18/.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s18
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/profile.log" 2>&1
export PATH=/usr/local/cuda/bin:$PATH
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis"
for c in "blur sigma 0.5 GRAY8 3840x2160" "blur sigma 0.5 P010_10LE 3840x2160" "blur sigma 1 P010_10LE 3840x2160"; do
  for k in blur_slide blur8_reg blur_tile; do
    echo "===== $c : $k"
    timeout 60 ncu -k regex:$k --launch-skip 3 --launch-count 1 $S $d/build/bench/cf-bench --only "$c" --methods --reps 1 2>&1 \
      | grep -E "blur_|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Issue Slot|Stall|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Executed Ipc|Waves Per SM|Grid Size" | head -40
  done
done
