#!/usr/bin/env bash
# ctest packaging_desktop_files: the desktop integration files the package ships are valid,
# without building or installing the package:
#   the .desktop entry (desktop-file-validate), the AppStream metainfo as configured
#   (appstreamcli validate), and the .kvl MIME type: its magic carries the application id
#   the run store writes (core/store/runschema.h), and shared-mime-info recognises a run
#   file by that magic alone and by its .kvl name.
#   check-desktop-files.sh SOURCE_DIR CONFIGURED_METAINFO
# Exit 77 (ctest: skipped) when a checking tool is missing.
set -euo pipefail
src=$1
metainfo=$2
id=io.github.kvlens.KVLens
for tool in desktop-file-validate appstreamcli update-mime-database gio python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

desktop-file-validate "$src/resources/desktop/$id.desktop"
appstreamcli validate --no-net "$metainfo"

store_id=$(sed -n 's/.*kApplicationId = \(0x[0-9A-Fa-f]*\);.*/\1/p' "$src/core/store/runschema.h")
[ -n "$store_id" ] || { echo "FAIL: no kApplicationId in core/store/runschema.h"; exit 1; }
grep -qi "type=\"big32\" value=\"$store_id\" offset=\"68\"" "$src/resources/desktop/$id.mime.xml" ||
    { echo "FAIL: the MIME magic does not match the store's application id $store_id"; exit 1; }

mkdir -p "$work/share/mime/packages"
cp "$src/resources/desktop/$id.mime.xml" "$work/share/mime/packages/$id.xml"
update-mime-database "$work/share/mime" >/dev/null
python3 - "$work" "$store_id" <<'EOF'
import sqlite3, sys
work, app_id = sys.argv[1], int(sys.argv[2], 16)
for name, pragma in (("run-no-extension", app_id), ("other-sqlite", 0), ("run.kvl", app_id)):
    db = sqlite3.connect(f"{work}/{name}")
    db.execute(f"PRAGMA application_id = {pragma}")
    db.execute("CREATE TABLE t(a)")
    db.commit()
    db.close()
EOF
type_of() {
    XDG_DATA_DIRS="$work/share:/usr/share" XDG_DATA_HOME="$work/none" \
        gio info -a standard::content-type "$1" | sed -n 's/.*content-type: //p'
}
fail=0
for pair in run-no-extension:application/x-kvlens-run run.kvl:application/x-kvlens-run \
            other-sqlite:application/vnd.sqlite3; do
    file=${pair%%:*} want=${pair#*:}
    got=$(type_of "$work/$file")
    echo "$file: $got"
    [ "$got" = "$want" ] || { echo "FAIL: $file is $got, expected $want"; fail=1; }
done
exit $fail
