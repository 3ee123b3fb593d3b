"""Every seed automock derives, from one scheme: SHA-256 of ``(seed, kind, *parts)``.

A derived seed names what it is for (``kind``), so two uses of one seed never
share a stream: the runtime's generators (``"random"``, ``"urandom"``,
``"numpy.random"``, ``"random.Random"`` with a counter, ...), the child
interpreter's ``"PYTHONHASHSEED"``, a pytest test (``"pytest test"`` with its
node id, :func:`automock.pytest_plugin.derive_seed`) and a property check's
seeded runs (``"property run"`` with the run's index,
:func:`automock.properties.distribution.derive_seed`).

Kept apart from :mod:`automock.runtime` (which imports ``random`` and
``uuid`` to patch them) so the CLI can compute a child's ``PYTHONHASHSEED``
before it imports anything heavy (:mod:`automock.commands.restart`).
"""

from __future__ import annotations

from automock._sha256 import sha256

__all__ = ["derive", "hash_seed_for"]


def derive(seed: int, kind: str, *parts: object, bits: int = 64) -> int:
    """A ``bits``-bit integer (at most 64) for ``kind`` and ``parts`` of ``seed``, stable across runs.

    It is the first ``bits`` bits of ``sha256(repr((seed, kind, *parts)))``.
    """
    if not 1 <= bits <= 64:
        raise ValueError(f"bits={bits}: expected 1 to 64")
    digest = sha256(repr((int(seed), kind, *parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - bits)


def hash_seed_for(seed: int) -> str:
    """The ``PYTHONHASHSEED`` value a fresh interpreter should get for ``seed``.

    Only a new interpreter honours it: str/bytes hashing (and so set and
    dict-of-str iteration order) is fixed at interpreter start-up.
    """
    return str(derive(seed, "PYTHONHASHSEED") % 4_294_967_296)
