#!/bin/bash
# Issue 20 on the GPU host, under a minute: the GPU variants of the new
# gtests (convertscale's one-pass kernels against its CPU version,
# cfconvertscale on CUDA memory), then the tool on a 1080p H.264 file
# through NVDEC (what tests/test_cli_convert.py's NVDEC case checks, without
# needing the ffmpeg command), showing that the planner's
# conversion to the encoder's format ran as our convert on the GPU
# (--json converters.encoder_input == "convert-gpu") and that the result
# equals the CPU path's bit for bit.
#
# Needs: $D with build/{core,tests,plugins,tools} from a CUDA build of this
# branch (build/bench/cf-convert-scale-bench too, if there, times the one
# pass against scale then convert), the GStreamer/FFmpeg runtime bundle
# already sourced (or $D/rt/env.sh), python3, and $D/data/city1080.mp4.
# Usage: D=... bash issue20-cli-gpu-check.sh
set -u
: "${D:?set D to the folder with build/ and data/}"
[ -f "$D/rt/env.sh" ] && source "$D/rt/env.sh"
export LD_LIBRARY_PATH=$D/build/core${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GST_PLUGIN_PATH=$D/build/plugins GST_REGISTRY=/tmp/issue20-registry.bin
T=$D/build/tools/cudafilters
W=$(mktemp -d /tmp/issue20.XXXX)
fail=0
step() { echo; echo "=== $* (${SECONDS} s) ==="; }
gt() { timeout "$1" "${@:2}" 2>&1 | grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|Failure|differs" | head -30
       [ "${PIPESTATUS[0]}" = 0 ] || fail=1; }
# Prints one --json field (dotted path) of the summary in $W/$1.json.
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'): d=d[k]
print(d)" "$W/$1.json" "$2"; }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
step "convertscale: CUDA one pass against the CPU version (= scale then convert)"
gt 30 "$D/build/tests/test-kernels-gpu" --gtest_filter='GpuConvertScaleFused*'
gt 10 "$D/build/tests/test-convert-scale" --gtest_filter='ConvertScaleFused*'
step "cfconvertscale and cfconvert/cfscale elements, CUDA memory in and out"
gt 20 "$D/build/tests/test-elements" --gtest_filter='ConvertScaleElements*'

step "CLI: city1080 through NVDEC, scaled on the GPU, the planner's convert to yuv420p on the GPU"
run_tool() { # name, then transcode options
    local name=$1; shift
    timeout 20 "$T" transcode "$D/data/city1080.mp4" "$W/$name.yuv" --codec rawvideo \
        --pix-fmt yuv420p --json --quiet "$@" > "$W/$name.json" || fail=1
    cat "$W/$name.json"
}
run_tool gpu --vf scale=w=640:h=360:method=area
run_tool cpu --vf scale=w=640:h=360:method=area --device cpu
echo "GPU: hw_decode=$(field gpu hw_decode) encoder_input=$(field gpu converters.encoder_input)" \
     "conversions='$(field gpu conversions)' fps=$(field gpu fps)"
echo "CPU: encoder_input=$(field cpu converters.encoder_input) fps=$(field cpu fps)"
[ "$(field gpu hw_decode)" = True ] && [ "$(field gpu converters.encoder_input)" = convert-gpu ] \
    && [ "$(field gpu frames_in)" = "$(field gpu frames_out)" ] || { echo "FAIL: not convert-gpu"; fail=1; }
if cmp -s "$W/gpu.yuv" "$W/cpu.yuv"; then echo "GPU output equals the CPU output bit for bit"
else echo "FAIL: GPU and CPU outputs differ"; fail=1; fi

step "CLI: convertscale (one pass) to RGBA on the GPU, then the planner's convert to yuv420p"
run_tool fused --vf convertscale=w=640:h=360:format=rgba:method=bilinear
run_tool fused-cpu --vf convertscale=w=640:h=360:format=rgba:method=bilinear --device cpu
echo "GPU: formats='$(field fused formats)' conversions='$(field fused conversions)' fps=$(field fused fps)"
[ "$(field fused converters.encoder_input)" = convert-gpu ] || { echo "FAIL: not convert-gpu"; fail=1; }
if cmp -s "$W/fused.yuv" "$W/fused-cpu.yuv"; then echo "GPU output equals the CPU output bit for bit"
else echo "FAIL: GPU and CPU outputs differ"; fail=1; fi

if [ -x "$D/build/bench/cf-convert-scale-bench" ]; then
    step "convertscale one pass against scale then convert, 4K -> 1080p (ms)"
    timeout 20 "$D/build/bench/cf-convert-scale-bench" --only "convertscale" --reps 5 || fail=1
else
    echo; echo "(no build/bench/cf-convert-scale-bench in \$D: one pass against two not timed)"
fi

rm -rf "$W"
echo; echo "=== $([ $fail = 0 ] && echo ALL OK || echo SOME FAILED) (${SECONDS} s) ==="
exit $fail
