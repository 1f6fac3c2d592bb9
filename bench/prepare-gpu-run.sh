#!/bin/sh
# Prepares .device/ for a run on the GPU host (see ../shared/device/README.md):
# a CUDA build for sm_90 + PTX, the test binaries, the plugin, the GStreamer
# runtime bundle, extra plugins the demo needs, and an H.264 copy of the demo
# video (the host's bundle has no libav to decode vtest.avi's MPEG-4).
# Then run on the GPU host:  bash bench/gpu-host.sh
set -eu
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
dev=.device
build=build-gpu
[ -f $build/build.ninja ] || meson setup $build -Dcuda=enabled -Dgstreamer=enabled -Dtests=enabled \
    -Dgpu_archs=90 -Dbuildtype=release >/dev/null
ninja -C $build >/dev/null
rm -rf $dev/build $dev/plugins
mkdir -p $dev/build/core $dev/build/tests $dev/build/plugins $dev/build/bench $dev/plugins $dev/data
# Same layout as the build dir so the binaries' $ORIGIN rpaths still work.
cp -a $build/core/libcudafilters.so $build/core/libcudafilters.so.[0-9]* $dev/build/core/
rm -rf $dev/build/core/*.p
cp $build/tests/test-* $dev/build/tests/ 2>/dev/null || true
rm -rf $dev/build/tests/*.p
cp $build/plugins/libgstcudafilters.so $dev/build/plugins/
cp $build/bench/cf-bench $build/bench/cf-pipeline-bench $build/bench/cf-decode-bench $dev/build/bench/
mkdir -p $dev/build/examples && cp $build/examples/core_api $dev/build/examples/
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
cp /usr/lib/$arch/gstreamer-1.0/libgstcompositor.so $dev/plugins/
if [ ! -f $dev/data/vtest.mp4 ]; then
    gst-launch-1.0 -q filesrc location=/usr/share/doc/opencv-doc/examples/data/vtest.avi \
        ! decodebin ! videoconvert ! video/x-raw,format=I420 ! openh264enc bitrate=1500000 \
        ! h264parse ! mp4mux ! filesink location=$dev/data/vtest.mp4
fi
# 1080p H.264 for the NVDEC pipelines (cf-decode-bench): 30 s, 900 frames.
if [ ! -f $dev/data/city1080.mp4 ]; then
    ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=30 -c:v libx264 \
        -preset veryfast -crf 36 -pix_fmt yuv420p $dev/data/city1080.mp4
fi
if [ ! -f $dev/rt/runtime.tar.xz ] || [ "${REBUNDLE:-0}" = 1 ]; then
    ../shared/device/bundle.sh $dev/rt --deps-of $dev/build/tests/test-* \
        $dev/build/bench/cf-pipeline-bench $dev/build/bench/cf-decode-bench \
        $dev/build/plugins/libgstcudafilters.so $dev/plugins/*.so
fi
du -sh $dev
