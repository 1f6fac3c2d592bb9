#!/bin/bash
# Session 17's GPU call 1 for issue 20 (branch issue-20g), as it ran: copy this
# script, bench/npp_convert_scale_peer.cu, bench/check.cuh, build-h200's
# core/libcudafilters.so*, tests/test-kernels-gpu and bench/cf-convert-scale-bench
# (under build/) and a runtime bundle (../shared/device/bundle.sh rt --deps-of
# those binaries) into /work/main/.dev-20g/, then run with the device tool:
#   bash .dev-20g/run1.sh   (carry .dev-20g)
# Logs: bench/results/2026-12-01-h200-s17-20g-convert-scale.log.
# Issue 20 (session 17, issue-20g), first GPU call: tests, memcheck, bench of
# the new shapes against the old ones, ncu of the target kernels.
set -u
cd "$(dirname "$0")"; d=$PWD
OUT=${OUT:-/tmp/out20g}; mkdir -p "$OUT/logs"; L=$OUT/logs
exec 3>&1 >"$L/run.log" 2>&1
step() { echo; echo "=== $* ($SECONDS s) ==="; }
run() { echo "\$ $*"; local t0=$SECONDS; timeout "${T:-30}" "$@"; echo "[exit $? after $((SECONDS - t0)) s]"; }
timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
export PATH=/usr/local/cuda/bin:$PATH
source "$d/rt/env.sh"
export LD_LIBRARY_PATH=$d/build/core:$LD_LIBRARY_PATH
B=$d/build/bench/cf-convert-scale-bench
step "tests GpuConvert*:GpuScale* (incl. GpuConvertScaleFused*)"
T=60 run "$d/build/tests/test-kernels-gpu" --gtest_filter='GpuConvert*:GpuScale*' > "$L/tests.log" 2>&1
grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[==========\]|^\[       OK|Failure|differs|Expected|Which is|exit" "$L/tests.log" | head -60
step "bench, default dispatch"
T=30 run "$B" --reps 9 > "$L/bench.txt" 2>&1; cat "$L/bench.txt"
step "bench, old shapes: convert 4 columns 1 row, scale narrow"
T=20 run "$B" --reps 9 --convert-shape 4 1 --narrow --only convert > "$L/bench-c4r1.txt" 2>&1; cat "$L/bench-c4r1.txt" | grep -v "^| device\|^| (copy"
T=20 run "$B" --reps 9 --narrow --only area > "$L/bench-narrow.txt" 2>&1; grep "area" "$L/bench-narrow.txt"
T=20 run "$B" --reps 9 --convert-shape 8 1 --only "convert NV12" > "$L/bench-c8r1.txt" 2>&1; grep "convert" "$L/bench-c8r1.txt"
T=20 run "$B" --reps 9 --convert-shape 4 2 --only "convert NV12" > "$L/bench-c4r2.txt" 2>&1; grep "convert" "$L/bench-c4r2.txt"
step "memcheck GpuConvertScale*, fast kernels"
T=60 run compute-sanitizer --tool memcheck --error-exitcode 9 "$d/build/tests/test-kernels-gpu" \
    --gtest_filter='GpuConvertScale*:GpuConvert.FastKernels*:GpuScale.FastKernels*' > "$L/memcheck.log" 2>&1
grep -E "^\[  (FAILED|PASSED) |^\[       OK|ERROR SUMMARY|Invalid|misaligned|exit" "$L/memcheck.log" | head -40
step "ncu"
secs="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats"
prof() { local tag=$1; shift; T=20 run ncu --clock-control none $secs -k regex:'convert_|scale_planes' --launch-skip 5 --launch-count 1 "$B" --reps 1 "$@" > "$L/ncu-$tag.txt" 2>&1; grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Waves Per SM|L1/TEX Hit|L2 Hit|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|exit" "$L/ncu-$tag.txt" | head -16; }
prof nv12-rgba --only "convert NV12 -> RGBA (bt709"
prof nv12-rgba-c4r1 --convert-shape 4 1 --only "convert NV12 -> RGBA (bt709"
prof rgba-nv12 --only "convert RGBA -> NV12 (bt709"
prof rgba-bilinear --only "scale RGBA 4K -> 1080p bilinear"
prof gray-bilinear --only "scale GRAY8 4K -> 1080p bilinear"
echo; echo "=== done ($SECONDS s) ==="
exec 1>&3 2>&1
tar -C "$OUT" -czf "$OUT/logs20g-1.tgz" logs && rm -rf "$L"
tar -xzOf "$OUT/logs20g-1.tgz" logs/run.log | grep -vE "^\\$ " | head -300
