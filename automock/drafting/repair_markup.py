"""Repairs of HTML bodies: an element for a BeautifulSoup selector that found nothing.

Part of the drafting loop's rules (:mod:`automock.drafting.repair`): the element is
rendered by the markup drafter (:func:`automock.drafting.markup.render_markup`) and put
inside each tag the search started from, else at the end of the body.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from automock.drafting.markup import css_of_find, render_markup

__all__ = ["css_of_record", "describe_selector", "quiet_selector", "repair_selector"]


def css_of_record(record: Mapping[str, Any]) -> str:
    """The CSS selector a selector observation searched for (``select``'s, or ``find``'s
    tag and attributes as CSS)."""
    css = record.get("css")
    if isinstance(css, str):
        return css
    attrs = record.get("attrs")
    tag = record.get("tag")
    return css_of_find(
        tag if isinstance(tag, str) else "", attrs if isinstance(attrs, dict) else {}
    )


def quiet_selector(record: Mapping[str, Any]) -> bool:
    """Whether a selector finding nothing is how a healthy page looks: an error element, or
    a next-page link on a later page of a ``sequence`` (the page that ends a paging loop)."""
    css = css_of_record(record).lower()
    later = type(record.get("response")) is int and int(record["response"]) > 0
    return "error" in css or (later and re.search(r"\bnext\b", css) is not None)


def describe_selector(record: Mapping[str, Any]) -> str:
    """A selector observation in words ("" when finding nothing is how the page looks)."""
    css = css_of_record(record)
    return "" if quiet_selector(record) else f"{record.get('call')}({css!r}) found nothing"


def repair_selector(response: dict[str, Any], prefix: str, record: Mapping[str, Any]) -> list[str]:
    """A selector that found nothing in ``response``'s HTML ``text``: an element it matches
    is added (inside each tag the search started from, else at the end of the body); the
    pointers changed (``prefix`` + ``/text``)."""
    text = response.get("text")
    css = css_of_record(record)
    if not isinstance(text, str) or not css or quiet_selector(record):
        return []
    plural = record.get("call") in ("find_all", "select")
    document = render_markup({("els:" if plural else "el:") + css: {}}, "html", 0, {}, {})
    inner = _with_text(document.split("<body>", 1)[-1].rsplit("</body>", 1)[0], record)
    within = record.get("within")
    if isinstance(within, str) and within:  # inside each element the search started from
        changed = _inside(text, within, inner)
        if changed == text:
            return []
        response["text"] = changed
        return [f"{prefix}/text"]
    at = text.rfind("</body>")
    response["text"] = text[:at] + inner + text[at:] if at >= 0 else text + inner
    return [f"{prefix}/text"]


def _with_text(inner: str, record: Mapping[str, Any]) -> str:
    """``inner`` with its elements' text what a ``string=`` filter of the search matches
    (a sample of its regular expression, or the string itself)."""
    from html import escape

    from automock.drafting.regex_sample import sample

    wanted = record.get("string")
    if not isinstance(wanted, str) or len(wanted) > 200:
        return inner
    text = sample(wanted) if record.get("regex") is True else wanted
    if text is None:
        return inner
    return re.sub(r">[^<]+</", lambda _: f">{escape(text, quote=False)}</", inner)


def _inside(text: str, compound: str, inner: str) -> str:
    """``text`` with ``inner`` added at the start of each element matching ``compound``."""
    found = re.fullmatch(r"([\w-]+)((?:\.[\w-]+)*)(?:#([\w-]+))?", compound)
    if found is None:
        return text
    tag, classes = found[1], [c for c in found[2].split(".") if c]

    def add(opening: re.Match[str]) -> str:
        attrs = opening[0]
        cls = re.search(r'class="([^"]*)"', attrs)
        have = cls[1].split() if cls else []
        ident = re.search(r'id="([^"]*)"', attrs)
        if any(c not in have for c in classes) or (
            found[3] and (not ident or ident[1] != found[3])
        ):
            return attrs
        return attrs + inner

    return re.sub(rf"<{re.escape(tag)}\b[^>]*>", add, text)
