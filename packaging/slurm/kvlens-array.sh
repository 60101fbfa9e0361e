#!/bin/bash
# KVLens sweep as a Slurm job array: each array task runs one shard of the spec's
# samples into its own run file, and a dependent job merges the shards.
#
#   sbatch --array=0-15 packaging/slurm/kvlens-array.sh spec.json [OUTDIR]
#
# Shard K of N runs the samples whose index is K-1 modulo N (kvlens-cli run --shard), so
# the shards are disjoint and cover the sweep. A task that is preempted or times out
# resumes where it stopped when resubmitted (the run file keeps every finished sample),
# so `--requeue` is safe. When the last task of the array has run, the merge job
# (submitted by task 0 with an afterok dependency on the whole array) writes
# OUTDIR/all.kvl; open it in the KVLens app or `kvlens-cli report OUTDIR/all.kvl`.
#
# Environment: KVLENS_CLI (default: kvlens-cli on PATH), KVLENS_THREADS (default: the
# CPUs Slurm gave the task).
#SBATCH --job-name=kvlens-sweep
#SBATCH --cpus-per-task=8
#SBATCH --mem=32G
#SBATCH --time=12:00:00
#SBATCH --requeue
#SBATCH --output=kvlens-%A_%a.log

set -euo pipefail

SPEC=${1:?usage: sbatch --array=0-N packaging/slurm/kvlens-array.sh SPEC.json [OUTDIR]}
OUTDIR=${2:-kvlens-$(basename "${SPEC%.json}")}
CLI=${KVLENS_CLI:-kvlens-cli}
THREADS=${KVLENS_THREADS:-${SLURM_CPUS_PER_TASK:-1}}
TASK=${SLURM_ARRAY_TASK_ID:?run this script as a job array (sbatch --array=0-N)}
COUNT=${SLURM_ARRAY_TASK_COUNT:?run this script as a job array (sbatch --array=0-N)}
# Arrays may start at any index; shards are numbered from the array's minimum.
MIN=${SLURM_ARRAY_TASK_MIN:-0}
SHARD=$((TASK - MIN + 1))

mkdir -p "$OUTDIR"

# Task 0 queues the merge once, to run after every task of the array succeeded.
if [ "$SHARD" -eq 1 ] && [ -z "${KVLENS_NO_MERGE:-}" ]; then
    sbatch --dependency="afterok:${SLURM_ARRAY_JOB_ID}" --job-name=kvlens-merge \
        --cpus-per-task=1 --output="$OUTDIR/merge-%j.log" \
        --wrap="rm -f '$OUTDIR/all.kvl' && '$CLI' merge '$OUTDIR'/shard-*.kvl --out '$OUTDIR/all.kvl' && '$CLI' report '$OUTDIR/all.kvl' > '$OUTDIR/report.txt'"
fi

# One JSON progress line per finished sample goes to the task's log.
exec "$CLI" run --spec "$SPEC" --shard "$SHARD/$COUNT" --threads "$THREADS" \
    --out "$OUTDIR/shard-$SHARD.kvl"
