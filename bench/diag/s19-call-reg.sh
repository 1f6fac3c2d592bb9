#!/bin/bash
# Session 19, issue 17: the register method's small-radius variants
# (bench/diag/s19-prepare-reg-tune.sh), carried as .dev-s19/regtune.tar.xz.
# Output: $OUT/reg.log.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s19
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/reg.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
cd $d && tar -xJf regtune.tar.xz
for t in ${VARIANTS:-asis mb6 mb4 r3 r4 r3mb6 c2r8 c2r6 c2r12mb4}; do
    timeout 120 ./regtune/tune-$t
done
echo done
