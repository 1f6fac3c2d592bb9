#!/bin/bash
# Session 15, last call: OOM mid-stream, ordering events, pipeline CPU, host cost, RSS diagnosis.
cd "$(dirname "$0")/.."
d=$PWD/.device
mkdir -p "$OUT"
exec > >(tee "$OUT/s15d.log") 2>&1
echo "=== event cost"; timeout 20 $d/diag/evtcost
echo "=== CUDA host resources across cycles"; timeout 25 $d/diag/rssdiag
source $d/rt/env.sh
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
with_nv=$GST_PLUGIN_SYSTEM_PATH
nonv=/tmp/cf-plugins-no-nvcodec; rm -rf $nonv; mkdir -p $nonv
for p in "$GST_PLUGIN_SYSTEM_PATH"/*.so; do case $p in *nvcodec*) ;; *) ln -s "$p" $nonv/;; esac; done
export GST_PLUGIN_PATH=$d/build/plugins
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED)|Failure|Which is|grew|shrank|RSS|device free|Expected|^error:|GPU memory taken"; }
echo "=== scheduler GPU"; timeout 30 $d/build/tests/test-kernels-gpu --gtest_filter='SchedulerGpu.*' 2>&1 | g
echo "=== elements alone"; GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/f1.bin timeout 70 $d/build/tests/test-elements --gtest_filter=-*Hundred*:*Eight* 2>&1 | g
echo "=== cf-pipeline-bench --thread-cpu"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/f2.bin timeout 45 $d/build/bench/cf-pipeline-bench --thread-cpu --frames 900 2>&1 | grep -vE "^\| \((c|d|b)\)"
echo "=== host cost"; GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/f3.bin RUNS=3 timeout 45 bash bench/host-cost.sh
echo "=== RSS by launch line"; GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/f3.bin timeout 30 $d/diag/gstrss 15
