#!/bin/sh
# examples/app_pipeline without the plugin must fail at once with a message
# naming the missing element, not hang waiting for frames.
#   test_app_pipeline_errors.sh APP_PIPELINE
set -eu
app=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
rc=0
GST_PLUGIN_PATH="$tmp/none" GST_REGISTRY="$tmp/registry.bin" timeout 60 "$app" \
    >"$tmp/out" 2>"$tmp/err" || rc=$?
took=$(($(date +%s) - start))
cat "$tmp/err"
[ "$rc" -eq 1 ] || { echo "FAIL: exit status $rc, expected 1 (124: it hung)"; exit 1; }
grep -q 'no element "cuda' "$tmp/err" ||
    { echo "FAIL: the message does not name the element"; exit 1; }
grep -q "plugin installed" "$tmp/err" || { echo "FAIL: no hint about the plugin"; exit 1; }
[ "$took" -lt 30 ] || { echo "FAIL: took $took s"; exit 1; }
echo "ok   without the plugin: exit 1 in $took s, the missing element named"
