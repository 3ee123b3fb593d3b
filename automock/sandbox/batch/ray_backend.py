"""Ray backend (``automock[ray]``, ``automock batch --backend ray``): warm pools on every node.

The driver connects to the cluster named by ``RAY_ADDRESS`` (else starts a local one) and
starts one actor per node (:class:`~automock.sandbox.batch.ray_actor.PoolActor`), pinned to
it, with as many workers as the node has CPUs: each holds a warm
:class:`~automock.sandbox.batch.pool.WorkerPool` for the batch's life. The driver's own
node, when it is one of the cluster's, is judged in the driver's process
(:class:`~automock.sandbox.batch.ray_actor.DriverPool`: the same pool, no actor). The batch's settings
go to the object store once; a node whose sandbox lacks a required isolation layer refuses
to join (its reason is printed) and its chunks go to the others.

The driver then streams candidates in chunks (:mod:`automock.sandbox.batch.ray_chunks`),
two out per actor so none waits between chunks, and hands each chunk's results to
``on_result`` as the chunk comes back; with ``collect=False`` it keeps none of them.
A chunk lost with its actor (node killed, worker killed) goes out again, one candidate per
chunk, to the actors left; a candidate lost twice ends ``error`` with the reason. Every
candidate gets exactly one result, under its own seed
(:func:`~automock.sandbox.batch.task.sample_seed`: the batch seed and its identity only),
so a candidate judged again on another node gets the same verdict. docs/distributed.md.

Ray is imported only here, only when this backend is chosen; without it,
:class:`~automock.errors.MissingExtraError` names the ``pip install`` to run.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import socket
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Any

from automock.errors import MissingExtraError, SandboxError
from automock.sandbox.batch.candidates import Candidate, as_candidates
from automock.sandbox.batch.ray_actor import DriverPool, PoolActor
from automock.sandbox.batch.ray_chunks import Chunk, ChunkBook
from automock.sandbox.batch.task import BatchSettings, CandidateResult

__all__ = ["RayOptions", "execute_many_ray", "import_ray"]

_IN_FLIGHT = 2  # chunks out per actor: one running, one waiting behind it
_MAX_CHUNK = 64


def import_ray() -> Any:
    """Import ray or raise MissingExtraError with the install command."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise MissingExtraError("ray", "ray", "--backend ray") from None


@dataclass(frozen=True, slots=True)
class RayOptions:
    """How the batch uses the cluster. ``chunk``: candidates per chunk (None: sized from the
    batch and the workers); ``required``: the isolation layers a node must have in force
    (None: every layer its sandbox reports); ``workers_per_node``: None, the node's CPUs;
    ``driver_node``: judge the driver's own node in the driver's process (False: an actor
    there too, as on every other node)."""

    chunk: int | None = None
    required: frozenset[str] | None = None
    workers_per_node: int | None = None
    max_losses: int = 2
    driver_node: bool = True


@dataclass
class _Actor:
    handle: Any  # a Ray actor handle, or the driver's own DriverPool
    node: str
    workers: int
    out: int = 0  # chunks in flight
    pid: Any = None  # an actor's: the ref of its process id, asked for at its start

    def judge(
        self, items: list[tuple[Candidate, str | None]], texts: dict[str, Any]
    ) -> Future[Any]:
        if isinstance(self.handle, DriverPool):
            return self.handle.judge(items, texts)
        future: Future[Any] = self.handle.judge.remote(items, texts).future()
        return future


@dataclass
class _Driver:
    ray: Any
    book: ChunkBook
    seed: int
    emit: Callable[[CandidateResult], None]
    actors: list[_Actor]
    refs: dict[str, Any] = field(default_factory=dict)  # pair-text key -> object ref
    pending: dict[Future[Any], tuple[_Actor, Chunk]] = field(default_factory=dict)

    def run(self) -> None:
        while not self.book.finished():
            self._send()
            if not self.pending:
                if self.book.finished():
                    break
                raise SandboxError(
                    "automock batch --backend ray: every node was lost or refused; "
                    f"{self.book.owed()} candidates unjudged (see the messages above; "
                    "--resume continues from the --jsonl output)"
                )
            done, _ = wait(list(self.pending), return_when=FIRST_COMPLETED)
            for future in done:
                self._collect(future)

    def _send(self) -> None:
        for actor in sorted(self.actors, key=lambda a: a.out):
            while actor.out < _IN_FLIGHT and (chunk := self.book.next_chunk()) is not None:
                texts = {key: self._ref(key) for key in chunk.keys}
                self.pending[actor.judge(list(chunk.items), texts)] = (actor, chunk)
                actor.out += 1

    def _ref(self, key: str) -> Any:
        if key not in self.refs:  # once per distinct text: the actors fetch it by key
            self.refs[key] = self.ray.put(self.book.texts.pop(key))
        return self.refs[key]

    def _collect(self, future: Future[Any]) -> None:
        actor, chunk = self.pending.pop(future)
        actor.out -= 1
        try:
            rows = future.result()
        except Exception as exc:  # Ray's error for an actor; any for the driver's own pool
            local = isinstance(actor.handle, DriverPool)
            if not local and not isinstance(exc, self.ray.exceptions.RayError):
                raise
            reason = _reason(exc)
            gone = local or isinstance(exc, self.ray.exceptions.RayActorError)
            if gone and actor in self.actors:
                self.actors.remove(actor)
                print(f"automock: lost the actor on node {actor.node}: {reason}", file=sys.stderr)
            for result in self.book.lost(chunk.number, reason, batch_seed=self.seed):
                self.emit(result)
            return
        if isinstance(rows, dict):  # the node refused to join: the chunk goes to the others
            self.book.returned(chunk.number)
            if actor in self.actors:
                self.actors.remove(actor)
                print(f"automock: {rows['refusal']}", file=sys.stderr)
            return
        self.book.done(chunk.number)
        for row in rows:
            self.emit(row)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}"


def _connect(ray: Any) -> None:
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS") or None
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)


def _start_actors(ray: Any, settings: BatchSettings, options: RayOptions) -> list[_Actor]:
    """One warm pool per live node with CPUs. Chunks are sent at once (Ray holds them until the
    actor is up); a node that refuses to join answers each with its reason. The driver's own
    node (``options.driver_node``) gets a :class:`DriverPool`, started first."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = ray.get_runtime_context().get_node_id() if options.driver_node else None
    nodes = [n for n in ray.nodes() if n.get("Alive") and _cpus(n) >= 1]
    started: list[_Actor] = []
    for node in nodes:
        workers = options.workers_per_node or _cpus(node)
        if node["NodeID"] == here and workers:
            pool = DriverPool(settings, workers, options.required)
            started.append(_Actor(pool, f"{socket.gethostname()} (driver)", workers))
    shared = ray.put(settings)  # once: every actor reads it from the object store
    remote = ray.remote(PoolActor)
    for node in (n for n in nodes if n["NodeID"] != here):
        workers = options.workers_per_node or _cpus(node)
        handle = remote.options(
            num_cpus=_cpus(node),
            max_restarts=0,
            max_task_retries=0,
            scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
        ).remote(shared, workers, options.required)
        address = str(node.get("NodeManagerAddress", node["NodeID"]))
        started.append(_Actor(handle, address, workers, pid=handle.pid.remote()))
    return started


def _cpus(node: dict[str, Any]) -> int:
    return int(node.get("Resources", {}).get("CPU", 0))


def _chunk_size(count: int, actors: Sequence[_Actor], options: RayOptions) -> int:
    if options.chunk is not None:
        return max(1, options.chunk)
    workers = sum(actor.workers for actor in actors) or 1
    return max(1, min(_MAX_CHUNK, math.ceil(count / (workers * 4))))


def execute_many_ray(
    candidates: Sequence[Candidate | str | tuple[str, str]],
    *,
    settings: BatchSettings | None = None,
    options: RayOptions | None = None,
    on_result: Callable[[CandidateResult], None] | None = None,
    collect: bool = True,
) -> list[CandidateResult]:
    """Like :func:`automock.sandbox.batch.pool.execute_many`, on every node of a Ray cluster.

    Results reach ``on_result`` as their chunk comes back (not in input order); the list
    returned is in input order, or empty with ``collect=False`` (a batch too large to hold).
    """
    ray = import_ray()
    settings = settings or BatchSettings()
    options = options or RayOptions()
    items = as_candidates(candidates)
    _connect(ray)
    actors = _start_actors(ray, settings, options)
    everyone = list(actors)
    kept: dict[tuple[str, int], CandidateResult] = {}

    def emit(result: CandidateResult) -> None:
        if collect:
            kept[(result.task_id, result.index)] = result
        if on_result is not None:
            on_result(result)

    book = ChunkBook(items, _chunk_size(len(items), actors, options), max_losses=options.max_losses)
    try:
        _Driver(ray, book, settings.seed, emit, actors).run()
    finally:
        for actor in everyone:  # lost or refused ones too: whatever is left of them ends
            _close(ray, actor)
        _sweep_lost(ray, [a for a in everyone if a not in actors and a.pid is not None])
    return [kept[(c.task_id, c.index)] for c in items] if collect else []


def _sweep_lost(ray: Any, lost: list[_Actor], grace: float = 10.0) -> None:
    """The cgroups that lost actors' pools left on this host: once each lost actor's process
    on this host is gone (a worker of a killed node may outlive its node by seconds)."""
    if not lost:
        return
    from automock.sandbox.kernel.cgroup import sweep_dead

    here = ray.util.get_node_ip_address()
    pids = []
    for actor in (a for a in lost if a.node == here):
        with contextlib.suppress(ray.exceptions.RayError):  # died before it said
            pids.append(int(ray.get(actor.pid, timeout=0.5)))
    deadline = time.monotonic() + grace
    while any(os.path.exists(f"/proc/{pid}") for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    sweep_dead(wait=5.0)


def _close(ray: Any, actor: _Actor) -> None:
    """End an actor's pool (its children, cgroups, directory), then the actor."""
    if isinstance(actor.handle, DriverPool):
        actor.handle.close()
        return
    with contextlib.suppress(ray.exceptions.RayError):  # already gone with its node
        ray.get(actor.handle.close.remote(), timeout=60)
    ray.kill(actor.handle)
