#!/bin/bash
# Session 20, issue 17: the tile method with two staging buffers for 16-bit
# samples (the next tile copied in asynchronously while this one is
# filtered, blocks making a column's tiles in turn) against the kernel
# before it: tile_tune.cu built on each (.dev-s20/ab/tile-new from the
# working tree, tile-old from HEAD's kernels/blur_tile.cu), each checked
# against a naive blur, then timed, twice in turn. Output: $OUT/tile.log.
# The variant did not land (slower; bench/results/2026-12-02-h200-s20-17-
# blur.md): it is bench/diag/s20-tile-two-buffers.patch on 5a5df96's
# kernels/blur_tile.cu. To rebuild: apply it, then build tile_tune.cu on
# it as bench/diag/s20-prepare-final.sh does, and on the file without it.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s20
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/tile.log" 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
    for v in old new; do echo "-- $v (round $round)"; timeout 60 $d/ab/tile-$v; done
done
