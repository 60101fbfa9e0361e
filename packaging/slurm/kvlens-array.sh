#!/bin/bash
# KVLens sweep as a Slurm job array: each array task runs one shard of the spec's
# samples into its own run file, and a dependent job merges the shards.
#
#   sbatch --array=0-15 packaging/slurm/kvlens-array.sh spec.json [OUTDIR]
#
# Shard K of N runs the samples whose index is K-1 modulo N (kvlens-cli run --shard), so
# the shards are disjoint and cover the sweep. The array must be contiguous (0-15, 1-8;
# a %limit is fine, a :step is not). A task that is preempted, times out or is requeued
# (scontrol requeue) resumes where it stopped (the run file keeps every finished sample),
# so `--requeue` is safe; its log keeps every attempt (--open-mode=append).
# Task 0, on its first attempt, writes OUTDIR/merge.sh and queues it to run after every
# task of the array succeeded (afterok; if one fails, the merge job is cancelled instead
# of waiting forever). merge.sh checks that all N shards exist, naming any that is
# missing, writes OUTDIR/all.kvl and OUTDIR/report.txt; rerun it by hand
# (bash OUTDIR/merge.sh) after resubmitting a failed task. Open OUTDIR/all.kvl in the
# KVLens app, or `kvlens-cli report OUTDIR/all.kvl`.
#
# Environment: KVLENS_CLI (default: kvlens-cli on PATH), KVLENS_THREADS (default: the
# CPUs Slurm gave the task), KVLENS_NO_MERGE (set: queue no merge job).
#SBATCH --job-name=kvlens-sweep
#SBATCH --cpus-per-task=8
#SBATCH --mem=32G
#SBATCH --time=12:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
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
MAX=${SLURM_ARRAY_TASK_MAX:-$((MIN + COUNT - 1))}
if [ $((MAX - MIN + 1)) -ne "$COUNT" ]; then
    echo "kvlens-array: error: the array ${MIN}-${MAX} has gaps or a step ($COUNT tasks);" \
         "submit a contiguous one (--array=0-$((COUNT - 1)))" >&2
    exit 2
fi
SHARD=$((TASK - MIN + 1))
echo "kvlens-array: shard $SHARD/$COUNT of $SPEC on $(hostname), attempt $((${SLURM_RESTART_COUNT:-0} + 1))," \
     "$(date -u +%FT%TZ)"

[ -f "$SPEC" ] || { echo "kvlens-array: error: $SPEC: no such spec file" >&2; exit 2; }
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
# The CLI by absolute path, so that the merge job runs the same one.
case "$CLI" in */*) CLI=$(cd "$(dirname "$CLI")" && pwd)/$(basename "$CLI") ;; esac

if [ "$SHARD" -eq 1 ] && [ -z "${KVLENS_NO_MERGE:-}" ] && [ "${SLURM_RESTART_COUNT:-0}" -eq 0 ]; then
    cat >"$OUTDIR/merge.sh" <<EOF
#!/bin/bash
# Merges the $COUNT shards of job $SLURM_ARRAY_JOB_ID ($SPEC) into all.kvl and its
# report (written by kvlens-array.sh; safe to rerun).
set -euo pipefail
cd '$OUTDIR'
missing=()
for k in \$(seq 1 $COUNT); do
    [ -f shard-\$k.kvl ] || missing+=("shard-\$k.kvl (array task \$((k - 1 + $MIN)), log kvlens-${SLURM_ARRAY_JOB_ID}_\$((k - 1 + $MIN)).log)")
done
if [ \${#missing[@]} -gt 0 ]; then
    for m in "\${missing[@]}"; do echo "kvlens merge: error: $OUTDIR: missing \$m" >&2; done
    echo "kvlens merge: error: \${#missing[@]} of $COUNT shards missing; resubmit them, then bash $OUTDIR/merge.sh" >&2
    exit 1
fi
rm -f all.kvl
'$CLI' merge \$(for k in \$(seq 1 $COUNT); do echo shard-\$k.kvl; done) --out all.kvl
'$CLI' report all.kvl > report.txt
echo "kvlens merge: wrote $OUTDIR/all.kvl and $OUTDIR/report.txt"
EOF
    chmod +x "$OUTDIR/merge.sh"
    sbatch --dependency="afterok:${SLURM_ARRAY_JOB_ID}" --kill-on-invalid-dep=yes \
        --job-name=kvlens-merge --cpus-per-task=1 --mem=2G --time=1:00:00 \
        --output="$OUTDIR/merge-%j.log" "$OUTDIR/merge.sh"
fi

# One JSON progress line per finished sample goes to the task's log.
exec "$CLI" run --spec "$SPEC" --shard "$SHARD/$COUNT" --threads "$THREADS" \
    --out "$OUTDIR/shard-$SHARD.kvl"
