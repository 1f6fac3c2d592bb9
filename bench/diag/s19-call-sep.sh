#!/bin/bash
# Session 19, issue 17: the two-pass method's columns-pass variants
# (bench/diag/s19-prepare-sep-tune.sh), carried as .dev-s19/septune.tar.xz.
# Output: $OUT/sep.log.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s19
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/sep.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
cd $d && tar -xJf septune.tar.xz
for t in ${VARIANTS:-asis o4 o16 w4 w16 mb3 mb4 o4w16 o16w4}; do
    timeout 120 ./septune/tune-$t
done
echo done
