#!/bin/bash
# Issue 20's convert and scale kernels on the GPU host in one call: the GPU
# tests against the CPU reference (fast and generic kernels), a
# compute-sanitizer memcheck subset, cf-convert-scale-bench, and the NPP
# peers compiled there. At most 120 s (FULL=1: also the generic kernels'
# bench and longer limits, at most 230 s); on 2026-12-01 FULL=1 took 61 s
# (tests 32 s, memcheck 5 s, each bench 9 s). Logs under $OUT; a summary on
# stdout.
#
# Prepare here (the folder travels with the device tool's `carry`):
#   meson setup build-h200 -Dgpu_archs=90 -Dbuildtype=release -Dwerror=true
#   ninja -C build-h200 tests/test-kernels-gpu bench/cf-convert-scale-bench
#   d=/work/main/.dev-20k; mkdir -p $d/build/{core,tests,bench}
#   cp -a build-h200/core/libcudafilters.so* $d/build/core/
#   cp build-h200/tests/test-kernels-gpu $d/build/tests/
#   cp build-h200/bench/cf-convert-scale-bench $d/build/bench/
#   cp bench/npp_convert_scale_peer.cu bench/check.cuh bench/convert-scale-kernels-gpu-host.sh $d/
#   ../shared/device/bundle.sh $d/rt --deps-of $d/build/tests/test-kernels-gpu \
#       $d/build/bench/cf-convert-scale-bench $d/build/core/libcudafilters.so.0
# and run there (carry .dev-20k):  bash .dev-20k/convert-scale-kernels-gpu-host.sh
set -u
cd "$(dirname "$0")"
d=$PWD
OUT=${OUT:-/tmp/out20k}; mkdir -p "$OUT"
FULL=${FULL:-0}
log=$OUT/run.log
exec 3>&1 >"$log" 2>&1
step() { echo; echo "=== $* ($SECONDS s) ==="; }
run() { echo "\$ $*"; local t0=$SECONDS; timeout "${T:-30}" "$@"; echo "[exit $? after $((SECONDS - t0)) s]"; }
lim() { [ "$FULL" = 1 ] && echo "$2" || echo "$1"; }
timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
export PATH=/usr/local/cuda/bin:$PATH
source "$d/rt/env.sh"
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
# NPP peers compile while the tests run (one case a binary).
pids=()
for c in 1 2 3 4 5 6 7 8; do
  timeout 90 nvcc -O2 -std=c++17 -DCASE=$c -I"$d" -o /tmp/npp20k-$c "$d/npp_convert_scale_peer.cu" \
      -lnppig -lnppicc -lnppc > "$OUT/npp-build-$c.log" 2>&1 &
  pids+=($!)
done
step "CUDA vs CPU reference: convert, scale (fast and generic kernels)"
# (the short run leaves out the fused convertscale element's tests to stay
# within 120 s; FULL=1 runs them)
T=$(lim 55 75) run "$d/build/tests/test-kernels-gpu" \
    --gtest_filter="$(lim 'GpuConvert*:GpuScale*:-GpuConvertScaleFused*' 'GpuConvert*:GpuScale*')" \
    > "$OUT/tests.log" 2>&1
grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|^\[       OK|Failure|differs|Expected|Which is|exit" \
    "$OUT/tests.log" | head -80
step "compute-sanitizer memcheck"
memcheck_filter='GpuConvertScale.CompactSweep*:GpuConvert.FastKernels*:GpuScale.FastKernels*'
T=$(lim 20 45) run compute-sanitizer --tool memcheck --error-exitcode 9 "$d/build/tests/test-kernels-gpu" \
    --gtest_filter="$memcheck_filter" > "$OUT/memcheck.log" 2>&1
grep -E "^\[  (FAILED|PASSED) |ERROR SUMMARY|Invalid|misaligned|exit" "$OUT/memcheck.log" | head -40
step "kernels: ours against the device copy rate"
T=$(lim 25 40) run "$d/build/bench/cf-convert-scale-bench" --reps 15 | tee "$OUT/bench.txt"
if [ "$FULL" = 1 ]; then
  step "the same, generic kernels forced"
  T=30 run "$d/build/bench/cf-convert-scale-bench" --reps 9 --generic | tee "$OUT/bench-generic.txt"
fi
step "NPP peers (built here)"
# (no pipe after this loop: wait must run in this shell, the compiles' parent)
for i in "${!pids[@]}"; do
  c=$((i + 1))
  wait "${pids[$i]}"
  if [ -x /tmp/npp20k-$c ]; then timeout 15 /tmp/npp20k-$c || echo "| NPP case $c failed (exit $?) | |"
  else echo "| NPP case $c did not build: $(grep -m1 -i error "$OUT/npp-build-$c.log") |"; fi
done > "$OUT/npp.txt" 2>&1
cat "$OUT/npp.txt"
echo; echo "=== done ($SECONDS s) ==="
exec 1>&3 2>&1
grep -E "^===|^\[  (FAILED|PASSED)|ERROR SUMMARY|^\| |exit [1-9]|Failure" "$log" | head -150
