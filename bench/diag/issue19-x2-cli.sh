#!/bin/bash
# Issue 19, call 1 of 2 on the nvidia-h200-x2 machine kind: the command-line
# tool's batch over 8 different 1080p H.264 clips (NVDEC), each linked
# under REPEAT (2) names, 16 files of 900 frames, once on GPU 0 alone and
# once with --devices all, in the same call (then, for reference, GPU 0
# alone with twice the files at a time, as many as the all-GPU batch ran
# on two):
#   - which GPU each file ran on (the per-file JSON's filter_device) and how
#     busy each GPU was (nvidia-smi sampled every 200 ms during each batch);
#   - every output complete (frames_out = frames_in) and bit-identical to
#     the one-GPU batch's;
#   - total frames/s of both batches, and their ratio (target >= 1.8x).
# Carry .dev-19c (sh bench/diag/issue19-prepare.sh). Output:
# $OUT/issue19-cli.log, $OUT/batch-*.json, $OUT/smi-*.csv.
# On a machine of one GPU it runs the same (--devices all is then GPU 0)
# and says so: the ratio is then about 1.
# JOBS= files at a time on each GPU (2); VF= the filters
# (gray,blur=sigma=2,scale=w=960:h=540: the 1080p frames filtered, raw
# output a quarter of their size); REPEAT= names a clip.
set -u
cd "$(dirname "$0")/../.."
D=$PWD/.dev-19c
OUT=${OUT:-/tmp/cf-out}; mkdir -p "$OUT"
exec > "$OUT/issue19-cli.log" 2>&1
T0=$SECONDS
stamp() { echo; echo "=== [t=$((SECONDS - T0)) s] $*"; }
unxz() { [ -f "$1" ] || xz -dk "$1.xz" 2>/dev/null ||
    python3 -c "import lzma, sys; open(sys.argv[1], 'wb').write(lzma.open(sys.argv[1] + '.xz').read())" "$1"; }
unxz $D/build/core/libcudafilters.so.0.1.0
R=/tmp/cf19-rt-$(cksum < $D/rt/lib.tar.xz | cut -d' ' -f1)
[ -d $R/lib ] || { mkdir -p $R && tar -C $R -xJf $D/rt/lib.tar.xz; }
export LD_LIBRARY_PATH=$D/build/core:$R/lib
T=$D/build/tools/cudafilters
VF=${VF:-gray,blur=sigma=2,scale=w=960:h=540} JOBS=${JOBS:-2} REPEAT=${REPEAT:-2}
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
NGPU=$(nvidia-smi -L | grep -c '^GPU')
[ "$NGPU" -ge 2 ] || echo "ONE GPU ($NGPU): --devices all is GPU 0 alone here; the ratio below is not issue 19's"
$T --version
$T devices
# Outputs: one batch at a time (about 11 GB), in memory where it has room.
W=/dev/shm/cf19
[ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')" -gt 16000000 ] 2>/dev/null || W=/tmp/cf19
rm -rf $W; mkdir -p $W
ls -la $D/data/clip*.mp4
mkdir -p $W/in
for f in $D/data/clip*.mp4; do
    for k in $(seq 1 $REPEAT); do ln -s $f $W/in/$(basename $f .mp4)-$k.mp4; done
done
echo "$(ls $W/in | wc -l) input files"

# Runs one batch into $W/$1 (BJOBS= files at a time on each GPU, else
# JOBS) with nvidia-smi sampling beside it.
batch() {
    local name=$1; shift
    nvidia-smi --query-gpu=timestamp,index,utilization.gpu,utilization.decoder,memory.used \
        --format=csv,noheader -lms 200 > $OUT/smi-$name.csv 2>&1 &
    local smi=$!
    local t=$SECONDS
    timeout 300 $T batch $W/in/*.mp4 --out-dir $W/$name --vf "$VF" --codec rawvideo --ext nut \
        --jobs ${BJOBS:-$JOBS} --json --quiet "$@" > $OUT/batch-$name.json
    echo "[batch $name exit $?, $((SECONDS - t)) s wall]"
    kill $smi 2>/dev/null; wait $smi 2>/dev/null
    # The outputs' digests, then the outputs go (11 GB a batch of raw frames).
    (cd $W/$name 2>/dev/null && md5sum *.nut) > $W/$name.md5; rm -rf $W/$name
    python3 - $OUT/batch-$name.json $OUT/smi-$name.csv <<'PY'
import collections, json, sys
d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
files = d["files"]
frames = sum(f["frames_out"] for f in files)
by = collections.Counter(f.get("filter_device") for f in files)
ok = all(f["ok"] and f["frames_out"] == f["frames_in"] and f["hw_decode"] for f in files)
print(f"files {len(files)} failed {d['failed']}; all complete, NVDEC: {ok}; per GPU: {dict(by)}")
print(f"frames {frames} in {d['seconds']:.2f} s: {frames / d['seconds']:.1f} frames/s")
busy = collections.defaultdict(list)
for line in open(sys.argv[2]):
    p = [x.strip().split()[0] if x.strip() else "" for x in line.split(",")]
    if len(p) == 5 and all(x.isdigit() for x in p[1:]):  # not "[N/A]" and the like
        busy[p[1]].append((int(p[2]), int(p[3]), int(p[4])))
for g, v in sorted(busy.items()):
    sm = sorted(x[0] for x in v)
    dec = sorted(x[1] for x in v)
    print(f"GPU {g}: {len(v)} samples, SM busy median {sm[len(sm) // 2]}% max {sm[-1]}%, "
          f"NVDEC median {dec[len(dec) // 2]}% max {dec[-1]}%, memory max {max(x[2] for x in v)} MiB")
print(f"FPS {frames / d['seconds']:.3f}")
PY
}

stamp "warm-up: one clip, GPU 0 (the first CUDA context and NVDEC session)"
timeout 60 $T transcode $D/data/clip0.mp4 $W/warm.nut --vf "$VF" --codec rawvideo --json --quiet | tail -c 400; echo
stamp "batch on GPU 0 alone: --devices 0 --jobs $JOBS"
batch one --devices 0 | tee $W/one.txt
stamp "batch on every GPU: --devices all --jobs $JOBS (each GPU $JOBS files at a time)"
batch all --devices all | tee $W/all.txt
stamp "for reference: GPU 0 alone, --jobs $((2 * JOBS)) (as many files at a time as the batch above on two GPUs)"
BJOBS=$((2 * JOBS)) batch wide --devices 0 | tee $W/wide.txt
stamp "outputs of the two batches, file by file (md5 of each)"
n=$(wc -l < $W/one.md5); same=$(comm -12 <(sort $W/one.md5) <(sort $W/all.md5) | wc -l)
echo "$same of $n outputs identical between the one-GPU and the all-GPU batch ($(wc -l < $W/all.md5) in the second)"
diff <(sort -k2 $W/one.md5) <(sort -k2 $W/all.md5) | head -8
one=$(sed -n 's/^FPS //p' $W/one.txt); all=$(sed -n 's/^FPS //p' $W/all.txt); wide=$(sed -n 's/^FPS //p' $W/wide.txt)
echo "frames/s: GPU 0 alone with --jobs $((2 * JOBS)): $wide"
python3 -c "import sys; print(f'frames/s: GPU 0 alone {float(sys.argv[1]):.1f}, all {sys.argv[3]} GPUs {float(sys.argv[2]):.1f}: {float(sys.argv[2]) / float(sys.argv[1]):.2f}x (target >= 1.8x on two)')" "$one" "$all" "$NGPU"
rm -rf $W
stamp done
