#!/bin/sh
# Prepares /work/main/.dev-16 (the device folder; DEV to change) for
# bench/cpu-host.sh on the GPU host: a release CPU build of the tool and
# cf-cpu-bench, the exactness test, FFmpeg's and OpenCV's libraries
# (../shared/device/bundle.sh), and vtest as H.264 (the CLI's input).
# Run there:  bash .dev-16/cpu-host.sh   (carry .dev-16)
set -eu
cd "$(dirname "$0")/.."
dev=${DEV:-/work/main/.dev-16}
[ -f build-rel/build.ninja ] || meson setup build-rel -Dbuildtype=release -Dcuda=disabled \
    -Dtests=disabled -Dgstreamer=disabled -Dffmpeg=enabled >/dev/null
ninja -C build-rel bench/cf-cpu-bench tools/cudafilters >/dev/null
ninja -C build tests/test-cpu-exact >/dev/null
rm -rf "$dev/bin" "$dev/lib" "$dev/dbg"
mkdir -p "$dev/bin" "$dev/lib" "$dev/dbg" "$dev/data"
cp build-rel/tools/cudafilters build-rel/bench/cf-cpu-bench "$dev/bin/"
cp -L build-rel/core/libcudafilters.so.0 "$dev/lib/"
cp build/tests/test-cpu-exact "$dev/dbg/"
cp -L build/core/libcudafilters.so.0 "$dev/dbg/"
cp bench/cpu-host.sh "$dev/"
[ -f "$dev/data/vtest.mp4" ] || ffmpeg -v error -y -i /usr/share/doc/opencv-doc/examples/data/vtest.avi \
    -c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p "$dev/data/vtest.mp4"
if [ ! -f "$dev/rt/runtime.tar.xz" ] || [ "${REBUNDLE:-0}" = 1 ]; then
    ../shared/device/bundle.sh "$dev/rt" --ffmpeg --deps-of "$dev/bin/cf-cpu-bench" \
        "$dev/bin/cudafilters" "$dev/lib/libcudafilters.so.0"
fi
du -sh "$dev"
