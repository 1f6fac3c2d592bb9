#!/bin/bash
# Session 21, issue 17: the tile method's staging for 16-bit samples,
# three forms in tile_tune.cu, each checked against a naive blur, then
# timed, twice in turn: old (HEAD's kernels/blur_tile.cu), async (interior
# tiles copied two samples a 4-byte cp.async, unshifted, the horizontal
# pass masking and shifting), tables (async, and edge tiles folded through
# tables of source rows and columns instead of cf_border_index a sample),
# once (async, edge tiles folded once without division where the plane is
# wider than R and taller than RV, one tile a block: no loop over tile rows).
# Then Nsight Compute's instruction counts and issue rates of radius 6 and
# 24 (4K P010-like luma) in each. Layout .dev-s21/ab. Output: $OUT/staging.log.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s21
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/staging.log" 2>&1
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
    for v in old async tables once; do echo "-- tile $v (round $round)"; timeout 60 $d/ab/tile-$v; done
done
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats"
for v in old async tables once; do
    for k in blur_tileItLi1ELi6ELi6E blur_tileItLi1ELi24ELi24E blur_tileItLi2ELi6ELi6E; do
        echo "===== ncu tile $v $k (4K check launch)"
        timeout 60 ncu --kernel-name-base mangled -k regex:$k --launch-skip 1 --launch-count 1 $S $d/ab/tile-$v 2>&1 \
            | grep -E "Duration|Executed Instructions  |Issue Slots Busy|Executed Ipc Active|Warp Cycles Per Issued|SM Active Cycles"
    done
done
