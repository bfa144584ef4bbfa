#!/usr/bin/env bash
# The soak run: Streams' subjects, the Observation bridge, share and flatMap under several threads
# for a fixed time, with subscribers coming and going all the time, every delivery checked as it
# goes, and the process's memory watched. Not part of `swift test`.
#
# Usage: Scripts/soak.sh                    60 seconds, shared equally by the six workloads
#        Scripts/soak.sh --seconds 600      longer (or SOAK_SECONDS=600 Scripts/soak.sh)
#        Scripts/soak.sh --workload share   only some workloads (repeatable; --list names them)
#        Scripts/soak.sh --seed 7           other random choices (default 1)
#
# It builds the `streams-soak` executable of the Benchmarks package (Benchmarks/Sources/streams-soak,
# a package of its own, so that Streams keeps no dependencies) in release mode, runs it and prints
# its report: a Markdown table with, for each workload, the values delivered, the subscribers
# created, cancelled and completed, the resident memory before, at the peak and after, and the heap
# in use at the peak of each half of the workload; then whether memory returned to its baseline, and
# which checks failed. Each workload also runs half a second first, to warm up, before the baseline
# is read.
#
# Exits 0 when every check passed and no workload's memory kept growing, 1 when a check failed or
# memory kept growing, 2 for a bad option; if the program crashes, it says so and exits with the
# crash's status.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${SOAK_SECONDS:-60}
arguments=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --seconds)
            [[ $# -ge 2 ]] || { echo "soak.sh: --seconds needs a number" >&2; exit 2; }
            seconds=$2
            shift 2
            ;;
        --workload | --seed)
            [[ $# -ge 2 ]] || { echo "soak.sh: $1 needs a value" >&2; exit 2; }
            arguments+=("$1" "$2")
            shift 2
            ;;
        --list | --help | -h)
            arguments+=("$1")
            shift
            ;;
        *)
            echo "soak.sh: unknown option $1 (see the header of $0)" >&2
            exit 2
            ;;
    esac
done

echo "Building streams-soak (release)..." >&2
if ! build_output=$(swift build -c release --package-path Benchmarks --product streams-soak 2>&1); then
    printf '%s\n' "$build_output" >&2
    echo "soak.sh: the build failed" >&2
    exit 1
fi
binary="$(swift build -c release --package-path Benchmarks --show-bin-path)/streams-soak"

status=0
"$binary" --seconds "$seconds" ${arguments[@]+"${arguments[@]}"} || status=$?
if [[ $status -gt 128 ]]; then
    echo "soak.sh: streams-soak crashed (signal $((status - 128))); the backtrace is above" >&2
fi
exit "$status"
