#!/bin/sh
# Session 19, issue 17: tuning variants of the register blur method at
# radii 1-6 (8-bit sigma 0.5-2), each a copy of kernels/blur_reg*.cu*
# with, for those radii, the rows a thread of the vertical pass (RowsV, so
# the tile height) of 1-, 2- and 4-channel planes and the blocks an SM the
# registers are cut for replaced, and only radii 1-6 built; with
# bench/diag/reg_tune.cu into .dev-s19/regtune/, packed as
# .dev-s19/regtune.tar.xz. Run with bench/diag/s19-call-reg.sh.
# V= lists variants name:rows-1ch:rows-2ch:rows-4ch:blocks (0: as built).
# It ran on f001052's kernels, before 62a58d5 landed what it found: to
# re-run it, check out f001052 and take this script and reg_tune.cu from
# 62a58d5 (later commits changed the shapes it replaces and reg_run).
set -eu
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
t=.dev-s19/regtune
rm -rf $t
mkdir -p $t
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels -I../bench/diag"
V="${V:-asis:0:0:0:0 mb6:0:0:0:6 mb4:0:0:0:4 r3:3:0:0:0 r4:4:0:0:0 r3mb6:3:0:0:6 c2r8:0:8:4:0 c2r6:0:6:3:0 c2r12mb4:0:12:8:4}"
names=""
for v in $V; do
    IFS=: read n r1 r2 r4 mb <<E2
$v
E2
    mkdir -p $t/$n
    python3 - "$t/$n" "$r1" "$r2" "$r4" "$mb" <<'PY'
import re, sys
d, r1, r2, r4, mb = sys.argv[1], *map(int, sys.argv[2:])
s = open('kernels/blur_reg_shape.cuh').read()
pick = {1: r1, 2: r2, 4: r4}
pre = ''.join(f'    if (R <= 6 && C == {c}) return {v};\n' for c, v in pick.items() if v)
a = 'constexpr int reg_rows_v(int C, int R)\n{\n'
assert a in s
s = s.replace(a, a + pre)
if mb:
    b = ': kRegMinBlocks;'
    assert b in s
    s = s.replace(b, f': R <= 6 ? {mb} : kRegMinBlocks;')
open(f'{d}/blur_reg_shape.cuh', 'w').write(s)
for f in ('blur_reg_sums.cuh', 'blur_reg_tile.cuh'):
    open(f'{d}/{f}', 'w').write(open('kernels/' + f).read())
s = open('kernels/blur_reg.cu').read()
# radii 1-6 only
s = re.sub(r'CF_REG_CASE\((\d+)\)', lambda m: m.group(0) if int(m.group(1)) <= 6 else '', s)
open(f'{d}/blur_reg.cu', 'w').write(s)
PY
    names="$names $n"
done
cd build-gpu
k=0
for v in $names; do
    nvcc $F -Xptxas -v -DREG_SRC="\"../../.dev-s19/regtune/$v/blur_reg.cu\"" -o ../$t/tune-$v \
        ../bench/diag/reg_tune.cu ../kernels/launch.cu > ../$t/ptxas-$v.txt 2>&1 &
    k=$((k + 1))
    if [ $((k % 3)) -eq 0 ]; then wait; fi
done
wait
strip ../$t/tune-*
cd ..
tar -cJf .dev-s19/regtune.tar.xz -C .dev-s19 $(cd .dev-s19 && ls regtune/tune-*)
ls -la .dev-s19/regtune.tar.xz
