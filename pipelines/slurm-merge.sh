#!/bin/sh
# Sums up the reports of a cudafilters Slurm array (slurm-array.sh) once all
# of its tasks have ended:
#
#   sbatch --dependency=afterany:$jid pipelines/slurm-merge.sh OUT_DIR/reports
#
# Writes REPORTS/summary.txt (also printed to the job's log) and
# REPORTS/summary.json: each file counted once across shards and reruns, the
# failures with their messages, the files of tasks that were killed before
# they ended, frames/s. Exit status: 0 every file done, 1 some failed or
# were not reported, 2 no report could be read. CUDAFILTERS: the program
# (default: cudafilters on PATH).
#
#SBATCH --job-name=cudafilters-merge
#SBATCH --time=00:10:00
#SBATCH --output=cudafilters-merge-%j.log
set -u
reports=${1:?usage: sbatch --dependency=afterany:JOBID slurm-merge.sh REPORTS_DIR}
tool=${CUDAFILTERS:-cudafilters}
"$tool" report merge --json "$reports" > "$reports/summary.json"
"$tool" report merge "$reports" > "$reports/summary.txt"
rc=$?
cat "$reports/summary.txt"
exit $rc
