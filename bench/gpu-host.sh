#!/bin/bash
# One call on the GPU host: every GPU test, the element tests with and without
# gst-plugins-bad's nvcodec beside our plugin, the demo pipeline on the real
# video (CUDA path), nvh264dec zero-copy into our filters, and
# compute-sanitizer. Prepare with bench/prepare-gpu-run.sh here first.
# Writes gpu-host.log (and the demo's contact sheet) to $OUT.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/cf-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/gpu-host.log") 2>&1
step() { echo; echo "=== $* ==="; }
run() { echo "\$ $*"; timeout 240 "$@"; echo "[exit $?]"; }

step machine
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
source .device/rt/env.sh
gst-launch-1.0 --version | head -1
dev=$PWD/.device
# The bundle may hold a copy of libcudafilters (bundle.sh follows the test
# binaries' dependencies); the fresh build must win.
export LD_LIBRARY_PATH=$dev/build/core:$LD_LIBRARY_PATH
# Fresh registries: a cached one may have blacklisted an older plugin build.
rm -f /tmp/reg-nonv.bin /tmp/reg-nv.bin
# System plugins without nvcodec, to test our elements alone.
nonv=/tmp/cf-plugins-no-nvcodec; rm -rf $nonv; mkdir -p $nonv
for p in "$GST_PLUGIN_SYSTEM_PATH"/*.so; do
    case $p in *nvcodec*) ;; *) ln -s "$p" $nonv/;; esac
done
with_nv="$GST_PLUGIN_SYSTEM_PATH"
export GST_PLUGIN_PATH=$dev/build/plugins:$dev/plugins

step unit tests on the GPU
run $dev/build/tests/test-core
run $dev/build/tests/test-scheduler
run $dev/build/tests/test-kernels-cpu
run $dev/build/tests/test-kernels-gpu
run $dev/build/tests/test-vectors

step element tests, our plugin alone
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/reg-nonv.bin run $dev/build/tests/test-elements
step element tests, nvcodec installed beside us
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/reg-nv.bin run $dev/build/tests/test-elements
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/reg-nv.bin gst-inspect-1.0 cudaupload | grep -E "Plugin Details|^  Name" | head -3

step demo pipeline on the real video, our plugin alone
export CF_DEMO_INPUT=$dev/data/vtest.mp4
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/reg-nonv.bin \
    bash -c 'time pipelines/demo.sh /tmp/demo-nonv'
grep -o "cudagray0.GstPad:src: caps = [^,]*" /tmp/demo-nonv/demo.log | head -1
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/reg-nonv.bin run python3 tests/test_demo.py
cp /tmp/demo-nonv/contact-sheet.png "$OUT/" 2>/dev/null

step demo pipeline with nvcodec present
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/reg-nv.bin \
    bash -c 'time pipelines/demo.sh /tmp/demo-nv'

step nvh264dec straight into our filters
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/reg-nv.bin bash -c "time gst-launch-1.0 -v \
    filesrc location=$CF_DEMO_INPUT ! qtdemux ! h264parse ! nvh264dec ! cudagray name=g \
    ! cudablur sigma=2 ! cudadownload ! fakesink" 2>&1 | grep -E "g.GstPad:(sink|src): caps|Execution|ERROR|real" | head -6

step compute-sanitizer
if command -v compute-sanitizer >/dev/null; then
    # Not the GpuLaunch tests: they ask for a device that does not exist on
    # purpose, which memcheck counts as errors of the API.
    run compute-sanitizer --tool memcheck --error-exitcode 9 $dev/build/tests/test-kernels-gpu \
        --gtest_filter=-*TallFrame*:*HugeFrames*:*SplitLastWave*:GpuLaunch.*
    run compute-sanitizer --tool racecheck --error-exitcode 9 $dev/build/tests/test-kernels-gpu \
        --gtest_filter=GpuExact.GrayAll*:GpuExact.BlurAll*:GpuExact.BlurEveryRegister*:GpuExact.BlurRegisterKernelInterior*:GpuExact.BlurRegisterKernelFullHeight*:GpuExact.BackToBack*:SchedulerGpu.EveryDepth*
    # The scheduler's CPU path and the elements through the scheduler on the
    # GPU: no API error, no bad access in the copies and kernels they queue.
    run compute-sanitizer --tool memcheck --error-exitcode 9 $dev/build/tests/test-scheduler
    GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/reg-nonv.bin run compute-sanitizer --tool memcheck \
        --error-exitcode 9 $dev/build/tests/test-elements \
        --gtest_filter=*UploadFilterDownload*:*FramesInFlight*:*EachFrameComesOut*:*RenegotiatesMidStream*:*FlushingSeek*
else
    echo "compute-sanitizer not found"
fi
echo; echo "=== done ==="
