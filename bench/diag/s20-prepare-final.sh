#!/bin/sh
# Session 20, issue 17: fills .dev-s20/ for bench/diag/s20-final.sh, as
# bench/diag/s19-prepare-final.sh does.
DEV=.dev-s20 exec sh "$(dirname "$0")/s19-prepare-final.sh"
