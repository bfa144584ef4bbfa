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
. Scripts/upstream-suite.sh
suite_start "$0" https://github.com/pointfreeco/swift-clocks 1.1.1 "$@"

# 1. The upstream sources, at the tag, and which test files run.
suite_clone
tests=$upstream/Tests/ClocksTests
suite_select_files "$tests"

# 2. The package that runs them.
suite_write_manifest SwiftClocksSuite ClocksTests StreamsTesting \
    "ExistentialAny ImmutableWeakCaptures InferIsolatedConformances InternalImportsByDefault
    MemberImportVisibility NonisolatedNonsendingByDefault"

# 3. The test files and their shared helpers, with only their imports rewritten.
rewrite() {  # $1: source file, $2: destination file
    sed -E -e "$(suite_import_rewrite Clocks StreamsTesting)" "$1" >"$2"
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
suite_test
suite_summary "swift-clocks $tag" "$status" ""
