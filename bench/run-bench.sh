#!/bin/bash
# All benchmarks in one call on the GPU host (device time is short): ours
# (cf-bench) and the peers (NPP built here, CuPy, OpenCV CPU) on the same
# frames, then the GStreamer pipelines (cf-pipeline-bench: ours against
# gst-plugins-bad's cudaupload/cudadownload and the upload ceilings; the
# per-frame host cost in gst-launch; NVDEC into our filters). Prepare with
# bench/prepare-gpu-run.sh; run from the repo root.
#   bash bench/run-bench.sh [kernels] [pipelines]    (default: both)
set -u
cd "$(dirname "$0")/.."
dev=$PWD/.device
export LD_LIBRARY_PATH=$dev/build/core:${LD_LIBRARY_PATH:-}
parts=${*:-kernels pipelines}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
case " $parts " in *" kernels "*) ;; *) skip_kernels=1;; esac
if [ -z "${skip_kernels:-}" ]; then
echo "## cudafilters"
$dev/build/bench/cf-bench
echo
echo "## cudafilters, gray at 8K and 16K (planes larger than the L2)"
$dev/build/bench/cf-bench --only gray --width 7680 --height 4320 --reps 30
echo
echo "## cudafilters, blur with plain launches (no programmatic dependent launch)"
CUDAFILTERS_PDL=0 $dev/build/bench/cf-bench --only blur
echo
echo "## peers, same frame size"
if nvcc -O2 -std=c++17 -o /tmp/npp-peer bench/npp_peer.cu -lnppif -lnppicc -lnppc 2>/tmp/npp-build.log; then
    /tmp/npp-peer || echo "| NPP peer failed | |"
else
    echo "| NPP peer did not build: $(tail -3 /tmp/npp-build.log | tr '\n' ' ') | |"
fi
python3 bench/peers.py
fi
case " $parts " in *" pipelines "*) ;; *) exit 0;; esac
echo
echo "## GStreamer pipelines, 4K RGBA, source writing into downstream's pool or its own"
# In a subshell: the bundle's libraries are for GStreamer only, not CuPy's Python.
(
    source .device/rt/env.sh
    export LD_LIBRARY_PATH=$dev/build/core:$LD_LIBRARY_PATH
    export GST_PLUGIN_PATH=$dev/build/plugins GST_REGISTRY=/tmp/reg-bench.bin
    rm -f $GST_REGISTRY
    $dev/build/bench/cf-pipeline-bench ${SWEEP:+--sweep}
    echo
    echo "## host cost per frame, gst-launch wall clock, default properties (our plugin alone)"
    nonv=/tmp/cf-plugins-no-nvcodec; rm -rf $nonv; mkdir -p $nonv
    for p in "$GST_PLUGIN_SYSTEM_PATH"/*.so; do
        case $p in *nvcodec*) ;; *) ln -s "$p" $nonv/;; esac
    done
    GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/reg-bench-nonv.bin RUNS=${RUNS:-3} bash bench/host-cost.sh
    echo
    echo "## NVDEC into our filters, 1080p H.264 (.device/data/city1080.mp4)"
    $dev/build/bench/cf-decode-bench $dev/data/city1080.mp4 --runs 3
)
