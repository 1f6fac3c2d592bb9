#!/bin/bash
# Session 16, GPU call 3 (issue 14): the streaming thread releases the
# inputs of finished early outputs at its next submit (no host wait a frame
# in the filters' tasks). Element tests, pipeline CPU by thread, host cost,
# where the 1080p host cost goes, NVDEC into our filters.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.device
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/call3.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|Which is|Expected|grew|error:" | head -${N:-40}; }
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
nonv=/tmp/cf-plugins-no-nvcodec; rm -rf $nonv; mkdir -p $nonv
for p in "$GST_PLUGIN_SYSTEM_PATH"/*.so; do case $p in *nvcodec*) ;; *) ln -s "$p" $nonv/;; esac; done
with_nv=$GST_PLUGIN_SYSTEM_PATH
export GST_PLUGIN_PATH=$d/build/plugins
stamp "element tests, our plugin alone"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/c3a.bin timeout 120 $d/build/tests/test-elements > "$OUT/elements3.log" 2>&1
echo "rc $?"; N=40 g < "$OUT/elements3.log"
stamp "element tests with nvcodec"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c3b.bin timeout 60 $d/build/tests/test-elements \
    --gtest_filter='*NvDecoder*:*Nvcodec*:*CudaMemory*' 2>&1 | N=20 g
stamp "cf-pipeline-bench --thread-cpu"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c3c.bin timeout 60 $d/build/bench/cf-pipeline-bench --thread-cpu --frames 900 2>&1 | grep -vE "^\| \((c|d|b)\)"
stamp "host cost (interleaved, 3 runs)"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/c3d.bin RUNS=3 timeout 60 bash bench/host-cost.sh
stamp "1080p by thread"
export GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/c3d.bin
src="videotestsrc num-buffers=1000 ! video/x-raw,format=RGBA,width=1920,height=1080,framerate=30/1"
for tail in "fakesink sync=false" "cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink sync=false" \
    "cudaupload ! cudadownload ! fakesink sync=false" "queue max-size-buffers=10 ! fakesink sync=false"; do
  echo "--- $tail"; timeout 20 bash bench/diag/threads.sh $src ! $tail
done
for pat in black; do
  s2="videotestsrc pattern=$pat num-buffers=1000 ! video/x-raw,format=RGBA,width=1920,height=1080,framerate=30/1"
  for tail in "fakesink sync=false" "cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink sync=false"; do
    echo "--- pattern=$pat: $tail"; timeout 20 bash bench/diag/threads.sh $s2 ! $tail
  done
done
unset GST_PLUGIN_SYSTEM_PATH GST_REGISTRY
stamp "NVDEC 1080p into cudagray ! cudablur, against NVDEC alone"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c3e.bin timeout 60 $d/build/bench/cf-decode-bench $d/d1080/city1080.mp4 --runs 3
stamp done
