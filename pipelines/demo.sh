#!/bin/sh
# The main job: a real video through the GPU filters.
#
#   pipelines/demo.sh [OUTDIR]
#
# Decodes INPUT (default: Debian opencv-doc's vtest.avi, 768x576, 795 frames),
# runs cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload, encodes H.264
# into OUTDIR/demo.mp4 and writes OUTDIR/contact-sheet.png (first input frame
# beside its filtered frame). Uses the GPU when there is one, else the
# elements' CPU code. GST_PLUGIN_PATH must reach the plugin (the
# Makefile sets it to build/plugins). The input needs timestamps (any
# container has them); a raw stream without them fails with that reason.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
input=${CF_DEMO_INPUT:-/usr/share/doc/opencv-doc/examples/data/vtest.avi}
outdir=${1:-out}
sigma=${CF_DEMO_SIGMA:-2}
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$here/../build/plugins}"

if [ ! -r "$input" ]; then
    echo "demo: input video '$input' not found or not readable (apt-get install opencv-doc)" >&2
    exit 1
fi
mkdir -p "$outdir"
filters="cudaupload ! cudagray ! cudablur sigma=$sigma ! cudadownload"

# -v prints the negotiated caps: they tell whether frames went through GPU
# memory (memory:CUDAMemory) or the CPU fallback.
log="$outdir/demo.log"
if ! gst-launch-1.0 -v -e \
    filesrc location="$input" ! decodebin ! videoconvert ! $filters \
    ! videoconvert ! video/x-raw,format=I420 ! openh264enc bitrate=2000000 \
    ! h264parse ! mp4mux ! filesink location="$outdir/demo.mp4.part" >"$log" 2>&1; then
    grep -E "ERROR|WARN|erroneous|not-negotiated" "$log" >&2 || tail -20 "$log" >&2
    rm -f "$outdir/demo.mp4.part"
    # Raw elementary streams (MJPEG, .264 files without a frame rate) decode
    # to frames without timestamps; MP4 cannot hold those, and GStreamer has
    # no element that invents them from nothing.
    if grep -q "Buffer has no PTS" "$log"; then
        echo "demo: '$input' decodes to frames without timestamps (a raw stream with no" \
             "container or frame rate), which MP4 cannot hold; put it into a container" \
             "first, e.g. ffmpeg -r 25 -i '$input' -c copy input.mkv" >&2
    fi
    echo "demo: pipeline failed (full log: $log)" >&2
    exit 1
fi
mv "$outdir/demo.mp4.part" "$outdir/demo.mp4"

width=$(grep -o 'width=(int)[0-9]*' "$log" | head -1 | cut -d')' -f2)
gst-launch-1.0 -q compositor name=mix sink_1::xpos="${width:-768}" ! videoconvert \
    ! pngenc snapshot=true ! filesink location="$outdir/contact-sheet.png" \
    filesrc location="$input" ! decodebin ! tee name=t \
    t. ! queue ! videoconvert ! mix.sink_0 \
    t. ! queue ! videoconvert ! $filters ! videoconvert ! mix.sink_1 >/dev/null

# Each filter reports once where it ran ("cudafilters path: GPU, ..." or
# "cudafilters path: CPU, optimized, avx2 (...)").
grep -o "cudafilters path: .*" "$log" | sort -u | sed 's/^/demo: /'
if grep -q "cudagray0.GstPad:src: caps = video/x-raw(memory:CUDAMemory)" "$log"; then
    echo "demo: frames stayed in CUDA memory between the filters"
fi
echo "demo: wrote $outdir/demo.mp4 and $outdir/contact-sheet.png"
