#!/bin/bash
# Session 17, issue 14 on the GPU host, after the change to plain events
# and polled host waits (e1d12b0): the scheduler's and the elements' GPU
# tests, memcheck of the scheduler, issue 14's pipeline table (medians of 3
# runs, host CPU by thread), host cost A/B (A = last session's final build,
# blocking-sync events; B = now) and NVDEC into gray+blur.
# Layout .dev-14/: build/{core,plugins,bench,tests,examples} from build-gpu,
# old/{core,plugins} (A), rt (GStreamer bundle), d1080/city1080.mp4.
# No bare `wait`.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-14
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/logs"
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|Which is|Expected|ERROR SUMMARY|grew|error:" | head -${N:-30}; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
nonv=/tmp/cf-plugins-no-nvcodec; rm -rf $nonv; mkdir -p $nonv
for p in "$GST_PLUGIN_SYSTEM_PATH"/*.so; do case $p in *nvcodec*) ;; *) ln -s "$p" $nonv/;; esac; done
with_nv=$GST_PLUGIN_SYSTEM_PATH
export GST_PLUGIN_PATH=$d/build/plugins
stamp "scheduler GPU tests alone, then memcheck; test-scheduler; test-lifo-pool; examples/core_api"
timeout 60 $d/build/tests/test-kernels-gpu --gtest_filter='SchedulerGpu.*' > $OUT/logs/sched-gpu.log 2>&1; echo "rc $?"; g < $OUT/logs/sched-gpu.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $d/build/tests/test-kernels-gpu \
    --gtest_filter='SchedulerGpu.EveryDepth*' > $OUT/logs/sched-memcheck.log 2>&1; echo "rc $?"; N=8 g < $OUT/logs/sched-memcheck.log
timeout 60 $d/build/tests/test-scheduler > $OUT/logs/test-scheduler.log 2>&1; echo "rc $?"; N=8 g < $OUT/logs/test-scheduler.log
timeout 60 $d/build/tests/test-lifo-pool > $OUT/logs/lifo.log 2>&1; echo "rc $?"; N=8 g < $OUT/logs/lifo.log
timeout 30 $d/build/examples/core_api > $OUT/logs/core_api.log 2>&1; echo "core_api rc $?"; tail -3 $OUT/logs/core_api.log
stamp "element tests, our plugin alone"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/fa.bin timeout 150 $d/build/tests/test-elements > $OUT/logs/elements.log 2>&1
echo "rc $?"; N=40 g < $OUT/logs/elements.log
stamp "element tests with nvcodec beside us"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fb.bin timeout 60 $d/build/tests/test-elements \
    --gtest_filter='*NvDecoder*:*Nvcodec*:*CudaMemory*:ConvertScale*' > $OUT/logs/elements-nv.log 2>&1
echo "rc $?"; N=20 g < $OUT/logs/elements-nv.log
stamp "issue 14: cf-pipeline-bench --thread-cpu --repeat 3 --frames 900"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fc.bin timeout 120 $d/build/bench/cf-pipeline-bench --thread-cpu --repeat 3 --frames 900 > $OUT/logs/pipeline.log 2>&1
echo "rc $?"; grep -vE "^\| \((c|d|b)\)" $OUT/logs/pipeline.log | sed -n '/medians of/,$p'
stamp "issue 14: host cost, A = session 16's final build (blocking-sync events), B = now (5 runs each)"
GST_PLUGIN_SYSTEM_PATH=$nonv RUNS=5 LIB_A=$d/old/core LIB_B=$d/build/core timeout 150 bash bench/diag/host-cost-ab.sh $d/old/plugins $d/build/plugins
stamp "issue 14: NVDEC 1080p into cudagray ! cudablur, against NVDEC alone"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fd.bin timeout 40 $d/build/bench/cf-decode-bench $d/d1080/city1080.mp4 --runs 3 2>&1 | grep -v XDG
stamp done
cd "$OUT" && tar -czf s17-14-logs.tgz logs && rm -rf logs
