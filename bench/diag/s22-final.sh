#!/bin/bash
# Session 22, issue 17: the GPU call on the tree with the tensor-core
# method (kernels/blur_tensor.cu). Layout .dev-s22f/ (bench/diag/s22-
# prepare-final.sh). First the tensor-core harness (layout probe, naive
# check on 1-4 channels, ceiling, times against sep and reg) into
# $OUT/tensor.log, then bench/diag/s19-final.sh on .dev-s22f (the tests,
# memcheck and racecheck of the forced methods' small frames, which now
# hold tensor-core cases, the sweep, every method forced, NPP, cupyx).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/tensor.log"
timeout 200 ./.dev-s22f/tensor-tune >> "$OUT/tensor.log" 2>&1; echo "rc $?" >> "$OUT/tensor.log"
DEV=.dev-s22f exec bash "$(dirname "$0")/s19-final.sh"
