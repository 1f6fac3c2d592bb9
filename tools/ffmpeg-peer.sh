#!/bin/bash
# Plain FFmpeg on the same files as the command-line tool's GPU run
# (tools/gpu-host.sh): FFmpeg's CPU filters `format=gray,gblur=sigma=2`,
# decoding on the CPU, timed as frames/s. Run it from the repo root on the GPU
# host right after the CLI's call, carrying .device/ffpeer (made here by
# tools/prepare-ffmpeg-peer.sh):
#   bash tools/ffmpeg-peer.sh             # REPEAT=N runs per case (default 3)
# Writes $OUT/ffmpeg-peer.log: nproc, CPU, FFmpeg version, and a markdown table
# | case | frames | wall s | fps | (median wall time of the runs, fps =
# frames / wall s; frames from ffmpeg's -progress output).
#
# Encoder settings match the CLI's for libx264 (tools/output.c, encoder.c):
# it sets no preset, crf or tune, so libx264's defaults apply: preset medium,
# CRF 23 (written out below; identical to leaving them out), threads auto
# (CLI thread_count = 0; ffmpeg's default is auto too), x264's GOP defaults.
# One difference is kept visible: format=gray hands libx264 gray frames, which
# it encodes as 4:0:0, while the CLI's gray keeps 4:2:0 with neutral chroma;
# the "yuv420p" rows add format=yuv420p to match the CLI's output. Note that
# gblur is FFmpeg's IIR approximation, not the exact Gaussian of our blur.
set -eu
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/cf-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/ffmpeg-peer.log") 2>&1
dev=$PWD/.device/ffpeer
FF=$dev/bin/ffmpeg
[ -x "$FF" ] && [ -f "$dev/rt/env.sh" ] && [ -f "$dev/data/city1080.mp4" ] &&
    [ -f "$dev/data/vtest.mp4" ] || {
    echo "ffmpeg-peer: $dev is incomplete: run tools/prepare-ffmpeg-peer.sh on the build" \
        "machine and carry .device/ffpeer"; exit 1; }
source "$dev/rt/env.sh"
REPEAT=${REPEAT:-3}
w=$(mktemp -d /tmp/ffmpeg-peer.XXXXXX)
trap 'rm -rf "$w"' EXIT

echo "nproc: $(nproc)"
echo "cpu: $(awk -F': *' '/^model name/{print $2; exit}' /proc/cpuinfo)"
"$FF" -hide_banner -version | head -1
echo "stubbed (never called here): $(tr '\n' ' ' < "$dev/stubbed.txt")"
echo "median of $REPEAT runs each"
echo
echo "| case | frames | wall s | fps |"
echo "|---|---|---|---|"

# bench NAME IN ARGS...: REPEAT timed runs of ffmpeg -i IN ARGS; one table row.
bench() {
    local name=$1 in=$dev/data/$2 walls=() frames=
    shift 2
    for _ in $(seq "$REPEAT"); do
        local t0 t1
        t0=$(date +%s.%N)
        if ! "$FF" -hide_banner -nostdin -nostats -v error -progress "$w/progress" -i "$in" \
            "$@" 2> "$w/err"; then
            echo "| $name | FAILED: $(tr '\n' ' ' < "$w/err") | | |"
            return 0
        fi
        t1=$(date +%s.%N)
        walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}')")
        frames=$(awk -F= '$1 == "frame" {f = $2} END {print f}' "$w/progress")
    done
    local wall
    wall=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
    awk -v n="$name" -v f="$frames" -v s="$wall" 'BEGIN{printf "| %s | %d | %.2f | %.1f |\n", n, f, s, f / s}'
}

x264=(-c:v libx264 -preset medium -crf 23)
for f in city1080.mp4 vtest.mp4; do
    bench "$f decode only" $f -f null -
    bench "$f gray,gblur=sigma=2, filters only" $f -vf format=gray,gblur=sigma=2 -f null -
    bench "$f gray,gblur=sigma=2 -> libx264 (gray 4:0:0)" $f \
        -vf format=gray,gblur=sigma=2 "${x264[@]}" -y "$w/out.mp4"
    bench "$f gray,gblur=sigma=2 -> libx264 (yuv420p, as the CLI)" $f \
        -vf format=gray,gblur=sigma=2,format=yuv420p "${x264[@]}" -y "$w/out.mp4"
done
