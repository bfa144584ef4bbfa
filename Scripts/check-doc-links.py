#!/usr/bin/env python3
"""Checks that every link in the built documentation site leads to a page the site has.

Usage: Scripts/check-doc-links.py [site]   (default: .build/docs/site,
                                            as written by `Scripts/build-docs.sh --site`)

A DocC static site is a single-page app: the page /documentation/streams/foo is the HTML shell
<site>/documentation/streams/foo/index.html, which loads its content from the render JSON
<site>/data/documentation/streams/foo.json (tutorials likewise, under /tutorials). A link resolves
when the site has both files for its path. DocC writes paths in lowercase and so do its links;
files are looked up exactly, so a link whose case differs from its page's is reported.

Checked, on every page's render JSON: each entry of its `references` dictionary with a URL on the
site. That dictionary is where a page takes every link it shows from: its breadcrumbs
(`hierarchy.paths`), its topic, see-also and relationship groups, the types named in its
declaration, the symbol links and inline links of its text, and a tutorial's sections and calls to
action; the report says which of these use the link. Also checked: each entry of the navigation
sidebar (<site>/index/index.json). A link's `#fragment` must be an anchor of its page (a heading,
a topic group or a tutorial section). Not checked: external links (http, https, mailto, ...),
images and other assets, and the chapters in a tutorial's `hierarchy.modules`, which its navigation
bar shows by name, not as links (chapters have no pages of their own).

Prints `page: link -> target (why)` once for each page and broken target, then a summary line,
and exits 1 if any link is broken.
"""
import json
import pathlib
import sys
import urllib.parse
from collections import defaultdict

site = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".build/docs/site")
data = site / "data"
navigator = site / "index" / "index.json"
if not data.is_dir() or not navigator.is_file():
    sys.exit(f"check-doc-links: no documentation site at {site}; run Scripts/build-docs.sh --site")

# The site's pages, by URL path: those with content (a render JSON) and those with an HTML shell.
with_content = {"/" + p.relative_to(data).as_posix()[: -len(".json")] for p in data.rglob("*.json")}
with_shell = {"/" + p.parent.relative_to(site).as_posix() for p in site.rglob("index.html") if p.parent != site}
in_lowercase = {path.lower(): path for path in with_content | with_shell}

# Where on a page each top-level key of its render JSON is shown, to say where a link is used.
PLACES = {
    "hierarchy": "breadcrumb",
    "topicSections": "topics",
    "seeAlsoSections": "see also",
    "relationshipsSections": "relationships",
    "defaultImplementationsSections": "default implementations",
    "primaryContentSections": "content",
    "abstract": "abstract",
    "sections": "content",
}


def walk(node, key=None):
    """Every (key, string) pair inside a JSON value; a list's items inherit the list's key."""
    if isinstance(node, dict):
        for k, value in node.items():
            yield from walk(value, k)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item, key)
    elif isinstance(node, str):
        yield key, node


anchors = {}  # page path -> the anchors its sections and headings have
links = defaultdict(list)  # page -> [(how the page shows the link, target URL)]

# 1. Each page's links: the references it has a URL for, and where the page uses them.
for file in sorted(data.rglob("*.json")):
    page_path = "/" + file.relative_to(data).as_posix()[: -len(".json")]
    page = json.loads(file.read_text())
    references = page.get("references", {})
    hierarchy = page.get("hierarchy", {})
    # A tutorial's hierarchy is its navigation bar, which shows each chapter by name only, as the
    # heading of its tutorials: chapters have no pages, and their references are not links.
    chapters = {chapter.get("reference") for chapter in hierarchy.get("modules", [])}
    places = dict(PLACES, hierarchy="tutorial navigation") if chapters else PLACES
    used_in = defaultdict(set)  # reference identifier -> where the page shows it
    anchors[page_path] = set()
    for top, value in page.items():
        if top in ("references", "identifier", "variants"):
            continue
        for key, text in walk(value):
            if key == "anchor":
                anchors[page_path].add(text)
            if text in references and not (top == "hierarchy" and text in chapters):
                used_in[text].add(places.get(top, top))
    # A topic card shows the abstract of the page it links to, with that abstract's own links.
    for reference in references.values():
        for _, text in walk(reference.get("abstract", [])):
            if text in references:
                used_in[text].add("abstract of a link")
    used_in[page["identifier"]["url"]].add("itself")
    for identifier, reference in references.items():
        url = reference.get("url")
        if not url or urllib.parse.urlsplit(url).scheme or (identifier in chapters and identifier not in used_in):
            continue  # an image, a code listing, an external link, or a chapter's name
        where = ", ".join(sorted(used_in.get(identifier, {"reference"})))
        title = reference.get("title") or identifier.rsplit("/", 1)[-1]
        links[page_path].append((f'{where} "{title}"', urllib.parse.urljoin(page_path + "/", url)))


# 2. The navigation sidebar, for each language the site is written for.
def sidebar(nodes, trail):
    for node in nodes:
        names = trail + [node.get("title", "?")]
        if node.get("path"):
            links["navigator"].append((f'sidebar "{" > ".join(names)}"', node["path"]))
        sidebar(node.get("children", []), names)


for nodes in json.loads(navigator.read_text())["interfaceLanguages"].values():
    sidebar(nodes, [])


def problem(target):
    """Why the target of a link does not resolve, or None when it does."""
    parts = urllib.parse.urlsplit(target)
    path = urllib.parse.unquote(parts.path).rstrip("/") or "/"
    if path not in with_content and path not in with_shell:
        if path.lower() in in_lowercase:
            return f"no page in this case; the site has {in_lowercase[path.lower()]}"
        return "no page: neither a render JSON nor an index.html"
    if path not in with_content:
        return f"no render JSON data{path}.json: the page would be empty"
    if path not in with_shell:
        return f"no {path.lstrip('/')}/index.html: the page opens only from within the site"
    if parts.fragment and parts.fragment not in anchors.get(path, ()):
        return f"no anchor #{parts.fragment} on {path}"
    return None


# 3. Check each (page, target) pair once, naming every way the page shows the link.
broken = defaultdict(dict)  # page -> target -> (ways the link is shown, why)
checked = 0
for page_path, page_links in links.items():
    shown = defaultdict(list)
    for how, target in page_links:
        if how not in shown[target]:
            shown[target].append(how)
    for target, ways in shown.items():
        checked += 1
        why = problem(target)
        if why:
            broken[page_path][target] = ("; ".join(ways), why)

for page_path in sorted(broken):
    for target, (ways, why) in sorted(broken[page_path].items()):
        print(f"{page_path}: {ways} -> {target} ({why})")
pages = len(with_content) + 1  # the render JSON pages and the navigator index
targets = {target for page_links in broken.values() for target in page_links}
if broken:
    print(
        f"check-doc-links: {sum(map(len, broken.values()))} broken links to {len(targets)} targets "
        f"on {len(broken)} of {pages} pages ({checked} links checked)"
    )
    sys.exit(1)
print(f"check-doc-links: {pages} pages checked, {checked} links checked, all resolve")
