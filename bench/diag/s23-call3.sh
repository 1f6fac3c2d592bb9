#!/bin/bash
# Session 23, issue 17: the third GPU call, on the final tree (the tensor-
# core method of 0df7c51, the dispatch table of 0c144b1). Layout
# .dev-s22f/ (bench/diag/s22-prepare-final.sh) plus tensor-tune-v3.xz: the
# harness on a variant whose columns kernel has launch bounds for 3 blocks
# an SM (80 registers) instead of 2. In order: the variant's harness into
# $OUT/v3.log; Nsight Compute source counters (executed instructions per
# SASS line) of tensor_rows<4> at radius 48 and tensor_cols at radius 96
# into $OUT/src-*.csv; then bench/diag/s22-final.sh (harness, tests,
# sanitizers, the sweep with the final table's picks, every method forced,
# NPP, cupyx).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
d=$PWD/.dev-s22f
o=$d/tensor-tune-v3
if [ -f $o.xz ]; then
    xz -d $o.xz 2>/dev/null || python3 -c "import lzma, sys; open(sys.argv[1], 'wb').write(lzma.open(sys.argv[1] + '.xz').read())" $o
    chmod +x $o
fi
timeout 100 $o > "$OUT/v3.log" 2>&1; echo "rc $?" >> "$OUT/v3.log"
export PATH=/usr/local/cuda/bin:$PATH
for kc in "tensor_rows 48 4" "tensor_cols 96 1"; do
    set -- $kc
    timeout 100 ncu -k regex:$1 --launch-skip 3 --launch-count 1 --section SourceCounters \
        -o /tmp/src-$1 -f $d/tensor-tune profile $2 $3 > "$OUT/ncu-$1.log" 2>&1
    timeout 60 ncu -i /tmp/src-$1.ncu-rep --page source --csv --print-source sass > "$OUT/src-$1.csv" 2>> "$OUT/ncu-$1.log"
done
exec bash bench/diag/s22-final.sh
