#!/bin/bash
# Session 16, GPU call 4 (issue 14): the upload's output pushed by its task
# before its copy is done; element tests, pipeline CPU by thread, host cost
# of the plugin before this session's change (A) and now (B), NVDEC.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.device
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/call4.log" 2>&1
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
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/c4a.bin timeout 120 $d/build/tests/test-elements > "$OUT/elements4.log" 2>&1
echo "rc $?"; N=40 g < "$OUT/elements4.log"
stamp "element tests with nvcodec"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c4b.bin timeout 60 $d/build/tests/test-elements \
    --gtest_filter='*NvDecoder*:*Nvcodec*:*CudaMemory*:ConvertScale*' 2>&1 | N=20 g
stamp "cf-pipeline-bench --thread-cpu"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c4c.bin timeout 60 $d/build/bench/cf-pipeline-bench --thread-cpu --frames 900 2>&1 | grep -vE "^\| \((c|d|b)\)"
stamp "host cost, A = before this session (9a0bb3e), B = now"
GST_PLUGIN_SYSTEM_PATH=$nonv RUNS=3 timeout 90 bash bench/diag/host-cost-ab.sh $d/plugin-old $d/build/plugins
stamp "NVDEC 1080p into cudagray ! cudablur, against NVDEC alone"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/c4e.bin timeout 60 $d/build/bench/cf-decode-bench $d/d1080/city1080.mp4 --runs 3
stamp done
