#!/bin/bash
# Session 17's second look at the merged tree, for what s17-final.sh sent
# only to stdout (cut off there): issue 20's kernels again beside the NPP
# peers (compiled here), host cost, NVDEC into gray+blur and into cfconvert.
# Same .dev-final/ (bench/diag/s17-prepare-final.sh). Everything goes into
# $OUT/final-b.log. No bare `wait`.
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-final
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/final-b.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
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
stamp "issue 14: host cost (bench/host-cost.sh, 5 runs)"
GST_PLUGIN_SYSTEM_PATH=$nonv GST_REGISTRY=/tmp/fh.bin RUNS=5 timeout 120 bash bench/host-cost.sh
stamp "issue 14: NVDEC 1080p into cudagray ! cudablur, against NVDEC alone"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fd.bin timeout 40 $d/build/bench/cf-decode-bench $d/d1080/city1080.mp4 --runs 3 2>&1 | grep -v XDG
stamp "issue 20: NVDEC 1080p into cfconvert to RGBA, against NVDEC into cudadownload"
GST_PLUGIN_SYSTEM_PATH=$with_nv GST_REGISTRY=/tmp/fe.bin timeout 40 $d/build/bench/cf-decode-bench \
    $d/d1080/city1080.mp4 --runs 3 --download-baseline \
    --chain 'cfconvert name=f ! video/x-raw(memory:CUDAMemory),format=RGBA' 2>&1 | grep -v XDG
stamp "issue 20: kernels against the device copy rate (--reps 15)"
timeout 60 $d/build/bench/cf-convert-scale-bench --reps 15
stamp "issue 20: NPP peers"
for p in "${npp[@]}"; do wait "$p"; done
for c in 1 2 3 4 5 6 7 8; do
    if [ -x /tmp/nppf-$c ]; then LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH timeout 15 /tmp/nppf-$c || echo "| NPP case $c failed | |"
    else echo "| NPP case $c did not build: $(grep -m1 -i error /tmp/nppf-$c.log) |"; fi
done
stamp done
