#!/bin/sh
# Session 19, issue 17: fills .dev-s19f/ for bench/diag/s19-final.sh from
# build-gpu (meson setup build-gpu -Dcuda=enabled -Dgpu_archs=90
# -Dbuildtype=release; ninja): the library, cf-bench, cf-convert-scale-bench,
# test-kernels-gpu, the GStreamer bundle of .device/rt (GLib; bench/prepare-
# gpu-run.sh), npp-peer if .dev-17c has it, and the tile harness
# (bench/diag/tile_tune.cu) on kernels/blur_tile.cu as it is. DEV= another
# layout (session 20: .dev-s20).
set -eu
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
f=${DEV:-.dev-s19f} b=build-gpu
rm -rf $f
mkdir -p $f/build/core $f/build/bench $f/build/tests
cp -a $b/core/libcudafilters.so $b/core/libcudafilters.so.0 $b/core/libcudafilters.so.0.1.0 $f/build/core/
strip $f/build/core/libcudafilters.so.0.1.0
cp $b/bench/cf-bench $b/bench/cf-convert-scale-bench $f/build/bench/
cp $b/tests/test-kernels-gpu $f/build/tests/
cp -a .device/rt $f/rt
[ -x .dev-17c/npp-peer ] && cp .dev-17c/npp-peer $f/
F="-DNDEBUG --std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT $(pkg-config --cflags glib-2.0) -I../core -Icore -I../core/include -I../kernels"
(cd $b && nvcc $F -DTILE_SRC='"../kernels/blur_tile.cu"' -o ../$f/tile-tune ../bench/diag/tile_tune.cu ../kernels/launch.cu)
strip $f/tile-tune
du -sh $f
