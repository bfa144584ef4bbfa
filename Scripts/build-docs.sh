#!/usr/bin/env bash
# Builds the DocC catalog in Docs/Streams.docc over the package's public symbol graphs.
# Usage: Scripts/build-docs.sh [output-dir]      a documentation archive
#                                                (default: .build/docs/Streams.doccarchive)
#        Scripts/build-docs.sh --site [dir]      a static website (default: .build/docs/site) that
#                                                any web server can serve from its root, e.g.
#                                                `python3 -m http.server --directory .build/docs/site`,
#                                                then http://localhost:8000/documentation/streams/
# Set DOCS_HOSTING_BASE_PATH (e.g. `Streams` for https://example.com/Streams/) when the site will
# be served from a sub-path rather than from the server's root.
# Any warning, such as a symbol link that does not resolve, fails the build.
# The symbol graphs include extension blocks, so what Streams adds to other modules' types
# (`Optional.Publisher`, `DispatchQueue.SchedulerTimeType`, `DispatchQueue.test`, ...) is documented
# under "Extended Modules" or wherever the catalog curates it.
# Scripts/check-doc-curation.py then checks, on the archive, that every public type is curated
# within two clicks of a landing page.
set -euo pipefail
cd "$(dirname "$0")/.."
site=false
if [ "${1:-}" = --site ]; then
    site=true
    output=${2:-.build/docs/site}
else
    output=${1:-.build/docs/Streams.doccarchive}
fi
graphs=.build/docs/symbol-graphs

if ! dump=$(swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols 2>&1); then
    # Without a build of the tests (a fresh clone), SwiftPM also fails on the test-discovery
    # modules, which are not documented; any other failure stops the build.
    if grep 'error:' <<<"$dump" | grep -qvE "symbol graph for '[A-Za-z0-9_]*Package(Discovered)?Tests'"; then
        printf '%s\n' "$dump" >&2
        exit 1
    fi
fi
rm -rf "$graphs" && mkdir -p "$graphs"
# Only the library modules are documented.
find .build -path '*symbolgraph*' \( -name 'Streams.symbols.json' -o -name 'Streams@*.symbols.json' \
    -o -name 'StreamsTesting.symbols.json' -o -name 'StreamsTesting@*.symbols.json' \) -exec cp {} "$graphs" \;
hosting=()
if $site; then
    hosting=(--transform-for-static-hosting)
    if [ -n "${DOCS_HOSTING_BASE_PATH:-}" ]; then
        hosting+=(--hosting-base-path "$DOCS_HOSTING_BASE_PATH")
    fi
fi
rm -rf "$output"
docc convert Docs/Streams.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name Streams --fallback-bundle-identifier org.streams.Streams \
    --warnings-as-errors \
    "${hosting[@]}" \
    --output-path "$output"
# DocC marks a line-break opportunity at each lowercase-to-uppercase change of a name in code voice,
# so in a narrow column `ObservedPublisher` broke as "Observed / Publisher" and read as two words. In
# running text (paragraphs, list items, table cells, abstracts) and in the declarations that topic
# lists link to, a name now moves to the next line whole. Headings, the sidebar and the declaration
# at the top of a symbol page, which does not wrap at spaces, keep DocC's breaks.
css=("$output"/css/index.*.css)
[ -f "${css[0]}" ] || { echo "build-docs: no css/index.*.css in $output to add the house style to" >&2; exit 1; }
printf '%s\n' 'p code wbr,li code wbr,td code wbr,.abstract code wbr,a code wbr{display:none}' >> "${css[0]}"
if $site; then
    echo "Documentation site built at $output: python3 -m http.server --directory $output," \
        "then open http://localhost:8000/documentation/streams/"
else
    echo "Documentation built at $output"
fi
