#!/usr/bin/env bash
# Renders the app icon (resources/icons/kvlens.svg) to the PNG sizes of the hicolor
# icon theme, resources/icons/hicolor/NxN/io.github.kvlens.KVLens.png. The PNGs are
# committed, so building the package needs no SVG renderer; rerun this after editing
# the SVG (needs rsvg-convert: apt-get install librsvg2-bin).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for n in 16 22 24 32 48 64 128 256 512; do
    mkdir -p "$root/resources/icons/hicolor/${n}x${n}"
    rsvg-convert -w "$n" -h "$n" "$root/resources/icons/kvlens.svg" \
        -o "$root/resources/icons/hicolor/${n}x${n}/io.github.kvlens.KVLens.png"
done
