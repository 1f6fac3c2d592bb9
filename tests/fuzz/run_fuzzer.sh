#!/bin/sh
# Runs a libFuzzer target for a bounded time on a copy of its seed corpus
# (the committed seeds stay as they are) and reports what it found.
#   run_fuzzer.sh FUZZER SEEDS REGRESSIONS SECONDS [DICT]
# A crash, leak, timeout or out-of-memory fails the test; its input is kept
# as BUILD/fuzz-findings/<target>-* to be made a regression input.
set -eu
fuzzer=$1 seeds=$2 regressions=$3 seconds=$4 dict=${5:-}
name=$(basename "$fuzzer")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
findings=$(realpath "$(dirname "$fuzzer")/../..")/fuzz-findings
mkdir -p "$work/corpus" "$findings"
cp "$seeds"/* "$work/corpus/"
[ -d "$regressions" ] && cp "$regressions"/* "$work/corpus/"
# A fixed seed (CF_FUZZ_SEED to change it) keeps CI runs alike.
set -- -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -seed="${CF_FUZZ_SEED:-15}" -artifact_prefix="$findings/$name-"
[ -n "$dict" ] && set -- "$@" -dict="$dict"
rc=0
"$fuzzer" "$@" "$work/corpus" >"$work/log" 2>&1 || rc=$?
grep -E "^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb|INFO: seed corpus)" \
    "$work/log" || true
echo "$name: $(ls "$work/corpus" | wc -l) inputs in the corpus after $seconds s"
if [ "$rc" -ne 0 ]; then
    grep -E "ERROR|SUMMARY|==[0-9]+==|runtime error|Test unit written" "$work/log" | head -30
    echo "FAIL $name: exit status $rc; inputs in $findings"
    exit 1
fi
