#!/usr/bin/env bash
# Runs one training spec under many seeds side by side, one thread each, and prints each
# seed's latest training accuracy. The dense-recall warm-up leaves its plateau after a
# seed-dependent number of steps (issue 5 notes), so on a many-core machine the
# quickest way through is to race seeds and keep the first that breaks:
#   packaging/train-seeds.sh SPEC TOKENIZER OUTDIR FIRST_SEED COUNT [MAX_STEPS]
# Each seed trains into OUTDIR/seed-N (rerunning resumes every seed). Needs kvlens-cli
# built (KVLENS_BUILD_DIR, default build/). The summary lists seeds by accuracy.
set -euo pipefail

if [ $# -lt 5 ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
spec=$1 tokenizer=$2 out=$3 first=$4 count=$5 max_steps=${6:-0}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=${KVLENS_BUILD_DIR:-$root/build}/app/cli/kvlens-cli
[ -x "$cli" ] || { echo "error: $cli is not built (packaging/bootstrap.sh build)" >&2; exit 1; }

mkdir -p "$out"
pids=()
for ((seed = first; seed < first + count; seed++)); do
  dir=$out/seed-$seed
  mkdir -p "$dir"
  "$cli" train --spec "$spec" --tokenizer "$tokenizer" --out "$dir" --seed "$seed" \
    --threads 1 --max-steps "$max_steps" >>"$dir/log.jsonl" 2>>"$dir/stderr.txt" &
  pids+=($!)
done
# Ctrl-C stops every seed at a checkpoint (the trainer saves on SIGINT/SIGTERM).
trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait' INT TERM
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done

# Latest training line of each seed: seed, step, answer-token accuracy, loss.
for ((seed = first; seed < first + count; seed++)); do
  line=$(grep '"kind":"train"' "$out/seed-$seed/log.jsonl" | tail -n 1 || true)
  acc=$(sed -n 's/.*"answer_token_accuracy":\([0-9.e-]*\).*/\1/p' <<<"$line")
  step=$(sed -n 's/.*"step":\([0-9]*\).*/\1/p' <<<"$line")
  loss=$(sed -n 's/.*"loss":\([0-9.e-]*\).*/\1/p' <<<"$line")
  echo "seed $seed step ${step:-0} accuracy ${acc:-0} loss ${loss:-nan}"
done | sort -k6 -g -r
exit $status
