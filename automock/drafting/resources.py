"""The fields a record of a common REST resource usually has, by the resource's noun.

A body printed whole tells nothing of its fields, but its URL names the resource
(``/posts``, ``/users/3``, ``/events``), and records of the common resources hold much the
same fields on every host: a post a title, a body and its author's id and a date; a user a
name, a username and an email; a quote its author and its text; an event its type (a
``CamelCase`` word ending in ``Event``), who acted, on what, and when. Those records are
drafted with such fields, valued by :func:`automock.drafting.values.plausible` under a key
that gives the right shape (a quote's ``body`` is a sentence, not a phrase); any other noun
gets None, and the caller a record with a ``name`` or a ``title``.
"""

from __future__ import annotations

from typing import Any

from automock.drafting.values import plausible, word

__all__ = ["resource_fields", "resource_noun"]

# noun: (field, the key its value is drafted by), in the order a real record lists them
_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "post": (("userId", "user_id"), ("title", "title"), ("body", "quote"),
             ("created_at", "created_at")),
    "article": (("title", "title"), ("author", "author"), ("body", "quote"),
                ("published_at", "published_at")),
    "comment": (("postId", "post_id"), ("name", "title"), ("email", "email"),
                ("body", "quote")),
    "todo": (("userId", "user_id"), ("title", "title"), ("completed", "is_done")),
    "album": (("userId", "user_id"), ("title", "title")),
    "photo": (("albumId", "album_id"), ("title", "title"), ("url", "url"),
              ("thumbnailUrl", "thumbnail_url")),
    "user": (("name", "realname"), ("username", "username"), ("email", "email")),
    "person": (("name", "realname"), ("birth_year", "year"), ("email", "email")),
    "member": (("name", "realname"), ("username", "username"), ("email", "email")),
    "customer": (("name", "realname"), ("email", "email"), ("city", "city")),
    "employee": (("name", "realname"), ("email", "email"), ("salary", "amount")),
    "quote": (("author", "author"), ("body", "quote")),
    "joke": (("setup", "setup"), ("punchline", "punchline")),
    "fact": (("text", "fact"),),
    "product": (("title", "title"), ("price", "price"), ("category", "category")),
    "book": (("title", "title"), ("author", "author"), ("year", "published_year")),
    "movie": (("title", "title"), ("year", "release_year"), ("rating", "score_rating")),
    "task": (("title", "title"), ("completed", "is_done"), ("due_date", "due_date")),
    "order": (("customer_id", "customer_id"), ("total", "amount"), ("status", "status"),
              ("created_at", "created_at")),
    "message": (("sender", "author"), ("text", "text"), ("sent_at", "sent_at")),
}  # fmt: skip
# a collection's last path segment that is not its noun plus ``s``
_IRREGULAR = {"people": "person", "persons": "person", "staff": "employee"}
# kinds of events, named as event APIs name them
_EVENT_TYPES = ("PushEvent", "CreateEvent", "IssuesEvent", "WatchEvent", "ForkEvent")


def resource_noun(segment: str) -> str | None:
    """The noun a path segment names a collection of (``people``: ``person``), when it is
    one this module knows fields for, else None."""
    lowered = segment.lower()
    if lowered in _IRREGULAR:
        return _IRREGULAR[lowered]
    noun = lowered[:-1] if lowered.endswith("s") else ""
    return noun if noun in _FIELDS or noun == "event" else None


def resource_fields(noun: str, salt: int, index: int) -> dict[str, Any] | None:
    """The fields (all but ``id``) of the ``index``-th record of the resource ``noun``, or
    None when it is not a common one."""
    if noun == "event":
        return {
            "type": _EVENT_TYPES[(salt + index) % len(_EVENT_TYPES)],
            "actor": {"id": 100 + index, "login": word("login", salt + index).lower()},
            "repo": {"id": 200 + index, "name": f"example/{word('repo', salt + index).lower()}"},
            "created_at": plausible("created_at", salt + index),
        }
    fields = _FIELDS.get(noun)
    if fields is None:
        return None
    record: dict[str, Any] = {}
    for field, key in fields:
        if key == "score_rating":  # a film's or a book's rating: out of ten, one decimal
            record[field] = round(5 + int(plausible(key, salt + index, "int")) % 45 / 10, 1)
        elif key.endswith("_id"):
            record[field] = 1 + (salt + index) % 10
        else:
            record[field] = plausible(key, salt + index)
    return record
