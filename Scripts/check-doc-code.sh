#!/usr/bin/env bash
# Type-checks every piece of Swift code in the DocC catalog (Docs/Streams.docc) against the
# package's own modules (Streams, StreamsTesting and StreamsNetworking), so that a renamed or
# changed API breaks this check instead of the reader's copy of an example. Any error or warning fails it.
#
# Usage: Scripts/check-doc-code.sh            (needs only the Swift toolchain; builds the modules first)
#        DOC_CODE_JOBS=4 Scripts/check-doc-code.sh   (how many compilers run at once; default 2)
#
# What is checked, and how:
# - Every fenced ```swift block in the catalog's .md and .tutorial files is extracted into a file of
#   its own and type-checked alone (unless it continues the block before it, see below), as the
#   main file of a program (so top-level statements are fine). A block with `import` lines of its
#   own is checked exactly as written, and must import what it uses; `@testable import Streams`
#   works, since a debug build enables testing, and makes the module's internal names visible. A
#   block without any `import` is checked as a fragment of a file that begins with
#   `import Foundation`, `import Streams`, `import StreamsTesting` and `import Testing`.
# - Tutorials: each `@Code(name: ..., file: ...)` of a .tutorial file replaces the file called
#   `name` in that tutorial's project, step after step. At every step, the project as it stands
#   (the latest file of each name) is type-checked together as one module, so a step's code must
#   compile with the other files the reader has at that point. `@testable import` lines in them are
#   ignored, since the checked project is a single module. A file whose `name` is `main.swift`
#   holds the project's top-level code, as in an executable target.
# - Every other .swift file in the catalog (under Resources or anywhere else) is type-checked alone,
#   as the main file of a program.
# Errors point at the line in the catalog's own file (the .md, .tutorial or .swift file).
#
# Opting out: a fenced block that is deliberately not code that compiles (a signature excerpt, a
# sketch with placeholders) is skipped when the nearest non-blank line above its opening fence is
#     <!-- doc-code: skip -->
# Continuing: an example built up over several blocks, with prose between them, is checked as one
# program when each block after the first has this as the nearest non-blank line above its fence:
#     <!-- doc-code: continues -->
# The block is then appended to the one before it in the same file (the imports of the first block
# apply to all). DocC does not render HTML comments, so neither marker shows in the documentation.
#
# Scratch files go to .build/doc-code (rewritten on every run). After a build of the package the
# check takes a few seconds; on a fresh clone, building the two modules first adds about 15.
set -euo pipefail
cd "$(dirname "$0")/.."
catalog=Docs/Streams.docc
work=.build/doc-code
jobs=${DOC_CODE_JOBS:-2}
started=$SECONDS

# 1. The modules the code is checked against.
if ! build_output=$(swift build --target StreamsTesting 2>&1 && swift build --target StreamsNetworking 2>&1); then
    printf '%s\n' "$build_output" >&2
    echo "check-doc-code: building Streams, StreamsTesting and StreamsNetworking failed" >&2
    exit 1
fi
bin=$(swift build --show-bin-path)
modules=$bin/Modules
[ -d "$modules" ] || modules=$bin  # Older SwiftPM puts module files next to the products.

swiftc_flags=(-typecheck -swift-version 6 -warnings-as-errors -I "$modules")
# Streams imports a C target of its own (CStreamsPlatform, behind its lock); a client compiled by
# hand, as here, needs its module map, which SwiftPM writes into the target's build folder.
for module_map in "$bin"/CStreamsPlatform.build/module.modulemap; do
    [ -f "$module_map" ] && swiftc_flags+=(-Xcc "-fmodule-map-file=$module_map")
done
if [ "$(uname)" = Darwin ]; then
    # Match the package's deployment target, and find Swift Testing in the platform's frameworks.
    # (Written for macOS but so far run only on Linux.)
    platform=$(xcrun --show-sdk-platform-path)
    swiftc_flags+=(-sdk "$(xcrun --show-sdk-path)" -target "$(uname -m)-apple-macosx15.0" -F "$platform/Developer/Library/Frameworks"
        -I "$platform/Developer/usr/lib")
fi

rm -rf "$work" && mkdir -p "$work/units"
units=0
# new_unit LABEL MODE: makes a unit directory (checked by one compiler run) and sets `dir` to it.
new_unit() {
    units=$((units + 1))
    dir=$(printf '%s/units/%04d' "$work" "$units")
    mkdir -p "$dir"
    printf '%s\n' "$1" >"$dir/label"
    printf '%s\n' "$2" >"$dir/mode"
}

# copy_source FILE DEST: copies a catalog file so that diagnostics name the original file and line.
copy_source() {
    {
        printf '#sourceLocation(file: "%s", line: 1)\n' "$1"
        sed -E 's/^[[:space:]]*@testable[[:space:]]+import[[:space:]].*$//' "$1"
        printf '\n#sourceLocation()\n'
    } >"$2"
}

# 2. Fenced swift blocks in articles and tutorials.
blocks=0
while IFS= read -r -d '' doc; do
    # Prints, for each block to check: a line "@@ <first line number> <has imports: 1|0>
    # <continues the block before: 1|0>", then the block's lines with the fence's indentation
    # removed. Blocks end at a line "@@end".
    awk '
        function indent_of(s) { match(s, /^[ \t]*/); return RLENGTH }
        !inblock && /^[ \t]*```[ \t]*[Ss]wift[ \t]*$/ {
            inblock = 1; skip = (last == "<!-- doc-code: skip -->"); start = NR + 1
            continues = (last == "<!-- doc-code: continues -->")
            cut = indent_of($0); n = 0; imports = 0; next
        }
        inblock && /^[ \t]*```[ \t]*$/ {
            inblock = 0
            if (!skip) {
                print "@@ " start " " imports " " continues
                for (i = 1; i <= n; i++) print lines[i]
                print "@@end"
            }
            last = ""; next
        }
        inblock {
            line = $0
            if (indent_of(line) >= cut) line = substr(line, cut + 1); else sub(/^[ \t]*/, "", line)
            lines[++n] = line
            if (line ~ /^(@testable[ \t]+)?import[ \t]/) imports = 1
            next
        }
        { t = $0; gsub(/^[ \t]+|[ \t]+$/, "", t); if (t != "") last = t }
    ' "$doc" >"$work/blocks.txt"
    file=""
    previous=""  # the file of this document's last checked block, which a continuing block extends
    while IFS= read -r line; do
        if [[ $line =~ ^@@\ ([0-9]+)\ ([01])\ ([01])$ ]]; then
            blocks=$((blocks + 1))
            if [ "${BASH_REMATCH[3]}" = 1 ]; then
                if [ -z "$previous" ]; then
                    echo "$doc:$((BASH_REMATCH[1] - 1)): error: a block marked 'continues' follows no checked block" >&2
                    exit 1
                fi
                file=$previous
            else
                new_unit "$doc:$((BASH_REMATCH[1] - 1)) (swift block)" main
                file=$dir/main.swift
                if [ "${BASH_REMATCH[2]}" = 0 ]; then
                    printf 'import Foundation\nimport Streams\nimport StreamsTesting\nimport Testing\n' >"$file"
                fi
            fi
            printf '#sourceLocation(file: "%s", line: %s)\n' "$doc" "${BASH_REMATCH[1]}" >>"$file"
        elif [ "$line" = "@@end" ]; then
            printf '\n#sourceLocation()\n' >>"$file"
            previous=$file
            file=""
        else
            printf '%s\n' "$line" >>"$file"
        fi
    done <"$work/blocks.txt"
done < <(find "$catalog" \( -name '*.md' -o -name '*.tutorial' \) -print0 | sort -z)

# 3. Tutorials: the project as it stands at each step.
declare -A in_tutorial=()
steps=0
while IFS= read -r -d '' tutorial; do
    declare -A project=()
    declare -A seen=()
    # Each @Code directive as "<line> <name> <file>", quotes removed.
    while read -r lineno name resource; do
        if [ "$lineno" = bad ]; then
            echo "$tutorial:$name: error: expected @Code(name: ..., file: ...) on one line" >&2
            exit 1
        fi
        path=$(find "$catalog" -type f -name "$resource" | head -n 1)
        if [ -z "$path" ]; then
            echo "$tutorial:$lineno: error: no file named $resource in $catalog" >&2
            exit 1
        fi
        in_tutorial[$path]=1
        project[$name]=$path
        key=$(printf '%s\n' "${project[@]}" | sort | tr '\n' ' ')
        [ -n "${seen[$key]:-}" ] && continue
        seen[$key]=1
        steps=$((steps + 1))
        new_unit "$tutorial:$lineno (the tutorial's files at this step)" library
        for logical in "${!project[@]}"; do
            copy_source "${project[$logical]}" "$dir/$logical"
        done
    done < <(awk '
        /@Code[ \t]*\(/ {
            s = $0; name = ""; file = ""
            if (match(s, /name:[ \t]*"[^"]*"/)) { name = substr(s, RSTART, RLENGTH); sub(/^name:[ \t]*"/, "", name); sub(/"$/, "", name) }
            else if (match(s, /name:[ \t]*[^ \t,)]+/)) { name = substr(s, RSTART, RLENGTH); sub(/^name:[ \t]*/, "", name) }
            if (match(s, /[^A-Za-z]file:[ \t]*"[^"]*"/)) { file = substr(s, RSTART + 1, RLENGTH - 1); sub(/^file:[ \t]*"/, "", file); sub(/"$/, "", file) }
            else if (match(s, /[^A-Za-z]file:[ \t]*[^ \t,)]+/)) { file = substr(s, RSTART + 1, RLENGTH - 1); sub(/^file:[ \t]*/, "", file) }
            if (name == "" || file == "") { print "bad " NR; next }
            print NR, name, file
        }
    ' "$tutorial")
    unset project seen
done < <(find "$catalog" -name '*.tutorial' -print0 | sort -z)

# 4. Every other Swift file in the catalog, alone.
files=0
while IFS= read -r -d '' swift_file; do
    files=$((files + 1))
    [ -n "${in_tutorial[$swift_file]:-}" ] && continue
    new_unit "$swift_file (whole file)" main
    copy_source "$swift_file" "$dir/main.swift"
done < <(find "$catalog" -name '*.swift' -print0 | sort -z)

# 5. One compiler run per unit, a few at a time. (Arrays cannot be exported to the workers: the
# flags go through a file, one a line.)
printf '%s\n' "${swiftc_flags[@]}" >"$work/flags"
check_unit() {
    local dir=$1 flags=() extra=()
    mapfile -t flags <"$dir/../../flags"
    # A tutorial's project is a library, unless it has a main.swift: then that file is its top-level code.
    if [ "$(cat "$dir/mode")" = library ]; then
        extra=(-module-name DocCode)
        [ -e "$dir/main.swift" ] || extra+=(-parse-as-library)
    fi
    if swiftc "${flags[@]}" "${extra[@]}" "$dir"/*.swift >"$dir/log" 2>&1; then
        touch "$dir/passed"
    fi
}
export -f check_unit
find "$work/units" -mindepth 1 -maxdepth 1 -type d -print0 | sort -z |
    xargs -0 -n 1 -P "$jobs" bash -c 'check_unit "$1"' _

failed=0
shopt -s nullglob
for dir in "$work"/units/*/; do
    if [ ! -e "$dir/passed" ]; then
        failed=$((failed + 1))
        printf '\n%s: error: does not type-check\n' "$(cat "$dir/label")" >&2
        cat "$dir/log" >&2
    fi
done
skipped=$(find "$catalog" \( -name '*.md' -o -name '*.tutorial' \) -exec cat {} + | grep -c '^[[:space:]]*<!-- doc-code: skip -->' || true)
summary="$blocks swift blocks ($skipped skipped), $files Swift files, $steps tutorial steps checked in $units compiler runs"
if [ "$failed" -gt 0 ]; then
    printf '\ncheck-doc-code: %d of %d failed (%s)\n' "$failed" "$units" "$summary" >&2
    exit 1
fi
printf 'check-doc-code: all code in %s type-checks (%s, %ds)\n' "$catalog" "$summary" $((SECONDS - started))
