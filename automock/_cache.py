"""automock's per-user cache directory: ``$XDG_CACHE_HOME/automock`` (default ``~/.cache``).

For what automock keeps between runs outside the user's project (the sandbox child's
bytecode, Hypothesis's storage for ``automock check``), never in the current directory.
"""

from __future__ import annotations

import os

__all__ = ["user_cache_dir"]


def user_cache_dir(*names: str) -> str:
    """``$XDG_CACHE_HOME/automock/<names...>`` (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "automock", *names)
