#!/bin/bash
# Session 20, issue 17: GpuExact.BlurReducedRadius alone after its fix
# (radius 1 from sigma 0.3), plain, under memcheck and under racecheck, in
# parallel. Layout .dev-s20/ (bench/diag/s20-prepare-final.sh). Output:
# $OUT/test.log. DEV= another layout, F= another gtest filter (session 21:
# bench/diag/s21-test.sh).
set -u
cd "$(dirname "$0")/../.."
d=$PWD/${DEV:-.dev-s20}
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/test.log" 2>&1
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
TG=$d/build/tests/test-kernels-gpu F=${F:-GpuExact.BlurReducedRadius}
timeout 170 $TG --gtest_filter=$F > $OUT/plain.txt 2>&1 &
timeout 170 compute-sanitizer --tool memcheck --error-exitcode 9 $TG --gtest_filter=$F > $OUT/memcheck.txt 2>&1 &
timeout 170 compute-sanitizer --tool racecheck --error-exitcode 9 $TG --gtest_filter=$F > $OUT/racecheck.txt 2>&1 &
for j in 1 2 3; do wait -n; echo "job rc $?"; done
for f in plain memcheck racecheck; do
    echo "-- $f"
    grep -E "^\[  (FAILED|PASSED|OK) |^\[==========\]|Failure|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/$f.txt | head -12
done
