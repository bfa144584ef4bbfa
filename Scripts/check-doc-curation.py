#!/usr/bin/env python3
"""Checks that every public type of the documented modules is curated by hand within two clicks.

Usage: Scripts/check-doc-curation.py [archive]   (default: .build/docs/Streams.doccarchive,
                                                   as written by Scripts/build-docs.sh)

It reads the built archive's render JSON (data/documentation/**.json) and follows only the topic
groups written in the catalog (DocC marks the groups it generates itself, such as "Structures",
with `"generated": true`), from each module's landing page: one click reaches the pages listed on
a landing page, two clicks the pages those list.

Checked: every class, structure, enumeration, protocol and type alias that belongs to a module, to
a type that module extends (`Optional.Publisher`, `DispatchQueue.SchedulerTimeType`) or to a
namespace (`Publishers.Map`, `Subscribers.Sink`). Members, including types nested in an ordinary
type (`Published.Publisher`, `Record.Recording`), are listed on their type's own page by DocC and
are not counted. Also checks that Publisher's page puts every operator in a topic group written in
the catalog. Prints what is not curated and exits 1 if anything is not.
"""
import json
import pathlib
import sys

TYPE_KINDS = {"class", "struct", "enum", "protocol", "typealias"}
NAMESPACES = {"Publishers", "Subscribers", "Subscriptions"}

archive = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".build/docs/Streams.doccarchive")
root = archive / "data" / "documentation"
if not root.is_dir():
    sys.exit(f"check-doc-curation: no documentation archive at {archive}; run Scripts/build-docs.sh")

pages = {}
for path in root.rglob("*.json"):
    page = json.loads(path.read_text())
    pages[page["identifier"]["url"]] = page


def kind(page):
    return page.get("metadata", {}).get("symbolKind")


def parent(page):
    crumbs = page.get("hierarchy", {}).get("paths") or [[]]
    return pages.get(crumbs[0][-1]) if crumbs[0] else None


def lexical_parent(url):
    """The page one path component up: the symbol's declaring type, module or extension."""
    return pages.get(url.rsplit("/", 1)[0])


checked = []
for url, page in pages.items():
    if page.get("kind") != "symbol" or kind(page) not in TYPE_KINDS:
        continue
    owner = lexical_parent(url)
    if owner is None:
        continue
    owner_kind = kind(owner)
    title = owner.get("metadata", {}).get("title")
    if owner_kind in ("module", "extension") or title in NAMESPACES:
        checked.append(url)

modules = [url for url, page in pages.items() if kind(page) == "module"]
depth = {url: 0 for url in modules}
frontier = list(modules)
for level in (1, 2):
    following = []
    for url in frontier:
        for section in pages[url].get("topicSections", []):
            if section.get("generated"):
                continue
            for identifier in section.get("identifiers", []):
                if identifier in pages and identifier not in depth:
                    depth[identifier] = level
                    following.append(identifier)
    frontier = following

# On Linux, Foundation's JSON and property-list coders and NotificationCenter live in the module
# FoundationEssentials; on Apple platforms, in Foundation. A link must name the module, so no link
# to the types Streams adds to them works on both: they stay where DocC puts them, under its
# generated "Extended Modules" group (three clicks), and are listed apart rather than failing.
PLATFORM_NAMED = "/FoundationEssentials/"
unportable = sorted(url for url in checked if url not in depth and PLATFORM_NAMED in url)
uncurated = sorted(url for url in checked if url not in depth and PLATFORM_NAMED not in url)
by_depth = {1: 0, 2: 0}
for url in checked:
    if url in depth:
        by_depth[depth[url]] += 1
print(
    f"check-doc-curation: {len(checked)} public types checked in {', '.join(sorted(p['metadata']['title'] for u, p in pages.items() if u in modules))}: "
    f"{by_depth[1]} one click from a landing page, {by_depth[2]} two clicks, {len(uncurated)} not curated within two"
    + (f", {len(unportable)} in FoundationEssentials left to DocC's Extended Modules group" if unportable else "")
)
for url in unportable:
    print("  in FoundationEssentials (not linkable portably):", url.split("/documentation/", 1)[-1])
for url in uncurated:
    print("  not curated:", url.split("/documentation/", 1)[-1])

# The operators: Publisher's page groups them as Combine's documentation does, so a new operator
# must be added to a group (Docs/Streams.docc/Extensions/Publisher.md) rather than left in DocC's
# catch-all "Instance Methods".
operators = [
    identifier
    for url, page in pages.items()
    if url.endswith("/documentation/Streams/Publisher")
    for section in page.get("topicSections", [])
    if section.get("generated")
    for identifier in section.get("identifiers", [])
]
print(f"check-doc-curation: {len(operators)} members of Publisher not in a topic group of its page")
for identifier in operators:
    print("  not grouped:", identifier.split("/documentation/", 1)[-1])
sys.exit(1 if uncurated or operators else 0)
