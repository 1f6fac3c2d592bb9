#!/bin/sh
# Fills .dev-s18/ for bench/diag/s18-*.sh from build-gpu (meson setup
# build-gpu -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release; ninja) and
# the GStreamer bundle of .device/rt (GLib for the tests; bench/prepare-gpu-run.sh).
set -eu
cd "$(dirname "$0")/../.."
f=.dev-s18 b=build-gpu
rm -rf $f
mkdir -p $f/build/core $f/build/bench $f/build/tests
cp -a $b/core/libcudafilters.so $b/core/libcudafilters.so.0 $b/core/libcudafilters.so.0.1.0 $f/build/core/
strip $f/build/core/libcudafilters.so.0.1.0
cp $b/bench/cf-bench $b/bench/cf-convert-scale-bench $f/build/bench/
cp $b/tests/test-kernels-gpu $f/build/tests/
cp -a .device/rt $f/rt
[ -x .dev-17c/npp-peer ] && cp .dev-17c/npp-peer $f/
du -sh $f
