#!/bin/bash
# Session 25: the GPU tests on the final tree after the plugin's cf names
# (cfcudaupload, cfcudadownload) and the filter-string messages: every
# kernel GPU test (4 shards, then the scheduler's alone) and every
# element test, on one GPU with nvcodec loaded. Layout .dev-19g
# (bench/diag/issue19-prepare.sh, library, plugin and tests refreshed from
# build-gpu). Prints a summary; logs in /tmp.
set -u
D=$PWD/.dev-19g
source $D/rt/env.sh
export LD_LIBRARY_PATH=$D/build/core:$LD_LIBRARY_PATH GST_PLUGIN_PATH=$D/build/plugins GST_REGISTRY=/tmp/reg-final.bin
for i in 0 1 2 3; do GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 170 $D/build/tests/test-kernels-gpu --gtest_filter='-SchedulerGpu.*' > /tmp/k$i.log 2>&1 & done
wait
timeout 60 $D/build/tests/test-kernels-gpu --gtest_filter='SchedulerGpu.*' > /tmp/ks.log 2>&1
timeout 200 $D/build/tests/test-elements > /tmp/el.log 2>&1; echo "elements rc $?"
for f in /tmp/k0 /tmp/k1 /tmp/k2 /tmp/k3 /tmp/ks /tmp/el; do echo "-- $f"; grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure" $f.log | head -12; done
grep -E "is from plugin|OK \] Elements.AllFactories" /tmp/el.log
