#!/bin/bash
# Session 17, the CLI's GPU call, after the change to polled events
# (e1d12b0) and the CLI review fixes: as bench/diag/s16-cli.sh (the tool
# through NVDEC on 1080p H.264 with the planner's convert on the GPU, GPU
# against --device cpu), plus --device gpu, and issue 14's CLI rows
# (tools/gpu-host-fps.sh's table). Layout .dev-cli/:
# build/core (libcudafilters), build/tools/cudafilters, rt (FFmpeg and GLib,
# no GStreamer, no OpenCV: under the 64 MiB a call carries), data/city1080.mp4.
set -u
cd "$(dirname "$0")/../.."
D=$PWD/.dev-cli
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/cli.log" 2>&1
source $D/rt/env.sh
export LD_LIBRARY_PATH=$D/build/core:$LD_LIBRARY_PATH
T=$D/build/tools/cudafilters
W=/dev/shm/s17cli; rm -rf $W; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$T --version
field() { python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
for k in sys.argv[2].split('.'): d=d[k]
print(d)" "$W/$1.json" "$2"; }
tool() { local name=$1 out=$2; shift 2; rm -f "$out"
    timeout 30 $T transcode $D/data/city1080.mp4 "$out" --json --quiet "$@" > "$W/$name.json"; echo "[$name exit $?]"; }
echo "=== issue 20: NVDEC, scale on the GPU, the planner's convert to yuv420p (GPU) against --device cpu"
tool gpu $W/gpu.yuv --codec rawvideo --pix-fmt yuv420p --vf scale=w=640:h=360:method=area
tool cpu $W/cpu.yuv --codec rawvideo --pix-fmt yuv420p --vf scale=w=640:h=360:method=area --device cpu
cat $W/gpu.json
echo "GPU: hw_decode=$(field gpu hw_decode) encoder_input=$(field gpu converters.encoder_input) fps=$(field gpu fps); CPU: encoder_input=$(field cpu converters.encoder_input) fps=$(field cpu fps)"
cmp -s $W/gpu.yuv $W/cpu.yuv && echo "IDENTICAL: GPU = CPU" || echo "DIFFERENT: GPU and CPU outputs"
tool fused $W/fused.yuv --codec rawvideo --pix-fmt yuv420p --vf convertscale=w=640:h=360:format=rgba:method=bilinear
tool fusedc $W/fusedc.yuv --codec rawvideo --pix-fmt yuv420p --vf convertscale=w=640:h=360:format=rgba:method=bilinear --device cpu
echo "fused GPU: formats='$(field fused formats)' conversions='$(field fused conversions)' fps=$(field fused fps)"
cmp -s $W/fused.yuv $W/fusedc.yuv && echo "IDENTICAL: fused GPU = CPU" || echo "DIFFERENT: fused GPU and CPU outputs"
rm -f $W/*.yuv
echo "=== --device gpu (GPU 0), its JSON"
tool devgpu $W/devgpu.nut --codec rawvideo --vf gray --device gpu
tail -c 600 $W/devgpu.json; echo
echo "=== issue 14: the CLI, 1080p H.264 (the clip's frames), NVDEC, gray,blur=sigma=2; median frames/s of 3 runs"
med() { local name=$1 out=$2; shift 2; for i in 1 2 3; do tool $name $out "$@" > /dev/null; field $name fps; done | sort -g | sed -n 2p; }
dec=$(med dec $W/dec.nut --codec rawvideo)
raw=$(med raw $W/f.nut --vf gray,blur=sigma=2 --codec rawvideo)
x264=$(med x264 $W/f.mp4 --vf gray,blur=sigma=2)
alone=$(for i in 1 2 3; do rm -f $W/a.mp4; timeout 30 $T transcode $W/f.nut $W/a.mp4 --json --quiet > $W/alone.json; field alone fps; done | sort -g | sed -n 2p)
python3 - "$dec" "$raw" "$x264" "$alone" <<'PY'
import sys
dec, raw, x264, alone = map(float, sys.argv[1:])
print("| case | frames/s | reference | ratio | target |\n|---|---|---|---|---|")
print(f"| decode only (NVDEC, to raw video) | {dec:.1f} | | | |")
print(f"| gray,blur=sigma=2 to raw video | {raw:.1f} | decode only | {100*raw/dec:.1f}% | >= 90% |")
print(f"| libx264 alone on the same (filtered) frames | {alone:.1f} | | | |")
print(f"| gray,blur=sigma=2 to libx264 | {x264:.1f} | libx264 alone | {100*x264/alone:.1f}% | >= 95% |")
PY
rm -rf $W
echo "=== done"
