#!/bin/sh
# For the next GPU call on issue 17 (bench/diag/s18-next.sh): fills
# .dev-s18/ (bench/diag/s18-prepare.sh: build-gpu's library, cf-bench,
# test-kernels-gpu, the GStreamer bundle, npp-peer if .dev-17c has it) and
# adds the slide check harness and tuning variants of the sliding-window
# kernel: rows a strip 4 to 32, and one word a thread, each a copy of
# kernels/blur_slide.cu with slide_rows() or slide_words() replaced.
set -eu
cd "$(dirname "$0")/../.."
sh bench/diag/s18-prepare.sh
export PATH="$PATH:/usr/local/cuda/bin"
t=.dev-s18/tune
mkdir -p $t
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels"
variant() { # name rows-expression words-expression
    sed -E "/constexpr int slide_rows\(int R\)/,/^}/ s/return [^;]*;/return $2;/" kernels/blur_slide.cu |
        sed -E "/constexpr int slide_words\(int R, int sample_bytes\)/,/^}/ s/return [^;]*;/return $3;/" |
        sed 's|#include "blur_cuda.cuh"|#include "../../kernels/blur_cuda.cuh"|' > $t/slide_$1.cu
}
variant rows4 4 "(2 * R + 1) * 2 * (4 \/ sample_bytes) <= 40 ? 2 : 1"
variant rows8 8 "(2 * R + 1) * 2 * (4 \/ sample_bytes) <= 40 ? 2 : 1"
variant rows12 12 "(2 * R + 1) * 2 * (4 \/ sample_bytes) <= 40 ? 2 : 1"
variant rows24 24 "(2 * R + 1) * 2 * (4 \/ sample_bytes) <= 40 ? 2 : 1"
variant asis "R <= 2 ? 16 : R <= 4 ? 24 : 32" "(2 * R + 1) * 2 * (4 \/ sample_bytes) <= 40 ? 2 : 1"
variant words1 "R <= 2 ? 16 : R <= 4 ? 24 : 32" 1
cd build-gpu
for v in rows4 rows8 rows12 rows24 asis words1; do
    nvcc $F -DSLIDE_SRC="\"../../.dev-s18/tune/slide_$v.cu\"" -o ../$t/tune-$v \
        ../bench/diag/slide_tune.cu ../kernels/launch.cu &
done
nvcc $F -o ../$t/slide-check ../bench/diag/slide_check.cu ../kernels/launch.cu &
wait
strip ../$t/tune-* ../$t/slide-check
ls -la ../$t
