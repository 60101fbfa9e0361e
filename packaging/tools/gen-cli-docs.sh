#!/usr/bin/env bash
# Generates, from the built binaries' own --help, what the package ships about them:
#   OUTDIR/kvlens-cli.bash   bash completion of kvlens-cli (commands, tasks actions, options)
#   OUTDIR/kvlens-cli.1.gz   man page of kvlens-cli with every command's help  (help2man)
#   OUTDIR/kvlens.1.gz       man page of the desktop app                       (help2man)
# The man pages are skipped, with a message, when help2man is not installed.
# Called at build time by cmake/KvlensPackaging.cmake:
#   gen-cli-docs.sh KVLENS_CLI KVLENS OUTDIR VERSION
# Reading the options from --help keeps completion and man pages in step with the code.
set -euo pipefail

cli=$(readlink -f "$1")
gui=$(readlink -f "$2")
out=$3
version=$4
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Both binaries run under their plain names so that their usage lines say
# "kvlens-cli ..." rather than a build path; the GUI needs no display for --help.
mkdir -p "$work/bin"
ln -s "$cli" "$work/bin/kvlens-cli"
ln -s "$gui" "$work/bin/kvlens"
export PATH="$work/bin:$PATH" QT_QPA_PLATFORM=offscreen
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 0700 "$work/xdg"

kvlens-cli --help >"$work/top.txt"
# Command names: the indented first words under "commands:".
mapfile -t commands < <(sed -n '/^commands:/,$ s/^  \([a-z][a-z0-9-]*\) .*/\1/p' "$work/top.txt")
[ ${#commands[@]} -gt 0 ] || { echo "gen-cli-docs: no commands in kvlens-cli --help" >&2; exit 1; }
# tasks has actions of its own: "kvlens-cli tasks <generate|list|...>".
tasks_actions=$({ kvlens-cli tasks --help 2>&1 || true; } |
    sed -n 's/^[Uu]sage: [^ ]*kvlens-cli tasks <\([a-z|-]*\)>.*/\1/p' | tr '|' ' ')
[ -n "$tasks_actions" ] || { echo "gen-cli-docs: no actions in kvlens-cli tasks --help" >&2; exit 1; }

# help text of one command (or "tasks ACTION"), with the usage line naming it; each
# asked once (kvlens-cli takes a second or two to start).
# (`tasks --help` alone exits non-zero after its usage line.)
command_help() {
    local cache="$work/help-${*// /_}.txt"
    [ -f "$cache" ] ||
        { kvlens-cli "$@" --help 2>&1 || true; } | sed "1s/^Usage: kvlens-cli /Usage: kvlens-cli $* /" >"$cache"
    cat "$cache"
}

# Options of a help text: "NAME" per option, "NAME=" when it takes a value.
options_of() {
    sed -n 's/^  \(-[A-Za-z], \)\{0,1\}\(--\{0,1\}[A-Za-z][A-Za-z0-9-]*\)\( <[^>]*>\)\{0,1\}.*/\2\3/p' |
        { grep -v -e '^--help-all' -e '^--help$' -e '^-h$' || true; } |
        sed 's/ <\(.*\)>$/=\1/'
}

# ---- bash completion -----------------------------------------------------------
{
    echo "# bash completion for kvlens-cli $version (generated from its --help by"
    echo "# packaging/tools/gen-cli-docs.sh; do not edit)."
    echo "declare -gA _kvlens_cli_opts=("
    for c in "${commands[@]}" $(for a in $tasks_actions; do echo "tasks_$a"; done); do
        opts=$(command_help ${c/_/ } | options_of | tr '\n' ' ')
        printf '  [%s]=%q\n' "$c" "${opts% }"
    done
    echo ")"
    printf '_kvlens_cli_commands=%q\n' "${commands[*]}"
    printf '_kvlens_cli_tasks_actions=%q\n' "$tasks_actions"
    cat <<'EOF'
_kvlens_cli() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd=${COMP_WORDS[1]:-} key
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$_kvlens_cli_commands --help --version" -- "$cur"))
        return
    fi
    key=$cmd
    if [ "$cmd" = tasks ]; then
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "$_kvlens_cli_tasks_actions" -- "$cur"))
            return
        fi
        key=tasks_${COMP_WORDS[2]}
    fi
    local opts=${_kvlens_cli_opts[$key]:-} o value=""
    # The value of the option before the cursor: what its placeholder asks for.
    for o in $opts; do
        [ "${o%%=*}" = "$prev" ] && [ "$o" != "${o%%=*}" ] && value=${o#*=}
    done
    if [ -n "$value" ]; then
        case "$prev:$value" in
            *:DIR) COMPREPLY=($(compgen -d -- "$cur"))
                   [ "$prev" = --model ] && COMPREPLY+=($(compgen -W bundled -- "$cur")) ;;
            --format:FORMAT) COMPREPLY=($(compgen -W "text csv json" -- "$cur")) ;;
            *file*|*out*|--spec:*|--dataset:*|--sample:*|--messages:*|--jsonl:*|--source:*|\
            --predictions:*|--train:*|--corpus:*|--chat-template:*|--tokenizer*|*:F|*:F.*|*:FILE)
                COMPREPLY=($(compgen -f -- "$cur")) ;;
            *) COMPREPLY=() ;;
        esac
        return
    fi
    if [[ "$cur" == -* ]]; then
        local names=()
        for o in $opts; do names+=("${o%%=*}"); done
        COMPREPLY=($(compgen -W "${names[*]} --help" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _kvlens_cli kvlens-cli
EOF
} >"$out/kvlens-cli.bash"

# ---- man pages -----------------------------------------------------------------
if ! command -v help2man >/dev/null; then
    echo "gen-cli-docs: help2man is not installed: man pages skipped (apt-get install help2man)"
    exit 0
fi

# roff-safe preformatted text: backslashes escaped, no line read as a request.
roff_block() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

{
    echo "[COMMANDS]"
    echo "Each command has its own options; \\fBkvlens-cli\\fR \\fIcommand\\fR \\fB--help\\fR prints them."
    for c in "${commands[@]}"; do
        echo ".SS $c"
        echo ".nf"
        command_help "$c" | roff_block
        echo ".fi"
        if [ "$c" = tasks ]; then
            for a in $tasks_actions; do
                echo ".SS tasks $a"
                echo ".nf"
                command_help tasks "$a" | roff_block
                echo ".fi"
            done
        fi
    done
    cat <<'EOF'
[FILES]
.TP
.I /usr/share/kvlens/models/kvlens-tiny
the bundled model (\fB--model bundled\fR)
[ENVIRONMENT]
.TP
.B KVLENS_BUNDLED_MODEL
a model directory to use for \fB--model bundled\fR instead of the shipped one
.TP
.B OPENBLAS_CORETYPE
OpenBLAS kernel family; set automatically when OpenBLAS does not recognise the CPU
[SEE ALSO]
.BR kvlens (1)
EOF
} >"$work/cli.h2m"

{
    cat <<'EOF'
[DESCRIPTION]
.B kvlens
draws KVLens run files (.kvl): accuracy per compressor and ratio, failure taxonomy,
question attention, eviction maps and the samples behind them.  Runs are made with
.BR kvlens-cli (1)
or from File > New run.
[SEE ALSO]
.BR kvlens-cli (1)
EOF
} >"$work/gui.h2m"

help2man --no-info --version-string="$version" --include="$work/cli.h2m" \
    --name="run and report KV-cache compression sweeps (KVLens engine)" \
    --output="$work/kvlens-cli.1" kvlens-cli
help2man --no-info --version-string="$version" --include="$work/gui.h2m" \
    --name="visual analysis of KV-cache compression" --output="$work/kvlens.1" kvlens
# Reproducible: no name or time stamp in the gzip header (what lintian asks for).
gzip -9n -c "$work/kvlens-cli.1" >"$out/kvlens-cli.1.gz"
gzip -9n -c "$work/kvlens.1" >"$out/kvlens.1.gz"
