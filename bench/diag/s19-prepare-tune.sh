#!/bin/sh
# Session 19, issue 17: tuning variants of the tile blur method for 16-bit
# frames, each a copy of kernels/blur_tile.cu as of f940535 (before this
# session's change; BASE= another commit) with its shape constants
# replaced (threads a block, samples a tile row, outputs an item of the
# horizontal pass and a thread of the vertical one, blocks an SM the
# registers are cut for), built with bench/diag/tile_tune.cu into
# .dev-s19/tune/. Run them with bench/diag/s19-call1.sh (VARIANTS= the
# names). The variants of call 2 with several tile rows a block and a
# prefetch ran on a form of the kernel that did not land; V= lists others.
# Run from a checkout of d0a4862, where this script was used: later
# commits changed tile_run's signature and the harness with it.
set -eu
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
t=.dev-s19/tune
rm -rf $t
mkdir -p $t
git show ${BASE:-f940535}:kernels/blur_tile.cu > $t/base.cu
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels"
variant() { # name threads tile-samples nh nv min-blocks
    sed -E -e "s/^constexpr int kThreads = [0-9]+;/constexpr int kThreads = $2;/" \
        -e "s/^constexpr int kTileS = [0-9]+;/constexpr int kTileS = $3;/" \
        -e "s/^constexpr int kNH = [0-9]+;/constexpr int kNH = $4;/" \
        -e "s/^constexpr int kNV = [0-9]+;/constexpr int kNV = $5;/" \
        -e "s|static constexpr int MIN_BLOCKS = .*;|static constexpr int MIN_BLOCKS = $6 * BYTES <= 227 * 1024 ? $6 : 227 * 1024 / BYTES > 0 ? 227 * 1024 / BYTES : 1;|" \
        -e 's|#include "blur_cuda.cuh"|#include "../../kernels/blur_cuda.cuh"|' $t/base.cu > $t/tile_$1.cu
    grep -q "kThreads = $2;" $t/tile_$1.cu && grep -q "MIN_BLOCKS = $6 " $t/tile_$1.cu
}
V="${V:-asis:256:64:8:16:2 mb3:256:64:8:16:3 mb4:256:64:8:16:4 nv8mb3:256:64:8:8:3 nv8mb4:256:64:8:8:4
t512:512:64:8:16:2 t512nv8:512:64:8:8:2 s128:256:128:8:16:2 s32:256:32:8:16:2 nh4:256:64:4:16:2
nh16:256:64:16:16:2 s128nv8:256:128:8:8:3 t1024:1024:64:8:8:1}"
names=""
for v in $V; do
    IFS=: read n a b c d e <<E2
$v
E2
    variant $n $a $b $c $d $e
    names="$names $n"
done
cd build-gpu
n=0
for v in $names; do
    nvcc $F -Xptxas -v -DTILE_SRC="\"../../.dev-s19/tune/tile_$v.cu\"" -o ../$t/tune-$v \
        ../bench/diag/tile_tune.cu ../kernels/launch.cu > ../$t/ptxas-$v.txt 2>&1 &
    n=$((n + 1))
    if [ $((n % 3)) -eq 0 ]; then wait; fi
done
wait
strip ../$t/tune-*
cd ..
tar -cJf .dev-s19/tune.tar.xz -C .dev-s19 $(cd .dev-s19 && ls tune/tune-*)
ls -la .dev-s19/tune.tar.xz
