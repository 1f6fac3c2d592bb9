#!/bin/bash
# Session 22, issue 17: the int8 tensor-core blur prototype
# (bench/diag/tensor_tune.cu, built into .dev-s22/tensor-tune, see
# bench/diag/README.md), carried as .dev-s22. Output: $OUT/tensor.log.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/tensor.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
timeout 400 ./.dev-s22/tensor-tune; echo "rc $?"
