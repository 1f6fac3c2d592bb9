#!/bin/bash
# CPU seconds by thread of one gst-launch run (sampled every 20 ms; the last sample before exit).
gst-launch-1.0 "$@" > /tmp/gl.out 2>&1 &
pid=$!
declare -A cpu name
while kill -0 $pid 2>/dev/null; do
  for t in /proc/$pid/task/*; do
    [ -r $t/schedstat ] || continue
    read -r ns _ < $t/schedstat 2>/dev/null || continue
    id=${t##*/}; cpu[$id]=$ns; read -r name[$id] < $t/comm 2>/dev/null
  done
  sleep 0.02
done
wait $pid
grep "Execution ended" /tmp/gl.out
for id in "${!cpu[@]}"; do echo "${cpu[$id]} ${name[$id]}"; done | awk "{ printf \"%8.3f s  %s\\n\", \$1 / 1e9, \$2 }" | sort -rn | head -8
