#!/bin/bash
# Session 20, issue 17: the GPU call on the final tree, bench/diag/s19-final.sh
# on the layout .dev-s20/ (bench/diag/s20-prepare-final.sh), its memcheck
# and racecheck also on the reduced radii (GpuExact.BlurReducedRadius).
# .dev-s20 has no npp-peer (this machine has no libnpp): it is built there.
DEV=.dev-s20 SANITIZE_TOO=GpuExact.BlurReducedRadius exec bash "$(dirname "$0")/s19-final.sh"
