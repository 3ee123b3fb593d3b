"""Bodies a program reads only whole (printed, saved, returned): shaped by their URL.

Nothing in the code says what is inside such a body, but its URL usually names the
resource: ``/posts/1`` is one post, ``/users`` a collection of users. A JSON body is then
a record of that resource (the fields a common one usually has, :mod:`resources`; else a
``title`` for a document-like one, a ``name`` otherwise), a list of two records for a
collection; a web page printed whole is a small HTML document
with a ``<title>``, as every page has; a file with another extension is plain text, a few
lines of words.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from automock.drafting.catalog import known_body
from automock.drafting.resources import resource_fields, resource_noun
from automock.drafting.values import plausible

__all__ = ["leaf_key", "whole_body", "whole_json", "whole_page", "whole_record", "whole_text"]

# resources whose records are titled documents rather than named things
_TITLED = frozenset(
    ("post", "todo", "article", "book", "album", "photo", "story", "movie", "film", "song",
     "task", "note", "issue", "video", "episode", "recipe", "question", "product", "entry")
)  # fmt: skip
# resources whose records are people: a record's ``name`` is a first and a last name
_PEOPLE = frozenset(
    ("people", "person", "persons", "user", "users", "member", "members", "employee",
     "employees", "author", "authors", "character", "characters", "customer", "customers",
     "student", "students", "contact", "contacts", "player", "players", "actor", "actors",
     "astronaut", "astronauts", "staff", "teacher", "teachers", "patient", "patients")
)  # fmt: skip
# a text file's lines: a few plain words each, as the lines of a poem or a notes file are
_LINES = (
    "The river turned silver before the storm came in",
    "Every lighthouse on this coast has its own keeper",
    "The old library keeps its maps in a cold room",
    "Most of the town walks to the market on Saturdays",
)
# file extensions of a web page (any other names a file served as it is)
_PAGES = ("", ".html", ".htm", ".php", ".asp", ".aspx", ".jsp", ".shtml")


def _segments(url: str) -> list[str]:
    return [s for s in urlsplit(url).path.split("/") if s]


def _singular(segment: str) -> str | None:
    """The resource a plural path segment names (``todos``: ``todo``), else None
    (``status``, ``news``, ``analysis``)."""
    known = resource_noun(segment)
    if known is not None:
        return known
    plural = segment.isalpha() and segment.endswith("s") and len(segment) > 3
    return segment[:-1] if plural and not segment.endswith(("ss", "us", "is", "ws")) else None


def _record(noun: str, salt: int, index: int) -> dict[str, Any]:
    fields = resource_fields(noun, salt, index)
    if fields is not None:  # a common resource: the fields its records usually have
        return {"id": plausible("id", index), **fields}
    field = "title" if noun in _TITLED else "name"
    value = plausible("realname" if noun in _PEOPLE else field, salt + index)
    return {"id": plausible("id", index), field: value}


def leaf_key(request: str, name: str) -> str:
    """The name a leaf ``name`` of the body of ``request`` (``"GET https://..."``) is drafted
    by: a ``name`` in a body of people (``/people/``, ``/users/3``) is a person's full name
    (``realname``), any other key itself."""
    if name != "name":
        return name
    last_two = _segments(request.rpartition(" ")[2])[-2:]
    return "realname" if any(s.lower() in _PEOPLE for s in last_two) else name


def whole_json(url: str, salt: int, method: str = "GET") -> Any:
    """A JSON body read only whole, for a request to ``url``: a well-known API's shape
    (:mod:`automock.drafting.catalog`), else one record of the resource its path names (``/posts/1``, or the one a POST to ``/posts`` creates), two of a
    collection fetched (``GET /posts``)."""
    known = known_body(url)
    if known is not None:  # a well-known API's endpoint: the shape it answers with
        return known.body
    segments = _segments(url)
    last = segments[-1] if segments else ""
    noun = _singular(last)
    if noun is not None and method == "GET":
        return [_record(noun, salt, i) for i in range(2)]
    if noun is not None:
        return _record(noun, salt, 0)
    before = _singular(segments[-2]) if len(segments) > 1 and not last.isalpha() else None
    return _record(before or "", salt, 0)


def whole_body(request: str, salt: int, pointer: str, guessed: list[str]) -> Any:
    """The JSON body at ``pointer`` for ``request`` (``"GET https://..."``), read only whole,
    as a JSON API's body most often is (a scalar prints as a lone number, which no reader
    of the output takes for data); its pointers added to ``guessed``, the whole one first
    (rules.py shapes it again by the URL a run shows)."""
    method, _, url = request.rpartition(" ")
    body = whole_json(url, salt, method or "GET")
    records = body if isinstance(body, list) else [body]
    guessed.append(pointer)
    guessed.extend(
        f"{pointer}{'' if r is body else f'/{i}'}/{key}"
        for i, r in enumerate(records)
        if isinstance(r, dict)
        for key in r
    )
    return body


def whole_record(ctx: Any, path: tuple[str, ...]) -> dict[str, Any]:
    """A JSON body read only as an object (its keys listed, its items printed): one record of
    the resource its URL names (``ctx``: the request, salt and guessed pointers being
    drafted); an object inside the body the code never looks into stays empty."""
    if path:
        return {}
    method, _, url = ctx.url.rpartition(" ")
    body = whole_json(url, ctx.salt, method or "GET")
    record = body[0] if isinstance(body, list) and body else body
    if not isinstance(record, dict):
        return {}
    ctx.guessed.extend(f"/json/{key}" for key in record)
    return record


def whole_page(url: str, salt: int) -> str | None:
    """A web page read only whole: an HTML document with a title, or None when ``url``
    names a file of another kind (``words.txt``)."""
    last = _segments(url)[-1:] or [""]
    dot = last[0].rfind(".")
    if (last[0][dot:].lower() if dot > 0 else "") not in _PAGES:
        return None
    title = plausible("title", salt)
    return (
        f"<!DOCTYPE html>\n<html><head><title>{title}</title></head>"
        f"<body><p>example response text</p></body></html>\n"
    )


def whole_text(salt: int) -> str:
    """A plain-text file nothing in the code shapes (``notes.txt`` printed, iterated by line
    or split into words): three lines of a few words each."""
    return "".join(_LINES[(salt + i) % len(_LINES)] + "\n" for i in range(3))
