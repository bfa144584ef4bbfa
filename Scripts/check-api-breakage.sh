#!/usr/bin/env bash
# Checks that the public API of the Streams and StreamsTesting libraries has not changed in a
# breaking way since the last release: the commit named in Scripts/api-baseline.txt.
#
# Usage: Scripts/check-api-breakage.sh
#
# Runs `swift package diagnose-api-breaking-changes <baseline> --products Streams StreamsTesting`,
# which builds this checkout (with its uncommitted changes) and the baseline commit, dumps both APIs
# with swift-api-digester, and compares them. It builds in .build-api, apart from the other builds,
# and keeps the baseline's API dump in .build-api/api-baselines/<toolchain>/<commit>, so later runs
# build only this checkout. It needs the baseline commit in the local history: a shallow clone is deepened
# with `git fetch --unshallow`, which needs network access to the clone's remote.
#
# Exits non-zero if any breaking change is reported, or if the check cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline_file=Scripts/api-baseline.txt
scratch=.build-api

fail() {
    printf 'check-api-breakage: %s\n' "$*" >&2
    exit 1
}

[ -f "$baseline_file" ] || fail "$baseline_file is missing"
baseline=$(grep -v -E '^[[:space:]]*(#|$)' "$baseline_file" | tr -d '[:space:]')
[[ $baseline =~ ^[0-9a-f]{40}$ ]] ||
    fail "$baseline_file must hold one full 40-hex commit hash (besides # comment lines); found '$baseline'"

git rev-parse --git-dir > /dev/null 2>&1 || fail "not a git checkout: the baseline is a commit of this repository"
if ! git cat-file -e "$baseline^{commit}" 2> /dev/null; then
    if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
        echo "check-api-breakage: this is a shallow clone without the baseline commit $baseline;" \
            "fetching the full history (git fetch --unshallow)" >&2
        git fetch --unshallow --quiet ||
            fail "could not fetch the full history; clone without --depth, or run 'git fetch --unshallow'"
    fi
    git cat-file -e "$baseline^{commit}" 2> /dev/null ||
        fail "the baseline commit $baseline (from $baseline_file) is not in this repository's history"
fi

echo "Comparing the public API of Streams and StreamsTesting with the last release, $baseline"
output=$(mktemp)
trap 'rm -f "$output"' EXIT
# The baseline's API dump is kept per toolchain, since another compiler may describe the same API
# differently.
toolchain=$(swift --version 2> /dev/null | head -n 1 | cksum | cut -d ' ' -f 1)
status=0
swift package --scratch-path "$scratch" diagnose-api-breaking-changes "$baseline" \
    --products Streams StreamsTesting --baseline-dir "$scratch/api-baselines/$toolchain" > "$output" 2>&1 ||
    status=$?
# The build's progress lines ("[12/200] Compiling …") are left out; everything else is shown.
grep -v -E '^\[[0-9]+/[0-9]+\] ' "$output" || true

if grep -q 'API breakage' "$output"; then
    fail "the public API changed in a breaking way since the last release, $baseline (listed above)." \
        "A breaking change needs a new minor version before 1.0.0, a new major version after (see the" \
        "versioning policy in CHANGELOG.md); a release updates $baseline_file."
fi
[ "$status" -eq 0 ] ||
    fail "swift package diagnose-api-breaking-changes failed (exit status $status) without comparing the APIs; see above"
echo "check-api-breakage: no breaking change to the public API since $baseline"
