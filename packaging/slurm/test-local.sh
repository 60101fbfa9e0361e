#!/usr/bin/env bash
# Proves packaging/slurm/kvlens-array.sh on a real Slurm: starts a single-node cluster on
# this machine (munge, slurmctld, slurmd; no systemd), runs a 4-shard sweep of the
# bundled model (packaging/slurm/test-spec.json) as a job array with its merge job,
# requeues one shard mid-run, and checks
#   - the merged run equals a single-process run of the same spec: the same result,
#     mask and intervention rows, and the same report;
#   - the requeued shard resumed (a second attempt, and no sample run twice);
#   - a merge with a shard missing names that shard;
#   - a spec whose model path does not exist fails its tasks with that path in their
#     logs, and the merge job is cancelled rather than left waiting.
#
#   sudo packaging/slurm/test-local.sh [WORKDIR]     (default /tmp/kvlens-slurm)
#
# KVLENS_CLI: the kvlens-cli to test (default: build/app/cli/kvlens-cli, else the one
# on PATH). Needs root (it installs slurm-wlm and munge if missing and runs the
# daemons); everything else lives in WORKDIR, with its own slurm.conf (SLURM_CONF), so
# a Slurm the machine already has is not touched. Exit 0: every check passed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
W=${1:-/tmp/kvlens-slurm}
SPEC=$root/packaging/slurm/test-spec.json
SHARDS=4
REQUEUE_TASK=2
if [ -z "${KVLENS_CLI:-}" ]; then
    if [ -x "$root/build/app/cli/kvlens-cli" ]; then KVLENS_CLI=$root/build/app/cli/kvlens-cli
    else KVLENS_CLI=$(command -v kvlens-cli || echo kvlens-cli); fi
fi
export KVLENS_CLI
t0=$(date +%s)
say() { echo "test-local [$(($(date +%s) - t0))s]: $*"; }
fail() { echo "test-local: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run as root (it starts munged, slurmctld and slurmd)"

missing=()
for p in slurm-wlm munge sqlite3; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# ---- the cluster -------------------------------------------------------------
rm -rf "$W"
mkdir -p "$W/state" "$W/spool"
host=$(hostname -s)
# This machine as slurmd sees it (CPUs, sockets, cores), a little memory kept back.
node=$(slurmd -C | head -1)
mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
node=$(sed "s/RealMemory=[0-9]*/RealMemory=$((mem * 9 / 10))/" <<<"$node")
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node")
cat >"$W/slurm.conf" <<EOF
ClusterName=kvlens-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MinJobAge=3600
$node State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$W/slurm.conf

pids=()
started_munge=""
cleanup() {
    local p
    scancel --user=root >/dev/null 2>&1 || true
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    # (munged --stop: by its socket, which exists once munged answers, unlike a pid file
    # read right after it forked.)
    [ -z "$started_munge" ] || /usr/sbin/munged --stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

if ! munge -n </dev/null >/dev/null 2>&1; then
    install -d -o munge -g munge -m 0755 /run/munge
    if [ ! -f /etc/munge/munge.key ]; then
        mungekey --create --keyfile=/etc/munge/munge.key
        chown munge:munge /etc/munge/munge.key
        chmod 0400 /etc/munge/munge.key
    fi
    runuser -u munge -- /usr/sbin/munged
    started_munge=1
fi
munge -n </dev/null | unmunge >/dev/null || fail "munge does not work"
slurmctld -D -c -f "$W/slurm.conf" >"$W/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$W/slurm.conf" >"$W/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
[ "$state" = idle ] || fail "node $host did not come up (state '$state'; see $W/slurm*.log)"
say "slurm up: $node"

# Waits until no job of the cluster is queued or running (at most $1 seconds).
wait_idle() {
    local limit=$1 start
    start=$(date +%s)
    while [ -n "$(squeue -h -o %i)" ]; do
        [ $(($(date +%s) - start)) -lt "$limit" ] || { squeue; fail "jobs still queued after ${limit}s"; }
        sleep 2
    done
}
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }

# Rows of a run file in a form two files can be compared in: every result, mask and
# intervention row keyed by sample and configuration, values quoted exactly.
rows() {
    sqlite3 -readonly "$1" "
      SELECT 'result', s.sample_key, c.config_key, quote(r.answer), r.correct, quote(r.score),
             r.transition, quote(r.ERR_slot), quote(r.ECov_slot), quote(r.DRR), quote(r.delta_NLL),
             quote(r.GPR), quote(r.KL), quote(r.TopK), quote(r.gold_rank_shift), quote(r.EAR),
             r.coverage_type, r.signature
        FROM result r JOIN sample s ON s.id = r.sample_id JOIN config c ON c.id = r.config_id
      UNION ALL
      SELECT 'mask', s.sample_key, c.config_key, m.layers, m.kv_heads, m.context_len, hex(m.bits),
             '', '', '', '', '', '', '', '', '', '', ''
        FROM mask m JOIN sample s ON s.id = m.sample_id JOIN config c ON c.id = m.config_id
      UNION ALL
      SELECT 'intervention', s.sample_key, c.config_key, i.kind, quote(i.beta), quote(i.answer),
             i.repaired, '', '', '', '', '', '', '', '', '', '', ''
        FROM intervention i JOIN sample s ON s.id = i.sample_id JOIN config c ON c.id = i.config_id
      ORDER BY 1, 2, 3, 4;"
}

# ---- the reference: one process ---------------------------------------------
say "single-process run of $SPEC ($KVLENS_CLI, 1 thread)"
ts=$(date +%s)
(cd "$W" && "$KVLENS_CLI" run --spec "$SPEC" --threads 1 --quiet --out single.kvl >single.json)
single_s=$(($(date +%s) - ts))
"$KVLENS_CLI" report "$W/single.kvl" >"$W/single-report.txt"
samples=$(sqlite3 -readonly "$W/single.kvl" "SELECT count(*) FROM sample")
say "single run: $samples samples in ${single_s}s"

# ---- the array, a requeue, the merge -----------------------------------------
say "sbatch --array=0-$((SHARDS - 1)) kvlens-array.sh (1 CPU per task, $cpus CPUs)"
ts=$(date +%s)
jid=$(cd "$W" && sbatch --parsable --array=0-$((SHARDS - 1)) --cpus-per-task=1 --mem=2G \
    "$root/packaging/slurm/kvlens-array.sh" "$SPEC" "$W/out")
jid=${jid%%;*}
log=$W/kvlens-${jid}_$REQUEUE_TASK.log
# Requeue task REQUEUE_TASK once it has finished its first sample.
for _ in $(seq 3000); do
    grep -q '"sample"' "$log" 2>/dev/null && break
    sleep 0.2
done
grep -q '"sample"' "$log" || fail "task $REQUEUE_TASK wrote no progress line (see $log)"
done_before=$(grep -c '"sample"' "$log")
scontrol requeue "${jid}_$REQUEUE_TASK"
# Slurm holds a requeued job back for ~2 minutes (its EligibleTime); let it go at once.
# (By its own job id: an update of ARRAY_TASK reaches the array's running tasks too.)
for _ in $(seq 50); do
    rid=$(squeue -h -t PD -j "${jid}_$REQUEUE_TASK" -o %A 2>/dev/null || true)
    [ -n "$rid" ] && scontrol update jobid="$rid" StartTime=now 2>/dev/null && break
    sleep 0.2
done
say "requeued task $REQUEUE_TASK after $done_before sample(s)"
wait_idle 1800
array_s=$(($(date +%s) - ts))
say "array and merge done in ${array_s}s"

# ---- checks ------------------------------------------------------------------
for t in $(seq 0 $((SHARDS - 1))); do
    [ "$(job_state "${jid}_$t")" = COMPLETED ] ||
        fail "array task $t: $(job_state "${jid}_$t") (see $W/kvlens-${jid}_$t.log)"
done
merge_log=$(ls "$W"/out/merge-*.log 2>/dev/null | head -1)
[ -n "$merge_log" ] || fail "no merge job log in $W/out"
[ -f "$W/out/all.kvl" ] || fail "the merge wrote no all.kvl (see $merge_log)"
rows "$W/single.kvl" >"$W/single.rows"
rows "$W/out/all.kvl" >"$W/merged.rows"
[ -s "$W/single.rows" ] || fail "the single run has no rows"
diff -u "$W/single.rows" "$W/merged.rows" >"$W/rows.diff" ||
    fail "merged rows differ from the single run's ($W/rows.diff)"
# The reports' first lines name their files (single.kvl, all.kvl): compared without.
diff -u <(tail -n +2 "$W/single-report.txt") <(tail -n +2 "$W/out/report.txt") >"$W/report.diff" ||
    fail "merged report differs from the single run's ($W/report.diff)"
say "merged run = single run: $(wc -l <"$W/single.rows") rows, report identical"

grep -q "attempt 2" "$log" || fail "task $REQUEUE_TASK did not run a second attempt ($log)"
[ "$done_before" -lt "$(sqlite3 -readonly "$W/out/shard-$((REQUEUE_TASK + 1)).kvl" "SELECT count(*) FROM sample")" ] ||
    fail "task $REQUEUE_TASK had finished its shard before the requeue: nothing to resume (a bigger spec?)"
dups=$(grep -o '"sample": *"[^"]*"' "$log" | sort | uniq -d)
[ -z "$dups" ] || fail "the requeued shard ran samples twice: $dups ($log)"
resumed=$(grep -o '"resumed": *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
[ "${resumed:-0}" -ge 1 ] || fail "the second attempt of task $REQUEUE_TASK resumed no sample ($log)"
shard_samples=$(sqlite3 -readonly "$W/out/shard-$((REQUEUE_TASK + 1)).kvl" "SELECT count(*) FROM sample")
after=$(($(grep -c '"sample"' "$log") - done_before))
say "requeued shard resumed: $done_before sample(s) before the requeue, $after after ($resumed resumed), $shard_samples in its file, none twice"

# A merge with a shard missing names it.
mv "$W/out/shard-2.kvl" "$W/shard-2.kvl.aside"
if bash "$W/out/merge.sh" >"$W/missing.out" 2>&1; then fail "merge.sh succeeded without shard-2.kvl"; fi
grep -q "missing shard-2.kvl" "$W/missing.out" || fail "merge.sh did not name shard-2.kvl: $(cat "$W/missing.out")"
mv "$W/shard-2.kvl.aside" "$W/out/shard-2.kvl"
say "missing shard: $(head -1 "$W/missing.out")"

# A spec whose model does not exist on the node fails its tasks, naming the path.
bad_model=/nonexistent/kvlens-model-$$
sed "s#\"model\": \"bundled\"#\"model\": \"$bad_model\"#" "$SPEC" >"$W/bad-spec.json"
grep -q "$bad_model" "$W/bad-spec.json" || fail "could not write the bad spec"
bad=$(cd "$W" && sbatch --parsable --array=0-1 --cpus-per-task=1 --mem=2G \
    "$root/packaging/slurm/kvlens-array.sh" "$W/bad-spec.json" "$W/bad")
bad=${bad%%;*}
wait_idle 300
for t in 0 1; do
    [ "$(job_state "${bad}_$t")" = FAILED ] || fail "bad spec: task $t is $(job_state "${bad}_$t")"
    grep -q "$bad_model" "$W/kvlens-${bad}_$t.log" ||
        fail "bad spec: the log of task $t does not name $bad_model"
done
[ ! -f "$W/bad/all.kvl" ] || fail "bad spec: a merge ran"
bad_merge=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$W/kvlens-${bad}_0.log" | head -1)
[ "$(job_state "$bad_merge")" = CANCELLED ] ||
    fail "bad spec: the merge job ${bad_merge:-?} is $(job_state "$bad_merge"), not CANCELLED"
say "bad model path: tasks FAILED, merge job CANCELLED, log says: $(grep "$bad_model" "$W/kvlens-${bad}_0.log" | tail -1)"

say "PASSED: single run ${single_s}s; ${SHARDS}-shard array + requeue + merge ${array_s}s; total $(($(date +%s) - t0))s"
