#!/bin/bash
# On the GPU host, after tools/prepare-gpu-run.sh here and with .device/cli
# carried: the command-line tool's 1080p fps (the rows tools/ffmpeg-peer.sh
# times with FFmpeg) and its GPU = CPU checks (8-bit and P010), a subset of
# tools/gpu-host.sh that fits a short device session. Writes cli.log to $OUT.
set -u
OUT=${OUT:-/tmp/cf-out}; mkdir -p $OUT
exec > >(tee "$OUT/cli.log") 2>&1
run() { echo "\$ $*"; timeout ${LIMIT:-120} "$@"; echo "[exit $?]"; }
cd "$(dirname "$0")/.."
dev=$PWD/.device/cli; d=$dev/data; w=/tmp/cli-gpu; rm -rf $w; mkdir -p $w
source $dev/rt/env.sh
T=$dev/build/tools/cudafilters
nvidia-smi --query-gpu=name,driver_version --format=csv
run $T --version
echo "=== 1080p H.264, gray,blur=sigma=2 -> libx264 (as tools/ffmpeg-peer.sh times FFmpeg), 3 runs"
for i in 1 2 3; do run $T transcode $d/city1080.mp4 $w/city-s2-$i.mp4 --vf "gray,blur=sigma=2" --json; done
echo "=== the same into raw frames (no encoder), 3 runs"
for i in 1 2 3; do run $T transcode $d/city1080.mp4 $w/city-s2.yuv --vf "gray,blur=sigma=2" --codec rawvideo --pix-fmt yuv420p --json; done
echo "=== GPU result equals the CPU result bit for bit (vtest, raw frames)"
run $T transcode $d/vtest.mp4 $w/gpu.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt yuv420p --json
run $T transcode $d/vtest.mp4 $w/cpu.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt yuv420p --device cpu --json
if cmp $w/gpu.yuv $w/cpu.yuv; then echo "IDENTICAL: NVDEC + GPU filters = CPU"; else echo "DIFFERENT"; fi
echo "=== 10-bit HEVC (P010 frames, luma kept)"
run $T transcode $d/hevc10.mkv $w/hevc10.mkv --vf gray,blur=sigma=2 --json
run $T transcode $d/hevc10.mkv $w/h10g.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt p010le --json
run $T transcode $d/hevc10.mkv $w/h10c.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt p010le --device cpu --json
if cmp $w/h10g.yuv $w/h10c.yuv; then echo "IDENTICAL: P010 GPU = CPU"; else echo "DIFFERENT"; fi
LIMIT=150 run compute-sanitizer --tool memcheck --error-exitcode 9 $T transcode $d/hevc10.mkv $w/san2.mkv --vf gray,blur=sigma=2 --quiet
echo "=== done"
