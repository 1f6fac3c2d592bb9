#!/bin/sh
# Issue 19 (a two-GPU run on the nvidia-h200-x2 machine kind): prepares the
# two layouts its two device calls carry, from build-gpu (sh
# bench/prepare-gpu-run.sh makes it; the library and binaries stripped).
# Each stays under the device tool's 64 MiB with the tracked tree:
#   .dev-19c  the command-line tool: cudafilters, libcudafilters.so (xz,
#             unpacked on the host), FFmpeg's libraries and what they need
#             (rt/lib.tar.xz, about 48 MB), 8 different 1080p H.264 clips
#             of 30 s (data/clip*.mp4). Run: bash bench/diag/issue19-x2-cli.sh
#   .dev-19g  GStreamer: the plugin, test-kernels-gpu and test-elements,
#             libcudafilters.so, the GStreamer runtime bundle
#             (../shared/device/bundle.sh), one 1080p clip.
#             Run: bash bench/diag/issue19-x2-gst.sh
# Both scripts run on one GPU too (the second GPU's steps then on GPU 0,
# and say so), which is how session 25 tried them.
set -eu
cd "$(dirname "$0")/../.."
b=build-gpu
[ -x $b/tools/cudafilters ] || { echo "issue19-prepare.sh: no $b/tools/cudafilters: run sh bench/prepare-gpu-run.sh" >&2; exit 1; }
ninja -C $b >/dev/null
for d in .dev-19c .dev-19g; do
    rm -rf $d/build && mkdir -p $d/build/core $d/build/tools $d/build/plugins $d/build/tests $d/data
    cp -a $b/core/libcudafilters.so $b/core/libcudafilters.so.0 $d/build/core/
    cp $b/core/libcudafilters.so.0.1.0 $d/build/core/ && strip $d/build/core/libcudafilters.so.0.1.0
done
cp $b/tools/cudafilters .dev-19c/build/tools/
cp $b/plugins/libgstcudafilters.so .dev-19g/build/plugins/
cp $b/tests/test-kernels-gpu $b/tests/test-elements .dev-19g/build/tests/
strip .dev-19c/build/tools/* .dev-19g/build/plugins/* .dev-19g/build/tests/*

# 8 different clips: 1080p30, 900 frames (30 s: long enough that a file's
# process start, about 0.5 s, is not most of its time), yuv420p H.264
# (NVDEC decodes it), from sources that compress well (1.5 MB in all: the
# layout has about 2 MB to spare); the run links each under several names.
# The clips are made again when these settings change (data/SETTINGS).
settings="30 s, crf 42, 8 sources"
[ "$(cat .dev-19c/data/SETTINGS 2>/dev/null)" = "$settings" ] || rm -f .dev-19c/data/clip*.mp4
i=0
for src in testsrc smptehdbars=s=1920x1080 gradients=s=1920x1080:speed=0.01 rgbtestsrc yuvtestsrc \
           pal75bars=s=1920x1080 smptebars=s=1920x1080 gradients=s=1920x1080:speed=0.01:seed=7:n=5; do
    f=.dev-19c/data/clip$i.mp4
    [ -f $f ] || ffmpeg -v error -y -f lavfi -i "$src" -t 30 -r 30 -vf "scale=1920:1080,format=yuv420p" \
        -c:v libx264 -preset veryfast -crf 42 $f
    i=$((i + 1))
done
echo "$settings" > .dev-19c/data/SETTINGS
cp .dev-19c/data/clip0.mp4 .dev-19g/data/

# The tool's runtime: the libraries cudafilters needs (FFmpeg's and theirs),
# not the host's own (glibc, libstdc++, the driver's) nor libcudafilters.
if [ ! -f .dev-19c/rt/lib.tar.xz ] || [ "${REBUNDLE:-0}" = 1 ]; then
    t=$(mktemp -d); mkdir -p $t/lib .dev-19c/rt
    skip='/(libc|libm|libdl|librt|libpthread|libresolv|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libnvidia[^/]*|libnvcuvid|libcudafilters)\.so'
    deps=$(LD_LIBRARY_PATH=$b/core ldd .dev-19c/build/tools/cudafilters)
    if echo "$deps" | grep "not found"; then
        echo "issue19-prepare.sh: libraries of cudafilters not found here" >&2; exit 1
    fi
    echo "$deps" | awk '/=> \//{print $3}' | sort -u | grep -Ev "$skip" \
        | while read -r l; do cp -L "$l" $t/lib/; done
    tar -C $t -cf - lib | xz -9 -T2 > .dev-19c/rt/lib.tar.xz
    rm -rf $t
fi
# Packed last (the bundles above read it): 24 MB raw, 6 MB packed, which
# is what lets the tool's layout fit.
xz -9 -T2 -f .dev-19c/build/core/libcudafilters.so.0.1.0
if [ ! -f .dev-19g/rt/runtime.tar.xz ] || [ "${REBUNDLE:-0}" = 1 ]; then
    ../shared/device/bundle.sh .dev-19g/rt --deps-of .dev-19g/build/plugins/libgstcudafilters.so \
        .dev-19g/build/tests/test-kernels-gpu .dev-19g/build/tests/test-elements
fi
du -sh .dev-19c .dev-19g
