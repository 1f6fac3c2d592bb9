#!/bin/bash
# Session 24, issue 17: the third GPU call, on the final tree (the scratch
# plane in the columns pass's layout, the columns pass at 2 blocks an SM
# at every radius). Layout .dev-s22f/ with that library and harness: the
# harness into $OUT/h-final.log, bench/diag/s23-call4.sh (every GPU test
# but the scheduler's, memcheck and racecheck of the tensor-core tests,
# the sweep), then every method forced (cf-bench --only blur --methods)
# into $OUT/methods.txt.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
d=$PWD/.dev-s22f
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > "$OUT/h-final.log"
timeout 100 $d/tensor-tune >> "$OUT/h-final.log" 2>&1; echo "rc $?" >> "$OUT/h-final.log"
bash bench/diag/s23-call4.sh
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
timeout -k 5 230 $d/build/bench/cf-bench --only blur --methods --reps 5 > "$OUT/methods.txt" 2>&1
echo "methods rc $?" >> "$OUT/final4.log"
