#!/bin/sh
# Session 26: the layout .dev-s26/ for bench/diag/s26-call-fp64.sh, from
# build-gpu (bench/prepare-gpu-run.sh makes it) and the GStreamer runtime
# of .dev-19g (bench/diag/issue19-prepare.sh makes it): the library, the
# plugin, test-kernels-gpu, test-elements and cf-bench, stripped.
set -eu
cd "$(dirname "$0")/../.."
b=build-gpu d=.dev-s26
[ -f .dev-19g/rt/runtime.tar.xz ] || { echo "run bench/diag/issue19-prepare.sh first" >&2; exit 1; }
ninja -C $b
rm -rf $d && mkdir -p $d/build/core $d/build/plugins $d/build/tests $d/build/bench $d/rt
cp -a .dev-19g/rt/. $d/rt/
cp -a $b/core/libcudafilters.so $b/core/libcudafilters.so.0 $d/build/core/
cp $b/core/libcudafilters.so.0.1.0 $d/build/core/
cp $b/plugins/libgstcudafilters.so $d/build/plugins/
cp $b/tests/test-kernels-gpu $b/tests/test-elements $d/build/tests/
cp $b/bench/cf-bench $d/build/bench/
strip $d/build/core/libcudafilters.so.0.1.0 $d/build/plugins/* $d/build/tests/* $d/build/bench/*
du -sh $d
