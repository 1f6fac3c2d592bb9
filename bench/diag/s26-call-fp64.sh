#!/bin/bash
# Session 26, issue 17: the FP64 vertical sums of 10-bit planes
# (kernels/blur_f64.cuh) on the H200. Layout .dev-s26/
# (bench/diag/s26-prepare.sh). In order:
#   1. every kernel GPU test but the scheduler's (4 shards), memcheck and
#      racecheck of the forced methods' small frames and of the FP64 test
#      beside them; the scheduler's GPU tests alone; every element test;
#   2. cf-bench on P010 (the dispatch table's picks), then every method
#      forced with the FP64 sums and without (--methods).
# Output: $OUT/call.log, $OUT/p010.txt, $OUT/p010-methods.txt,
# $OUT/logs.tgz (the tests' and sanitizers' whole logs).
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s26
source bench/diag/lib-gpu-tests.sh
gpu_begin "$d"
gpu_tests
grep -h -E "^\[ +(OK|FAILED) +\] GpuExact.BlurFp64" $L/kgpu*.log
stamp "cf-bench --only P010 --reps 10 (the table's picks)"
timeout -k 5 120 $d/build/bench/cf-bench --only P010 --reps 10 > $OUT/p010.txt 2>&1
echo "rc $?"; grep -v "^| blur" $OUT/p010.txt | head -4; grep "^| blur" $OUT/p010.txt | cut -d'|' -f2,3,8
stamp "cf-bench --only P010 --methods --reps 5 (every method, FP64 sums and not)"
timeout -k 5 300 $d/build/bench/cf-bench --only P010 --methods --reps 5 > $OUT/p010-methods.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/p010-methods.txt | cut -d'|' -f2,3,8
gpu_end
