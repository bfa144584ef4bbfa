#!/usr/bin/env bash
# Checks that every release the CHANGELOG names is marked in git: for each `## [X.Y.Z]` section,
# whose first paragraph names its commit (`commit <40 hex digits>`), an annotated tag `X.Y.Z` must
# exist and point at that commit, so that a dependency `from: "X.Y.Z"` resolves to what the
# CHANGELOG describes. The section `## [Unreleased]` is skipped.
#
# Usage: Scripts/check-release-tags.sh
#
# Exits non-zero, naming the release and what is wrong, if a tag is missing, is not annotated, or
# points elsewhere, or if a release section names no commit.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
checked=0
while IFS= read -r version; do
    # The release's commit, from the lines of its section up to the next section.
    commit=$(awk -v heading="## [$version]" '
        $0 == heading { inside = 1; next }
        inside && /^## / { exit }
        inside { print }' CHANGELOG.md | grep -oE 'commit [0-9a-f]{40}' | head -n 1 | cut -d' ' -f2 || true)
    if [ -z "$commit" ]; then
        echo "check-release-tags: CHANGELOG.md's section [$version] names no commit (\`commit <hash>\`)" >&2
        status=1
        continue
    fi
    if ! git rev-parse -q --verify "refs/tags/$version" > /dev/null; then
        echo "check-release-tags: release $version has no tag; mark it with" \
            "git tag -a $version $commit -m \"Streams $version\"" >&2
        status=1
        continue
    fi
    if [ "$(git cat-file -t "refs/tags/$version")" != tag ]; then
        echo "check-release-tags: the tag $version is not annotated; recreate it with git tag -a" >&2
        status=1
        continue
    fi
    tagged=$(git rev-parse "refs/tags/$version^{commit}")
    if [ "$tagged" != "$commit" ]; then
        echo "check-release-tags: the tag $version points at $tagged, but CHANGELOG.md names $commit" >&2
        status=1
        continue
    fi
    checked=$((checked + 1))
done < <(grep -oE '^## \[[0-9]+\.[0-9]+\.[0-9]+\]' CHANGELOG.md | tr -d '#[] ')

[ "$status" -eq 0 ] && echo "check-release-tags: $checked release(s) in CHANGELOG.md, each tagged at its commit"
exit "$status"
