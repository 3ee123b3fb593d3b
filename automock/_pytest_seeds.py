"""The pytest plugin's session seed: what ``--automock-seed`` means.

Kept out of :mod:`automock.pytest_plugin` (which holds the hooks and fixtures) and, like it,
imports nothing heavy: pytest loads it at startup in every project with automock installed.
"""

from __future__ import annotations

from typing import Any

import pytest

__all__ = ["DEFAULT_SEED", "SEED_CACHE_KEY", "choose_session_seed"]

DEFAULT_SEED = 0  # the session seed without --automock-seed: `automock run`'s default
SEED_CACHE_KEY = "automock/seed"


def _fresh_seed() -> int:
    import os

    return int.from_bytes(os.urandom(4), "big")


def choose_session_seed(raw: str | None, cache: Any) -> tuple[int, str]:
    """The session seed for ``--automock-seed=raw`` and a note for the report header.

    ``None`` (no option) is :data:`DEFAULT_SEED`; ``"random"`` a fresh 32-bit seed;
    ``"last"`` the one ``cache`` (pytest's, or ``None``) kept from the previous run, else
    the default; anything else must be an integer >= 0 (else ``pytest.UsageError``).
    """
    if raw is None:
        return DEFAULT_SEED, ""
    if raw == "random":
        return _fresh_seed(), " (random)"
    if raw == "last":
        last = cache.get(SEED_CACHE_KEY, None) if cache is not None else None
        if isinstance(last, int):
            return last, " (last)"
        return DEFAULT_SEED, " (no previous seed in the cache; using the default)"
    try:
        seed = int(raw)
    except ValueError:
        raise pytest.UsageError(
            f"--automock-seed: expected an integer, 'random' or 'last', got {raw!r}"
        ) from None
    if seed < 0:
        raise pytest.UsageError(f"--automock-seed: expected a seed >= 0, got {seed}")
    return seed, ""
