#!/bin/bash
# Session 21, issue 17: the GPU call on the final tree, bench/diag/s19-
# final.sh on .dev-s21f (bench/diag/s21-prepare-final.sh), with the tile
# method's every-radius test under memcheck and racecheck too (its staging
# changed: cp.async, folding tables, radius 48's vertical taps in chunks).
DEV=.dev-s21f SANITIZE_TOO=GpuExact.BlurTileMethodEveryRadiusAndFormat:GpuExact.BlurReducedRadius \
    exec bash "$(dirname "$0")/s19-final.sh"
