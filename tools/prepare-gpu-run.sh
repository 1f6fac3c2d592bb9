#!/bin/sh
# Prepares .device/cli/ for the command-line tool's run on the GPU host (see
# ../shared/device/README.md): a CUDA build for sm_90 + PTX with the tool, a
# runtime bundle with FFmpeg's libraries (the host has none), and test videos
# made here with ffmpeg. Then run on the GPU host, carrying .device/cli:
#   bash tools/gpu-host.sh
set -eu
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
build=build-gpu-cli
dev=.device/cli
data=/usr/share/doc/opencv-doc/examples/data
[ -f $build/build.ninja ] || meson setup $build -Dcuda=enabled -Dffmpeg=enabled \
    -Dgstreamer=disabled -Dtests=disabled -Dgpu_archs=90 -Dbuildtype=release >/dev/null
ninja -C $build >/dev/null
# Same layout as the build dir, so the tool's $ORIGIN rpath finds the library.
rm -rf $dev/build
mkdir -p $dev/build/tools $dev/build/core $dev/data
cp $build/tools/cudafilters $dev/build/tools/
cp -a $build/core/libcudafilters.so $build/core/libcudafilters.so.[0-9]* $dev/build/core/
rm -rf $dev/build/core/*.p
enc() { [ -f "$1" ] || { shift; ffmpeg -v error -y "$@"; }; }
out=$dev/data
# H.264 for NVDEC (vtest.avi's MS-MPEG4 is not an NVDEC codec).
enc $out/vtest.mp4 -i $data/vtest.avi -c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p \
    $out/vtest.mp4
# 1080p, 20 s (600 frames), for fps at a common size; 3 s of vtest for the
# GPU = CPU check. (What tools/gpu-host-fps.sh needs stays under the device
# tool's 64 MiB with the 50 MiB runtime bundle: carry .device/cli/build,
# .device/cli/rt and those files, not the whole data folder.)
enc $out/city1080.mp4 -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=20 -c:v libx264 \
    -preset veryfast -crf 36 -pix_fmt yuv420p $out/city1080.mp4
enc $out/vtest3.mp4 -i $data/vtest.avi -t 3 -c:v libx264 -preset veryfast -crf 26 \
    -pix_fmt yuv420p $out/vtest3.mp4
# 10-bit HEVC: NVDEC gives P010 frames.
enc $out/hevc10.mkv -i $data/vtest.avi -t 10 -c:v libx265 -x265-params log-level=error \
    -crf 30 -pix_fmt yuv420p10le $out/hevc10.mkv
# Software decode (MS-MPEG4) then GPU filters; and a file with audio to copy.
enc $out/vtest10.avi -i $data/vtest.avi -t 10 -c copy $out/vtest10.avi
enc $out/megamind.avi -i $data/Megamind.avi -t 5 -c copy $out/megamind.avi
if [ ! -f $dev/rt/runtime.tar.xz ] || [ "${REBUNDLE:-0}" = 1 ]; then
    ../shared/device/bundle.sh $dev/rt --ffmpeg --deps-of $dev/build/tools/cudafilters
fi
du -sh $dev
