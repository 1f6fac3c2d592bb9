#!/bin/bash
# Session 28, issue 17: the tensor-core columns pass of 16-bit planes
# (kernels/blur_tensor16_cols.cu) on the H200. Layout .dev-s28/
# (bench/diag/s28-prepare.sh). In order:
#   1. ptxas's registers and spills of both builds; the harness
#      (bench/diag/tensor16_cols_tune.cu) as built and at the other block
#      count an SM (s28-prepare.sh):
#      the whole tensor-core blur against a naive one, then the rows pass
#      with either columns pass on P010-like and GRAY16-like frames;
#   2. every kernel GPU test but the scheduler's (4 shards), memcheck and
#      racecheck of the forced methods' small frames, the FP64 test and the
#      16-bit tensor-core test beside them; the scheduler's GPU tests
#      alone; every element test;
#   3. cf-bench on P010 (the dispatch table's picks), then every method
#      forced (--methods: the tensor-core method with each columns pass,
#      FP64 sums and not).
# FINAL=1: the whole sweep (sweep.txt) instead of step 3's --methods.
# Output: $OUT/call.log, $OUT/p010.txt, $OUT/p010-methods.txt or
# $OUT/sweep.txt, $OUT/logs.tgz (the tests' and sanitizers' whole logs).
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s28
source bench/diag/lib-gpu-tests.sh
gpu_begin "$d"
stamp "the 16-bit tensor-core columns pass's harness"
cat $d/ptxas.txt $d/ptxas-b.txt
for v in tensor16-cols-tune $(cat $d/variant.txt); do timeout 150 $d/$v; echo "$v rc $?"; done
gpu_tests "$BLUR_SANITIZED:GpuExact.BlurTensorMethod16BitRandomRadii"
grep -h -E "^\[ +(OK|FAILED) +\] GpuExact.BlurTensorMethod16" $L/kgpu*.log
stamp "cf-bench --only P010 --reps 10 (the table's picks)"
timeout -k 5 120 $d/build/bench/cf-bench --only P010 --reps 10 > $OUT/p010.txt 2>&1
echo "rc $?"; grep -v "^| blur" $OUT/p010.txt | head -4; grep "^| blur" $OUT/p010.txt | cut -d'|' -f2,3,8
if [ "${FINAL:-0}" = 1 ]; then
    stamp "the sweep: cf-bench --only blur --reps 10"
    timeout -k 5 120 $d/build/bench/cf-bench --only blur --reps 10 > $OUT/sweep.txt 2>&1
    echo "rc $?"; gpu_end; exit 0
fi
stamp "cf-bench --only P010 --methods --reps 5 (every method, both tensor-core columns passes, FP64 sums and not)"
timeout -k 5 300 $d/build/bench/cf-bench --only P010 --methods --reps 5 > $OUT/p010-methods.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/p010-methods.txt | cut -d'|' -f2,3,8
gpu_end
