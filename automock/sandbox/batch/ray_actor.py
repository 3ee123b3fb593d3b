"""One Ray actor per node: a warm :class:`~automock.sandbox.batch.pool.WorkerPool` for the batch.

The actor starts its node's pool once (the warm parent, the zygote, the prepared read-only
mount namespace, the lanes and their cgroups) and judges every chunk the driver sends it
with that pool; a chunk's results go back as the pool's own result objects. The batch's settings reach it once,
through the object store, as do the pair texts (tests, prompt): a chunk names them by key
and the actor fetches a text it has not seen (:mod:`automock.sandbox.batch.ray_chunks`).

Before it takes work the actor runs one probe candidate and compares the isolation layers
in force with the layers the batch requires: a node missing one refuses to join (its
:meth:`PoolActor.judge` answers every chunk with why) rather than running candidates with
fewer layers.

This module does not import Ray: the driver (:mod:`automock.sandbox.batch.ray_backend`)
makes the class remote.
"""

from __future__ import annotations

import dataclasses
import os
import socket
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.task import BatchSettings, CandidateResult

__all__ = ["PROBE", "DriverPool", "PoolActor", "missing_layers"]

PROBE = Candidate(task_id="automock-ray-probe", index=0, code="pass\n", source="<probe>")


def missing_layers(layers: Sequence[Any], required: frozenset[str] | None) -> list[str]:
    """The required layers a probe's ``layers`` did not have in force, each with its reason.

    ``required`` None: every layer the sandbox reported, but the network layer when the
    batch allows the network (it is then off by the batch's own choice)."""
    found = {str(x.get("name")): x for x in (_as_dict(layer) for layer in layers)}
    names = set(found) if required is None else set(required)
    missing = []
    for name in sorted(names):
        layer = found.get(name)
        if layer is None:
            missing.append(f"{name} (not reported)")
        elif not layer.get("active"):
            missing.append(f"{name} ({layer.get('detail') or 'inactive'})")
    return missing


def _as_dict(layer: Any) -> dict[str, Any]:
    if isinstance(layer, Mapping):
        return dict(layer)
    return {"name": layer.name, "active": layer.active, "detail": layer.detail}


class PoolActor:
    """The node's warm pool, for the life of the batch (made a Ray actor by the driver)."""

    def __init__(
        self, settings: BatchSettings, workers: int, required: frozenset[str] | None
    ) -> None:
        from automock.sandbox.batch.pool import WorkerPool

        self._texts: dict[str, tuple[str, str | None]] = {}
        self._refusal = ""
        self._pool = WorkerPool(settings, workers=workers)
        self._pool.__enter__()
        (probe,) = self._pool.run([PROBE])
        skip = {"network"} if settings.allow_network and required is None else set()
        layers = [x for x in probe.layers if _as_dict(x).get("name") not in skip]
        missing = missing_layers(layers, required)
        if probe.status != "passed" or missing:
            why = ", ".join(missing) or f"the probe candidate ended {probe.status}: {probe.detail}"
            self._refusal = (
                f"node {socket.gethostname()} refuses to join the batch: the sandbox lacks {why};"
                " run the node as root (or with the capabilities docs/distributed.md lists) "
                "on a kernel with those features"
            )
            self.close()

    def judge(
        self, items: Sequence[tuple[Candidate, str | None]], texts: Mapping[str, Any]
    ) -> list[CandidateResult] | dict[str, str]:
        """Judge one chunk with the warm pool; ``texts``: key -> object ref of a pair text.
        A node that refused to join judges nothing: ``{"refusal": why}``."""
        if self._refusal:
            return {"refusal": self._refusal}
        self._fetch(texts, {key for _, key in items if key is not None})
        chunk = [self._whole(cand, key) for cand, key in items]
        return self._pool.run(chunk)  # pickled as they are: cheaper than a dict each

    def _fetch(self, texts: Mapping[str, Any], keys: set[str]) -> None:
        wanted = [key for key in keys if key not in self._texts]
        if not wanted:
            return
        import ray

        get: Callable[[list[Any]], list[Any]] = ray.get
        for key, text in zip(wanted, get([texts[key] for key in wanted]), strict=True):
            self._texts[key] = (text[0], text[1])

    def _whole(self, cand: Candidate, key: str | None) -> Candidate:
        if key is None:
            return cand
        test, prompt = self._texts[key]
        return dataclasses.replace(cand, test=test, prompt=prompt)

    def pid(self) -> int:
        """This actor's process (the driver waits for a lost one on its host to be gone
        before it sweeps the cgroups the pool left)."""
        return os.getpid()

    def close(self) -> None:
        """End the pool: every child killed and reaped, its directory and cgroups removed."""
        from automock.sandbox.kernel.cgroup import sweep_dead

        self._pool.__exit__(None, None, None)
        sweep_dead()  # the lanes of a pool that died here with its actor


class DriverPool:
    """The driver's own node, judged in the driver's process: the same :class:`PoolActor`,
    run on one thread of the driver instead of in a Ray worker.

    It starts at once (no actor to schedule, no Ray worker to warm) and its results take no
    trip through the object store. Calls run in order on the thread: the pool's start and
    probe first, then each chunk, then :meth:`close`."""

    def __init__(
        self, settings: BatchSettings, workers: int, required: frozenset[str] | None
    ) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="automock-ray-driver")
        self._pool = self._thread.submit(PoolActor, settings, workers, required)
        self._queued: list[Future[list[CandidateResult] | dict[str, str]]] = []

    def judge(
        self, items: Sequence[tuple[Candidate, str | None]], texts: Mapping[str, Any]
    ) -> Future[list[CandidateResult] | dict[str, str]]:
        """Judge one chunk after those sent before it; its future holds the rows (or raises
        what the pool raised)."""
        future = self._thread.submit(lambda: self._pool.result().judge(items, texts))
        self._queued = [f for f in self._queued if not f.done()] + [future]
        return future

    def close(self) -> None:
        """End the pool (if it started) and the thread; chunks not started yet are dropped
        (a batch ending early, e.g. on Ctrl-C, does not wait for them)."""
        for future in self._queued:
            future.cancel()
        if self._pool.exception() is None:
            self._thread.submit(self._pool.result().close).result()
        self._thread.shutdown(wait=True)
