#!/bin/bash
# Session 24, issue 17: the second GPU call. As s24-call1.sh, on the tree
# whose 3-blocks-an-SM columns pass makes its steps one at a time (no
# spills at 80 registers), with the harness on the previous commit's
# kernel (tensor-tune-old) and on three variants of this one, xz-packed:
# -u1 (the 2-block columns pass's steps not unrolled either), -r1 (the
# rows pass's steps not unrolled), -c2 (the columns pass at 2 blocks an SM
# at every radius). Harnesses into $OUT/h-*.log, then bench/diag/s23-
# call4.sh (every GPU test but the scheduler's, memcheck and racecheck of
# the tensor-core tests, the sweep).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
d=$PWD/.dev-s22f
V="old u1 r1 c2"
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
exec bash bench/diag/s23-call4.sh
