#!/bin/bash
# Issue 19, call 2 of 2 on the nvidia-h200-x2 machine kind: GStreamer and
# the GPU tests on the second GPU.
#   - One gst-launch-1.0 process, two pipelines (two unlinked branches of
#     one description), each nvh264dec ! cfcudaupload ! cudagray ! cudablur
#     ! cfcudadownload on the GPU its cuda-device-id names (A on 0, B on 1;
#     the cf names, since with nvcodec loaded "cudaupload" can name its
#     element, as session 25's one-GPU try showed):
#     the elements' INFO messages ("cudafilters path: GPU, CUDA device N"),
#     the memory each GPU gained (nvidia-smi every 100 ms; the sinks sync
#     to the clock, so the run lasts as long as the clip: 30 s from
#     issue19-prepare.sh, 8 s in session 25's try), and both outputs
#     against a one-GPU run (both branches on GPU 0) by md5.
#   - test-kernels-gpu and test-elements with CUDA_VISIBLE_DEVICES=1, then
#     test-elements' two-GPU test with every GPU visible.
# Carry .dev-19g (sh bench/diag/issue19-prepare.sh). Output:
# $OUT/issue19-gst.log and its logs in $OUT/l.
# On a machine of one GPU, branch B asks for GPU 1 (which must fail with
# a clear error, tried first), then runs on GPU 0, and the tests under
# CUDA_VISIBLE_DEVICES=1 see no GPU (they must skip, saying so).
set -u
cd "$(dirname "$0")/../.."
D=$PWD/.dev-19g
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT/l"; L=$OUT/l
exec > "$OUT/issue19-gst.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
g() { grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|needs|SKIPPED \]" | head -${N:-40}; }
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
NGPU=$(nvidia-smi -L | grep -c '^GPU')
source $D/rt/env.sh
export LD_LIBRARY_PATH=$D/build/core:$LD_LIBRARY_PATH GST_PLUGIN_PATH=$D/build/plugins
W=/tmp/cf19g; rm -rf $W; mkdir -p $W
gst-inspect-1.0 nvh264dec > /dev/null 2>&1 && echo "nvh264dec: registered" || echo "nvh264dec: MISSING"
gst-inspect-1.0 cudablur | grep -E "^  (cuda-device-id|sigma) " | head

# nvcodec (1.22) registers one H.264 decoder per GPU, its cuda-device-id
# read-only: nvh264dec on the first, nvh264device<N>dec on GPU N.
gst-inspect-1.0 nvcodec 2>/dev/null | grep -oE "nvh264(device[0-9]+)?dec" | sort -u | tr '\n' ' '; echo
decoder() {
    if [ "$1" != 0 ] && gst-inspect-1.0 nvh264device$1dec > /dev/null 2>&1; then echo nvh264device$1dec
    else echo nvh264dec; fi
}
# One branch: clip -> NVDEC on GPU $1 -> our elements on GPU $1 -> $2
# (elements named after the branch, so -v's caps lines say whose each is).
branch() {
    local n=$(basename $2 .gray)
    echo "filesrc location=$D/data/clip0.mp4 ! qtdemux ! h264parse ! $(decoder $1) name=dec-$n !" \
         "cfcudaupload name=up-$n cuda-device-id=$1 ! cudagray name=gray-$n cuda-device-id=$1 !" \
         "cudablur name=blur-$n sigma=2 cuda-device-id=$1 ! cfcudadownload name=down-$n cuda-device-id=$1 !" \
         "video/x-raw,format=GRAY8 ! filesink sync=true location=$2"
}
# Runs "$@" as one gst-launch-1.0 process with nvidia-smi sampling beside it.
run() {
    local name=$1; shift
    nvidia-smi --query-gpu=timestamp,index,memory.used,utilization.gpu --format=csv,noheader -lms 100 \
        > $L/smi-$name.csv 2>&1 &
    local smi=$!
    sleep 0.5
    echo "    gst-launch-1.0 -v $(branch $1 $W/$name-a.gray) $(branch $2 $W/$name-b.gray)" | sed "s|$D|\$D|g; s|$W|\$W|g"
    timeout 120 gst-launch-1.0 -v $(branch $1 $W/$name-a.gray) $(branch $2 $W/$name-b.gray) > $L/gst-$name.log 2>&1
    echo "[$name: gst-launch-1.0 exit $?]"
    sleep 0.5; kill $smi 2>/dev/null; wait $smi 2>/dev/null
    # The element classes (ours: GstCf*), then our elements' INFO messages.
    grep -oE "/Gst[A-Za-z0-9]+:(dec|up|gray|blur|down)-$name-[ab]" $L/gst-$name.log | sort -u | sed 's/^/    /'
    grep -E -B1 "cudafilters path" $L/gst-$name.log | grep -oE "(up|gray|blur|down)-$name-[ab]:|cudafilters path.*" \
        | paste -d' ' - - | sed 's/^/    /'
    grep -E "ERROR|WARNING|CRITICAL|Execution ended" $L/gst-$name.log | sed 's/^/    /' | head -8
    python3 - $L/smi-$name.csv <<'PY'
import collections, sys
mem = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = [x.strip() for x in line.split(",")]
    if len(p) == 4 and p[1].isdigit():
        mem[p[1]].append(int(p[2].split()[0]))
for g, v in sorted(mem.items()):
    print(f"    GPU {g}: memory {v[0]} MiB before, {max(v)} MiB at most: gained {max(v) - v[0]} MiB ({len(v)} samples)")
PY
    md5sum $W/$name-a.gray $W/$name-b.gray 2>/dev/null | sed "s|$W/||; s/^/    /"
    ls -la $W/$name-a.gray $W/$name-b.gray 2>/dev/null | awk '{print "    " $5 " bytes " $9}' | sed "s|$W/||"
}

if [ "$NGPU" -lt 2 ]; then
    stamp "ONE GPU: a branch asking for GPU 1 (expect a clear error, no output)"
    timeout 30 gst-launch-1.0 $(branch 1 $W/gpu1.gray) > $L/gst-gpu1.log 2>&1; echo "[exit $?]"
    grep -E "ERROR|WARNING|cudafilters path" $L/gst-gpu1.log | head -8
fi
B=1; [ "$NGPU" -ge 2 ] || { B=0; echo "ONE GPU: branch B runs on GPU 0 below"; }
stamp "two pipelines in one process: A on GPU 0, B on GPU $B"
run two 0 $B
stamp "the same two pipelines, both on GPU 0 (the one-GPU run)"
run one 0 0
stamp "outputs: each branch of the two-GPU run against the one-GPU run"
for x in a b; do
    if cmp -s $W/two-$x.gray $W/one-$x.gray; then echo "branch $x: identical ($(stat -c %s $W/one-$x.gray) bytes)"
    else echo "branch $x: DIFFERENT"; fi
done

stamp "test-kernels-gpu and test-elements with CUDA_VISIBLE_DEVICES=1"
CUDA_VISIBLE_DEVICES=1 timeout 240 $D/build/tests/test-kernels-gpu > $L/kgpu-dev1.log 2>&1; echo "[test-kernels-gpu exit $?]"
N=60 g < $L/kgpu-dev1.log
CUDA_VISIBLE_DEVICES=1 GST_REGISTRY=/tmp/gst-registry-dev1.bin timeout 240 $D/build/tests/test-elements \
    > $L/elements-dev1.log 2>&1; echo "[test-elements exit $?]"
N=60 g < $L/elements-dev1.log
stamp "test-elements' two-GPU test (cuda-device-id picks the GPU), every GPU visible"
GST_REGISTRY=/tmp/gst-registry-all.bin timeout 60 $D/build/tests/test-elements \
    --gtest_filter='*CudaDeviceId*' > $L/elements-ids.log 2>&1; echo "[exit $?]"
g < $L/elements-ids.log
rm -rf $W
stamp done
