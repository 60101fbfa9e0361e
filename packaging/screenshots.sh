#!/usr/bin/env bash
# The README's screenshots, from a real run of the bundled model under Xvfb:
# makes the run if it is missing (kvlens-cli run: bundled model, retrieval +
# instructions suites, 20 samples each at 1,500-2,048 tokens, snapkv/tova/knorm at
# ratios 0.5 and 0.75), builds kvlens_guishots, grabs every page at 1280 x 800, and
# copies the chosen pages to docs/screenshots/ (shrunk with pngquant/optipng when
# installed).
#   packaging/screenshots.sh [RUN.kvl]      default run: /tmp/kvlens-screenshots.kvl
# KVLENS_BUILD_DIR: the build folder (default: build/ in the checkout).
# KVLENS_SHOTS_DIR: a folder of pages kvlens_guishots grabbed before (skips the grab).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KVLENS_BUILD_DIR:-$root/build}
run=${1:-/tmp/kvlens-screenshots.kvl}
shots=$(mktemp -d /tmp/kvlens-shots.XXXXXX)

command -v xvfb-run >/dev/null || { echo "screenshots.sh: xvfb-run is missing (apt-get install xvfb)" >&2; exit 1; }
jobs=-j"${KVLENS_JOBS:-2}"
cmake --build "$build" --target kvlens_guishots -- "$jobs"

if [ ! -f "$run" ]; then
    cmake --build "$build" --target kvlens-cli -- "$jobs"
    "$build/app/cli/kvlens-cli" run --model bundled --suite retrieval,instructions -n 20 \
        --tokens 1500:2048 --press snapkv,tova,knorm --ratios 0.5,0.75 --out "$run"
fi

if [ -n "${KVLENS_SHOTS_DIR:-}" ]; then
    shots=$KVLENS_SHOTS_DIR # pages grabbed before: only choose and shrink them
else
    xvfb-run -a "$build/tests/app/gui/kvlens_guishots" "$shots" "$run"
fi

# page grabbed -> name in docs/screenshots
declare -A chosen=(
    [page-accuracy]=accuracy
    [page-taxonomy]=taxonomy
    [page-attention]=question-attention
    [page-eviction]=eviction-map
    [inspector]=sample-inspector
)
mkdir -p "$root/docs/screenshots"
for page in "${!chosen[@]}"; do
    dest="$root/docs/screenshots/${chosen[$page]}.png"
    if command -v pngquant >/dev/null; then
        pngquant --force --quality 70-95 --output "$dest" "$shots/$page.png"
    else
        cp "$shots/$page.png" "$dest"
    fi
    if command -v optipng >/dev/null; then optipng -quiet -o2 "$dest"; fi
done
du -ch "$root"/docs/screenshots/*.png | tail -1
echo "all pages: $shots"
