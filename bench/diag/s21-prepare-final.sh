#!/bin/sh
# Session 21, issue 17: fills .dev-s21f/ for bench/diag/s21-final.sh, as
# bench/diag/s19-prepare-final.sh does.
DEV=.dev-s21f exec sh "$(dirname "$0")/s19-prepare-final.sh"
