"""The in-process deterministic runtime: apply a whole :class:`~automock.plan.model.Plan`.

``deterministic(plan, seed=None)`` is a context manager and a decorator (sync
and async functions). It freezes the clock, seeds every random source,
makes the network fail closed with the plan's stubs and cassette, fakes the
databases, and (with ``apply_env=True``) fixes the environment. It yields a
:class:`RuntimeSession` whose ``log`` records every access, mocked or not.
The CLI's sandbox child, the pytest plugin and the Python API all use it.

Importing this package is cheap: each capability imports its libraries (and
patches third-party clients) only when entered and only for what the program
has imported or imports later.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from automock import errors as _errors
from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported
from automock.runtime.events import AccessLog, current_log, recording

if TYPE_CHECKING:
    from automock.plan.model import Plan
    from automock.runtime.clock import VirtualClock
    from automock.runtime.databases import DatabaseSession
    from automock.runtime.entropy import EntropySource
    from automock.runtime.http_session import NetworkSession
    from automock.runtime.http_stubs import HttpStubs

# Patch, Undo and when_imported: the extension points (docs/runtime.md, "Extending")
__all__ = ["Patch", "RuntimeSession", "Undo", "deterministic", "hash_seed_for", "when_imported"]


@dataclass(frozen=True)
class RuntimeSession:
    """What ``with deterministic(plan) as session`` gives: the plan, the seed, the log.

    It is also the pytest fixture named ``automock``, which hides the module of that name
    inside a test; so the error types a test catches are here as well
    (``automock.UnmockedAccessError`` works on the fixture as on the module).
    """

    AutomockError: ClassVar[type[_errors.AutomockError]] = _errors.AutomockError
    InputError: ClassVar[type[_errors.InputError]] = _errors.InputError
    PlanError: ClassVar[type[_errors.PlanError]] = _errors.PlanError
    UnmockedAccessError: ClassVar[type[_errors.UnmockedAccessError]] = _errors.UnmockedAccessError

    plan: Plan
    seed: int
    log: AccessLog
    clock: VirtualClock | None = None
    entropy: EntropySource | None = None
    network: NetworkSession | None = None
    databases: DatabaseSession | None = None

    @property
    def http(self) -> HttpStubs:
        """Inline HTTP stubs on this session's network (``automock.http.get(url, json=...)``)."""
        from automock.runtime.http_stubs import HttpStubs

        network = self.network
        return HttpStubs(lambda: network)


def hash_seed_for(seed: int) -> str:
    """The PYTHONHASHSEED a fresh child interpreter should get for ``seed``."""
    from automock.runtime.entropy import hash_seed_for as _hash_seed_for

    return _hash_seed_for(seed)


class deterministic(Patch[RuntimeSession]):
    """Apply ``plan`` in-process; ``seed`` overrides ``plan.seed``.

    ``apply_env`` also makes ``os.environ`` exactly ``plan.env`` (the sandbox
    sets the environment at spawn instead). ``log`` collects the accesses;
    by default the log already recording, if any, else a new one. ``allow_hosts``
    lets requests and connections to those hosts through (a test's local server).
    ``observe`` notes the reads of stub bodies that missed, for the drafting loop
    (:mod:`automock.runtime.observations`).
    """

    def __init__(
        self,
        plan: Plan | None = None,
        *,
        seed: int | None = None,
        apply_env: bool = False,
        log: AccessLog | None = None,
        allow_hosts: Iterable[str] = (),
        observe: bool = False,
    ) -> None:
        super().__init__()
        if plan is None:
            from automock.plan.model import Plan as _Plan

            plan = _Plan()
        self.plan = plan
        self.seed = plan.seed if seed is None else int(seed)
        self.apply_env = apply_env
        self.log = log
        self.observe = observe
        from automock.runtime.http_passthrough import allowed_hosts

        self.allow_hosts = tuple(sorted(allowed_hosts(allow_hosts)))  # ValueError names it

    def _start(self, undo: Undo) -> RuntimeSession:
        from automock.runtime.clock import frozen_clock
        from automock.runtime.databases import faked_databases
        from automock.runtime.entropy import seeded_random
        from automock.runtime.http import mocked_network
        from automock.runtime.processes import recorded_processes

        plan = self.plan
        stack = contextlib.ExitStack()
        undo.push(stack.close)
        # join a log that is already recording (the sandbox child's), else start one
        log = stack.enter_context(recording(self.log or current_log()))
        if self.apply_env:
            from automock.runtime.env import fixed_environment

            stack.enter_context(fixed_environment(plan.env))
        if self.observe:  # a drafting loop's trial run (automock.runtime.observations)
            from automock.runtime.observations import observed_reads

            stack.enter_context(observed_reads())
        clock = stack.enter_context(frozen_clock(plan.clock.at, tick=plan.clock.tick))
        entropy = stack.enter_context(seeded_random(self.seed))
        network = stack.enter_context(
            mocked_network(
                plan.http_stubs(),
                cassette=plan.cassette,
                allow=plan.network == "allow",
                allow_hosts=self.allow_hosts,
            )
        )
        databases = stack.enter_context(faked_databases(plan.databases()))
        stack.enter_context(recorded_processes())
        return RuntimeSession(
            plan=plan,
            seed=self.seed,
            log=log,
            clock=clock,
            entropy=entropy,
            network=network,
            databases=databases,
        )
