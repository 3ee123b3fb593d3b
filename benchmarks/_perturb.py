"""A plan's response values changed to others of the same shape, for the flow measure.

``drafting_oos.py --flow`` asks whether a program's output came from the drafted responses
at all: it runs the program again on the drafted plan with every value changed to another
of the same shape, and the output must change. Same shape means what a parser and a
format string see stays valid: letters of plain words of four letters or more are rotated (case kept; shorter ones
are mostly units and small words: ``mph``, ``to``), the last
digit of a standalone number moves by one, and anything that reads as structure is left
alone (URLs and paths, month and weekday names, tokens mixing digits with ``-:/.T``,
words in a JSON key, HTML and XML markup, a CSV header, an ``id``/``page``/``count``
field). A value the program only passes on (a paging link, an id it sends back) keeps
the program on the same path; a value it prints changes what it prints.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

__all__ = ["perturbed_plan"]

_CALENDAR = {
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
    "january", "february", "march", "april", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday", "am", "pm", "utc", "gmt", "true", "false", "null", "none",
}  # fmt: skip
# fields a program follows, counts or sends back, never prints as its data (by exact name)
_STRUCTURAL = frozenset(
    {"id", "page", "pages", "total", "total_pages", "totalpages", "per_page", "perpage"}
    | {"limit", "offset", "next", "prev", "previous", "cursor", "next_url", "next_page"}
    | {"nextpage", "has_more", "status", "code", "type", "kind", "version"}
)
_TOKEN = re.compile(r"\S+")
_WORD = re.compile(r"^([\"'(\[]*)([A-Za-z]{4,})([\"')\].,;:!?]*)$")
_DIGITS = re.compile(r"\d+")
_JOINED = re.compile(r"^[\"'(\[]*[A-Za-z]+(?:[-_][A-Za-z]+)+[\"')\].,;:!?]*$")


def _rotate(word: str) -> str:
    out = []
    for ch in word:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + 7) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + 7) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)


def _bump(digits: str) -> str:
    """The last two digits one lower (one higher from 00 or 01), so a day, hour, minute or
    month stays valid: 31 -> 30, 01 -> 02, 10 -> 09."""
    head, tail = digits[:-2], digits[-2:]
    value = int(tail)
    moved = value - 1 if value >= 2 else value + 1
    return head + str(moved).zfill(len(tail))


def _token(token: str, stubbed: tuple[str, ...]) -> str:
    if "://" in token or token.startswith(("/", "www.")):
        return _link(token, stubbed)
    if token.startswith("#") or "@" in token:
        return token
    word = _WORD.match(token)
    if word:
        return word.group(1) + _keep_calendar(word.group(2)) + word.group(3)
    if _JOINED.match(token):  # placeholder-like words joined by - or _ (pt-gamma)
        return re.sub(r"[A-Za-z]{4,}", lambda m: _keep_calendar(m.group(0)), token)
    runs = list(_DIGITS.finditer(token))
    if runs:  # a number, a date, a time, an address: its last number moves
        last = runs[-1]
        return token[: last.start()] + _bump(last.group(0)) + token[last.end() :]
    return token


def _keep_calendar(word: str) -> str:
    return word if word.lower() in _CALENDAR else _rotate(word)


def _link(token: str, stubbed: tuple[str, ...]) -> str:
    """A link no stub answers (the program cannot have followed it): the letters of its last
    path segment's stem change; one a stub answers is left for the program to follow."""
    bare = token.strip("\"'()[]<>,;")
    if not bare or any(bare.startswith(url) or url.endswith(bare) for url in stubbed):
        return token
    cut = bare.rstrip("/").rfind("/") + 1
    stem, dot, ext = bare[cut:].partition(".") if "?" not in bare[cut:] else (bare[cut:], "", "")
    changed = bare[:cut] + _rotate(stem) + dot + ext
    return token.replace(bare, changed, 1)


def _words(text: str, stubbed: tuple[str, ...] = ()) -> str:
    """Plain text with its words, numbers and unanswered links changed, spacing kept."""
    return _TOKEN.sub(lambda m: _token(m.group(0), stubbed), text)


def _markup(text: str, stubbed: tuple[str, ...]) -> str:
    """HTML or XML: the text between tags changes, and links no stub answers."""
    text = re.sub(r">([^<]+)<", lambda m: ">" + _words(m.group(1), stubbed) + "<", text)
    text = re.sub(
        r"(href|src)=\"([^\"]+)\"", lambda m: f'{m.group(1)}="{_link(m.group(2), stubbed)}"', text
    )
    return re.sub(  # words a page shows in its attributes (an icon's title, an image's alt)
        r"(title|alt)=\"([^\"]+)\"", lambda m: f'{m.group(1)}="{_words(m.group(2), stubbed)}"', text
    )


def _csv(text: str, stubbed: tuple[str, ...]) -> str:
    """A header line kept; each later cell changed as its own text."""
    lines = text.split("\n")
    rows = [",".join(_words(cell, stubbed) for cell in line.split(",")) for line in lines[1:]]
    return "\n".join(lines[:1] + rows)


def _text(text: str, content_type: str, stubbed: tuple[str, ...]) -> str:
    stripped = text.strip()
    parsed = _json_text(stripped)
    if parsed is not None:  # JSON served as text, or one JSON document a line (NDJSON)
        docs = [json.dumps(_json(doc, stubbed)) for doc in parsed]
        return "\n".join(docs) + ("\n" if text.endswith("\n") else "")
    if stripped.startswith("<") or "html" in content_type or "xml" in content_type:
        return _markup(text, stubbed)
    first = stripped.split("\n", 1)[0]
    if "csv" in content_type or ("," in first and "\n" in stripped):
        return _csv(text, stubbed)
    return _words(text, stubbed)


def _json_text(text: str) -> list[Any] | None:
    if not text.startswith(("{", "[")):
        return None
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    try:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError:
        return None


def _json(value: Any, stubbed: tuple[str, ...], key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: _json(v, stubbed, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v, stubbed, key) for v in value]
    if key.lower() in _STRUCTURAL or isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value + 1 if abs(value) > 1 else value
    if isinstance(value, float):
        return round(value + 0.1, 6)
    if isinstance(value, str):
        return _words(value, stubbed)
    return value


def _response(data: dict[str, Any], stubbed: tuple[str, ...]) -> dict[str, Any]:
    out = dict(data)
    headers = {str(k).lower(): str(v) for k, v in (out.get("headers") or {}).items()}
    if "json" in out:
        out["json"] = _json(out["json"], stubbed)
    if isinstance(out.get("text"), str):
        out["text"] = _text(out["text"], headers.get("content-type", ""), stubbed)
    if isinstance(out.get("sequence"), list):
        out["sequence"] = [_response(item, stubbed) for item in out["sequence"]]
    return out


def perturbed_plan(plan: dict[str, Any]) -> dict[str, Any]:
    """``plan`` with every ``stub_http`` response's values changed (see the module)."""
    out = copy.deepcopy(plan)
    stubs = [e for e in out.get("entries", []) if e.get("strategy") == "stub_http"]
    stubbed = tuple(
        str(e["data"].get("url", "")).split("?")[0]
        for e in stubs
        if isinstance(e.get("data"), dict) and e["data"].get("url")
    )
    for entry in stubs:
        if isinstance(entry.get("data"), dict):
            entry["data"] = _response(entry["data"], stubbed)
    return out
