#!/usr/bin/env bash
# Runs GRDB 7.10.0's Combine tests (Tests/GRDBCombineTests, with the CombineExpectations library
# GRDB keeps in Tests/CombineExpectations) against Streams, with GRDB's own Combine layer built on
# Streams.
#
# Usage: Scripts/grdb-combine-suite.sh                  every test file
#        Scripts/grdb-combine-suite.sh --only A,B       only Tests/GRDBCombineTests/A.swift and
#                                                       B.swift (Support.swift, code the tests
#                                                       share, is always copied)
#
# Needs the Swift toolchain, git, network access to github.com and SQLite's headers
# (/usr/include/sqlite3.h, Debian's libsqlite3-dev: installed with apt-get when missing and the
# script runs as root). It
# 1. clones https://github.com/groue/GRDB.swift at tag 7.10.0 into
#    .build/grdb-combine-suite/GRDB.swift (kept between runs; .build is git-ignored, and nothing of
#    GRDB is committed to this repository);
# 2. writes a package in .build/grdb-combine-suite/package laid out as GRDB's own: the GRDBSQLite
#    system library (GRDB's module map and shim header, which link the system's libsqlite3); the
#    GRDB library, built from a copy of GRDB's GRDB folder (with its privacy manifest as a resource,
#    as GRDB declares it); and one test target, GRDBCombineTests, that compiles
#    Tests/CombineExpectations and Tests/GRDBCombineTests in one module, as GRDB's test target does,
#    together with the two files of GRDB's other tests that the Combine tests use
#    (GRDBTests/GRDBTestCase.swift and GRDBTests/ValueObservationRecorder.swift, unchanged) and the
#    resources GRDB's test target declares (GRDBTestCase.swift reads Bundle.module, which a target
#    has only when it has resources). GRDB and the tests depend on this checkout's Streams (by
#    path).
#    The settings are GRDB's: the Swift 6 language mode for the library, the Swift 5 one with
#    InferSendableFromCaptures and GlobalActorIsolatedTypesUsability for the tests, and, for both,
#    SQLITE_ENABLE_FTS5, SQLITE_ENABLE_SNAPSHOT and, on Linux, SQLITE_DISABLE_SNAPSHOT;
# 3. rewrites the copied Swift files of GRDB, CombineExpectations and GRDBCombineTests in these ways
#    and no others:
#    - `#if canImport(Combine)` becomes `#if canImport(Streams)`: GRDB and CombineExpectations
#      compile their Combine code only where a Combine module exists, so on Linux it would be left
#      out;
#    - `import Combine` becomes `import Streams`: Streams stands in for Combine;
#    - `Combine.`-qualified names in code become `Streams.`-qualified (in 7.10.0 only
#      `some Combine.Scheduler`, the type of the `receiveOn:` parameter of GRDB's readPublisher,
#      writePublisher and migratePublisher): the qualifier names the module the type comes from;
#    nothing else needs rewriting: DispatchQueue is a Streams Scheduler, so the `receiveOn:`
#    parameters' default, `DispatchQueue.main`, compiles as it is, and the tests use only XCTest API
#    that Linux's XCTest has;
# 4. runs `swift test` there, skipping the tests listed below by name, showing its output, and ends
#    with one line:
#        GRDB 7.10.0 Combine suite: <files> files, <tests> tests: <passed> passed, <failed> failed,
#        <skipped> skipped
#    It exits non-zero if the build fails or any test fails.
#
# Tests skipped, each for a reason outside Streams (listed again, with the reasons, before the run):
#    ValueObservationPublisherTests.testDefaultSchedulerFirstValueIsEmittedAsynchronously: its sink
#    waits on a semaphore that the test signals once, so a second value deadlocks the main thread.
#    GRDB built with SQLITE_DISABLE_SNAPSHOT, as it is on Linux, cannot tell whether the database
#    changed between a DatabasePool observation's first fetch and the start of its tracking, so it
#    fetches and notifies once more, unconditionally (asyncStartObservationWithoutWALSnapshot in
#    GRDB/ValueObservation/Observers/ValueConcurrentObserver.swift, which calls it a glitch): a
#    DatabasePool observation reports its initial value twice, with or without a publisher
#    (ValueObservation.start(in:onError:onChange:) does the same). Whether the second value reaches
#    the sink before the test cancels is a race; when it does, the test hangs.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/upstream-suite.sh
suite_start "$0" https://github.com/groue/GRDB.swift 7.10.0 "$@"

# Tests skipped by name (class/method), with the reasons the header gives at more length.
skips=(
    ValueObservationPublisherTests/testDefaultSchedulerFirstValueIsEmittedAsynchronously
)
skip_reasons=(
    "GRDB without SQLite snapshots (SQLITE_DISABLE_SNAPSHOT on Linux) notifies a DatabasePool observation's initial value twice; the test's sink waits once per value on a semaphore signalled once, so the second value deadlocks the main thread"
)

# SQLite's headers, which the GRDBSQLite module map includes.
if [ ! -f /usr/include/sqlite3.h ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "grdb-combine-suite: installing libsqlite3-dev (SQLite's headers, which GRDB builds against)"
        DEBIAN_FRONTEND=noninteractive apt-get -qq update >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends libsqlite3-dev >/dev/null
    fi
    if [ ! -f /usr/include/sqlite3.h ]; then
        echo "grdb-combine-suite: GRDB needs SQLite's headers (/usr/include/sqlite3.h): install Debian's libsqlite3-dev (apt-get install libsqlite3-dev)" >&2
        exit 1
    fi
fi

# 1. The upstream sources, at the tag, and which test files run.
suite_clone
tests=$upstream/Tests/GRDBCombineTests
suite_select_files "$tests"
support=$tests/Support.swift
case " ${suite_files[*]} " in
    *" $support "*) ;;
    *) suite_files+=("$support") ;;
esac

# 2. The package that runs them. The path dependency's identity is its directory's name. Every file
# is written to a staging folder first and moves in only when it differs, so that a second run
# rebuilds nothing it built before.
staging=$work/staging
rm -rf "$staging"
mkdir -p "$staging"
cat >"$staging/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
// Written by Scripts/grdb-combine-suite.sh; rewritten on every run.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .define("SQLITE_ENABLE_FTS5"),
    .define("SQLITE_ENABLE_SNAPSHOT"),
    .define("SQLITE_DISABLE_SNAPSHOT", .when(platforms: [.linux])),
]

let package = Package(
    name: "GRDBCombineSuite",
    defaultLocalization: "en",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: "$root")
    ],
    targets: [
        .systemLibrary(name: "GRDBSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "GRDB",
            dependencies: [
                .target(name: "GRDBSQLite"),
                .product(name: "Streams", package: "$identity"),
            ],
            path: "GRDB",
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GRDBCombineTests",
            dependencies: [
                "GRDB",
                .product(name: "Streams", package: "$identity"),
            ],
            path: "Tests",
            resources: [
                .copy("GRDBTests/Betty.jpeg"),
                .copy("GRDBTests/InflectionsTests.json"),
                .copy("GRDBTests/Issue1383.sqlite"),
                .copy("GRDBTests/db.SQLCipher3"),
            ],
            swiftSettings: swiftSettings + [
                .swiftLanguageMode(.v5),
                .enableUpcomingFeature("InferSendableFromCaptures"),
                .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST

# 3. GRDB's SQLite module, its sources and the tests, with only the rewrites the header lists.
rewrite() {  # $1: source file, $2: destination file
    mkdir -p "$(dirname "$2")"
    perl -pe '
        s/^(\s*#(?:if|elseif)\s.*)\bcanImport\(Combine\)/$1canImport(Streams)/;
        s/^(\s*(?:\@\w+\s+)*(?:public\s+|internal\s+|package\s+)?import\s+)Combine\s*$/$1Streams\n/;
        s/\bCombine\.(?=[A-Z])/Streams./g unless m{^\s*//};
    ' "$1" >"$2"
}
mkdir -p "$staging/Sources/GRDBSQLite"
cp "$upstream/Sources/GRDBSQLite/module.modulemap" "$upstream/Sources/GRDBSQLite/shim.h" "$staging/Sources/GRDBSQLite/"
(cd "$upstream" && find GRDB -type f) | while read -r file; do
    case $file in
        *.swift) rewrite "$upstream/$file" "$staging/$file" ;;
        *) mkdir -p "$(dirname "$staging/$file")" && cp "$upstream/$file" "$staging/$file" ;;
    esac
done
(cd "$upstream/Tests" && find CombineExpectations -name '*.swift') | while read -r file; do
    rewrite "$upstream/Tests/$file" "$staging/Tests/$file"
done
for file in "${suite_files[@]}"; do
    rewrite "$file" "$staging/Tests/GRDBCombineTests/$(basename "$file")"
done
# The code from GRDB's other tests that the Combine tests use, and the resources GRDB's test target
# declares (GRDBTestCase.swift reads Bundle.module, which exists only for a target with resources):
# copied as they are.
mkdir -p "$staging/Tests/GRDBTests"
for file in GRDBTestCase.swift ValueObservationRecorder.swift Betty.jpeg InflectionsTests.json \
    Issue1383.sqlite db.SQLCipher3; do
    cp "$upstream/Tests/GRDBTests/$file" "$staging/Tests/GRDBTests/"
done

# Move the staged package in: files that differ, and none that the staging folder lacks.
mkdir -p "$package"
(cd "$staging" && find . -type f) | while read -r file; do
    if ! cmp -s "$staging/$file" "$package/$file"; then
        mkdir -p "$(dirname "$package/$file")"
        cp "$staging/$file" "$package/$file"
    fi
done
for folder in GRDB Sources Tests; do
    [ -d "$package/$folder" ] || continue
    (cd "$package" && find "$folder" -type f) | while read -r file; do
        [ -f "$staging/$file" ] || rm -f "$package/$file"
    done
done
rm -rf "$staging"

# 4. Run them, less the skipped tests among the selected files (counted as skipped in the summary).
skip_arguments=()
skipped_by_name=0
for i in "${!skips[@]}"; do
    if grep -qE "func ${skips[$i]#*/}\(" "${suite_files[@]}"; then
        [ "$skipped_by_name" -gt 0 ] || echo "grdb-combine-suite: skipped, each for a reason outside Streams:"
        echo "  ${skips[$i]}: ${skip_reasons[$i]}"
        skip_arguments+=(--skip "\.${skips[$i]}\$")
        skipped_by_name=$((skipped_by_name + 1))
    fi
done
suite_test "${skip_arguments[@]}"
skipped=$((skipped + skipped_by_name))
suite_summary "GRDB $tag Combine" "$status" ""
