#!/bin/sh
# Session 27: the layout .dev-s27/ for bench/diag/s27-call.sh: what
# bench/diag/s26-prepare.sh puts in .dev-s26/ (the library, plugin,
# test-kernels-gpu, test-elements and cf-bench from build-gpu, stripped,
# with .dev-19g's GStreamer runtime), plus the harness of the 16-bit
# tensor-core rows pass (bench/diag/tensor16_tune.cu) built on
# kernels/blur_tensor16.cu as it is (tensor16-tune) and with
# kRows16MinBlocks replaced by 3 (tensor16-tune-b3).
set -eu
cd "$(dirname "$0")/../.."
d=.dev-s27
sh bench/diag/s26-prepare.sh
rm -rf $d && mv .dev-s26 $d
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels -I../bench/diag"
t=$(mktemp -d)
sed 's/constexpr int kRows16MinBlocks = 2;/constexpr int kRows16MinBlocks = 3;/' kernels/blur_tensor16.cu > $t/blur_tensor16_b3.cu
grep -q 'kRows16MinBlocks = 3;' $t/blur_tensor16_b3.cu
(cd build-gpu && /usr/local/cuda/bin/nvcc $F -o ../$d/tensor16-tune ../bench/diag/tensor16_tune.cu \
    ../kernels/blur_tensor16.cu ../kernels/launch.cu) &
(cd build-gpu && /usr/local/cuda/bin/nvcc $F -I../kernels -Xptxas -v -o ../$d/tensor16-tune-b3 ../bench/diag/tensor16_tune.cu \
    $t/blur_tensor16_b3.cu ../kernels/launch.cu 2>&1 | grep -E "registers|spill" > ../$d/ptxas-b3.txt) &
wait
rm -rf $t
strip $d/tensor16-tune $d/tensor16-tune-b3
du -sh $d
