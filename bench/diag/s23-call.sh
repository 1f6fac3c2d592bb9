#!/bin/bash
# Session 23, issue 17: the GPU call on the loads-first tensor-core kernels
# (bench/diag/s22-tensor-loads-first.patch applied to kernels/blur_tensor.cu).
# Layout .dev-s22f/ (bench/diag/s22-prepare-final.sh), plus
# .dev-s22f/tensor-tune-old.xz (xz-packed, for the device tool's 64 MiB):
# the same harness on b7ba35a's kernels, for an A/B in one call. Output: $OUT/old.log, $OUT/profile.log, then
# bench/diag/s22-final.sh's ($OUT/tensor.log, $OUT/final.log, logs).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
o=.dev-s22f/tensor-tune-old
if [ -f $o.xz ]; then
    xz -d $o.xz 2>/dev/null || python3 -c "import lzma, sys; open(sys.argv[1], 'wb').write(lzma.open(sys.argv[1] + '.xz').read())" $o
    chmod +x $o
fi
timeout 100 ./.dev-s22f/tensor-tune-old > "$OUT/old.log" 2>&1; echo "rc $?" >> "$OUT/old.log"
bash bench/diag/s22-call-profile.sh
exec bash bench/diag/s22-final.sh
