#!/bin/bash
# Session 17's last GPU call, on the merged tree: every GPU test (4 shards),
# the scheduler's GPU tests alone, test-convert-scale, compute-sanitizer
# memcheck and racecheck beside them, the element tests with and without
# nvcodec; issue 14's pipeline table (medians of 3 runs, host CPU by
# thread), host cost and NVDEC; issue 20's kernels against the copy rate
# and NPP (compiled here), NVDEC into cfconvert; issue 17's blur sweep,
# NPP GaussAdvanced (.dev-17c's npp-peer) and cupyx at sigma 4-64.
# Layout .dev-final/ (bench/diag/s17-prepare-final.sh): build/{core,plugins,
# bench,tests,examples} from build-gpu, rt (GStreamer bundle), d1080.
# No bare `wait`: background jobs are waited on by pid.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-final
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/logs"; L=$OUT/logs
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|Which is|Expected|differs|ERROR SUMMARY|RACECHECK SUMMARY|grew|error:" | head -${N:-30}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
PLAIN_PATH=$PATH PLAIN_LD=${LD_LIBRARY_PATH:-}  # the host's own Python and CuPy, for peers.py
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
TG=$d/build/tests/test-kernels-gpu
stamp "GPU unit tests (4 shards), test-convert-scale, memcheck and racecheck beside them"
jobs=()
for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 150 $TG --gtest_filter='-SchedulerGpu.*' > $L/kgpu$i.log 2>&1 &
    jobs+=($!)
done
timeout 150 $d/build/tests/test-convert-scale > $L/cs.log 2>&1 & jobs+=($!)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $TG \
    --gtest_filter='GpuConvertScale*:GpuConvert.FastKernels*:GpuScale.FastKernels*:GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuEvent.*' \
    > $L/memcheck.log 2>&1 & jobs+=($!)
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $TG \
    --gtest_filter='GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuScale.FastKernels*:GpuConvert.FastKernels*' \
    > $L/racecheck.log 2>&1 & jobs+=($!)
for p in "${jobs[@]}"; do wait "$p"; echo "job $p rc $?"; done
for f in kgpu0 kgpu1 kgpu2 kgpu3 cs memcheck racecheck; do echo "-- $f"; N=25 g < $L/$f.log; done
stamp "the scheduler's GPU tests alone, then under memcheck; test-scheduler, test-lifo-pool, core_api"
timeout 60 $TG --gtest_filter='SchedulerGpu.*' > $L/sched.log 2>&1; echo "rc $?"; g < $L/sched.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $TG --gtest_filter='SchedulerGpu.EveryDepth*' \
    > $L/sched-memcheck.log 2>&1; echo "rc $?"; N=8 g < $L/sched-memcheck.log
timeout 60 $d/build/tests/test-scheduler > $L/test-scheduler.log 2>&1; echo "rc $?"; N=6 g < $L/test-scheduler.log
timeout 60 $d/build/tests/test-lifo-pool > $L/lifo.log 2>&1; echo "rc $?"; N=6 g < $L/lifo.log
timeout 30 $d/build/examples/core_api > $L/core_api.log 2>&1; echo "core_api rc $?"; tail -2 $L/core_api.log
stamp "element tests, our plugin alone"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/fa.bin timeout 150 $d/build/tests/test-elements > $L/elements.log 2>&1
echo "rc $?"; N=40 g < $L/elements.log
stamp "element tests with nvcodec beside us"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fb.bin timeout 60 $d/build/tests/test-elements \
    --gtest_filter='*NvDecoder*:*Nvcodec*:*CudaMemory*:ConvertScale*' > $L/elements-nv.log 2>&1
echo "rc $?"; N=20 g < $L/elements-nv.log
stamp "issue 14: cf-pipeline-bench --thread-cpu --repeat 3 --frames 900"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fc.bin timeout 120 $d/build/bench/cf-pipeline-bench --thread-cpu --repeat 3 --frames 900 > $L/pipeline.log 2>&1
echo "rc $?"; grep -vE "^\| \((c|d|b)\)" $L/pipeline.log | sed -n '/medians of/,$p' | grep -v "^- "
stamp "issue 14: host cost (bench/host-cost.sh, 5 runs)"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/fh.bin RUNS=5 timeout 120 bash bench/host-cost.sh
stamp "issue 14: NVDEC 1080p into cudagray ! cudablur, against NVDEC alone"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fd.bin timeout 40 $d/build/bench/cf-decode-bench $d/d1080/city1080.mp4 --runs 3 2>&1 | grep -v XDG
stamp "issue 20: kernels against the device copy rate (--reps 15)"
timeout 60 $d/build/bench/cf-convert-scale-bench --reps 15 > $L/convert-scale.txt 2>&1; echo "rc $?"; cat $L/convert-scale.txt
stamp "issue 20: NPP peers"
for p in "${npp[@]}"; do wait "$p"; done
for c in 1 2 3 4 5 6 7 8; do
    if [ -x /tmp/nppf-$c ]; then LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH timeout 15 /tmp/nppf-$c || echo "| NPP case $c failed | |"
    else echo "| NPP case $c did not build: $(grep -m1 -i error /tmp/nppf-$c.log) |"; fi
done
stamp "issue 20: NVDEC 1080p into cfconvert to RGBA, against NVDEC into cudadownload"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fe.bin timeout 40 $d/build/bench/cf-decode-bench \
    $d/d1080/city1080.mp4 --runs 3 --download-baseline \
    --chain 'cfconvert name=f ! video/x-raw(memory:CUDAMemory),format=RGBA' 2>&1 | grep -v XDG
stamp "issue 17: cf-bench --only blur --reps 10 (the dispatch table's picks, 4K and 8K)"
timeout -k 5 60 $d/build/bench/cf-bench --only blur --reps 10 > $L/blur-sweep.txt 2>&1
echo "rc $?"; grep -v "^| blur" $L/blur-sweep.txt | head -8; grep "3840x2160" $L/blur-sweep.txt
stamp "issue 17: NPP GaussAdvanced"
LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout -k 2 25 $d/npp-peer > $L/blur-npp.txt 2>&1; echo "rc $?"; cat $L/blur-npp.txt
stamp "issue 17: cupyx gaussian_filter (truncate=3), sigma 4-64"
PATH=$PLAIN_PATH LD_LIBRARY_PATH=$PLAIN_LD PEERS_SIGMAS=4,8,16,32,64 PEERS_CASES=GRAY8,RGBA,NV12 \
    timeout -k 2 100 python3 bench/peers.py > $L/blur-cupyx.txt 2>&1; echo "rc $?"; cat $L/blur-cupyx.txt
stamp done
cd "$OUT" && tar -czf final-logs.tgz logs && rm -rf logs
