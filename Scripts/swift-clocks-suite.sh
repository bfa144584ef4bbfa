#!/usr/bin/env bash
# Runs the test files of swift-clocks 1.1.1 (Point-Free's clocks for Swift concurrency) against
# StreamsTesting, unchanged but for their imports.
#
# Usage: Scripts/swift-clocks-suite.sh                  every test file
#        Scripts/swift-clocks-suite.sh --only A,B       only Tests/ClocksTests/A.swift and B.swift
#                                                       (the files in Tests/ClocksTests/Internal,
#                                                       helpers the tests share, are always copied)
#
# Needs only the Swift toolchain, git and network access to github.com. It
# 1. clones https://github.com/pointfreeco/swift-clocks at tag 1.1.1 into
#    .build/swift-clocks-suite/swift-clocks (kept between runs; .build is git-ignored, and nothing
#    of swift-clocks is committed to this repository);
# 2. writes a package in .build/swift-clocks-suite/package with one test target, ClocksTests, that
#    depends on this checkout's StreamsTesting (by path) and on swift-concurrency-extras 1.4.3 (the
#    tests use ConcurrencyExtras), built with the Swift 6 language mode and the upcoming features
#    swift-clocks builds its tests with;
# 3. copies Tests/ClocksTests (its Internal helpers included) into it, rewriting only the import
#    lines: `Clocks` becomes `StreamsTesting`. Tests that swift-clocks compiles only on Apple
#    platforms (`#if DEBUG && canImport(Darwin)`: they use XCTest's issue matching) stay compiled
#    out here, as they are when swift-clocks runs its own suite on Linux;
# 4. runs `swift test` there, showing its output, and ends with one line:
#        swift-clocks 1.1.1 suite: <files> files, <tests> tests: <passed> passed, <failed> failed
#    It exits non-zero if the build fails or any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tag=1.1.1
upstream_url=https://github.com/pointfreeco/swift-clocks
work=.build/swift-clocks-suite
upstream=$work/swift-clocks
package=$work/package

. Scripts/upstream-suite.sh
suite_parse_arguments "$0" "$@"

# 1. The upstream sources, at the tag, and which test files run.
suite_clone "$upstream_url" "$tag" "$upstream"
tests=$upstream/Tests/ClocksTests
suite_select_files "$tests"

# 2. The package that runs them. The path dependency's identity is its directory's name.
identity=$(basename "$root")
mkdir -p "$package"
cat >"$package/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
// Written by Scripts/swift-clocks-suite.sh; rewritten on every run.
import PackageDescription

let package = Package(
    name: "SwiftClocksSuite",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: "$root"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
    ],
    targets: [
        .testTarget(
            name: "ClocksTests",
            dependencies: [
                .product(name: "StreamsTesting", package: "$identity"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("ImmutableWeakCaptures"),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST

# 3. The test files and their shared helpers, with only their imports rewritten.
rewrite() {  # $1: source file, $2: destination file
    sed -E \
        -e 's/^([[:space:]]*(@[A-Za-z]+[[:space:]]+)*(public[[:space:]]+|internal[[:space:]]+|package[[:space:]]+)?import[[:space:]]+)Clocks[[:space:]]*$/\1StreamsTesting/' \
        "$1" >"$2"
}
rm -rf "$package/Tests"
mkdir -p "$package/Tests/ClocksTests/Internal"
for file in "${suite_files[@]}"; do
    rewrite "$file" "$package/Tests/ClocksTests/$(basename "$file")"
done
for file in "$tests"/Internal/*.swift; do
    rewrite "$file" "$package/Tests/ClocksTests/Internal/$(basename "$file")"
done

# 4. Run them.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
(cd "$package" && swift test 2>&1) | tee "$log" || status=$?
suite_count "$log"
suite_summary "swift-clocks $tag" "$status" ""
