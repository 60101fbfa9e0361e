#!/usr/bin/env bash
# Where a build's time went, from ninja's log (build/.ninja_log): seconds of compile and
# link per target group (core modules, views, app parts, tests per folder) and the 20
# slowest steps. Run it after a build from a clean folder (CI's is one) for the cold
# build's figures; after an incremental build it shows the last time each step ran.
# A benchmark, not a check: it prints figures and exits 0.
#   packaging/tools/build-times.sh [BUILD_DIR]   (default: build/ in the checkout)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-${KVLENS_BUILD_DIR:-$root/build}}
log="$build/.ninja_log"
[ -f "$log" ] || { echo "build-times: no $log (build first)" >&2; exit 1; }

# v5 lines: start_ms end_ms mtime output hash. A step run again logs again: the last
# line of each output counts.
# Outputs named by absolute path (moc, rcc) are counted under the path in the build.
awk -F'\t' -v prefix="$(cd "$build" && pwd)/" '
  NR == 1 || NF < 4 { next }
  {
    out = $4
    if (index(out, prefix) == 1) out = substr(out, length(prefix) + 1)
    start[out] = $1; end[out] = $2
  }
  END {
    wall = 0
    for (out in end) {
      s = (end[out] - start[out]) / 1000.0
      if (end[out] / 1000.0 > wall) wall = end[out] / 1000.0
      total += s
      n = split(out, part, "/")
      group = n == 1 ? "(top level)" : part[1]
      if ((group == "core" || group == "app" || group == "tests") && n > 2) group = group "/" part[2]
      if (group == "tests/core" || group == "tests/app") group = group "/" part[3]
      kind = out ~ /\.gch$/ ? "pch" : out ~ /\.o$/ ? "compile" : out ~ /(\.a|\.so)$/ || out !~ /\./ ? "link" : "other"
      secs[group] += s; steps[group]++
      kindsecs[kind] += s
      printf "%.1f\t%s\n", s, out > "/dev/stderr"
    }
    printf "build-times: %d steps, %.0f s of work (compile %.0f, precompiled headers %.0f, link %.0f, other %.0f); the last build ran %.0f s\n",
      length(end), total, kindsecs["compile"], kindsecs["pch"], kindsecs["link"], kindsecs["other"], wall
    print "seconds  steps  group"
    for (g in secs) printf "%7.0f  %5d  %s\n", secs[g], steps[g], g | "sort -rn"
    close("sort -rn")
  }' "$log" 2> >(sort -rn | head -20 | awk -F'\t' 'BEGIN { print "slowest steps (s):" } { printf "%7s  %s\n", $1, $2 }' >&2)
sleep 0.2 # the process substitution prints after awk ends
