#!/bin/sh
# cudafilters batch as a Slurm job array: one array task per shard of the
# list, one GPU each, resumable, a report per shard merged at the end.
#
#   jid=$(sbatch --parsable --array=0-7 pipelines/slurm-array.sh LIST OUT_DIR [FILTERS])
#   sbatch --dependency=afterany:$jid pipelines/slurm-merge.sh OUT_DIR/reports
#
# LIST holds the input files, one per line, as every node sees them (a shared
# file system); the outputs go to OUT_DIR/<input name>; FILTERS is a filter
# string (default "gray"). Each task runs
#   cudafilters batch --shard auto --skip-existing --devices all ...
# so task k of an N-task array takes the k-th of N shares of LIST (the names
# sorted by their bytes, the i-th to task i mod N: every file exactly once),
# on the GPU that --gres gave it (on a node without one: the CPU). Outputs
# only ever appear complete, so to finish a batch after a node failed, a task
# was cancelled or timed out, resubmit the same two commands with the same
# --array: the tasks skip every finished output and do only what is missing.
# (Resubmitting only --array=3 would make task 3 the only shard: it would do
# everything that is missing by itself.)
#
# Each task appends its JSON lines to OUT_DIR/reports/shard-<task>.jsonl
# (CF_REPORTS: another folder); slurm-merge.sh sums them up. The task's exit
# status is the number of files that failed (2: a usage error, nothing ran).
#
# Environment: CUDAFILTERS, the program (default: cudafilters on PATH);
# CF_JOBS, files at a time on the task's GPU (default 1). Adjust the lines
# below (GPUs, CPUs, time limit) to your cluster; sbatch options on the
# command line override them.
#
#SBATCH --job-name=cudafilters
#SBATCH --array=0-3
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --output=cudafilters-%A_%a.log
set -eu
usage="usage: sbatch --array=0-N slurm-array.sh LIST OUT_DIR [FILTERS]"
list=${1:?$usage}
out=${2:?$usage}
filters=${3:-gray}
reports=${CF_REPORTS:-$out/reports}

# exec: a cancelled task's SIGTERM reaches cudafilters itself, which stops
# its files cleanly (no partial output) and writes its report's last line.
exec "${CUDAFILTERS:-cudafilters}" batch --from "$list" --out-dir "$out" --vf "$filters" \
    --shard auto --skip-existing --devices all --jobs "${CF_JOBS:-1}" \
    --report "$reports/shard-${SLURM_ARRAY_TASK_ID:-none}.jsonl" --quiet
