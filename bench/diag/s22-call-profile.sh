#!/bin/bash
# Session 22, issue 17: Nsight Compute on the tensor-core method's two
# kernels (4K GRAY8 radius 96, RGBA radius 48) through the harness in
# .dev-s22f (bench/diag/s22-prepare-final.sh).
# Output: $OUT/profile.log.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s22f
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/profile.log" 2>&1
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section InstructionStats --section LaunchStats"
for rc in "96 1" "48 4"; do
    set -- $rc
    $d/tensor-tune profile $1 $2
    for k in tensor_rows tensor_cols; do
        echo "===== ncu $k radius $1 channels $2"
        timeout 90 ncu -k regex:$k --launch-skip 3 --launch-count 1 $S $d/tensor-tune profile $1 $2 2>&1 \
            | grep -vE "^\s*$|^==PROF==|----" | grep -vE "^\s+(OPT|INF|WRN)" | head -90
    done
done

echo done
