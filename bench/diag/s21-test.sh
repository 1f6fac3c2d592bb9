#!/bin/bash
# Session 21, issue 17: GpuExact.BlurTileMethodEveryRadiusAndFormat after
# a review added 16-bit planes at radius 32 to it, plain, under memcheck
# and under racecheck, in parallel: bench/diag/s20-test.sh on the layout
# .dev-s21f/ (bench/diag/s21-prepare-final.sh). Output: $OUT/test.log.
DEV=.dev-s21f F=GpuExact.BlurTileMethodEveryRadiusAndFormat exec bash "$(dirname "$0")/s20-test.sh"
