#!/bin/bash
# Session 19, issue 17, GPU call 1: the tile method's tuning variants on
# 16-bit frames (bench/diag/s19-prepare-tune.sh built them into
# .dev-s19/tune/, carried as tune.tar.xz). Output: $OUT/call1.log.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s19
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/call1.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
cd $d && tar -xJf tune.tar.xz
for t in ${VARIANTS:-asis mb3 mb4 nv8mb3 nv8mb4 t512 t512nv8 s128 s32 nh4 nh16 s128nv8 t1024}; do
    timeout 90 ./tune/tune-$t
done
echo done
