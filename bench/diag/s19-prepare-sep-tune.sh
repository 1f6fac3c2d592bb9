#!/bin/sh
# Session 19, issue 17: tuning variants of the two-pass blur method's
# columns pass, each a copy of kernels/blur_sep.cu with kColOut (rows a
# thread), kColWarps (warps a block) and kColMinBlocks (blocks an SM the
# registers are cut for) replaced, built with bench/diag/sep_tune.cu into
# .dev-s19/septune/ and packed as .dev-s19/septune.tar.xz. Run them with
# bench/diag/s19-call-sep.sh. V= lists other variants (name:out:warps:blocks).
# Used at f001052; it copies kernels/blur_sep.cu as it is in the checkout.
set -eu
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
t=.dev-s19/septune
rm -rf $t
mkdir -p $t
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels -I../bench/diag"
V="${V:-asis:8:8:2 o4:4:8:2 o16:16:8:2 w4:8:4:2 w16:8:16:1 mb3:8:8:3 mb4:8:8:4 o4w16:4:16:2 o16w4:16:4:2}"
names=""
for v in $V; do
    IFS=: read n o w b <<E2
$v
E2
    sed -E -e "s/^constexpr int kColOut = [0-9]+;/constexpr int kColOut = $o;/" \
        -e "s/^constexpr int kColWarps = [0-9]+;/constexpr int kColWarps = $w;/" \
        -e "s/^constexpr int kColMinBlocks = [0-9]+;/constexpr int kColMinBlocks = $b;/" \
        -e 's|#include "blur_cuda.cuh"|#include "../../kernels/blur_cuda.cuh"|' \
        -e 's|#include "blur_sep_rows8.cuh"|#include "../../kernels/blur_sep_rows8.cuh"|' \
        kernels/blur_sep.cu > $t/sep_$n.cu
    grep -q "kColOut = $o;" $t/sep_$n.cu && grep -q "kColWarps = $w;" $t/sep_$n.cu &&
        grep -q "kColMinBlocks = $b;" $t/sep_$n.cu
    names="$names $n"
done
cd build-gpu
k=0
for v in $names; do
    nvcc $F -Xptxas -v -DSEP_SRC="\"../../.dev-s19/septune/sep_$v.cu\"" -o ../$t/tune-$v \
        ../bench/diag/sep_tune.cu ../kernels/launch.cu > ../$t/ptxas-$v.txt 2>&1 &
    k=$((k + 1))
    if [ $((k % 3)) -eq 0 ]; then wait; fi
done
wait
strip ../$t/tune-*
cd ..
tar -cJf .dev-s19/septune.tar.xz -C .dev-s19 $(cd .dev-s19 && ls septune/tune-*)
ls -la $t .dev-s19/septune.tar.xz
