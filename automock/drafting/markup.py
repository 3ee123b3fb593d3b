"""HTML and XML bodies built from the selectors the code applies to a response.

:mod:`automock.drafting.flow` records what a scraper looks for under the
``html``/``xml`` root of a response: ``el:<css>`` (``find``, ``select_one``,
``find("a", class_="x")``, an ElementTree ``find``), ``els:<css>``
(``find_all``, ``select``, ``xpath``, ``findall``), ``key:<attr>`` (``["href"]``,
``.get("href")``) and ``attr:text`` (``.text``, ``get_text()``). Here each
becomes an element with those tags, classes, ids and attributes (two of each
for the plural forms) and a plausible text, so the scraper's main path finds
what it looks for. A text is what a real page holds there: words in a link, a
heading or a cell, a sentence in a paragraph, an amount with its currency sign
for a price, none of its own in a row or a list; a feed's links are absolute.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from html import escape
from typing import Any
from urllib.parse import urlsplit

from automock.drafting.bound_names import BOUND
from automock.drafting.page_texts import HOLDERS, rfc_date, says, text_for
from automock.drafting.regex_sample import sample
from automock.drafting.text_probes import Probe, probe_records
from automock.drafting.url_joins import JOINED
from automock.drafting.values import plausible, sentence

__all__ = ["TEXT_ATTRS", "css_of_find", "css_of_path", "render_csv", "render_feed", "render_markup"]

TEXT_ATTRS = ("text", "string", "get_text", "getText", "text_content", "strip", "tail")
_COMPOUND = re.compile(r"([\w-]*)((?:[.#][\w-]+|\[[^\]]*\])*)")
_COMBINATOR = re.compile(r"\s*[>+~]\s*|\s+(?=(?:[^\"']|\"[^\"]*\"|'[^']*')*$)")
# a path's steps: ``{http://www.w3.org/2005/Atom}entry`` is one step, its slashes the URI's
_STEP = re.compile(r"(?:\{[^}]*\}|[^/])+")
_PART = re.compile(
    r"\.([\w-]+)|#([\w-]+)|\[\s*([\w-]+)\s*(?:[~|^$*]?=\s*['\"]?([^'\"\]]*)['\"]?)?\]"
)


def css_of_find(name: Any, attrs: dict[str, Any]) -> str:
    """The CSS selector equivalent of ``find(name, attrs)`` (values already literal)."""
    css = name if isinstance(name, str) else ""
    for key, value in attrs.items():
        key = key.rstrip("_")
        if isinstance(value, list | tuple) and value and isinstance(value[0], str):
            value = value[0]  # a list of values matches any one of them
        if key == "class" and isinstance(value, str):
            css += "".join(f".{c}" for c in value.split())
        elif key == "id" and isinstance(value, str):
            css += f"#{value}"
        elif isinstance(value, str):
            css += f'[{key}="{value}"]'
        else:
            css += f"[{key}]"
    return css or "div"


def css_of_path(path: str, namespaces: Any = None) -> tuple[str, str | None]:
    """An XPath or ElementTree path as CSS, and what it selects (``text``, ``@attr``, None);
    ``namespaces``: the prefixes the code maps (``{"ex": uri}``: ``ex:Cube`` is ``{uri}Cube``)."""
    path = path.strip()
    if isinstance(namespaces, dict):
        path = re.sub(
            r"(?<![\w{.-])([A-Za-z_][\w.-]*):(?=[A-Za-z_*])",
            lambda m: f"{{{namespaces[m[1]]}}}" if isinstance(namespaces.get(m[1]), str) else m[0],
            path,
        )
    take: str | None = None
    steps = [s for s in _STEP.findall(path) if s not in (".", "..")]
    if steps and steps[-1] == "text()":
        take, steps = "text", steps[:-1]
    elif steps and steps[-1].startswith("@"):
        take, steps = steps[-1], steps[:-1]
    out = []
    for step in steps:
        uri, _, step = step[1:].partition("}") if step.startswith("{") else ("", "", step)
        tag, _, rest = step.partition("[")
        css = "" if tag in ("*", "node()") else tag.split(":")[-1]
        css += f'[xmlns="{uri}"]' if uri and css else ""  # ``{uri}entry``: in that namespace
        for attr, value in re.findall(r"@([\w-]+)\s*=\s*['\"]([^'\"]*)['\"]", rest):
            classes = "".join(f".{c}" for c in value.split())
            css += classes if attr == "class" else f'[{attr}="{value}"]'
        for attr, value in re.findall(r"contains\(@([\w-]+)\s*,\s*['\"]([^'\"]*)['\"]", rest):
            css += f".{value}" if attr == "class" else f'[{attr}="{value}"]'
        out.append(css or "div")
    return " ".join(out) or "div", take


def split_compounds(css: str) -> list[str]:
    """The compound selectors of ``css`` (split at combinators and spaces, never inside
    ``[attr="a b"]``)."""
    return [c for c in _COMBINATOR.split(css) if c and not c.isspace()]


def _parsed(compound: str) -> re.Match[str] | None:
    """One CSS compound selector, pseudo-classes (``:nth-child(2)``) left out."""
    return _COMPOUND.fullmatch(re.sub(r":[\w-]+(\([^)]*\))?", "", compound))


def _open_tag(compound: str, attrs: dict[str, str], xml: bool) -> tuple[str, str, str]:
    """(opening tag, tag name, a name for its text) of one CSS compound selector."""
    match = _parsed(compound)
    tag = (match.group(1) if match else "") or ("item" if xml else "div")
    classes, ident, valued = [], "", ""
    for cls, id_, key, value in _PART.findall(match.group(2) if match else ""):
        if cls:
            classes.append(cls)
        elif id_:
            ident = id_
        elif key and value:  # the selector's value, over one drafted for a read of it
            attrs[key] = value
            valued = valued or (value if re.fullmatch(r"[A-Za-z][\w-]*", value) else "")
        elif key:
            attrs.setdefault(key, str(plausible(key)))
    if classes:
        attrs["class"] = " ".join(classes)
    if ident:
        attrs["id"] = ident
    rendered = "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())
    # its text is named by its class, its id, else a value it is selected by (``[title=x]``)
    return f"<{tag}{rendered}>", tag, (classes[0] if classes else ident or valued or tag)


def _element(ctx: Any, seg: str, subtree: dict[str, Any], path: tuple[str, ...], n: int) -> str:
    compounds = split_compounds(seg[seg.index(":") + 1 :])
    compounds = compounds or ["div"]
    # ``els:x``'s ``index`` is each element of the list; an anonymous child's (``els:*``)
    # and an ``el:x``'s are their children (``for sub in elem``)
    merged = subtree if seg == "els:*" else {**subtree, **subtree.get("index", {})}
    listed = seg.startswith("els:") and seg != "els:*"
    inner = {k: v for k, v in merged.items() if k != "index" or not listed}
    n = max([n] + [int(k[6:]) for k in subtree if k.startswith("count:") and k[6:].isdigit()])
    named = _tag_of(compounds[-1])  # the tag the selector names ("" for ``.cls`` alone)
    if named == "title" and not ctx.xml:  # a page has one title, the one the code reads
        n = 1
    inner_parts = []
    for i in range(n):
        attrs = {k[4:]: str(plausible(k[4:], i + ctx.salt)) for k in merged if k.startswith("key:")}
        if "href" in attrs:  # beside the page (``/wiki/X`` links ``/wiki/items/1``)
            attrs["href"] = f"{ctx.folder}items/{i + 1 + ctx.salt}"
            if _in_feed_item(path, seg):  # a feed's links are absolute
                attrs["href"] = f"{ctx.origin}{attrs['href']}"
        if seg == "els:*" and not attrs:  # ``child.attrib`` printed whole: one to show
            attrs["id"] = str(i + 1 + ctx.salt)
        if not ctx.xml and named == "a":  # a page's links lead somewhere
            attrs.setdefault("href", f"{ctx.folder}items/{i + 1 + ctx.salt}")
        href = (ctx.site, _unindexed((*path, seg, "key:href", JOINED)))
        if i == 1 and seg == "els:a" and path == ("html",) and href not in ctx.joined:
            attrs["href"] = f"{ctx.origin}{attrs['href']}"  # all a page's links: some absolute
        for key in attrs:  # ``if a["href"].startswith("http"):``: a value the filter keeps
            regex = ctx.regexes.get((ctx.site, _unindexed((*path, seg, f"key:{key}"))))
            attrs[key] = (sample(regex, i + ctx.salt) if regex else None) or attrs[key]
        opening, tag, name = _open_tag(compounds[-1], attrs, ctx.xml)
        text_path = (*path, seg, "attr:text")
        hint = ctx.hints.get((ctx.site, text_path)) or ctx.hints.get(
            (ctx.site, (*path, seg, "index", "attr:text"))
        )
        regex = ctx.regexes.get((ctx.site, _unindexed(text_path)))
        probed = probe_records(ctx.probes.get((ctx.site, text_path)), i + ctx.salt, 1)
        if name == "name" and _parent_tag(path) in _PEOPLE:  # ``<author><name>``: a person
            name = "author"
        bound = ctx.bound.get((ctx.site, _unindexed((*path, seg))), "")
        if bound and not says(name) and says(bound):  # ``usd = cells[1].text``
            name = bound
        text = text_for(name, hint, i + ctx.salt, regex, None if ctx.xml else tag)
        if named == "link" and not hint and not regex and _in_feed_item(path, seg):
            text = f"{ctx.origin}/items/{i + 1 + ctx.salt}"  # an RSS item's link: its page
        ctx.salt += i * n  # each item's own children: distinct texts from item to item
        children = _children(ctx, inner, (*path, seg))
        ctx.salt -= i * n
        if children and not ctx.xml and tag in HOLDERS and hint is None and regex is None:
            text = ""  # a row or a list holds its cells and items, no text of its own
        body = escape(probed.strip("\n") or text)
        if named in _FEED_ITEMS and not children and hint is None:
            body, children = "", _feed_item(tag, i + ctx.salt)  # a feed's item, as feeds have
        inner_parts.append(f"{opening}{body}{children}</{tag}>")
    html = "".join(inner_parts)
    for compound in reversed(compounds[:-1]):
        opening, tag, _ = _open_tag(compound, {}, ctx.xml)
        html = f"{opening}{html}</{tag}>"
    return html


_FEED_ITEMS = ("item", "entry")
_PEOPLE = ("author", "creator", "contributor", "person", "editor", "artist", "speaker")


def _parent_tag(path: tuple[str, ...]) -> str:
    """The tag of the innermost element of ``path`` ("" when there is none)."""
    seg = next((s for s in reversed(path) if s.startswith(("el:", "els:"))), "")
    compounds = split_compounds(seg[seg.index(":") + 1 :]) if seg else []
    return _tag_of(compounds[-1]).split(":")[-1] if compounds else ""


def _in_feed_item(path: tuple[str, ...], seg: str) -> bool:
    """Whether the element at ``seg`` under ``path`` is, or is inside, a feed's item."""
    return any(
        _tag_of(c) in _FEED_ITEMS
        for s in (*path, seg)
        if s.startswith(("el:", "els:"))
        for c in split_compounds(s[s.index(":") + 1 :])
    )


def _tag_of(compound: str) -> str:
    match = _parsed(compound)
    return match.group(1) if match else ""


def _feed_item(tag: str, index: int) -> str:
    """An RSS ``<item>`` or Atom ``<entry>`` the code takes whole (printed, ``str()``): the
    children every feed's items have."""
    title = escape(str(plausible("title", index)))
    summary = escape(str(plausible("description", index)))
    link = f"https://example.org/items/{index + 1}"
    if tag == "entry":
        return (
            f'<title>{title}</title><link href="{link}"/><id>{link}</id>'
            f"<updated>2024-01-0{index % 9 + 1}T08:00:00Z</updated><summary>{summary}</summary>"
        )
    return (
        f"<title>{title}</title><link>{link}</link><description>{summary}</description>"
        f"<pubDate>Mon, 0{index % 9 + 1} Jan 2024 08:00:00 GMT</pubDate>"
    )


def _children(ctx: Any, tree: dict[str, Any], path: tuple[str, ...]) -> str:
    # ``for child in root: ... child.attrib["value"]``: what is read of every child
    shared = {k: v for k, v in tree.get("index", {}).items() if k.startswith("key:")}
    if ctx.xml and "index" in tree and not any(k.startswith(("el:", "els:")) for k in tree):
        tree = {**tree, "els:*": tree["index"]}  # ``root[0][1]``: two ``<item>`` (and theirs)
    out = []
    for seg, subtree in tree.items():
        if seg.startswith("el:"):
            out.append(_element(ctx, seg, {**shared, **subtree}, path, 1))
        elif seg.startswith("els:"):
            out.append(_element(ctx, seg, {**shared, **subtree}, path, 2))
    return "".join(out)


class _Ctx:
    def __init__(
        self, site: int, hints: Any, regexes: Any, salt: int, xml: bool, probes: Any
    ) -> None:
        self.site, self.hints, self.salt, self.xml = site, hints, salt, xml
        self.probes = probes or {}
        self.folder = "/"  # the page's own folder, where its links are drafted
        self.origin = "https://example.org"  # the page's scheme and host
        # keyed without ``index``: ``card.select_one("span.pay")`` in a loop over cards reads
        # (els:card, index, el:span.pay) while the element is drawn at (els:card, el:span.pay)
        self.regexes = {(s, _unindexed(p)): r for (s, p), r in regexes.items()}
        bound = {(s, p[:-1]): n for (s, p), n in hints.items() if p[-1:] == (BOUND,)}
        self.bound = {(s, _unindexed(p)): n for (s, p), n in bound.items()}
        self.joined = {(s, _unindexed(p)) for (s, p) in hints if p[-1:] == (JOINED,)}


def _unindexed(path: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(seg for seg in path if seg != "index")


def render_markup(
    tree: dict[str, Any],
    root: str,
    site: int,
    hints: dict[tuple[int, tuple[str, ...]], str],
    regexes: dict[tuple[int, tuple[str, ...]], str],
    salt: int = 0,
    probes: Mapping[tuple[int, tuple[str, ...]], Mapping[Probe, None]] | None = None,
    page: str = "",
) -> str:
    """The document for the selector tree under ``root`` (``"html"`` or ``"xml"``);
    ``probes``: literals the code looks for in texts (:mod:`automock.drafting.text_probes`),
    the document's own text's in a ``<pre>``; ``page``: its URL (links sit beside it)."""
    ctx = _Ctx(site, hints, regexes, salt, root == "xml", probes)
    where = urlsplit(page)
    ctx.folder = where.path.rpartition("/")[0] + "/"
    if where.scheme and where.netloc:
        ctx.origin = f"{where.scheme}://{where.netloc}"
    body = _children(ctx, tree, (root,)) + _own_text(ctx, root)
    if root == "xml":  # no encoding in the declaration: lxml refuses one in a str
        attrs = "".join(
            f' {k[4:]}="{escape(str(plausible(k[4:], salt)))}"'
            for k in tree
            if k.startswith("key:")
        )
        return f'<?xml version="1.0"?>\n<root{attrs}>{body}</root>\n'
    title = escape(text_for("title", None, salt, None))
    named = (split_compounds(k[k.index(":") + 1 :]) for k in tree if ":" in k)
    if any(len(c) == 1 and _tag_of(c[0]) == "title" for c in named):
        title = ""  # the code's own ``title`` (``//title``) is the page's title
    head = f"<title>{title}</title>" if title else ""
    return f"<!DOCTYPE html>\n<html><head>{head}</head><body>{body}</body></html>\n"


def _own_text(ctx: Any, root: str) -> str:
    """The text the code searches in the whole document: its probes and regex matches."""
    path = (root, "attr:text")
    lines = [probe_records(ctx.probes.get((ctx.site, path)), ctx.salt)]
    lines += [
        sample(pattern, ctx.salt + i) or ""
        for (site, where), pattern in sorted(ctx.regexes.items())
        if site == ctx.site and where[:2] == path
        for i in range(2)
    ]
    text = "\n".join(line.strip("\n") for line in lines if line)
    return f"<pre>{escape(text)}</pre>" if text else ""


_COLUMNS = ("name", "value", "date")


def render_csv(
    tree: dict[str, Any],
    site: int,
    hints: dict[tuple[int, tuple[str, ...]], str],
    salt: int = 0,
    regexes: Mapping[tuple[int, tuple[str, ...]], str] | None = None,
) -> str:
    """A CSV text for a reader over the response (``csv`` root): a header of the columns the
    code reads by name (else three plausible ones), then two rows, in the reader's delimiter."""
    sep = next((k[4:] for k in tree if k.startswith("sep:")), ",")
    rows = {**tree.get("index", {}), **tree.get("key:*", {})}
    names = [k[4:] for k in rows if k.startswith("key:") and k != "key:*"] or list(_COLUMNS)
    width = max((int(k[6:]) for k in rows if k.startswith("count:")), default=0)
    names += [f"column{i + 1}" for i in range(len(names), width)]  # ``row[8]``: nine columns
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\n")
    writer.writerow(names)
    # each column's hint and kept text by its name, else its position (``float(row[2])``)
    keys = [(f"key:{n}", f"pos:{at}") for at, n in enumerate(names)]
    hint, kept = (
        [m.get((site, ("csv", "index", k))) or m.get((site, ("csv", "index", p))) for k, p in keys]
        for m in (hints, regexes or {})
    )
    for i in range(2):
        cells = zip(names, hint, kept, strict=True)
        writer.writerow([text_for(n, h, i + salt, r) for n, h, r in cells])
    return out.getvalue()


# feedparser's names for RSS 2.0 elements (``entry.published`` is ``<pubDate>``)
_FEED_ELEMENTS = {
    "published": "pubDate",
    "updated": "pubDate",
    "published_parsed": "pubDate",
    "updated_parsed": "pubDate",
    "summary": "description",
    "subtitle": "description",
    "summary_detail": "description",
    "title_detail": "title",
    "id": "guid",
    "author": "dc:creator",
    "tags": "category",
}
_FEED_SKIP = ("links", "guidislink", "authors", "author_detail", "content")


def _feed_fields(tree: dict[str, Any], index: int, origin: str) -> str:
    keys = {
        k[4:] for k in {**tree, **tree.get("index", {})} if k.startswith("key:") and k != "key:*"
    }
    names = sorted(
        {_FEED_ELEMENTS.get(k, k) for k in keys if k not in _FEED_SKIP} | {"title", "link"}
    )
    out = []
    if "content" in keys:  # ``entry.content[0].value``: the item's full text
        out.append(f"<content:encoded>{escape(sentence('content', index))}</content:encoded>")
    for name in names:
        if name == "pubDate":
            value = rfc_date(index)
        elif name == "link":  # on the feed's own site
            value = f"{origin}/items/{index + 1}"
        else:
            value = text_for(name.split(":")[-1], None, index, None)
        out.append(f"<{name}>{escape(value)}</{name}>")
    return "".join(out)


def render_feed(tree: dict[str, Any], salt: int = 0, page: str = "") -> str:
    """An RSS 2.0 feed for feedparser's result (``feed`` root): the channel fields read under
    ``feed``, two items (or as many as the code indexes) with the fields read of
    ``entries``/``items``; ``page``: the feed's URL, whose site its links are on."""
    where = urlsplit(page)
    origin = f"{where.scheme}://{where.netloc}" if where.netloc else "https://feed.example"
    entries = {**tree.get("key:entries", {}), **tree.get("key:items", {})}
    n = max([2, *(int(k[6:]) for k in entries if k.startswith("count:") and k[6:].isdigit())])
    items = "".join(f"<item>{_feed_fields(entries, salt + i, origin)}</item>" for i in range(n))
    channel = _feed_fields(tree.get("key:feed", {}), salt, origin)
    return (
        '<?xml version="1.0"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"'
        ' xmlns:content="http://purl.org/rss/1.0/modules/content/">'
        f"<channel>{channel}{items}</channel></rss>\n"
    )
