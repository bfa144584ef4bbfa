#!/usr/bin/env bash
# Draws the marble diagrams of the operator reference pages from real runs of the operators on a
# test scheduler (Sources/StreamsMarbleDiagrams) and writes them into Docs/Streams.docc: each picture
# in a light and a dark appearance (Resources/Marbles) and the documentation extensions that put them
# on the pages (Extensions/Marbles).
# Usage: Scripts/draw-marble-diagrams.sh           redraw, writing what changed
#        Scripts/draw-marble-diagrams.sh --check   fail if a committed file differs from what the
#                                                  operators draw now (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product StreamsMarbleDiagrams >/dev/null 2>&1 || swift build --product StreamsMarbleDiagrams
"$(swift build --show-bin-path)/StreamsMarbleDiagrams" "$@" Docs/Streams.docc
