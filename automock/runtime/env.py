"""A fixed process environment inside a block.

``fixed_environment(env)`` replaces the whole of ``os.environ`` (and so the
process environment child processes inherit) with ``env`` and restores the
previous contents on exit. The sandbox sets the environment when it spawns
the child anyway; this is for in-process use (the pytest plugin, the API).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from automock.runtime._base import Patch, Undo

__all__ = ["fixed_environment"]


def _replace(new: Mapping[str, str]) -> None:
    old_tz = os.environ.get("TZ")
    for key in list(os.environ):
        if key not in new:
            del os.environ[key]
    for key, value in new.items():
        if os.environ.get(key) != value:
            os.environ[key] = value
    if os.environ.get("TZ") != old_tz and hasattr(time, "tzset"):
        time.tzset()


class fixed_environment(Patch[Mapping[str, str]]):
    """Make ``os.environ`` exactly ``env`` for the block."""

    def __init__(self, env: Mapping[str, str]) -> None:
        super().__init__()
        for key, value in env.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise TypeError(f"environment entries must be str -> str, got {key!r}: {value!r}")
        self.env = dict(env)

    def _start(self, undo: Undo) -> Mapping[str, str]:
        saved = dict(os.environ)
        undo.push(lambda: _replace(saved))
        _replace(self.env)
        return os.environ
