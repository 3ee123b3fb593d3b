"""The process boundary around the runtime: isolation layers, child, parent, reports.

``run_file``/``run_source`` (in :mod:`automock.sandbox.run.process`) run a program
in a fresh, isolated interpreter; :func:`automock.sandbox.kernel.isolation.enter_isolation`
is the reusable kernel-level part (also used by the batch pool's forked children).
Submodules are imported on demand so importing this package stays cheap.
"""

from __future__ import annotations

__all__: list[str] = []
