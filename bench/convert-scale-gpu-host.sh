#!/bin/bash
# convert and scale on the GPU host in one call: CUDA against the CPU
# reference, compute-sanitizer memcheck, then the benchmarks (ours against
# the device copy rate, NPP peers built there, NVDEC into cfconvert). All
# under the bundle's environment: libcudafilters needs GLib, which the host
# lacks. Writes $OUT/run2.log.
#
# Prepare here (the folder travels with the device tool's `carry`):
#   meson setup build-gpu -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release && ninja -C build-gpu
#   d=/work/main/.dev-20; mkdir -p $d/build/{core,tests,plugins,bench} $d/data
#   cp -a build-gpu/core/libcudafilters.so* $d/build/core/
#   cp build-gpu/tests/test-{kernels-gpu,convert-scale} $d/build/tests/
#   cp build-gpu/plugins/libgstcudafilters.so $d/build/plugins/
#   cp build-gpu/bench/cf-{convert-scale,decode}-bench $d/build/bench/
#   cp bench/npp_convert_scale_peer.cu bench/check.cuh bench/convert-scale-gpu-host.sh $d/
#   cp -r .device/rt $d/        # bench/prepare-gpu-run.sh's bundle
# (the test binaries find tests/vectors at their build-time source path,
# /work/main/tests/vectors, which travels with the checkout)
#   cp .device/data/city1080.mp4 $d/data/
# and run there (device tool, carry .dev-20):  cd .dev-20 && bash convert-scale-gpu-host.sh
set -u
cd "$(dirname "$0")"
d=$PWD
OUT=${OUT:-/tmp/out20}; mkdir -p "$OUT"
log=$OUT/run2.log
exec > "$log" 2>&1
step() { echo; echo "=== $* ($SECONDS s) ==="; }
run() { echo "\$ $*"; local t0=$SECONDS; timeout "${T:-60}" "$@"; echo "[exit $? after $((SECONDS - t0)) s]"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|^\[       OK|Failure|differs|damaged|ERROR SUMMARY|max diff|Expected|Which is|error" | head -${N:-60}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
# NPP peers compile while the tests run (one case a binary: a missing
# function costs its row only).
pids=""
for c in 1 2 3 4 5 6 7 8; do
  nvcc -O2 -std=c++17 -DCASE=$c -o /tmp/npp20-$c $d/npp_convert_scale_peer.cu -lnppig -lnppicc -lnppc \
      > /tmp/npp20-$c.log 2>&1 &
  pids="$pids $!"
done
step "CUDA vs CPU reference: convert, scale, the scheduler on the GPU"
T=70 run $d/build/tests/test-kernels-gpu --gtest_filter='GpuConvert*:GpuScale*:GpuConvertScale*:SchedulerGpu*' 2>&1 | N=80 g
T=25 run $d/build/tests/test-convert-scale 2>&1 | N=40 g
step "compute-sanitizer memcheck"
T=45 run compute-sanitizer --tool memcheck --error-exitcode 9 $d/build/tests/test-kernels-gpu \
    --gtest_filter='GpuConvertScale.CompactSweep*' 2>&1 | g
step "kernels: ours against the device copy rate"
T=40 run $d/build/bench/cf-convert-scale-bench --reps 15
step "NPP peers (built here)"
wait $pids
for c in 1 2 3 4 5 6 7 8; do
  if [ -x /tmp/npp20-$c ]; then timeout 15 /tmp/npp20-$c || echo "| NPP case $c failed | |"
  else echo "| NPP case $c did not build: $(grep -m1 -i error /tmp/npp20-$c.log) |"; fi
done
step "NVDEC 1080p H.264 into cfconvert to RGBA, against NVDEC into cudadownload"
export GST_PLUGIN_PATH=$d/build/plugins GST_REGISTRY=/tmp/r20c.bin
T=40 run $d/build/bench/cf-decode-bench $d/data/city1080.mp4 --runs 3 --download-baseline \
    --chain 'cfconvert name=f ! video/x-raw(memory:CUDAMemory),format=RGBA'
echo; echo "=== done ($SECONDS s) ==="
