#!/bin/sh
# Prepares .device/ffpeer/ so that plain FFmpeg can be timed on the GPU host,
# which has no FFmpeg: `ffmpeg -vf format=gray,gblur=sigma=2` (FFmpeg's CPU
# filters) on the same files as the command-line tool's run (tools/gpu-host.sh).
#
#   sh tools/prepare-ffmpeg-peer.sh        # here; REBUNDLE=1 rebuilds the bundle
# then, from the repo root with the device tool, carrying [".device/ffpeer"]:
#   bash tools/ffmpeg-peer.sh              # writes $OUT/ffmpeg-peer.log
#
# .device/ffpeer/ holds bin/ffmpeg (Debian's /usr/bin/ffmpeg 5.1, unchanged),
# rt/ (a bundle.sh runtime with every library it needs), data/ (copies of
# .device/cli/data/city1080.mp4 and vtest.mp4; tools/prepare-gpu-run.sh makes
# them and is run first if they are missing) and stubbed.txt.
#
# Size: ffmpeg's whole dependency closure (206 libraries, libavdevice's and
# libavfilter's included) is 75 MiB as bundle.sh's runtime.tar.xz, over the
# device tool's 64 MiB per call. Half of it serves codecs and filters this run
# never calls: codec2, flite speech synthesis, pocketsphinx, librsvg, SVT-AV1,
# and ICU's data under libxml2. Those libraries are replaced by stubs with the
# same SONAME and the same exported symbols (functions return 0, data is
# zeroed): the loader is satisfied and ffmpeg's own libraries stay Debian's.
# The self-test at the end checks that the bundled ffmpeg, with nothing from
# this machine but glibc/libstdc++/libgcc_s, gives byte-identical results to
# /usr/bin/ffmpeg here.
set -eu
cd "$(dirname "$0")/.."
dev=.device/ffpeer
cli=.device/cli/data
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
libdir=/usr/lib/$arch
stubbed="libcodec2.so.1.0 libflite.so.1 libflite_cmu_us_awb.so.1 libflite_cmu_us_kal.so.1
 libflite_cmu_us_kal16.so.1 libflite_cmu_us_rms.so.1 libflite_cmu_us_slt.so.1
 libpocketsphinx.so.3 libsphinxbase.so.3 librsvg-2.so.2 libSvtAv1Enc.so.1 libicuuc.so.72"
die() { echo "prepare-ffmpeg-peer: $*" >&2; exit 1; }
[ -x /usr/bin/ffmpeg ] || die "no /usr/bin/ffmpeg (apt-get install ffmpeg)"

if [ ! -f $cli/city1080.mp4 ] || [ ! -f $cli/vtest.mp4 ]; then
    echo "prepare-ffmpeg-peer: no $cli/city1080.mp4 or vtest.mp4: running tools/prepare-gpu-run.sh"
    sh tools/prepare-gpu-run.sh
fi
mkdir -p $dev/bin $dev/data
cp $cli/city1080.mp4 $cli/vtest.mp4 $dev/data/
cp /usr/bin/ffmpeg $dev/bin/

if [ ! -f $dev/rt/runtime.tar.xz ] || [ "${REBUNDLE:-0}" = 1 ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir $tmp/stubs
    for so in $stubbed; do
        [ -f $libdir/$so ] || die "no $libdir/$so: is this Debian 12's ffmpeg 5.1?"
        # One global symbol per exported one: functions "return 0", objects
        # zero-filled at their original size.
        nm -D -S -t d --defined-only --without-symbol-versions $libdir/$so | awk '
            { name = $NF; type = $(NF - 1); size = (NF == 4) ? $2 + 0 : 0 }
            type ~ /^[TtWi]$/ { printf ".text\n.globl %s\n.type %s,@function\n%s: xor %%eax,%%eax\n ret\n", name, name, name }
            type ~ /^[DdBbRrVv]$/ { if (size < 1) size = 1
                printf ".bss\n.globl %s\n.type %s,@object\n.size %s,%d\n%s: .zero %d\n", name, name, name, size, name, size }
            END { print ".section .note.GNU-stack,\"\",@progbits" }' > $tmp/stub.s
        gcc -shared -nostdlib -Wl,-soname,$so -o $tmp/stubs/$so $tmp/stub.s ||
            die "cannot build the stub for $so"
    done
    # With the stubs first on the library path, bundle.sh's ldd resolves those
    # names to them, and their own dependencies drop out. No --ffmpeg: that
    # would leave libavfilter/libavdevice/libpostproc out; without it every
    # libav* that ffmpeg needs goes into rt/lib with the rest.
    LD_LIBRARY_PATH=$tmp/stubs ../shared/device/bundle.sh $dev/rt --deps-of /usr/bin/ffmpeg
    for so in $stubbed; do echo $so; done > $dev/stubbed.txt
fi

# Self-test: the bundle alone (env -i; only glibc, libstdc++ and libgcc_s may
# come from this machine), then the same bytes as /usr/bin/ffmpeg.
here=$PWD
inbundle() { env -i HOME=/tmp PATH=/usr/bin:/bin bash -c "source $here/$dev/rt/env.sh && $*"; }
inbundle "$here/$dev/bin/ffmpeg -hide_banner -version" | head -1
outside=$(inbundle "ldd $here/$dev/bin/ffmpeg" | awk '/=>/ && $3 !~ /^\/tmp\/cf-runtime-/ {print $1 " => " $3}' |
    grep -Ev '^(libc|libm|libdl|librt|libpthread|libresolv|libstdc\+\+|libgcc_s)\.so' || true)
[ -z "$outside" ] || die "libraries not from the bundle:
$outside"
t=$(mktemp -d)
vf=format=gray,gblur=sigma=2
ff() { if [ $n = sys ]; then /usr/bin/ffmpeg "$@"; else inbundle "$here/$dev/bin/ffmpeg $*"; fi; }
for n in sys bundle; do
    ff -v error -nostdin -y -i $here/$dev/data/vtest.mp4 -frames:v 100 -vf $vf -c:v libx264 \
        -preset medium -crf 23 $t/$n.mp4 || die "$n ffmpeg failed on the x264 test"
    ff -v error -nostdin -i $here/$dev/data/city1080.mp4 -frames:v 30 -vf $vf -f md5 - > $t/$n.md5 ||
        die "$n ffmpeg failed on the filter test"
done
cmp -s $t/sys.mp4 $t/bundle.mp4 || die "bundled ffmpeg's libx264 output differs from /usr/bin/ffmpeg's"
cmp -s $t/sys.md5 $t/bundle.md5 || die "bundled ffmpeg's gray,gblur frames differ from /usr/bin/ffmpeg's"
rm -rf $t
echo "prepare-ffmpeg-peer: self-test passed (bundle alone; same bytes as /usr/bin/ffmpeg)"
for p in $dev/rt/runtime.tar.xz $dev/bin $dev/data $dev; do du -sh $p; done
