#!/bin/bash
# On the GPU host, after tools/prepare-gpu-run.sh here and with
# .device/cli/build, .device/cli/rt and .device/cli/data/{city1080.mp4,
# vtest3.mp4,hevc10.mkv} carried: the command-line tool's 1080p fps (the rows tools/ffmpeg-peer.sh
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
# Raw frames and their re-reads go to memory, so the disk is not what is timed.
fast=/dev/shm/cli-fps; [ -d /dev/shm ] || fast=$w/fast; rm -rf $fast; mkdir -p $fast
# fps of the last --json line a run printed.
fps() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["fps"])'; }
# Median fps of 3 runs of a transcode (args after the output name).
median3() {
    local in=$1 out=$2; shift 2
    for i in 1 2 3; do
        rm -f $out
        timeout ${LIMIT:-120} $T transcode $in $out --json --quiet "$@" | fps
    done | sort -g | sed -n 2p
}
echo "=== 1080p H.264 (20 s, 600 frames), NVDEC; median frames/s of 3 runs"
dec=$(median3 $d/city1080.mp4 $fast/dec.nut --codec rawvideo)
raw=$(median3 $d/city1080.mp4 $fast/filtered.nut --vf "gray,blur=sigma=2" --codec rawvideo)
x264=$(median3 $d/city1080.mp4 $fast/filtered.mp4 --vf "gray,blur=sigma=2")
# libx264 alone on the same frames: the filtered raw frames read back and
# encoded with the tool's same settings (no filters).
x264_alone=$(median3 $fast/filtered.nut $fast/alone.mp4)
echo "| case | frames/s | reference | ratio | target |"
echo "|---|---|---|---|---|"
python3 - "$dec" "$raw" "$x264" "$x264_alone" <<'PY'
import sys
dec, raw, x264, alone = map(float, sys.argv[1:])
print(f"| decode only (NVDEC, frames to raw video) | {dec:.1f} | | | |")
print(f"| gray,blur=sigma=2 to raw video | {raw:.1f} | decode only | {100*raw/dec:.1f}% | >= 90% |")
print(f"| libx264 alone on the same (filtered) frames | {alone:.1f} | | | |")
print(f"| gray,blur=sigma=2 to libx264 | {x264:.1f} | libx264 alone | {100*x264/alone:.1f}% | >= 95% |")
PY
frames=$($T transcode $fast/filtered.nut $fast/count.nut --codec rawvideo --json --quiet | python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["frames_out"])')
echo "frames in the filtered raw file: ${frames:-?} (600 decoded)"
rm -rf $fast
echo "=== GPU result equals the CPU result bit for bit (vtest, raw frames)"
run $T transcode $d/vtest3.mp4 $w/gpu.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt yuv420p --json
run $T transcode $d/vtest3.mp4 $w/cpu.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt yuv420p --device cpu --json
if cmp $w/gpu.yuv $w/cpu.yuv; then echo "IDENTICAL: NVDEC + GPU filters = CPU"; else echo "DIFFERENT"; fi
echo "=== 10-bit HEVC (P010 frames, luma kept)"
run $T transcode $d/hevc10.mkv $w/hevc10.mkv --vf gray,blur=sigma=2 --json
run $T transcode $d/hevc10.mkv $w/h10g.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt p010le --json
run $T transcode $d/hevc10.mkv $w/h10c.yuv --vf gray,blur=sigma=2 --codec rawvideo --pix-fmt p010le --device cpu --json
if cmp $w/h10g.yuv $w/h10c.yuv; then echo "IDENTICAL: P010 GPU = CPU"; else echo "DIFFERENT"; fi
LIMIT=150 run compute-sanitizer --tool memcheck --error-exitcode 9 $T transcode $d/hevc10.mkv $w/san2.mkv --vf gray,blur=sigma=2 --quiet
echo "=== done"
