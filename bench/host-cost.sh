#!/bin/bash
# Host cost per frame of our elements, as a gst-launch user sees it:
#   videotestsrc ! RGBA ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink
# against the source alone (videotestsrc ! RGBA ! fakesink), default
# properties, at 640x480 (3000 frames) and 1920x1080 (1000 frames). Time is
# gst-launch's "Execution ended after" (PLAYING to EOS; the CUDA context is
# made while prerolling, before it), median of 5 runs; the cost is the
# difference divided by the frames. Run with our plugin on GST_PLUGIN_PATH
# and without nvcodec (whose cudaupload/cudadownload share our factory
# names). Prints a markdown table.
set -u
runs=${RUNS:-5}

# Seconds of one run of the launch line "$@", from gst-launch's own clock.
run_once() {
    gst-launch-1.0 "$@" 2>&1 | sed -n 's/^Execution ended after \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' |
        awk '{ printf "%.6f\n", $1 * 3600 + $2 * 60 + $3 }'
}

# Median seconds of $runs runs.
median() {
    local times=()
    for _ in $(seq "$runs"); do
        t=$(run_once "$@")
        [ -n "$t" ] || { echo "ERROR: gst-launch-1.0 $* printed no time" >&2; echo nan; return; }
        times+=("$t")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

echo "| size | frames | source alone, s | with upload, gray, blur, download, s | added ms/frame | target |"
echo "|---|---|---|---|---|---|"
for case in "640 480 3000" "1920 1080 1000"; do
    set -- $case
    w=$1 h=$2 n=$3
    src="videotestsrc num-buffers=$n ! video/x-raw,format=RGBA,width=$w,height=$h,framerate=30/1"
    alone=$(median $src ! fakesink sync=false)
    ours=$(median $src ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink sync=false)
    awk -v w="$w" -v h="$h" -v n="$n" -v a="$alone" -v o="$ours" 'BEGIN {
        d = (o - a) * 1000 / n
        printf "| %dx%d | %d | %.3f | %.3f | %.3f | %s |\n", w, h, n, a, o, d, d <= 0.1 ? "<= 0.1: met" : "<= 0.1: not met" }'
done
