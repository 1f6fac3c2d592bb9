#!/bin/sh
# Session 28: the layout .dev-s28/ for bench/diag/s28-call.sh: what
# bench/diag/s26-prepare.sh puts in .dev-s26/ (the library, plugin,
# test-kernels-gpu, test-elements and cf-bench from build-gpu, stripped,
# with .dev-19g's GStreamer runtime), plus the harness of the 16-bit
# tensor-core columns pass (bench/diag/tensor16_cols_tune.cu) built on
# kernels/blur_tensor16_cols.cu as it is (tensor16-cols-tune) and with
# kCols16MinBlocks replaced by 3 (tensor16-cols-tune-b3), and ptxas's
# registers and spills of both.
set -eu
cd "$(dirname "$0")/../.."
d=.dev-s28
sh bench/diag/s26-prepare.sh
rm -rf $d && mv .dev-s26 $d
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels -I../bench/diag"
t=$(mktemp -d)
sed 's/constexpr int kCols16MinBlocks = 2;/constexpr int kCols16MinBlocks = 3;/' kernels/blur_tensor16_cols.cu > $t/blur_tensor16_cols_b3.cu
grep -q 'kCols16MinBlocks = 3;' $t/blur_tensor16_cols_b3.cu
K="../kernels/blur_tensor16.cu ../kernels/blur_sep.cu ../kernels/launch.cu"
(cd build-gpu && /usr/local/cuda/bin/nvcc $F -Xptxas -v -o ../$d/tensor16-cols-tune ../bench/diag/tensor16_cols_tune.cu \
    ../kernels/blur_tensor16_cols.cu $K  2>&1 | grep -A2 "Function properties for .*tensor_cols16" | grep -E "registers|spill" > ../$d/ptxas.txt) &
(cd build-gpu && /usr/local/cuda/bin/nvcc $F -I../kernels -Xptxas -v -o ../$d/tensor16-cols-tune-b3 ../bench/diag/tensor16_cols_tune.cu \
    $t/blur_tensor16_cols_b3.cu $K  2>&1 | grep -A2 "Function properties for .*tensor_cols16" | grep -E "registers|spill" > ../$d/ptxas-b3.txt) &
wait
rm -rf $t
strip $d/tensor16-cols-tune $d/tensor16-cols-tune-b3
cat $d/ptxas.txt $d/ptxas-b3.txt
du -sh $d
