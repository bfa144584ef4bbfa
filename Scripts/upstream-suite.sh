# shellcheck shell=bash
# Shared by the scripts that run another package's own test files against this checkout
# (combine-schedulers-suite.sh, swift-clocks-suite.sh, grdb-combine-suite.sh). Sourced, not run: it
# defines functions and the variables they set, and does nothing else.
#
#   suite_start SCRIPT URL TAG "$@"     reads SCRIPT's arguments (see suite_parse_arguments), then
#                                       sets the names the script works with: suite_name (SCRIPT's
#                                       name, less .sh), root (this checkout: the working
#                                       directory), identity (its package identity: its folder's
#                                       name), upstream_url (URL), tag (TAG), work
#                                       (.build/$suite_name), upstream ($work/<URL's last part>) and
#                                       package ($work/package)
#   suite_parse_arguments SCRIPT "$@"   reads `--only A,B` (or `--only=A,B`) into suite_only and
#                                       prints SCRIPT's header for -h/--help
#   suite_clone                         clones upstream_url at tag into upstream, unless it is there
#                                       already
#   suite_select_files DIRECTORY        fills suite_files with DIRECTORY/*.swift, or with only the
#                                       files suite_only names (failing if one does not exist)
#   suite_write_manifest NAME TARGET PRODUCTS FEATURES
#                                       writes $package/Package.swift: package NAME, whose one test
#                                       target, TARGET, depends on this checkout's PRODUCTS and on
#                                       swift-concurrency-extras 1.4.3, and is built in the Swift 6
#                                       language mode with the upcoming FEATURES (PRODUCTS and
#                                       FEATURES: space-separated lists)
#   suite_import_rewrite MODULES MODULE prints a `sed -E` expression that turns an import of one of
#                                       MODULES (`A|B`) into an import of MODULE, keeping the import's
#                                       attributes and access level
#   suite_test [ARGUMENTS...]           runs `swift test ARGUMENTS` in package, showing its output and
#                                       keeping it in suite_log; sets status, and passed, failed and
#                                       skipped (as suite_count does)
#   suite_count LOG                     sets passed, failed and skipped from an XCTest log
#   suite_summary LABEL STATUS NOTE     prints the closing line, "<LABEL> suite: <files> files,
#                                       <tests> tests: <passed> passed, <failed> failed", and
#                                       returns non-zero unless the run passed

suite_name=""
suite_only=""
suite_files=()
suite_log=""
status=0
passed=0
failed=0
skipped=0

suite_start() {
    local script=$1
    upstream_url=$2
    tag=$3
    shift 3
    suite_parse_arguments "$script" "$@"
    suite_name=$(basename "$script" .sh)
    root=$PWD
    identity=$(basename "$root")
    work=.build/$suite_name
    upstream=$work/$(basename "$upstream_url")
    package=$work/package
}

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
    if [ "$(git -C "$upstream" describe --tags --exact-match 2>/dev/null)" != "$tag" ]; then
        rm -rf "$upstream"
        mkdir -p "$(dirname "$upstream")"
        git clone --quiet --branch "$tag" -c advice.detachedHead=false "$upstream_url" "$upstream"
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

suite_write_manifest() {
    local name=$1 target=$2 products=$3 features=$4 product feature
    mkdir -p "$package"
    {
        cat <<MANIFEST
// swift-tools-version: 6.0
// Written by Scripts/$suite_name.sh; rewritten on every run.
import PackageDescription

let package = Package(
    name: "$name",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: "$root"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
    ],
    targets: [
        .testTarget(
            name: "$target",
            dependencies: [
MANIFEST
        for product in $products; do
            echo "                .product(name: \"$product\", package: \"$identity\"),"
        done
        cat <<MANIFEST
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ],
            swiftSettings: [
MANIFEST
        for feature in $features; do
            echo "                .enableUpcomingFeature(\"$feature\"),"
        done
        cat <<MANIFEST
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
    } >"$package/Package.swift"
}

suite_import_rewrite() {
    printf 's/^([[:space:]]*(@[A-Za-z]+[[:space:]]+)*(public[[:space:]]+|internal[[:space:]]+|package[[:space:]]+)?import[[:space:]]+)(%s)[[:space:]]*$/\\1%s/' \
        "$1" "$2"
}

suite_test() {
    if [ -z "$suite_log" ]; then
        suite_log=$(mktemp)
        trap 'rm -f "$suite_log"' EXIT
    fi
    status=0
    (cd "$package" && swift test "$@" 2>&1) | tee "$suite_log" || status=$?
    suite_count "$suite_log"
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
