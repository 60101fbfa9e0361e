#!/usr/bin/env bash
# Builds the Debian package, installs it with apt-get, uses it from outside the source
# tree as a user would, and removes it again:
#   package: bootstrap.sh package (build + cpack), lintian (no errors)
#   install: apt-get install ./kvlens_<version>_amd64.deb
#   use, from a fresh folder under /tmp:
#     kvlens-cli demo (bundled model from /usr/share/kvlens), kvlens-cli report on its run,
#     kvlens --export-figures RUN --out DIR (offscreen), desktop-file-validate,
#     appstreamcli validate, the .kvl MIME type (by name and by SQLite application id),
#     man pages, bash completion
#   remove: apt-get remove, and nothing of the package left behind
#
#   sudo packaging/test-install.sh           (KVLENS_BUILD_DIR: default build/)
#   KVLENS_SKIP_BUILD=1 ...                  (use the .deb already in the build folder)
# Prints the time of each step. Exit 0: every check passed. Needs root (apt-get).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KVLENS_BUILD_DIR:-$root/build}
t0=$(date +%s)
step_start=$t0
say() { echo "test-install [$(($(date +%s) - t0))s]: $*"; }
fail() { echo "test-install: FAILED: $*" >&2; exit 1; }
timed() { say "$1 took $(($(date +%s) - step_start))s"; step_start=$(date +%s); }
[ "$(id -u)" -eq 0 ] || fail "run as root (apt-get install / remove)"
export DEBIAN_FRONTEND=noninteractive

# ---- package -------------------------------------------------------------------
if [ -z "${KVLENS_SKIP_BUILD:-}" ]; then
    KVLENS_BUILD_DIR=$build bash "$root/packaging/bootstrap.sh" package
fi
debs=("$build"/kvlens_*_amd64.deb)
[ -f "${debs[0]}" ] || fail "no kvlens_*_amd64.deb in $build"
deb=${debs[0]}
timed "package ($(basename "$deb"), $(du -h "$deb" | cut -f1))"
dpkg-deb -f "$deb" Depends
for p in lintian desktop-file-utils appstream; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        apt-get install -y -qq "$p" >/dev/null
done
# Errors fail the test; warnings are printed for the record.
lintian --tag-display-limit 0 "$deb" | tee "$build/lintian.txt" || true
if grep -q '^E:' "$build/lintian.txt"; then fail "lintian errors (above)"; fi
timed "lintian ($(grep -c '^W:' "$build/lintian.txt" || true) warnings)"

# ---- install -------------------------------------------------------------------
apt-get install -y -qq "$deb" >/dev/null
[ -x /usr/bin/kvlens ] && [ -x /usr/bin/kvlens-cli ] || fail "binaries not in /usr/bin"
timed "apt-get install"

# ---- use it, away from the source tree -------------------------------------------
work=$(mktemp -d /tmp/kvlens-install.XXXXXX)
cd "$work"
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 0700 "$work/xdg"
# The bundled model must come from the package, not from a source tree on this machine.
kvlens-cli info --model bundled >info.json
grep -q '/usr/share/kvlens/models/kvlens-tiny' info.json ||
    fail "kvlens-cli info --model bundled does not use /usr/share/kvlens: $(head -c 300 info.json)"
kvlens-cli demo --out demo.kvl -n 2 --tokens 128:192 >demo.txt
[ -s demo.kvl ] || fail "kvlens-cli demo wrote no run file"
kvlens-cli report demo.kvl >report.txt
grep -qi accuracy report.txt || fail "the report has no accuracy: $(head -5 report.txt)"
timed "kvlens-cli demo + report ($(sqlite3 -readonly demo.kvl 'SELECT count(*) FROM result' 2>/dev/null || echo '?') rows)"

kvlens --export-figures demo.kvl --out figures --format png,csv >export.txt
n_png=$(ls figures/*.png 2>/dev/null | wc -l)
[ "$n_png" -gt 0 ] || fail "kvlens --export-figures wrote no PNG: $(cat export.txt)"
timed "kvlens --export-figures ($n_png PNG)"

desktop-file-validate /usr/share/applications/io.github.kvlens.KVLens.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.kvlens.KVLens.metainfo.xml
grep -q 'application/x-kvlens-run' /usr/share/mime/mime.cache ||
    fail "the MIME database does not know application/x-kvlens-run"
if command -v gio >/dev/null; then
    cp demo.kvl no-extension
    for f in demo.kvl no-extension; do
        type=$(gio info -a standard::content-type "$f" | sed -n 's/.*content-type: //p')
        [ "$type" = application/x-kvlens-run ] || fail "$f is $type, not application/x-kvlens-run"
    done
fi
for s in 16 32 48 64 128 256; do
    [ -f /usr/share/icons/hicolor/${s}x$s/apps/io.github.kvlens.KVLens.png ] || fail "no ${s}px icon"
done
man -w kvlens >/dev/null && man -w kvlens-cli >/dev/null || fail "no man pages"
completions=$(bash -c 'source /usr/share/bash-completion/completions/kvlens-cli
    COMP_WORDS=(kvlens-cli re); COMP_CWORD=1; _kvlens_cli; echo "${COMPREPLY[*]}"
    COMP_WORDS=(kvlens-cli run --sh); COMP_CWORD=2; _kvlens_cli; echo "${COMPREPLY[*]}"
    COMP_WORDS=(kvlens-cli tasks im); COMP_CWORD=2; _kvlens_cli; echo "${COMPREPLY[*]}"')
[ "$(sed -n 1p <<<"$completions")" = report ] || fail "completion of 're': $completions"
[ "$(sed -n 2p <<<"$completions")" = --shard ] || fail "completion of 'run --sh': $completions"
[ "$(sed -n 3p <<<"$completions")" = import ] || fail "completion of 'tasks im': $completions"
timed "desktop, AppStream, MIME, icons, man, completion checks"

# ---- remove --------------------------------------------------------------------
cd /
apt-get remove -y -qq kvlens >/dev/null
left=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#' | while read -r f; do
    [ -f "$f" ] && echo "$f"; done || true)
[ -z "$left" ] || fail "files left after apt-get remove: $left"
[ ! -e /usr/bin/kvlens-cli ] || fail "/usr/bin/kvlens-cli still there after remove"
grep -q 'application/x-kvlens-run' /usr/share/mime/mime.cache &&
    fail "the MIME type is still registered after remove"
rm -rf "$work"
timed "apt-get remove"
say "PASSED in $(($(date +%s) - t0))s"
