"""Optional Ray backend (``automock[ray]``, ``automock batch --backend ray``).

Each candidate becomes one Ray task running :func:`ray_task`, which is the
local pool's own code path with one worker: the Ray worker process is the
warm parent, it forks a sandboxed child (new network namespace, rlimits,
unprivileged uid) and returns the :class:`CandidateResult` as a plain dict.
Ray is imported only here, only when this backend is chosen; without it,
:class:`~automock.errors.MissingExtraError` names the ``pip install`` to run.

Status: smoke-tested. The test suite checks the missing-extra message and
calls :func:`ray_task` directly; it does not start a Ray cluster.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Sequence
from typing import Any

from automock.errors import MissingExtraError
from automock.sandbox.batch.candidates import Candidate, as_candidates
from automock.sandbox.batch.task import BatchSettings, CandidateResult

__all__ = ["execute_many_ray", "import_ray", "ray_task"]


def import_ray() -> Any:
    """Import ray or raise MissingExtraError with the install command."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise MissingExtraError("ray", "ray", "--backend ray") from None


def ray_task(candidate: dict[str, Any], settings: BatchSettings) -> dict[str, Any]:
    """The function each Ray task runs: one candidate in a sandboxed fork of this worker."""
    from automock.sandbox.batch.pool import WorkerPool

    # one candidate per task: a spare prepared for a next candidate would be wasted
    with WorkerPool(dataclasses.replace(settings, spares=0), workers=1) as pool:
        (result,) = pool.run([Candidate(**candidate)], prepare_next=False)
    return result.to_dict()


def _from_dict(data: dict[str, Any]) -> CandidateResult:
    return CandidateResult(**{**data, "layers": tuple(data.get("layers", ()))})


def execute_many_ray(
    candidates: Sequence[Candidate | str | tuple[str, str]],
    *,
    workers: int = 2,
    timeout: float = 10.0,
    plan: Any = None,
    seed: int = 0,
    preload: Sequence[str] = (),
    on_result: Callable[[CandidateResult], None] | None = None,
    hidden: Sequence[str] = (),
) -> list[CandidateResult]:
    """Like :func:`automock.sandbox.batch.pool.execute_many`, one Ray task per candidate.

    Connects to a running cluster (``RAY_ADDRESS``) or starts a local one;
    ``workers`` caps the tasks in flight.
    """
    ray = import_ray()
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    settings = BatchSettings(
        timeout=timeout, seed=seed, plan=plan, preload=tuple(preload), hidden=tuple(hidden)
    )
    remote = ray.remote(num_cpus=1)(ray_task)
    items = as_candidates(candidates)
    results: list[CandidateResult | None] = [None] * len(items)
    pending: dict[Any, int] = {}
    queue = list(enumerate(items))
    queue.reverse()
    while queue or pending:
        while queue and len(pending) < workers:
            slot, cand = queue.pop()
            pending[remote.remote(cand.to_dict(), settings)] = slot
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            result = _from_dict(ray.get(ref))
            results[pending.pop(ref)] = result
            if on_result is not None:
                on_result(result)
    return [r for r in results if r is not None]
