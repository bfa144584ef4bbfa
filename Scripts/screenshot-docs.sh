#!/usr/bin/env bash
# Takes screenshots of the documentation site as a reader sees it, in a real browser, in the light
# and the dark appearance, 1280 px wide: every tutorial and article page whole, from top to bottom;
# the middle step of each tutorial as it shows in a 1280x1800 window, beside the code the tutorial
# shows for that step; and an operator's reference page with its marble diagram.
# Usage: Scripts/screenshot-docs.sh [output-dir]     (default: .build/docs/screenshots)
#        Scripts/screenshot-docs.sh output-dir page...   only these pages, each a path of the site:
#            documentation/streams/debuggingapipeline      an article, whole
#            'documentation/streams/publisher/debounce(for:scheduler:options:)'   a symbol's page
#            tutorials/streams/meetthestore#step-8         a tutorial's 8th step, in the window
#            tutorials/streams/meetthestore#step-middle    its middle step
# Writes output-dir/<page, its / ( ) : # made _>-light.png and -dark.png. A page taller than
# 30,000 px is cut there, and said so (exit status 3).
# Needs Python 3 and Debian's chromium-headless-shell (or CHROMIUM=/path/to/a/chromium), driven by
# Scripts/screenshot-page.py; builds the site with Scripts/build-docs.sh --site unless DOCS_SITE
# names one already built. Look at the pictures before calling a change to the documentation done.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs/screenshots}
shift || true
browser=${CHROMIUM:-$(command -v chromium-headless-shell || command -v chromium || true)}
if [ -z "$browser" ]; then
    echo "screenshot-docs: no Chromium found (apt-get install chromium-headless-shell)" >&2
    exit 2
fi
site=${DOCS_SITE:-.build/docs/site}
if [ -z "${DOCS_SITE:-}" ]; then
    Scripts/build-docs.sh --site "$site" >/dev/null
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break
    sleep 0.1
done

# The pages asked for, or every tutorial page and the middle step of each tutorial, every article
# (the catalog's top-level .md files but the landing page), and an operator's page.
pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
    pages=(tutorials/streams)
    for tutorial in Docs/Streams.docc/Tutorials/*.tutorial; do
        name=$(basename "$tutorial" .tutorial)
        if [ "$name" != Streams ]; then
            page="tutorials/streams/$(tr '[:upper:]' '[:lower:]' <<<"$name")"
            pages+=("$page" "$page#step-middle")
        fi
    done
    pages+=(documentation/streams)
    for article in Docs/Streams.docc/*.md; do
        name=$(basename "$article" .md)
        [ "$name" = Streams ] ||
            pages+=("documentation/streams/$(tr '[:upper:]' '[:lower:]' <<<"$name")")
    done
    pages+=("documentation/streams/publisher/debounce(for:scheduler:options:)")
fi

# In the background, waited for, so that the trap also stops it (and so its browser) if this script
# is stopped.
Scripts/screenshot-page.py --browser "$browser" "http://127.0.0.1:$port" "$output" "${pages[@]}" &
helper=$!
trap 'kill "$helper" "$server" 2>/dev/null || true' EXIT
status=0
wait "$helper" || status=$?
echo "screenshot-docs: ${#pages[@]} pages, light and dark, in $output"
exit "$status"
