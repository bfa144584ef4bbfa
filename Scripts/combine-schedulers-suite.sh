#!/usr/bin/env bash
# Runs the test files of combine-schedulers 1.2.2 (Point-Free's schedulers for Combine) against
# Streams and StreamsTesting, unchanged but for their imports.
#
# Usage: Scripts/combine-schedulers-suite.sh                  every test file
#        Scripts/combine-schedulers-suite.sh --only A,B       only Tests/CombineSchedulersTests/A.swift
#                                                             and B.swift
#
# Needs only the Swift toolchain, git and network access to github.com. It
# 1. clones https://github.com/pointfreeco/combine-schedulers at tag 1.2.2 into
#    .build/combine-schedulers-suite/combine-schedulers (kept between runs; .build is git-ignored,
#    and nothing of combine-schedulers is committed to this repository);
# 2. writes a package in .build/combine-schedulers-suite/package with one test target,
#    CombineSchedulersTests, that depends on this checkout's Streams and StreamsTesting (by path)
#    and on swift-concurrency-extras 1.4.3 (the tests use ConcurrencyExtras), built with the Swift 6
#    language mode and the upcoming features combine-schedulers builds its tests with;
# 3. copies Tests/CombineSchedulersTests/*.swift into it, rewriting only the import lines and the
#    `#if` / `#elseif` conditions: `Combine` and `OpenCombineShim` become `Streams`,
#    `CombineSchedulers` becomes `StreamsTesting`;
# 4. runs `swift test` there, showing its output, and ends with one line:
#        combine-schedulers 1.2.2 suite: <files> files, <tests> tests: <passed> passed, <failed> failed
#    It exits non-zero if the build fails or any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/upstream-suite.sh
suite_start "$0" https://github.com/pointfreeco/combine-schedulers 1.2.2 "$@"

# 1. The upstream sources, at the tag, and which test files run.
suite_clone
tests=$upstream/Tests/CombineSchedulersTests
suite_select_files "$tests"

# 2. The package that runs them.
suite_write_manifest CombineSchedulersSuite CombineSchedulersTests "Streams StreamsTesting" \
    "ExistentialAny InferIsolatedConformances InternalImportsByDefault MemberImportVisibility"

# 3. The test files, with only their imports and #if conditions rewritten.
rm -rf "$package/Tests"
mkdir -p "$package/Tests/CombineSchedulersTests"
for file in "${suite_files[@]}"; do
    sed -E \
        -e '/^[[:space:]]*#(if|elseif)[[:space:]]/ s/canImport\((Combine|OpenCombineShim)\)/canImport(Streams)/g' \
        -e "$(suite_import_rewrite 'Combine|OpenCombineShim' Streams)" \
        -e "$(suite_import_rewrite CombineSchedulers StreamsTesting)" \
        "$file" >"$package/Tests/CombineSchedulersTests/$(basename "$file")"
done

# 4. Run them.
suite_test

# UISchedulerTests.testRunsOnMain races by design: from a background queue it asks for a hop to the
# main queue and then asserts (UISchedulerTests.swift, line 30) that the hop has not run yet, while
# the main thread is free to run it at once; a plain DispatchQueue.main.async loses the same race now
# and then on a busy machine. XCTest may charge that assertion to the next test, or, when it lands
# after the run has stopped, stop the program ("Invalid attempt to record a failure for a test run
# that has already been stopped") before the later tests run. So the race is recognised by where the
# failed assertion is: a run it stopped is run again, and when that assertion is the only failure,
# UISchedulerTests is run again on its own (up to five times each), and the summary says so. Any
# other failure fails at once.
racy_assertion="UISchedulerTests.swift:30: error:"
racy_crash="has already been stopped: UISchedulerTests.testRunsOnMain"
only_the_race() {  # $1: a run's log, $2: its exit status
    local failure_lines
    failure_lines=$(grep -E "\.swift:[0-9]+: error: " "$1" || true)
    if [ -z "$failure_lines" ]; then
        grep -qF "$racy_crash" "$1" || return 1
    elif grep -vqF "$racy_assertion" <<<"$failure_lines"; then
        return 1
    fi
    [ "$2" -eq 0 ] || grep -qF "$racy_crash" "$1" || grep -qE "^Test Case '.*' failed" "$1"
}
rerun_note=""
# A run the race stopped (XCTest ended the program) did not run the tests after it: run the suite
# again until one is not stopped that way.
runs=0
while [ "$runs" -lt 5 ] && grep -qF "$racy_crash" "$suite_log" && only_the_race "$suite_log" "$status"; do
    runs=$((runs + 1))
    echo "combine-schedulers-suite: testRunsOnMain's racy assertion stopped the run; running the suite again ($runs of 5)"
    suite_test --skip-build
    rerun_note=" (the suite ran $((runs + 1)) times: testRunsOnMain's own racy assertion stopped the first)"
done
# A run whose only failure is that assertion: UISchedulerTests alone, up to five times, decides.
if [ "$failed" -gt 0 ] && ! grep -qF "$racy_crash" "$suite_log" && only_the_race "$suite_log" "$status"; then
    for attempt in 1 2 3 4 5; do
        echo "combine-schedulers-suite: only testRunsOnMain's racy assertion failed; running UISchedulerTests again ($attempt of 5)"
        rerun=$(mktemp)
        if (cd "$package" && swift test --skip-build --filter UISchedulerTests 2>&1) | tee "$rerun" \
            && ! grep -qE "^Test Case '.*' failed" "$rerun"; then
            passed=$((passed + failed))
            failed=0
            status=0
            rerun_note+=" (UISchedulerTests passed when run again: testRunsOnMain's own assertion races the main thread)"
            rm -f "$rerun"
            break
        fi
        rm -f "$rerun"
    done
fi

suite_summary "combine-schedulers $tag" "$status" "$rerun_note"
