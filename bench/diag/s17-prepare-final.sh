#!/bin/sh
# Fills .dev-final/ for bench/diag/s17-final.sh from build-gpu (meson setup
# build-gpu -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release; ninja), the
# GStreamer bundle of .device/rt and the 1080p clip of .device/d1080
# (bench/prepare-gpu-run.sh makes both), and .dev-17c's npp-peer.
set -eu
cd "$(dirname "$0")/../.."
f=.dev-final b=build-gpu
rm -rf $f
mkdir -p $f/build/core $f/build/plugins $f/build/bench $f/build/tests $f/build/examples $f/d1080
cp -a $b/core/libcudafilters.so $b/core/libcudafilters.so.0 $b/core/libcudafilters.so.0.1.0 $f/build/core/
cp $b/plugins/libgstcudafilters.so $f/build/plugins/
cp $b/bench/cf-pipeline-bench $b/bench/cf-decode-bench $b/bench/cf-convert-scale-bench $b/bench/cf-bench $f/build/bench/
for t in test-kernels-gpu test-convert-scale test-elements test-lifo-pool test-scheduler; do
    cp $b/tests/$t $f/build/tests/
done
cp $b/examples/core_api $f/build/examples/
cp -a .device/rt $f/rt
cp .device/d1080/city1080.mp4 $f/d1080/
# NPP GaussAdvanced for the blur sweep, built on the GPU host by issue 17 (bench/npp_peer.cu)
cp .dev-17c/npp-peer $f/
du -sh $f
