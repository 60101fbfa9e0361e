#!/usr/bin/env bash
# Fuzzing at scale (issue 32): every fuzz target of tests/fuzz under ASan + UBSan, each
# mutating its corpus for SECONDS, then one line per target with its executions and
# whether it crashed. A crash does not stop the others; the script fails when any target
# crashed. Crashing inputs land in build-sanitize/fuzz-artifacts/ as
# crash-<target>-<pid>.bin: replay with `build-sanitize/tests/fuzz/<target> FILE`, fix,
# and add the file to tests/fuzz/corpus/<target>/.
#   packaging/fuzz.sh SECONDS
# The standalone driver (random mutations of the corpus, no coverage feedback; gcc).
# With clang installed, `KVLENS_FUZZ_SECONDS=N packaging/sanitize.sh --libfuzzer` runs the
# same targets under libFuzzer instead. KVLENS_FUZZ_SEED fixes the mutations (default:
# random); CI fixes it, so that its 20 s per target is the same run every time.
set -euo pipefail

seconds=${1:?usage: packaging/fuzz.sh SECONDS}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KVLENS_BUILD_DIR:-$root/build-sanitize}
seed=${KVLENS_FUZZ_SEED:-$RANDOM}

# Builds the targets (and replays each corpus once) in the sanitizer build.
KVLENS_BUILD_DIR="$build" KVLENS_FUZZ_SECONDS=0 bash "$root/packaging/sanitize.sh" --ci >/dev/null
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

mkdir -p "$build/fuzz-artifacts"
cd "$build/fuzz-artifacts"
crashed=0
printf '%-22s %14s  %s\n' target executions result
for exe in "$build"/tests/fuzz/fuzz_*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue # the _autogen folders beside them
  name=$(basename "$exe")
  log="$build/fuzz-artifacts/$name.log"
  if "$exe" --mutate "$seconds" --seed "$seed" "$root/tests/fuzz/corpus/$name" >"$log" 2>&1; then
    runs=$(sed -n 's/^fuzz: \([0-9]*\) mutated executions.*/\1/p' "$log")
    printf '%-22s %14s  %s\n' "$name" "${runs:-?}" "no crash"
  else
    crashed=1
    printf '%-22s %14s  %s\n' "$name" "-" "CRASH (seed $seed): $(grep -m1 'saved to' "$log" || tail -1 "$log")"
  fi
done
echo "fuzz: $seconds s per target, seed $seed"
exit $crashed
