"""Start-up of a Python interpreter a sandboxed program started (:mod:`automock.runtime.children`).

Found first on ``PYTHONPATH`` only by such a child: it takes its own directory
off ``sys.path``, makes automock importable (at the end of ``sys.path``, as
in the sandboxed program) and enters the program's plan with the child's seed.
"""

from __future__ import annotations

import os
import sys


def _enter() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if not p or os.path.abspath(p) != here]
    root = os.environ.get("AUTOMOCK_CHILD_ROOT", "")
    if not root:
        return
    if root not in sys.path:
        sys.path.append(root)
    from automock.runtime.children import enter_child

    enter_child()


_enter()
