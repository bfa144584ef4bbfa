#!/usr/bin/env bash
# Checks that every release the CHANGELOG names is marked in git: for each `## [X.Y.Z]` section,
# whose first paragraph names its commit (`commit <40 hex digits>`), an annotated tag `X.Y.Z` must
# exist and point at that commit, so that a dependency `from: "X.Y.Z"` resolves to what the
# CHANGELOG describes. The section `## [Unreleased]` is skipped.
#
# Usage: Scripts/check-release-tags.sh
#
# Exits non-zero, naming the release and what is wrong, if a tag is missing, is not annotated, or
# points elsewhere, or if a release section names no commit or a commit outside this history.
#
# A clone made without tags (some CI systems fetch one branch only) first tries
# `git fetch --tags origin`; if the clone still has no tag at all, each release's commit is checked
# to be in the history of HEAD, and the tags themselves are reported as not checked.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
checked=0
untagged_clone=false
if [ -z "$(git tag -l)" ]; then
    git fetch --quiet --tags origin 2> /dev/null || true
    [ -z "$(git tag -l)" ] && untagged_clone=true
fi
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
    if ! git merge-base --is-ancestor "$commit" HEAD 2> /dev/null; then
        echo "check-release-tags: release $version names commit $commit, which is not in the history of HEAD" >&2
        status=1
        continue
    fi
    if [ "$untagged_clone" = true ]; then
        checked=$((checked + 1))
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

if [ "$status" -eq 0 ]; then
    if [ "$untagged_clone" = true ]; then
        echo "check-release-tags: this clone carries no tags, so only the commits were checked:" \
            "$checked release(s) in CHANGELOG.md, each commit in the history of HEAD"
    else
        echo "check-release-tags: $checked release(s) in CHANGELOG.md, each tagged at its commit"
    fi
fi
exit "$status"
