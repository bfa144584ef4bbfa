#!/usr/bin/env bash
# Takes screenshots of the documentation site as a reader sees it, in a real browser: every tutorial
# and article page, in the light and the dark appearance, at a laptop's width.
# Usage: Scripts/screenshot-docs.sh [output-dir]     (default: .build/docs/screenshots)
#        Scripts/screenshot-docs.sh output-dir page...   only these pages, each a path of the site,
#            e.g. documentation/streams/publishers/debounce (a symbol's page, such as an operator's)
# Needs Debian's chromium-headless-shell (or CHROMIUM=/path/to/a/chromium); builds the site with
# Scripts/build-docs.sh --site unless DOCS_SITE names one already built. Look at the pictures before
# calling a change to the documentation done.
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

# The pages asked for, or every tutorial page and every article (the catalog's top-level .md files
# but the landing page).
pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
    pages=(tutorials/streams)
    for tutorial in Docs/Streams.docc/Tutorials/*.tutorial; do
        name=$(basename "$tutorial" .tutorial)
        [ "$name" = Streams ] || pages+=("tutorials/streams/$(tr '[:upper:]' '[:lower:]' <<<"$name")")
    done
    pages+=(documentation/streams)
    for article in Docs/Streams.docc/*.md; do
        name=$(basename "$article" .md)
        [ "$name" = Streams ] || pages+=("documentation/streams/$(tr '[:upper:]' '[:lower:]' <<<"$name")")
    done
fi

mkdir -p "$output"
for page in "${pages[@]}"; do
    file=$(sed 's#[/():]#_#g' <<<"$page")
    for appearance in light dark; do
        # Blink's preferred colour scheme: 0 is dark, 1 is light.
        scheme=$([ "$appearance" = dark ] && echo 0 || echo 1)
        "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
            --blink-settings="preferredColorScheme=$scheme" --virtual-time-budget=10000 \
            --window-size=1280,1800 --screenshot="$output/$file-$appearance.png" \
            "http://127.0.0.1:$port/$page" >/dev/null 2>&1
    done
    echo "$page"
done
echo "screenshot-docs: ${#pages[@]} pages, light and dark, in $output"
