"""The process boundary around the runtime: it runs a plan, it never scans or drafts.

- :mod:`automock.sandbox.kernel`: namespaces, mounts, limits, uid, the environment, the workdir;
- :mod:`automock.sandbox.child`: the one child core (a program, a candidate, a (code, tests)
  pair as two processes; one :class:`~automock.sandbox.child.status.Status`);
- :mod:`automock.sandbox.judge`: the trusted side's verdict, from what the parent observed;
- :mod:`automock.sandbox.run`: ``automock run``'s children (:class:`~automock.sandbox.run.process.Runner`);
- :mod:`automock.sandbox.batch`: the warm pool, zygote, pass@k and Ray (``execute_many``).

Submodules are imported on demand so importing this package stays cheap.
"""

from __future__ import annotations

__all__: list[str] = []
