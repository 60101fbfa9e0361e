#!/usr/bin/env bash
# The torch-free part of KVLens under AddressSanitizer + UndefinedBehaviorSanitizer:
# core modules without libtorch (common, tokenizer, chattemplate, checkpoint, tasks,
# store, diagnose), their tests and the fuzz targets' corpus replays; then, with
# KVLENS_FUZZ_SECONDS=N, each fuzz target mutating its corpus for N seconds.
#   packaging/sanitize.sh              build + test (core only: the CI-sized run)
#   packaging/sanitize.sh --all        also the views and the desktop app's tests
#   packaging/sanitize.sh --ci         the input parsers only: every fuzz corpus replay and
#                                      the tests of JSON, UTF-8, tokenizer, chat template,
#                                      config.json and safetensors readers (what .ci/run
#                                      adds after the main tests: a few minutes of build)
#   packaging/sanitize.sh --libfuzzer  clang + libFuzzer (coverage-guided): only the fuzz
#                                      targets, their corpus replays, then N seconds each
# KVLENS_BUILD_DIR overrides the build folder (default: build-sanitize/ in the checkout,
# build-libfuzzer/ with --libfuzzer).
# The libtorch engine is left out (see cmake/KvlensSanitize.cmake: libtorch and
# OpenBLAS are not instrumented). Prints the build and test times.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fuzz_seconds=${KVLENS_FUZZ_SECONDS:-0}
all=0
libfuzzer=0
ci=0
[ "${1:-}" = "--all" ] && all=1
[ "${1:-}" = "--ci" ] && ci=1
[ "${1:-}" = "--libfuzzer" ] && libfuzzer=1
if [ $libfuzzer -eq 1 ]; then
  build=${KVLENS_BUILD_DIR:-$root/build-libfuzzer}
else
  build=${KVLENS_BUILD_DIR:-$root/build-sanitize}
fi

export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
# Reports fail the test that triggers them; leaks are checked at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

start=$(date +%s)
if [ $libfuzzer -eq 1 ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DKVLENS_SANITIZE=address,undefined -DKVLENS_LIBFUZZER=ON
  targets=$(ctest --test-dir "$build" -N -L fuzz | awk '/Test +#/{print $3}' | sed 's/_corpus$//')
  cmake --build "$build" --parallel "$(nproc)" --target $targets
  echo "sanitize: build $(($(date +%s) - start)) s"
  ctest --test-dir "$build" --output-on-failure -L fuzz
  if [ "$fuzz_seconds" -gt 0 ]; then
    # libFuzzer adds the inputs that reach new code to the first folder: a working copy,
    # so the committed seeds stay small; crashes land in fuzz-artifacts/.
    mkdir -p "$build/fuzz-artifacts"
    for name in $targets; do
      mkdir -p "$build/fuzz-corpus/$name"
      "$build/tests/fuzz/$name" -max_total_time="$fuzz_seconds" -print_final_stats=1 \
        -artifact_prefix="$build/fuzz-artifacts/$name-" \
        "$build/fuzz-corpus/$name" "$root/tests/fuzz/corpus/$name" 2>&1 |
        grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|==|SUMMARY|artifact_prefix|Test unit written)' |
        sed "s/^/$name: /"
    done
  fi
  exit 0
fi

# Line tables only (-g1): enough for ASan's and UBSan's file:line reports, and a fraction
# of full debug info's disk (CI machines have run out of disk in this build).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DKVLENS_SANITIZE=address,undefined
# The tests ctest knows in this tree; the views' and app's (label gui, given by
# cmake/KvlensTesting.cmake to every test under tests/views and tests/app/gui) only with
# --all. Those that import the whole shared KVDiagnosis release (label release) are left
# out: minutes under ASan for a code path the fuzz targets and tst_runimport's small
# fixtures already cover here.
if [ $all -eq 1 ]; then
  tests=$(ctest --test-dir "$build" -N | awk '/Test +#/{print $3}')
else
  tests=$(ctest --test-dir "$build" -N -LE 'gui|release' | awk '/Test +#/{print $3}')
fi
# The parsers of untrusted input, whose tests build from the small libraries only.
parsers='fuzz_.*_corpus|tst_(jsonio|jsonloads|utf8text|tokenizerunits|chattemplate|hfconfigreader|safetensors)'
[ $ci -eq 0 ] || tests=$(echo "$tests" | grep -xE "$parsers")
# Tests named *_links_no_* run ldd on a built binary: they are no build targets.
targets=$(echo "$tests" | sed 's/_corpus$//' | grep -v '_links_no_' | sort -u)
cmake --build "$build" --parallel "$(nproc)" --target $targets
built=$(date +%s)
echo "sanitize: build $((built - start)) s"

# The real tokenizers' tests read <build>/npm, which bootstrap.sh installs into build/.
if [ ! -e "$build/npm" ] && [ -d "$root/build/npm" ]; then
  ln -s "$root/build/npm" "$build/npm"
fi
regex="^($(echo "$tests" | paste -sd'|'))\$"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" -R "$regex"
tested=$(date +%s)
echo "sanitize: tests $((tested - built)) s"

if [ "$fuzz_seconds" -gt 0 ]; then
  mkdir -p "$build/fuzz-artifacts"
  cd "$build/fuzz-artifacts" # crashing inputs land here (crash-<target>-<pid>.bin)
  for exe in "$build"/tests/fuzz/fuzz_*; do
    [ -f "$exe" ] && [ -x "$exe" ] || continue # the _autogen folders beside them
    name=$(basename "$exe")
    "$exe" --mutate "$fuzz_seconds" --seed "${KVLENS_FUZZ_SEED:-$RANDOM}" \
      "$root/tests/fuzz/corpus/$name"
  done
  echo "sanitize: fuzzing $(( $(date +%s) - tested )) s"
fi
