"""Values derived from one seed, with nothing but SHA-256.

Kept apart from :mod:`automock.runtime` (which imports ``random`` and
``uuid`` to patch them) so the CLI can compute a child's ``PYTHONHASHSEED``
before it imports anything heavy (:mod:`automock.commands._hashseed`).
"""

from __future__ import annotations

from automock._sha256 import sha256

__all__ = ["derive", "hash_seed_for"]


def derive(seed: int, *parts: object) -> int:
    """A 64-bit integer derived from ``seed`` and a label (stable across runs)."""
    digest = sha256(repr((int(seed), *parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def hash_seed_for(seed: int) -> str:
    """The ``PYTHONHASHSEED`` value a fresh interpreter should get for ``seed``.

    Only a new interpreter honours it: str/bytes hashing (and so set and
    dict-of-str iteration order) is fixed at interpreter start-up.
    """
    return str(derive(seed, "PYTHONHASHSEED") % 4_294_967_296)
