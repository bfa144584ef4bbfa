#!/usr/bin/env bash
# Builds the DocC catalog in Docs/Streams.docc over the package's public symbol graphs.
# Usage: Scripts/build-docs.sh [output-dir]   (default: .build/docs/Streams.doccarchive)
# Any warning, such as a symbol link that does not resolve, fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs/Streams.doccarchive}
graphs=.build/docs/symbol-graphs

swift package dump-symbol-graph --minimum-access-level public >/dev/null
rm -rf "$graphs" && mkdir -p "$graphs"
# Only the library modules are documented.
find .build -path '*symbolgraph*' \( -name 'Streams.symbols.json' -o -name 'Streams@*.symbols.json' \
    -o -name 'StreamsTesting.symbols.json' -o -name 'StreamsTesting@*.symbols.json' \) -exec cp {} "$graphs" \;
docc convert Docs/Streams.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name Streams --fallback-bundle-identifier org.streams.Streams \
    --warnings-as-errors \
    --output-path "$output"
echo "Documentation built at $output"
