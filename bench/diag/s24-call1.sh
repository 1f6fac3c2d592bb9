#!/bin/bash
# Session 24, issue 17: the first GPU call, on the tree whose tensor-core
# method keeps the scratch plane in the columns pass's layout (row groups
# of byte planes, cp.async staging, 16-byte B loads, tiles stepped without
# a division). Layout .dev-s22f/ (bench/diag/s22-prepare-final.sh) plus
# the harness on three other builds of kernels/blur_tensor.cu, xz-packed:
# tensor-tune-old (the previous commit's kernel), -c2 (this one, the
# columns pass at 2 blocks an SM at every radius), -b1 (this one, one
# staging buffer), -t512 (this one, columns blocks of 16 warps and 256
# rows, one an SM). Harnesses into $OUT/h-*.log, Nsight Compute on the new
# kernels (bench/diag/s22-call-profile.sh: $OUT/profile.log), then
# bench/diag/s23-call4.sh (every GPU test but the scheduler's, memcheck
# and racecheck of the tensor-core tests, the sweep). V= the variants'
# names (default call 1's), PROFILE=0 skips Nsight Compute (call 2:
# s24-call2.sh).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
d=$PWD/.dev-s22f
V=${V:-old c2 b1 t512}
for v in $V; do
    o=$d/tensor-tune-$v
    if [ -f $o.xz ]; then
        xz -d $o.xz 2>/dev/null || python3 -c "import lzma, sys; open(sys.argv[1], 'wb').write(lzma.open(sys.argv[1] + '.xz').read())" $o
        chmod +x $o
    fi
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > "$OUT/h-new.log"
for v in new $V; do
    b=$d/tensor-tune; [ $v = new ] || b=$d/tensor-tune-$v
    timeout 100 $b >> "$OUT/h-$v.log" 2>&1; echo "rc $?" >> "$OUT/h-$v.log"
done
[ "${PROFILE:-1}" = 0 ] || bash bench/diag/s22-call-profile.sh
exec bash bench/diag/s23-call4.sh
