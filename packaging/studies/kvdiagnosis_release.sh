#!/usr/bin/env bash
# The KVDiagnosis release in KVLens (docs/kvdiagnosis-release.md): imports a checkout or
# copy of the release (ChosenQC/KVDiagnosis), writes its report whole and per dataset, the
# app's figures, and, given the paper's generated tables, the comparison with them.
#
#   packaging/studies/kvdiagnosis_release.sh RELEASE [OUTDIR] [PAPER_TABLES]
#
# RELEASE       the release's root (the folder holding data/processed); the shared copy is
#               ../shared/data/kvdiagnosis-release
# OUTDIR        default kvdiagnosis-study: kvdiagnosis.kvl, report.json, <dataset>.json,
#               figures/, comparison.md
# PAPER_TABLES  a folder with the paper's paper_artifacts/generated/*.csv (a checkout of the
#               release has them); without it no comparison is written
# KVLENS_CLI / KVLENS_GUI: the binaries (default: build/app/cli/kvlens-cli, build/app/gui/kvlens)
set -euo pipefail

release=${1:?usage: kvdiagnosis_release.sh RELEASE [OUTDIR] [PAPER_TABLES]}
out=${2:-kvdiagnosis-study}
paper=${3:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cli=${KVLENS_CLI:-$root/build/app/cli/kvlens-cli}
gui=${KVLENS_GUI:-$root/build/app/gui/kvlens}

mkdir -p "$out"
rm -f "$out/kvdiagnosis.kvl"
"$cli" import-run --format kvdiagnosis "$release" --out "$out/kvdiagnosis.kvl" | tee "$out/import.json"
"$cli" report "$out/kvdiagnosis.kvl" --format json > "$out/report.json"
for d in ruler8k ruler16k qasper hotpotqa; do
  "$cli" report "$out/kvdiagnosis.kvl" --format json --suite "$d" > "$out/$d.json"
done
QT_QPA_PLATFORM=offscreen "$gui" --export-figures "$out/kvdiagnosis.kvl" --out "$out/figures" \
  --format png,pdf,svg,csv
if [ -n "$paper" ]; then
  /usr/bin/python3 "$root/packaging/studies/kvdiagnosis_compare.py" "$out" "$paper" > "$out/comparison.md"
  echo "comparison: $out/comparison.md"
fi
