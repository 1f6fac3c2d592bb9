# Sourced by the GPU-host call scripts from session 26 on (bash), from the
# repository root: the preamble, the GPU test block and the ending they
# share.
#   gpu_begin DIR   output to $OUT (default /tmp/cf-out): stdout and stderr
#                   into $OUT/call.log, the logs into L=$OUT/l; then
#                   gpu_setup DIR.
#   gpu_setup DIR   the layout DIR (bench/diag/s26-prepare.sh makes one):
#                   its GStreamer runtime, library and plugin on the
#                   search paths; TG its test-kernels-gpu; stamp, g.
#   gpu_tests [FILTER]  every kernel GPU test but the scheduler's (4
#                   shards) with compute-sanitizer memcheck and racecheck
#                   of the tests FILTER names (default BLUR_SANITIZED)
#                   beside them, then the scheduler's tests alone and every
#                   element test; logs in $L, summaries on stdout.
#   gpu_peers       issue 17's peers, after gpu_npp_build: NPP
#                   GaussAdvanced ($OUT/npp.txt) and cupyx gaussian_filter
#                   ($OUT/cupyx.txt, bench/peers.py on the host's Python:
#                   PLAIN_PATH and PLAIN_LD, set before gpu_begin).
#   gpu_npp_build   NPP's peer (bench/npp_peer.cu) built in the background.
#   gpu_end         the logs packed into $OUT/logs.tgz.
# The blur tests the sanitizers run: the forced methods' small frames, the
# forced methods that must fail, the FP64 sums against the integer ones.
BLUR_SANITIZED="GpuExact.BlurMethodsSmallFrames:GpuExact.BlurForcedMethod*:GpuExact.BlurFp64VerticalSumsAndIntegerOnes"
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|ERROR SUMMARY|RACECHECK SUMMARY|error:" | head -${N:-12}; }

gpu_begin() {
    OUT=${OUT:-/tmp/cf-out}
    L=$OUT/l
    mkdir -p "$L"
    exec > "$OUT/call.log" 2>&1
    gpu_setup "$1"
}

gpu_setup() {
    d=$1
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    export PATH=/usr/local/cuda/bin:$PATH
    source "$d/rt/env.sh"
    export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH GST_PLUGIN_PATH=$d/build/plugins
    export GST_REGISTRY=/tmp/reg-$(basename "$d").bin
    TG=$d/build/tests/test-kernels-gpu
}

gpu_tests() {
    local filter=${1:-$BLUR_SANITIZED} pids=() i tool p f
    stamp "kernel GPU tests (4 shards, not the scheduler's), memcheck and racecheck beside them"
    for i in 0 1 2 3; do
        GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 200 $TG --gtest_filter='-SchedulerGpu.*' > $L/kgpu$i.log 2>&1 &
        pids+=($!)
    done
    for tool in memcheck racecheck; do
        timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 $TG --gtest_filter="$filter" > $L/$tool.log 2>&1 &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; echo "job $p rc $?"; done
    for f in kgpu0 kgpu1 kgpu2 kgpu3 memcheck racecheck; do echo "-- $f"; g < $L/$f.log; done
    stamp "the scheduler's GPU tests, alone; the element tests"
    timeout 60 $TG --gtest_filter='SchedulerGpu.*' > $L/sched.log 2>&1; echo "rc $?"; g < $L/sched.log
    timeout 200 $d/build/tests/test-elements > $L/el.log 2>&1; echo "elements rc $?"; g < $L/el.log
}

gpu_npp_build() {
    (nvcc -O2 -std=c++17 -gencode arch=compute_90,code=sm_90 -o /tmp/npp-peer bench/npp_peer.cu \
        -lnppif -lnppicc -lnppc > $L/npp-build.log 2>&1; echo "npp-peer build rc $?" >> $L/npp-build.log) &
    NPP_BUILD=$!
}

gpu_peers() {
    wait $NPP_BUILD; cat $L/npp-build.log
    stamp "NPP GaussAdvanced"
    LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout -k 2 120 /tmp/npp-peer > $OUT/npp.txt 2>&1; echo "rc $?"
    cat $OUT/npp.txt
    stamp "cupyx gaussian_filter (truncate=3; 4 for the 16-bit luma), every sigma and unequal pair"
    PATH=$PLAIN_PATH LD_LIBRARY_PATH=$PLAIN_LD timeout -k 2 300 python3 bench/peers.py > $OUT/cupyx.txt 2>&1
    echo "rc $?"; cat $OUT/cupyx.txt
}

gpu_end() {
    stamp done
    (cd "$OUT" && tar -czf logs.tgz l && rm -rf l)
}
