#!/bin/bash
# Session 23, issue 17: the GPU call on the loads-first tensor-core kernels
# (bench/diag/s22-tensor-loads-first.patch applied to kernels/blur_tensor.cu).
# Layout .dev-s22f/ (bench/diag/s22-prepare-final.sh), plus
# .dev-s22f/tensor-tune-old.xz (xz-packed, for the device tool's 64 MiB):
# the same harness on b7ba35a's kernels, for an A/B in one call. Output: $OUT/old.log, $OUT/profile.log, then
# bench/diag/s22-final.sh's ($OUT/tensor.log, $OUT/final.log, logs), then
# $OUT/tensor-memcheck.log and $OUT/tensor-racecheck.log.
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
bash bench/diag/s22-final.sh
# The tensor-core test of frames many tiles high (whose columns tiles take
# the interior staging) under both sanitizers, after the rest.
d=$PWD/.dev-s22f
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH PATH=/usr/local/cuda/bin:$PATH
F=GpuExact.BlurTensorMethodEveryFormatRandomRadii
for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $d/build/tests/test-kernels-gpu \
        --gtest_filter=$F > "$OUT/tensor-$tool.log" 2>&1 &
done
wait
tail -n 4 "$OUT"/tensor-*.log
