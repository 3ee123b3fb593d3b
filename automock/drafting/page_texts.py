"""The text a page's element, a feed's field or a CSV column holds, chosen by its name.

:mod:`automock.drafting.markup` asks here for each element it draws. A text is what a
real page holds there: a few words in a heading, a page's title or a link, a word in a
cell or a label, a sentence in a paragraph, an amount with its currency sign for a price,
and, for an element or a class named after what it holds (``h3.teaser__heading``,
``div.short-desc``, a sitemap's ``<loc>``), a text of that kind rather than one made of
its name (``first-heading-beta``): a headline, a sentence, a URL; a day is printed as
people write it (``December 21, 2023``), a ``buyer-name`` is a person's full name.
"""

from __future__ import annotations

import re

from automock.drafting.regex_sample import sample
from automock.drafting.values import headline, plausible, sentence, word

__all__ = ["HOLDERS", "rfc_date", "says", "text_for"]


def rfc_date(index: int) -> str:
    """A feed's date as RSS writes it (RFC 822): ``Tue, 02 Jan 2024 09:00:00 GMT``."""
    day = index % 28 + 1  # 1 January 2024 was a Monday
    weekday = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")[(day - 1) % 7]
    return f"{weekday}, {day:02d} Jan 2024 09:00:00 GMT"


# an element named for money (``price_color``, ``item-cost``) holds an amount with cents
_MONEY = re.compile(r"(^|[-_])(price|cost|amount|fee|subtotal|salary)s?([-_]|$)", re.IGNORECASE)
# a rating shown on a page is a score out of ten or five with one decimal (``8.3``), where
# an API's ``rating`` is a player's (Elo-like) number in the thousands
_SCORE = re.compile(r"(^|[-_])(rating|imdb_rating|score_rating)$")
# elements whose text is a few words on a real page (a heading, a page's title, a link),
# a word (a cell, a label) or prose: their text is that, not a tag-named placeholder
_HEADED = frozenset(("h1", "h2", "h3", "h4", "title", "a"))
_WORDY = frozenset((
    "h5", "h6", "li", "th", "td", "dt", "dd", "option", "label", "button", "strong", "b",
    "em", "cite", "caption", "figcaption", "legend", "span",
))  # fmt: skip
_PROSE = frozenset(("p", "blockquote"))
HOLDERS = frozenset(["table", "thead", "tbody", "tfoot", "tr", "ul", "ol", "dl", "select"])
# words in an element's or a class's name that say what its text is
_NAMED_HEADLINE = frozenset(("title", "titles", "heading", "headline", "headlines", "subject"))
_NAMED_PROSE = frozenset((
    "desc", "description", "summary", "teaser", "excerpt", "snippet", "blurb", "abstract",
    "content", "body", "text", "lead", "intro",
))  # fmt: skip
# those of the words above that still say it glued after another word (``toctext``)
_GLUED_HEADLINE = ("title", "heading", "headline")
_GLUED_PROSE = ("text", "summary", "description", "excerpt", "snippet")
_NAMED_URL = frozenset(("loc", "url", "uri", "href", "link", "permalink"))


_ISO_DAY = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def _page_date(iso: str) -> str:
    """``2023-12-21`` as a page prints it: ``December 21, 2023``."""
    year, month, day = iso.split("-")
    return f"{_MONTHS[int(month) - 1]} {int(day)}, {year}"


def _by_words(name: str, index: int, tag: str | None) -> str | None:
    """A text for an element or class whose name's words say what it holds, else None (a
    link's text is words even when its class is ``link``)."""
    words = [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]
    if tag != "a" and any(w in _NAMED_URL for w in words[-1:]):
        return str(plausible("url", index))
    if any(w in _NAMED_HEADLINE for w in words):
        return headline(name, index)
    if any(w in _NAMED_PROSE for w in words):
        return sentence(name, index)
    glued = words[-1] if words else ""  # ``toctext``, ``cardtitle``: a word glued before it
    if any(glued.endswith(w) and len(glued) > len(w) + 1 for w in _GLUED_HEADLINE):
        return headline(name, index)
    if any(glued.endswith(w) and len(glued) > len(w) + 1 for w in _GLUED_PROSE):
        return sentence(name, index)
    return None


def text_for(
    name: str, hint: str | None, index: int, regex: str | None, tag: str | None = None
) -> str:
    """The text of a field or element called ``name``; ``tag``: the element's tag on a page
    (None for a CSV column or a feed's field, whose texts the code converts as they are)."""
    if regex is not None:
        found = sample(regex, index)
        if found is not None:
            return found
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    if hint in (None, "str") and _MONEY.search(snake):  # ``p.price_color``: an amount
        amount = f"{plausible('price', index, 'float'):.2f}"
        return amount if tag is None else "$" + amount  # a page shows its currency
    if tag and hint in (None, "str", "float") and _SCORE.search(snake.lower()):
        return f"{7 + index % 3}.{(3 + index * 7) % 10}"  # a film's or a product's score
    value = plausible(name.replace("-", "_"), index, hint if hint in ("float", "int") else None)
    if hint == "number" and not isinstance(value, int | float):
        value = plausible(name, index, "float")
    made = (name.replace("_", "-") + "-", snake.lower().replace("_", "-") + "-")
    placeholder = str(value).startswith(made)  # ``firstHeading``: ``first-heading-beta``
    words = [w for w in re.split(r"[^a-z0-9]+", snake.lower()) if w]
    if hint in (None, "str") and name.lower() in ("pubdate", "lastbuilddate"):
        return rfc_date(index)  # RSS's own dates
    if tag and hint in (None, "str") and words and words[-1] in ("posted", "published", "date"):
        return _page_date(f"2023-12-{index % 27 + 1:02d}")  # ``span.listing-posted``
    if tag and hint in (None, "str") and words[-1:] in (["location"], ["city"]):
        return str(plausible("city", index))  # ``span.listing-location``
    if tag and hint in (None, "str") and len(words) > 1 and words[-1] == "name":
        return str(plausible("author", index))  # ``div.buyer-name`` on a page: a full name
    if tag and hint in (None, "str") and _ISO_DAY.fullmatch(str(value)):
        return _page_date(str(value))  # a page prints a day as people write it
    if hint in (None, "str") and placeholder:
        named = _by_words(snake, index, tag)
        if named is not None:
            return named
    if tag and hint in (None, "str") and placeholder:
        if tag in _HEADED:  # a heading, a page's title or a link: a few words
            return headline(name, index)
        if tag in _WORDY:  # nothing in its name: ``<td>``/``<span>`` hold a word
            return word(name, index)
        if tag in _PROSE:
            return sentence(name, index)
    return str(value)


def says(name: str) -> bool:
    """Whether ``name`` says what its text is (``price``, ``country``, ``storyTitle``), as
    ``td``, ``div`` or ``item`` do not."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    value = str(plausible(snake.lower().replace("-", "_")))
    made = value.startswith(snake.lower().replace("_", "-") + "-")
    return not made or _MONEY.search(snake) is not None or _by_words(snake, 0, None) is not None
