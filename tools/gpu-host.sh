#!/bin/bash
# On the GPU host, after tools/prepare-gpu-run.sh here and with .device/cli
# carried: the command-line tool with NVDEC decoding and the filters on the
# GPU, its fps against the CPU path, the GPU result against the CPU result
# bit for bit, 10-bit (P010) frames, software decode + GPU filters, audio
# copy, a batch, NVENC's absence, and compute-sanitizer.
# Writes cli-gpu-host.log to $OUT.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/cf-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/cli-gpu-host.log") 2>&1
step() { echo; echo "=== $* ==="; }
run() { echo "\$ $*"; timeout ${LIMIT:-240} "$@"; echo "[exit $?]"; }
dev=$PWD/.device/cli
d=$dev/data
w=/tmp/cli-gpu
rm -rf $w && mkdir -p $w
source $dev/rt/env.sh
T=$dev/build/tools/cudafilters
vf="gray,blur=sigma=2"

step machine
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
run $T --version
run $T devices

step "NVDEC decode + GPU filters, H.264 768x576 (expect hw_decode true, filter_device cuda:0)"
run $T transcode $d/vtest.mp4 $w/gpu.mp4 --vf $vf --json
step "the same on the CPU (decode and filters), for comparison"
run $T transcode $d/vtest.mp4 $w/cpu.mp4 --vf $vf --device cpu --json

step "GPU result equals the CPU result bit for bit (raw frames)"
run $T transcode $d/vtest.mp4 $w/gpu.yuv --vf $vf --codec rawvideo --pix-fmt yuv420p --json
run $T transcode $d/vtest.mp4 $w/cpu.yuv --vf $vf --codec rawvideo --pix-fmt yuv420p \
    --device cpu --json
if cmp $w/gpu.yuv $w/cpu.yuv; then echo "IDENTICAL: NVDEC + GPU filters = CPU"; else echo "DIFFERENT"; fi
rm -f $w/*.yuv

step "1080p30, 300 frames: GPU, then CPU"
run $T transcode $d/city1080.mp4 $w/city-gpu.mp4 --vf "gray,blur=sigma=4" --json
run $T transcode $d/city1080.mp4 $w/city-cpu.mp4 --vf "gray,blur=sigma=4" --device cpu --json

step "1080p, gray,blur=sigma=2: the cases tools/ffmpeg-peer.sh times with FFmpeg's gblur"
nproc
run $T transcode $d/city1080.mp4 $w/city-s2.mp4 --vf "gray,blur=sigma=2" --json
run $T transcode $d/city1080.mp4 $w/city-s2.yuv --vf "gray,blur=sigma=2" --codec rawvideo \
    --pix-fmt yuv420p --json
rm -f $w/city-s2.yuv

step "10-bit HEVC: NVDEC P010 frames through the filters"
run $T transcode $d/hevc10.mkv $w/hevc10.mkv --vf $vf --json

step "software decode (MS-MPEG4) + GPU filters"
run $T transcode $d/vtest10.avi $w/vtest10.mp4 --vf $vf --json

step "audio copied with the GPU path"
run $T transcode $d/megamind.avi $w/megamind.mkv --vf $vf --json

step "batch of 5 on the GPU, 3 at a time, one missing file"
run $T batch --out-dir $w/batch --vf $vf --jobs 3 --json $d/vtest.mp4 $d/hevc10.mkv \
    $d/vtest10.avi $d/megamind.avi $d/missing.mp4
ls -la $w/batch

step "NVENC asked for by name (the H200 has none: a clear failure)"
run $T transcode $d/vtest10.avi $w/nvenc.mp4 --vf $vf --codec h264_nvenc

step compute-sanitizer
if command -v compute-sanitizer >/dev/null; then
    LIMIT=150 run compute-sanitizer --tool memcheck --error-exitcode 9 $T transcode \
        $d/vtest10.avi $w/san1.mp4 --vf $vf --quiet
    LIMIT=150 run compute-sanitizer --tool memcheck --error-exitcode 9 $T transcode \
        $d/hevc10.mkv $w/san2.mkv --vf $vf --quiet
else
    echo "compute-sanitizer not found"
fi
echo; echo "=== done ==="
