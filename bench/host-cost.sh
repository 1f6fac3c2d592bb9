#!/bin/bash
# Host cost per frame of our elements, as a gst-launch user sees it:
#   videotestsrc ! RGBA ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink
# against the source alone (videotestsrc ! RGBA ! fakesink), default
# properties, at 640x480 (3000 frames) and 1920x1080 (1000 frames). Time is
# gst-launch's "Execution ended after" (PLAYING to EOS; the CUDA context is
# made while prerolling, before it). The two pipelines run in turn, RUNS
# times each (5), so that a slow spell of the host hits both; the cost is
# the difference of the medians divided by the frames, and the same of the
# fastest runs (the host's own noise only ever adds time). Run with our plugin on GST_PLUGIN_PATH
# and without nvcodec (whose cudaupload/cudadownload share our factory
# names). Prints a markdown table.
set -u
runs=${RUNS:-5}

# Seconds of one run of the launch line "$@", from gst-launch's own clock.
run_once() {
    gst-launch-1.0 "$@" 2>&1 | sed -n 's/^Execution ended after \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' |
        awk '{ printf "%.6f\n", $1 * 3600 + $2 * 60 + $3 }'
}

# Median and minimum of the seconds on stdin, one a line: "median min".
stats() {
    sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)], a[1] }'
}

echo "| size | frames | source alone, s (median / fastest) | with upload, gray, blur, download, s | added ms/frame (medians) | added ms/frame (fastest) | target |"
echo "|---|---|---|---|---|---|---|"
notes=()
for case in "640 480 3000" "1920 1080 1000"; do
    set -- $case
    w=$1 h=$2 n=$3
    src="videotestsrc num-buffers=$n ! video/x-raw,format=RGBA,width=$w,height=$h,framerate=30/1"
    alone=() ours=()
    for _ in $(seq "$runs"); do
        alone+=("$(run_once $src ! fakesink sync=false)")
        ours+=("$(run_once $src ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink sync=false)")
    done
    if [[ " ${alone[*]} ${ours[*]} " == *"  "* ]]; then
        echo "ERROR: a gst-launch-1.0 run at ${w}x${h} printed no time" >&2
        echo "| ${w}x${h} | $n | failed | | | | |"
        continue
    fi
    read -r a_med a_min < <(printf '%s\n' "${alone[@]}" | stats)
    read -r o_med o_min < <(printf '%s\n' "${ours[@]}" | stats)
    # Each run's pair (ours minus the source alone just before it), for a
    # host whose speed drifts between runs; printed under the table.
    pairs=()
    for i in "${!alone[@]}"; do pairs+=("$(awk -v a="${alone[$i]}" -v o="${ours[$i]}" 'BEGIN { printf "%.6f", o - a }')"); done
    read -r p_med p_min < <(printf '%s\n' "${pairs[@]}" | stats)
    notes+=("${w}x${h}: median of the $runs paired differences $(awk -v p="$p_med" -v n="$n" 'BEGIN { printf "%.3f", p * 1000 / n }') ms/frame; runs, s: source alone ${alone[*]}; with our elements ${ours[*]}")
    awk -v w="$w" -v h="$h" -v n="$n" -v am="$a_med" -v an="$a_min" -v om="$o_med" -v on="$o_min" 'BEGIN {
        d = (om - am) * 1000 / n; f = (on - an) * 1000 / n
        printf "| %dx%d | %d | %.3f / %.3f | %.3f / %.3f | %.3f | %.3f | %s |\n", w, h, n, am, an, om, on, d, f,
            d <= 0.1 ? "<= 0.1: met" : "<= 0.1: not met" }'
done
echo
for note in "${notes[@]}"; do echo "- $note"; done
