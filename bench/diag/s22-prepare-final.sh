#!/bin/sh
# Session 22, issue 17: fills .dev-s22f/ for bench/diag/s22-final.sh, as
# bench/diag/s19-prepare-final.sh does, plus the tensor-core harness
# (bench/diag/tensor_tune.cu on kernels/blur_tensor.cu as it is).
set -eu
cd "$(dirname "$0")/../.."
DEV=.dev-s22f sh bench/diag/s19-prepare-final.sh
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels -I../bench/diag"
(cd build-gpu && /usr/local/cuda/bin/nvcc $F -o ../.dev-s22f/tensor-tune ../bench/diag/tensor_tune.cu \
    ../kernels/blur_tensor.cu ../kernels/blur_tensor16.cu ../kernels/blur_sep.cu ../kernels/blur_reg.cu ../kernels/launch.cu)
strip .dev-s22f/tensor-tune
du -sh .dev-s22f
