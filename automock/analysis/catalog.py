"""The API catalog: which qualified names are touchpoints, of which kind, and why.

The table itself is in :mod:`automock.analysis.apis`: to teach the scanner a
new API, add its fully qualified name to the right ``_group`` call there (or a
``module.*`` wildcard that covers every attribute of a module), and, if calling
it returns an object whose methods are touchpoints too, map it to that
object's type in ``RETURNS`` here.

Lookup is by longest dotted prefix: ``os.environ`` also covers
``os.environ.get``; an exact entry beats a wildcard; names in
``DETERMINISTIC`` are never touchpoints even when a wildcard covers them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from automock.analysis.apis import CATALOG, Api

__all__ = [
    "BUILTIN_NAMES",
    "CATALOG",
    "DETERMINISTIC",
    "PROPERTIES",
    "RETURNS",
    "ROOT_MODULES",
    "Api",
    "all_prefixes",
    "lookup",
]


# Covered by a wildcard in CATALOG, but deterministic (or only a type/constant).
DETERMINISTIC: Final[frozenset[str]] = frozenset(
    {
        "secrets.compare_digest",
        "numpy.random.Generator",
        "numpy.random.BitGenerator",
        "random.SystemRandom.seed",
    }
)

# Calls (or attributes) whose result is an object worth following: a method
# call on a name bound to it resolves to ``<type>.<method>`` in CATALOG.
RETURNS: Final[Mapping[str, str]] = {
    "random.Random": "random.Random",
    "random.SystemRandom": "random.SystemRandom",
    "numpy.random.default_rng": "numpy.random.Generator",
    "numpy.random.RandomState": "numpy.random.RandomState",
    "requests.Session": "requests.Session",
    "requests.session": "requests.Session",
    "requests.sessions.Session": "requests.Session",
    "httpx.Client": "httpx.Client",
    "httpx.AsyncClient": "httpx.AsyncClient",
    "aiohttp.ClientSession": "aiohttp.ClientSession",
    "urllib.request.build_opener": "urllib.request.OpenerDirector",
    "pathlib.Path": "pathlib.Path",
    **{
        f"pathlib.Path.{m}": "pathlib.Path"
        for m in (
            "parent",
            "resolve",
            "absolute",
            "cwd",
            "home",
            "joinpath",
            "with_name",
            "with_suffix",
            "with_stem",
            "expanduser",
        )
    },
}

# Keys of RETURNS that are attributes (properties), not calls.
PROPERTIES: Final[frozenset[str]] = frozenset({"pathlib.Path.parent"})


def _roots() -> frozenset[str]:
    names = {name.split(".", 1)[0] for name in CATALOG}
    names.discard("builtins")
    return frozenset(names)


# Top-level modules the catalog mentions: a file importing none of them (and
# using no builtin from the catalog) cannot have touchpoints.
ROOT_MODULES: Final[frozenset[str]] = _roots()

_BUILTINS: Final[frozenset[str]] = frozenset(
    name.split(".", 1)[1] for name in CATALOG if name.startswith("builtins.")
)


def lookup(qualified: str) -> tuple[str, Api] | None:
    """The catalog entry covering ``qualified`` (longest prefix wins), or ``None``.

    Returns the matched catalog key and its :class:`Api`.
    """
    if qualified in DETERMINISTIC:
        return None
    parts = qualified.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        api = CATALOG.get(prefix)
        if api is not None:
            return prefix, api
        if end < len(parts):
            api = CATALOG.get(prefix + ".*")
            if api is not None:
                return prefix + ".*", api
    return None


def all_prefixes() -> frozenset[str]:
    """Every dotted prefix of a catalog or RETURNS name (``numpy``, ``numpy.random``, ...)."""
    return _PREFIXES


def _prefixes() -> frozenset[str]:
    out: set[str] = set()
    for name in (*CATALOG, *RETURNS):
        parts = name.removesuffix(".*").split(".")
        for end in range(1, len(parts) + 1):
            out.add(".".join(parts[:end]))
    return frozenset(out)


_PREFIXES: Final[frozenset[str]] = _prefixes()
BUILTIN_NAMES: Final[frozenset[str]] = _BUILTINS
