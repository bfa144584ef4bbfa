# Shared by the scripts that run another package's own test files against this checkout
# (combine-schedulers-suite.sh, swift-clocks-suite.sh). Sourced, not run: it defines functions and
# the variables they set, and does nothing else.
#
#   suite_parse_arguments SCRIPT "$@"   reads `--only A,B` (or `--only=A,B`) into suite_only and
#                                       prints SCRIPT's header for -h/--help
#   suite_clone URL TAG DIRECTORY       clones URL at TAG into DIRECTORY, unless it is there already
#   suite_select_files DIRECTORY        fills suite_files with DIRECTORY/*.swift, or with only the
#                                       files suite_only names (failing if one does not exist)
#   suite_count LOG                     sets passed, failed and skipped from an XCTest log
#   suite_summary LABEL STATUS NOTE     prints the closing line, "<LABEL> suite: <files> files,
#                                       <tests> tests: <passed> passed, <failed> failed", and
#                                       returns non-zero unless the run passed

suite_only=""
suite_files=()
passed=0
failed=0
skipped=0

suite_parse_arguments() {
    local script=$1 name
    name=$(basename "$script" .sh)
    shift
    while [ $# -gt 0 ]; do
        case $1 in
            --only)
                [ $# -ge 2 ] || { echo "$name: --only needs a comma-separated list of test files" >&2; exit 2; }
                suite_only=$2
                shift 2
                ;;
            --only=*)
                suite_only=${1#--only=}
                shift
                ;;
            -h | --help)
                sed -n '2,/^set -euo/p' "$script" | sed '$d; s/^# \{0,1\}//'
                exit 0
                ;;
            *)
                echo "$name: unknown argument '$1' (see --help)" >&2
                exit 2
                ;;
        esac
    done
}

suite_clone() {
    local url=$1 tag=$2 directory=$3
    if [ "$(git -C "$directory" describe --tags --exact-match 2>/dev/null)" != "$tag" ]; then
        rm -rf "$directory"
        mkdir -p "$(dirname "$directory")"
        git clone --quiet --branch "$tag" -c advice.detachedHead=false "$url" "$directory"
    fi
}

suite_select_files() {
    local tests=$1 name names
    suite_files=()
    if [ -z "$suite_only" ]; then
        suite_files=("$tests"/*.swift)
        return
    fi
    IFS=, read -ra names <<<"$suite_only"
    for name in "${names[@]}"; do
        name=${name%.swift}
        if [ ! -f "$tests/$name.swift" ]; then
            echo "no test file $name.swift in $tests; there are:" >&2
            (cd "$tests" && ls -- *.swift) >&2
            exit 2
        fi
        suite_files+=("$tests/$name.swift")
    done
}

suite_count() {
    passed=$(grep -cE "^Test Case '.*' passed" "$1" || true)
    failed=$(grep -cE "^Test Case '.*' failed" "$1" || true)
    skipped=$(grep -cE "^Test Case '.*' skipped" "$1" || true)
}

suite_summary() {
    local label=$1 status=$2 note=$3 summary
    summary="$label suite: ${#suite_files[@]} files, $((passed + failed + skipped)) tests: $passed passed, $failed failed"
    [ "$skipped" -eq 0 ] || summary+=", $skipped skipped"
    summary+="$note"
    if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
        summary+=" (swift test failed before running the tests: see above)"
    fi
    printf '\n%s\n' "$summary"
    [ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]
}
