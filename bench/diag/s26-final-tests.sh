#!/bin/bash
# Session 26: the GPU tests on the final tree (the FP64 sums' code shared
# by the tile and two-pass kernels through blur_f64.cuh's vsum_mac and
# vsum_result), and the P010 rows of the sweep. Layout .dev-s26/
# (bench/diag/s26-prepare.sh). Output: $OUT/call.log, $OUT/p010.txt,
# $OUT/logs.tgz.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s26
source bench/diag/lib-gpu-tests.sh
gpu_begin "$d"
gpu_tests
grep -h -E "^\[ +(OK|FAILED) +\] GpuExact.BlurFp64" $L/kgpu*.log
stamp "cf-bench --only P010 --reps 10 (the table's picks)"
timeout -k 5 120 $d/build/bench/cf-bench --only P010 --reps 10 > $OUT/p010.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/p010.txt | cut -d'|' -f2,3,8
gpu_end
