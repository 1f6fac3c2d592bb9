#!/bin/bash
# Session 16, the last GPU call, on the final code: every GPU test (4
# shards) with memcheck and racecheck beside them, the scheduler's GPU
# tests alone (they read the device's free memory), the element tests with
# and without nvcodec; issue 14's pipeline table, host cost against the
# plugin as the session began (A = 9a0bb3e, B = now) and NVDEC; issue 20's
# kernels against the copy rate and NPP, NVDEC into cfconvert, the CLI and
# element GPU checks of the convert/scale branches; issue 17's blur sweep.
# Layout: bench/prepare-gpu-run.sh + cf-convert-scale-bench, .device/d1080,
# .device/plugin-old, and the helpers' folders named below when present.
# No bare `wait`: background jobs are waited on by pid.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.device
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/final.log" 2>&1
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
npp=()
for c in 1 2 3 4 5 6 7 8; do
    nvcc -O2 -std=c++17 -DCASE=$c -Ibench -o /tmp/nppf-$c bench/npp_convert_scale_peer.cu \
        -lnppig -lnppicc -lnppc > /tmp/nppf-$c.log 2>&1 &
    npp+=($!)
done
stamp "GPU unit tests (4 shards), test-convert-scale, memcheck and racecheck beside them"
jobs=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 150 $d/build/tests/test-kernels-gpu \
        --gtest_filter='-SchedulerGpu.*' > "$OUT/f-kgpu$i.log" 2>&1 &
    jobs+=($!)
done
timeout 150 $d/build/tests/test-convert-scale > "$OUT/f-cs.log" 2>&1 & jobs+=($!)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $d/build/tests/test-kernels-gpu \
    --gtest_filter="${MEMCHECK_FILTER:-GpuConvertScale.CompactSweep*:GpuConvert*:GpuScale*:GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*}" \
    > "$OUT/f-memcheck.log" 2>&1 & jobs+=($!)
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $d/build/tests/test-kernels-gpu \
    --gtest_filter="${RACECHECK_FILTER:-GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuScale*:GpuConvert*}" \
    > "$OUT/f-racecheck.log" 2>&1 & jobs+=($!)
for p in "${jobs[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in f-kgpu0 f-kgpu1 f-kgpu2 f-kgpu3 f-cs f-memcheck f-racecheck; do echo "-- $f"; N=25 g < "$OUT/$f.log"; done
stamp "the scheduler's GPU tests alone, then under memcheck"
timeout 60 $d/build/tests/test-kernels-gpu --gtest_filter='SchedulerGpu.*' 2>&1 | g
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $d/build/tests/test-kernels-gpu \
    --gtest_filter='SchedulerGpu.EveryDepth*' 2>&1 | N=8 g
stamp "element tests, our plugin alone"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/fa.bin timeout 120 $d/build/tests/test-elements > "$OUT/f-elements.log" 2>&1
echo "rc $?"; N=40 g < "$OUT/f-elements.log"
stamp "element tests with nvcodec beside us"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fb.bin timeout 60 $d/build/tests/test-elements \
    --gtest_filter='*NvDecoder*:*Nvcodec*:*CudaMemory*:ConvertScale*' 2>&1 | N=20 g
stamp "issue 14: cf-pipeline-bench --thread-cpu"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fc.bin timeout 60 $d/build/bench/cf-pipeline-bench --thread-cpu --frames 900 2>&1 | grep -vE "^\| \((c|d|b)\)"
stamp "issue 14: host cost, A = the plugin as the session began (9a0bb3e), B = now"
GST_PLUGIN_SYSTEM_PATH=$nonv RUNS=3 timeout 90 bash bench/diag/host-cost-ab.sh $d/plugin-old $d/build/plugins
stamp "issue 14: NVDEC 1080p into cudagray ! cudablur, against NVDEC alone"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fd.bin timeout 40 $d/build/bench/cf-decode-bench $d/d1080/city1080.mp4 --runs 3 | grep -v XDG
stamp "issue 20: kernels against the device copy rate"
timeout 60 $d/build/bench/cf-convert-scale-bench --reps 15
stamp "issue 20: NPP peers"
for p in "${npp[@]}"; do wait "$p"; done
for c in 1 2 3 4 5 6 7 8; do
    if [ -x /tmp/nppf-$c ]; then LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH timeout 15 /tmp/nppf-$c || echo "| NPP case $c failed | |"
    else echo "| NPP case $c did not build: $(grep -m1 -i error /tmp/nppf-$c.log) |"; fi
done
stamp "issue 20: NVDEC 1080p into cfconvert to RGBA, against NVDEC into cudadownload"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fe.bin timeout 40 $d/build/bench/cf-decode-bench \
    $d/d1080/city1080.mp4 --runs 3 --download-baseline \
    --chain 'cfconvert name=f ! video/x-raw(memory:CUDAMemory),format=RGBA' | grep -v XDG
if [ -f bench/diag/issue20-cli-gpu-check.sh ] && [ -d $d/cli20 ]; then
    stamp "issue 20: the CLI's planner and the fused element on the GPU"
    D=$d/cli20 GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/ff.bin timeout 70 bash bench/diag/issue20-cli-gpu-check.sh
fi
if [ "${SKIP_BLUR:-0}" = 0 ]; then
stamp "issue 17: cf-bench --only blur --reps 10 (the dispatch table's picks, 4K and 8K)"
timeout -k 5 45 $d/build/bench/cf-bench --only blur --reps 10 > "$OUT/f-bench-auto.txt" 2>&1
echo "rc $?"; grep -v "^| blur" "$OUT/f-bench-auto.txt" | head -8; grep "3840x2160" "$OUT/f-bench-auto.txt"
stamp "issue 17: each method forced, 4K"
for f in GRAY8 NV12 P010_10LE; do
    timeout -k 5 12 $d/build/bench/cf-bench --only "$f 3840x2160" --methods --reps 5 > "$OUT/f-bench-methods-$f.txt" 2>&1
    echo "$f rc $?"; grep "forced" "$OUT/f-bench-methods-$f.txt"
done
stamp "issue 17: main's library as the session began (the before), same cf-bench, 4K"
LD_LIBRARY_PATH=$d/b17:$LD_LIBRARY_PATH timeout -k 5 25 $d/build/bench/cf-bench --only "3840x2160 (" --reps 10 \
    > "$OUT/f-bench-main.txt" 2>&1
echo "rc $?"; grep "^| blur" "$OUT/f-bench-main.txt"
fi
stamp "issue 17: NPP GaussAdvanced"
LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH timeout -k 5 12 $d/b17/npp-peer > "$OUT/f-npp.txt" 2>&1
echo "rc $?"; grep "3840x2160" "$OUT/f-npp.txt"
stamp done
# At most 8 files come back from a call: the logs go in one archive.
cd "$OUT" && tar -czf f-logs.tgz f-*.log f-*.txt 2>/dev/null && rm -f f-*.log f-*.txt
