#!/bin/bash
# Session 26: the GPU tests on the final tree (the FP64 sums' code shared
# by the tile and two-pass kernels through blur_f64.cuh's vsum_mac and
# vsum_result), and the P010 rows of the sweep. Layout .dev-s26/
# (bench/diag/s26-prepare.sh). Output: $OUT/call.log, $OUT/p010.txt,
# $OUT/logs.tgz.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s26
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/l"; L=$OUT/l
exec > "$OUT/call.log" 2>&1
source bench/diag/lib-gpu-tests.sh
gpu_setup "$d"
gpu_tests "GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuExact.BlurFp64VerticalSumsAndIntegerOnes"
grep -h -E "^\[ +(OK|FAILED) +\] GpuExact.BlurFp64" $L/kgpu*.log
stamp "cf-bench --only P010 --reps 10 (the table's picks)"
timeout -k 5 120 $d/build/bench/cf-bench --only P010 --reps 10 > $OUT/p010.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/p010.txt | cut -d'|' -f2,3,8
stamp done
cd "$OUT" && tar -czf logs.tgz l && rm -rf l
