#!/bin/bash
# Host cost per frame (as bench/host-cost.sh) of two builds of our plugin in
# one run: the source alone, then the chain with plugin dir A, then with
# plugin dir B, in turn, RUNS times; prints medians and fastest runs.
#   host-cost-ab.sh DIR_A DIR_B      (each holds a libgstcudafilters.so)
# LIB_A / LIB_B: a folder with the libcudafilters.so.0 that A / B load
# (put first on LD_LIBRARY_PATH), when the library differs too.
set -u
A=$1 B=$2 runs=${RUNS:-3}
LA=${LIB_A:+$LIB_A:}${LD_LIBRARY_PATH:-} LB=${LIB_B:+$LIB_B:}${LD_LIBRARY_PATH:-}
run_once() {
    gst-launch-1.0 "$@" 2>&1 | sed -n 's/^Execution ended after \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' |
        awk '{ printf "%.6f\n", $1 * 3600 + $2 * 60 + $3 }'
}
stats() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)], a[1] }'; }
echo "| size | frames | alone s (median / fastest) | A: added ms/frame (median / fastest) | B: added ms/frame (median / fastest) |"
echo "|---|---|---|---|---|"
for case in "640 480 3000" "1920 1080 1000"; do
    set -- $case
    w=$1 h=$2 n=$3
    src="videotestsrc num-buffers=$n ! video/x-raw,format=RGBA,width=$w,height=$h,framerate=30/1"
    chain="cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink sync=false"
    al=() ra=() rb=()
    for _ in $(seq "$runs"); do
        al+=("$(GST_PLUGIN_PATH= run_once $src ! fakesink sync=false)")
        ra+=("$(LD_LIBRARY_PATH=$LA GST_PLUGIN_PATH=$A GST_REGISTRY=/tmp/ab-a.bin run_once $src ! $chain)")
        rb+=("$(LD_LIBRARY_PATH=$LB GST_PLUGIN_PATH=$B GST_REGISTRY=/tmp/ab-b.bin run_once $src ! $chain)")
    done
    read -r am an < <(printf '%s\n' "${al[@]}" | stats)
    read -r xm xn < <(printf '%s\n' "${ra[@]}" | stats)
    read -r ym yn < <(printf '%s\n' "${rb[@]}" | stats)
    awk -v w=$w -v h=$h -v n=$n -v am=$am -v an=$an -v xm=$xm -v xn=$xn -v ym=$ym -v yn=$yn 'BEGIN {
        printf "| %dx%d | %d | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f |\n", w, h, n, am, an,
            (xm - am) * 1000 / n, (xn - an) * 1000 / n, (ym - am) * 1000 / n, (yn - an) * 1000 / n }'
done
