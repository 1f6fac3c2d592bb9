#!/bin/sh
# Session 28: the layout .dev-s28/ for bench/diag/s28-call.sh: what
# bench/diag/s26-prepare.sh puts in .dev-s26/ (the library, plugin,
# test-kernels-gpu, test-elements and cf-bench from build-gpu, stripped,
# with .dev-19g's GStreamer runtime), plus the harness of the 16-bit
# tensor-core columns pass (bench/diag/tensor16_cols_tune.cu) built on
# kernels/blur_tensor16_cols.cu as it is (tensor16-cols-tune) and with
# kCols16MinBlocks replaced by the other of 2 and 3 (tensor16-cols-tune-b2
# or -b3; the first call ran it at 2, the later ones at 3), and ptxas's
# registers and spills of both.
set -eu
cd "$(dirname "$0")/../.."
d=.dev-s28
sh bench/diag/s26-prepare.sh
rm -rf $d && mv .dev-s26 $d
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels -I../bench/diag"
t=$(mktemp -d)
if grep -q 'kCols16MinBlocks = 2;' kernels/blur_tensor16_cols.cu; then a=2 b=3; else a=3 b=2; fi
v=tensor16-cols-tune-b$b
sed "s/constexpr int kCols16MinBlocks = $a;/constexpr int kCols16MinBlocks = $b;/" kernels/blur_tensor16_cols.cu > $t/blur_tensor16_cols_b.cu
grep -q "kCols16MinBlocks = $b;" $t/blur_tensor16_cols_b.cu
K="../kernels/blur_tensor16.cu ../kernels/blur_sep.cu ../kernels/launch.cu"
(cd build-gpu && /usr/local/cuda/bin/nvcc $F -Xptxas -v -o ../$d/tensor16-cols-tune ../bench/diag/tensor16_cols_tune.cu \
    ../kernels/blur_tensor16_cols.cu $K  2>&1 | grep -A2 "Function properties for .*tensor_cols16" | grep -E "registers|spill" > ../$d/ptxas.txt) &
(cd build-gpu && /usr/local/cuda/bin/nvcc $F -I../kernels -Xptxas -v -o ../$d/$v ../bench/diag/tensor16_cols_tune.cu \
    $t/blur_tensor16_cols_b.cu $K  2>&1 | grep -A2 "Function properties for .*tensor_cols16" | grep -E "registers|spill" > ../$d/ptxas-b.txt) &
wait
rm -rf $t
echo $v > $d/variant.txt
strip $d/tensor16-cols-tune $d/$v
cat $d/ptxas.txt $d/ptxas-b.txt
du -sh $d
