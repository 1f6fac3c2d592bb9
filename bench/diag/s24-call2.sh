#!/bin/bash
# Session 24, issue 17: the second GPU call. As s24-call1.sh (without
# Nsight Compute), on the tree whose 3-blocks-an-SM columns pass makes its
# steps one at a time (no spills at 80 registers), with the harness on the
# previous commit's kernel (tensor-tune-old) and on three variants of this
# one, xz-packed: -u1 (the 2-block columns pass's steps not unrolled
# either), -r1 (the rows pass's steps not unrolled), -c2 (the columns pass
# at 2 blocks an SM at every radius). Harnesses into $OUT/h-*.log, then
# bench/diag/s23-call4.sh (every GPU test but the scheduler's, memcheck
# and racecheck of the tensor-core tests, the sweep).
V="old u1 r1 c2" PROFILE=0 exec bash "$(dirname "$0")/s24-call1.sh"
