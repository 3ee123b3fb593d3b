"""The name a page's text is bound to: ``usd = cells[1].text`` says what the cell holds.

A scraper names what it reads: ``price = row.find("td").text``, ``country = cells[0].text``,
``prices = tree.xpath("//span/text()")``. When the element's own tag and class say nothing
of its text (a ``<td>``, a ``<span>``), the variable's name does, as a JSON key's name
does (:mod:`automock.drafting.values`). :func:`note_bound` records the name beside the
element's path (under a ``bound`` step that no read of the code ever makes);
:mod:`automock.drafting.markup` drafts the element's text for that name. Two names bound
to one element's text (``country = cells[0].text``, ``rate = cells[1].text``) cancel out.
"""

from __future__ import annotations

from typing import Any

from automock.drafting.literals import Ref

__all__ = ["BOUND", "note_bound"]

BOUND = "bound"


def note_bound(flow: Any, name: str, value: Any) -> None:
    """``name = <an element's text>`` (or a list of texts, ``prices = [...]``: ``price``)."""
    if not isinstance(value, Ref) or value.wrap > 1 or value.path[:1] not in (("html",), ("xml",)):
        return
    if value.path[-1:] != ("attr:text",) or len(name) < 3 or name.startswith("_"):
        return
    if value.wrap and name.endswith("ies"):  # ``cities``: each a ``city``
        name = name[:-3] + "y"
    elif value.wrap and name.endswith("s"):
        name = name[:-1]
    key = (value.site, (*value.path[:-1], BOUND))
    held = flow.hints.setdefault(key, name.lower())
    if held != name.lower():  # ``country = cells[0].text``, ``rate = cells[1].text``: neither
        flow.hints[key] = ""
