#!/bin/bash
# Session 17's GPU call 2 for issue 20 (branch issue-20g), as it ran: copy this
# script, bench/npp_convert_scale_peer.cu, bench/check.cuh, build-h200's
# core/libcudafilters.so*, tests/test-kernels-gpu and bench/cf-convert-scale-bench
# (under build/) and a runtime bundle (../shared/device/bundle.sh rt --deps-of
# those binaries) into /work/main/.dev-20g/, then run with the device tool:
#   bash .dev-20g/run2.sh   (carry .dev-20g)
# Logs: bench/results/2026-12-01-h200-s17-20g-convert-scale.log.
# Issue 20 (session 17, issue-20g), final GPU call: the GPU tests against the
# CPU reference, compute-sanitizer memcheck and racecheck on the convert and
# scale fast-kernel tests, cf-convert-scale-bench --reps 15 (and the old
# shapes forced, same run), the NPP peers compiled here, two ncu profiles.
set -u
cd "$(dirname "$0")"; d=$PWD
OUT=${OUT:-/tmp/out20g}; mkdir -p "$OUT/logs"; L=$OUT/logs
exec 3>&1 >"$L/run.log" 2>&1
step() { echo; echo "=== $* ($SECONDS s) ==="; }
# every step ends by DEADLINE s of the script (the call's limit is a little more)
DEADLINE=${DEADLINE:-215}
run() {
  local t=${T:-30} left=$((DEADLINE - SECONDS)) t0=$SECONDS
  [ $left -lt $t ] && t=$left
  if [ $t -lt 3 ]; then echo "[skipped, out of time: $*]"; return; fi
  echo "\$ $*"; timeout "$t" "$@"; echo "[exit $? after $((SECONDS - t0)) s]"
}
timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
export PATH=/usr/local/cuda/bin:$PATH
source "$d/rt/env.sh"
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
B=$d/build/bench/cf-convert-scale-bench
TG=$d/build/tests/test-kernels-gpu
pids=()
for c in 1 2 3 4 5 6 7 8; do
  timeout 90 nvcc -O2 -std=c++17 -DCASE=$c -I"$d" -o /tmp/npp20g-$c "$d/npp_convert_scale_peer.cu" \
      -lnppig -lnppicc -lnppc > "$L/npp-build-$c.log" 2>&1 &
  pids+=($!)
done
step "tests GpuConvert*:GpuScale* (incl. GpuConvertScaleFused*)"
T=75 run "$TG" --gtest_filter='GpuConvert*:GpuScale*' > "$L/tests.log" 2>&1
grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|^\[       OK|Failure|differs|Expected|Which is|exit" "$L/tests.log" | head -60
step "NPP peers (built during the tests)"
# (no pipe after this loop: wait must run in this shell, the compiles' parent)
for i in "${!pids[@]}"; do
  c=$((i + 1))
  wait "${pids[$i]}"
  if [ -x /tmp/npp20g-$c ]; then timeout 15 /tmp/npp20g-$c || echo "| NPP case $c failed (exit $?) | |"
  else echo "| NPP case $c did not build: $(grep -m1 -i error "$L/npp-build-$c.log") |"; fi
done > "$L/npp.txt" 2>&1
cat "$L/npp.txt"
step "bench, default dispatch, --reps 15"
T=45 run "$B" --reps 15 > "$L/bench.txt" 2>&1; cat "$L/bench.txt"
step "memcheck: fast kernels, 4K shapes, compact sweep"
T=50 run compute-sanitizer --tool memcheck --error-exitcode 9 "$TG" \
    --gtest_filter='GpuConvert.FastKernels*:GpuScale.FastKernels*:GpuConvertScale.*' > "$L/memcheck.log" 2>&1
grep -E "^\[  (FAILED|PASSED) |^\[       OK|ERROR SUMMARY|Invalid|misaligned|exit" "$L/memcheck.log" | head -30
step "racecheck: fast kernels"
T=40 run compute-sanitizer --tool racecheck --error-exitcode 9 "$TG" \
    --gtest_filter='GpuConvert.FastKernels*:GpuScale.FastKernels*' > "$L/racecheck.log" 2>&1
grep -E "^\[  (FAILED|PASSED) |^\[       OK|RACECHECK SUMMARY|ERROR SUMMARY|hazard|exit" "$L/racecheck.log" | head -20
step "bench, the previous shapes forced (convert 4 columns 1 row, scale box8), --reps 15"
T=30 run "$B" --reps 15 --convert-shape 4 1 --narrow --only "convert NV12|convert RGB|1080p bilinear|1080p area" > "$L/bench-old-shapes.txt" 2>&1
grep -E "^\| (convert|scale)" "$L/bench-old-shapes.txt"
step "bench, the other convert shapes (8 columns 1 row, 4 columns 2 rows), --reps 15"
T=20 run "$B" --reps 15 --convert-shape 8 1 --only "convert NV12" > "$L/bench-c8r1.txt" 2>&1
T=20 run "$B" --reps 15 --convert-shape 4 2 --only "convert NV12" > "$L/bench-c4r2.txt" 2>&1
grep -hE "^\| convert" "$L/bench-c8r1.txt" "$L/bench-c4r2.txt"
step "memcheck: fused convertscale (two passes)"
T=40 run compute-sanitizer --tool memcheck --error-exitcode 9 "$TG" \
    --gtest_filter='GpuConvertScaleFused*' > "$L/memcheck-fused.log" 2>&1
grep -E "^\[  (FAILED|PASSED) |^\[       OK|ERROR SUMMARY|Invalid|misaligned|exit" "$L/memcheck-fused.log" | head -20
if [ $SECONDS -lt 170 ]; then
  step "ncu"
  secs="--section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats --section SchedulerStats"
  prof() { local tag=$1; shift; T=15 run ncu --clock-control none $secs -k regex:'convert_|scale_planes' --launch-skip 5 --launch-count 1 "$B" --reps 1 "$@" > "$L/ncu-$tag.txt" 2>&1; grep -E "Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Compute \(SM\) Throughput|No Eligible|bytes transmitted|exit" "$L/ncu-$tag.txt" | head -12; }
  prof nv12-rgba --only "convert NV12 -> RGBA (bt709"
  prof rgba-nv12 --only "convert RGBA -> NV12 (bt709"
fi
echo; echo "=== done ($SECONDS s) ==="
exec 1>&3 2>&1
tar -C "$OUT" -czf "$OUT/logs20g-2.tgz" logs && rm -rf "$L"
tar -xzOf "$OUT/logs20g-2.tgz" logs/run.log | grep -vE "^\\$ |^\| device|^\| \(copy" | head -300
