#!/bin/bash
# Session 21, issue 17: 32-bit vertical sums for narrow samples (P010) in
# the tile and two-pass methods (bench/diag/s21-narrow-vertical.patch on
# a2d2312; not landed) against a2d2312's kernels: tile_tune.cu and
# sep_tune.cu built on each (.dev-s21/ab/{tile,sep}-new from the patched
# tree, -old from a2d2312's kernels/blur_tile.cu and blur_sep.cu), each
# checked against a naive blur, then timed, twice in turn; then Nsight
# Compute on the tile kernel of radius 6 and 24 (4K P010-like luma) and
# the columns pass, old and new: pipe utilization, warp states. Output:
# $OUT/ab.log.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s21
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/ab.log" 2>&1
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
    for v in old new; do echo "-- tile $v (round $round)"; timeout 60 $d/ab/tile-$v; done
    for v in old new; do echo "-- sep $v (round $round)"; timeout 90 $d/ab/sep-$v; done
done
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy --section InstructionStats"
for v in old new; do
    for k in blur_tileItLi1ELi6ELi6E blur_tileItLi1ELi24ELi24E; do
        echo "===== ncu tile $v $k (4K check launch)"
        timeout 60 ncu --kernel-name-base mangled -k regex:$k --launch-skip 1 --launch-count 1 $S $d/ab/tile-$v 2>&1 \
            | grep -vE "^\s*$|^==PROF==|----" | grep -vE "^\s+(OPT|INF|WRN)" | head -70
    done
    echo "===== ncu sep_cols $v (first 16-bit launch)"
    timeout 60 ncu --kernel-name-base mangled -k regex:sep_colsIt --launch-skip 0 --launch-count 1 $S $d/ab/sep-$v 2>&1 \
        | grep -vE "^\s*$|^==PROF==|----" | grep -vE "^\s+(OPT|INF|WRN)" | head -70
done
