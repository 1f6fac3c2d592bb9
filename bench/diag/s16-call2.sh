#!/bin/bash
# Session 16, GPU call 2: what had never run on a GPU (convert/scale kernels,
# the blur tests' new parameter generator, the shared sample load/store,
# the scale box fix, the event creator refactor, the 100-cycle test's new
# batches), then issue 20's benchmark table (ours against the copy rate,
# NPP peers compiled there, NVDEC into cfconvert). Layout: bench/prepare-gpu-run.sh
# plus .device/build/bench/cf-convert-scale-bench and .device/d1080/city1080.mp4.
# Run from the repository root on the GPU host; writes $OUT/call2.log and
# per-job logs. No bare `wait`: every background job is waited on by pid.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.device
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/call2.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|Which is|Expected|differs|ERROR SUMMARY|grew|error:" | head -${N:-40}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
nonv=/tmp/cf-plugins-no-nvcodec; rm -rf $nonv; mkdir -p $nonv
for p in "$GST_PLUGIN_SYSTEM_PATH"/*.so; do case $p in *nvcodec*) ;; *) ln -s "$p" $nonv/;; esac; done
with_nv=$GST_PLUGIN_SYSTEM_PATH
export GST_PLUGIN_PATH=$d/build/plugins
# NPP peers for issue 20 compile on the host's CPU while the GPU tests run.
npp=()
for c in 1 2 3 4 5 6 7 8; do
    nvcc -O2 -std=c++17 -DCASE=$c -Ibench -o /tmp/npp20-$c bench/npp_convert_scale_peer.cu \
        -lnppig -lnppicc -lnppc > /tmp/npp20-$c.log 2>&1 &
    npp+=($!)
done
stamp "GPU unit tests: test-kernels-gpu in 4 shards, test-convert-scale, memcheck and racecheck beside them"
jobs=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 150 $d/build/tests/test-kernels-gpu > "$OUT/kgpu$i.log" 2>&1 &
    jobs+=($!)
done
timeout 150 $d/build/tests/test-convert-scale > "$OUT/cs.log" 2>&1 & jobs+=($!)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $d/build/tests/test-kernels-gpu \
    --gtest_filter='GpuConvertScale.CompactSweep*:GpuConvert*:GpuScale*:GpuExact.BlurMethodsSmallFrames:SchedulerGpu.EveryDepth*' \
    > "$OUT/memcheck.log" 2>&1 & jobs+=($!)
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $d/build/tests/test-kernels-gpu \
    --gtest_filter='GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuScale*' \
    > "$OUT/racecheck.log" 2>&1 & jobs+=($!)
for p in "${jobs[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in kgpu0 kgpu1 kgpu2 kgpu3 cs memcheck racecheck; do echo "-- $f"; N=25 g < "$OUT/$f.log"; done
stamp "element tests, our plugin alone (all, the 100-cycle test included)"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/c2a.bin timeout 120 $d/build/tests/test-elements > "$OUT/elements.log" 2>&1
echo "rc $?"; N=40 g < "$OUT/elements.log"
stamp "element tests with nvcodec beside us: convert/scale and NVDEC"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c2b.bin timeout 60 $d/build/tests/test-elements \
    --gtest_filter='ConvertScale*:*NvDecoder*:*Nvcodec*' 2>&1 | N=20 g
stamp "issue 20: kernels against the device copy rate"
timeout 60 $d/build/bench/cf-convert-scale-bench --reps 15
stamp "issue 20: NPP peers"
for p in "${npp[@]}"; do wait "$p"; done
for c in 1 2 3 4 5 6 7 8; do
    if [ -x /tmp/npp20-$c ]; then LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH timeout 15 /tmp/npp20-$c || echo "| NPP case $c failed | |"
    else echo "| NPP case $c did not build: $(grep -m1 -i error /tmp/npp20-$c.log) |"; fi
done
stamp "issue 20: NVDEC 1080p into cfconvert to RGBA, against NVDEC into cudadownload"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c2c.bin timeout 60 $d/build/bench/cf-decode-bench \
    $d/d1080/city1080.mp4 --runs 3 --download-baseline \
    --chain 'cfconvert name=f ! video/x-raw(memory:CUDAMemory),format=RGBA'
stamp done
