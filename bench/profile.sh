#!/bin/bash
# Nsight Compute on the GPU host: what limits the kernels of chosen
# cf-bench cases (occupancy, issue slots, pipes, stall reasons, memory
# throughput); by default 8 of them, gray and blur, 4K.
# Prepare with bench/prepare-gpu-run.sh; run from the repo root:
#   bash bench/profile.sh ["case label part" ...]
# Clocks are left as they are (--clock-control none).
set -u -o pipefail
cd "$(dirname "$0")/.."
dev=$PWD/.device
export LD_LIBRARY_PATH=$dev/build/core:${LD_LIBRARY_PATH:-}
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("gray RGBA" "gray NV12" "gray P010" "gray GRAY16" \
    "blur sigma 2 GRAY8" "blur sigma 2 RGBA" "blur sigma 2 NV12" "blur sigma 8 GRAY8")
for c in "${cases[@]}"; do
    echo "### $c"
    # Skip the warm-up launches, then profile two (one launch a frame).
    # --no-hold: the profiler runs one kernel at a time, so a stream hold
    # (bench/hold.cuh) would only wait for its timeout.
    $ncu --clock-control none -k 'regex:blur|gray' -s 10 -c 2 \
        --section SpeedOfLight --section LaunchStats --section Occupancy \
        --section ComputeWorkloadAnalysis --section SchedulerStats --section WarpStateStats \
        $dev/build/bench/cf-bench --reps 2 --no-hold --only "$c" 2>&1 |
        grep -v '^==PROF==' | grep -vE '^\s*-{5,}|^\s*$|OPT |WRN |INF ' | cut -c1-140
done
