#!/bin/bash
# Issue 17: everything its "Shown before resolving" asks for, in one GPU
# call on the tree as it is (written in session 29, which had no GPU host;
# session 25's bench/diag/s25-final.sh did the same on its tree). Layout
# .dev-s26/ (sh bench/diag/issue19-prepare.sh once, then
# sh bench/diag/s26-prepare.sh after every build of build-gpu): carry
# [".dev-s26"], run `OUT=$OUT bash bench/diag/s29-final.sh`. In order:
#   1. NPP's peer built there (bench/npp_peer.cu), beside step 2;
#   2. every kernel GPU test but the scheduler's (4 shards), memcheck and
#      racecheck of the forced methods' small frames, the FP64 test and
#      the tensor-core tests of 8- and 16-bit frames beside them; the
#      scheduler's GPU tests alone; every element test;
#   3. the sweep with the dispatch table's picks (cf-bench --only blur);
#   4. NPP GaussAdvanced with the same taps;
#   5. cupyx gaussian_filter at every sigma of the sweep and its unequal
#      pairs (bench/peers.py);
#   6. (added in session 30) GRAY8 and RGBA sigma 8 with every method
#      forced (cf-bench --methods): each method's time beside its own
#      floor in the same run ($OUT/methods.txt).
# 400 s on an H100 (session 30) plus the machine's start.
# Output: $OUT/call.log, $OUT/sweep.txt, $OUT/npp.txt, $OUT/cupyx.txt,
# $OUT/methods.txt, $OUT/logs.tgz (the tests' and sanitizers' whole
# logs). The table beside the peers: python3 bench/diag/s25-peer-table.py sweep.txt cupyx.txt npp.txt
set -u
cd "$(dirname "$0")/../.."
d=$PWD/.dev-s26
PLAIN_PATH=$PATH PLAIN_LD=${LD_LIBRARY_PATH:-} # the host's Python and CuPy, for peers.py
source bench/diag/lib-gpu-tests.sh
gpu_begin "$d"
gpu_npp_build
gpu_tests "$BLUR_SANITIZED:GpuExact.BlurTensorMethodEveryFormatRandomRadii:GpuExact.BlurTensorMethod16BitRandomRadii"
stamp "the sweep: cf-bench --only blur --reps 10"
timeout -k 5 150 $d/build/bench/cf-bench --only blur --reps 10 > $OUT/sweep.txt 2>&1
echo "rc $?"; grep -v "^| blur" $OUT/sweep.txt | head -6; grep "^| blur" $OUT/sweep.txt | cut -d'|' -f2,3,8
gpu_peers
stamp "sigma 8, every method forced: cf-bench --methods"
for c in "blur sigma 8 GRAY8" "blur sigma 8 RGBA"; do
    timeout -k 5 60 $d/build/bench/cf-bench --only "$c" --methods --reps 10
done > $OUT/methods.txt 2>&1
echo "rc $?"; grep "^| blur" $OUT/methods.txt | cut -d'|' -f2,3,8,10
gpu_end
