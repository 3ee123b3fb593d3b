"""The Ray driver's book of chunks: which candidates are out, on which actor, and what is owed.

Plain bookkeeping, no Ray: :mod:`automock.sandbox.batch.ray_backend` asks it for the next
chunk to send, tells it when a chunk's results came back or when its actor died, and it
answers with what to send next and which candidates are given up on.

Every candidate ends in exactly one result: a chunk's candidates are owed until the chunk's
results come back (then they are done, once), or until the chunk is lost with its actor.
A lost chunk's candidates go out again in chunks (a node lost by itself costs no parallelism);
a candidate lost ``max_losses`` times (default 2) goes out alone, so its next loss names it
as the culprit: lost alone after earlier losses (it took its node or actor down twice), it
ends as ``error`` with the reason, and is never sent again.

Each candidate's pair text (its tests and prompt) is sent to the object store once per
distinct text (``ray.put`` by the driver) and named by a key in the chunks; an actor keeps
the texts it has fetched (:mod:`automock.sandbox.batch.ray_actor`).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from automock._sha256 import sha256
from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.task import CandidateResult, sample_seed
from automock.sandbox.child.status import Status, exit_code_for

__all__ = ["Chunk", "ChunkBook", "pair_key", "strip_pair"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """Candidates sent together to one actor: each without its pair text, with that text's key."""

    number: int
    items: tuple[tuple[Candidate, str | None], ...]

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(key for _, key in self.items if key is not None)


def pair_key(test: str | None, prompt: str | None) -> str | None:
    """The key of a candidate's pair text (tests and prompt); None for a program."""
    if test is None:
        return None
    return sha256(f"{test}\0{prompt or ''}".encode()).hexdigest()[:32]


def strip_pair(candidate: Candidate) -> tuple[Candidate, str | None]:
    """``candidate`` without its tests and prompt, and their key (the actor puts them back)."""
    key = pair_key(candidate.test, candidate.prompt)
    if key is None:
        return candidate, None
    return dataclasses.replace(candidate, test=None, prompt=None), key


class ChunkBook:
    """The chunks of one batch: fresh ones cut from ``candidates`` as needed, lost ones again."""

    def __init__(self, candidates: Iterable[Candidate], size: int, *, max_losses: int = 2) -> None:
        self._fresh: Iterator[Candidate] = iter(candidates)
        self._size = max(1, size)
        self._max_losses = max(1, max_losses)
        self._again: deque[tuple[Candidate, str | None]] = deque()
        self._out: dict[int, Chunk] = {}
        self._losses: dict[tuple[str, int], int] = {}
        self._numbers = 0
        self._exhausted = False
        self.texts: dict[str, tuple[str, str | None]] = {}  # key -> (test, prompt), first seen

    def next_chunk(self) -> Chunk | None:
        """The next chunk to send (lost candidates first; a suspect alone), or None when none
        is left."""
        items: list[tuple[Candidate, str | None]] = []
        while self._again and len(items) < self._size:
            cand, key = self._again[0]
            suspect = self._losses.get((cand.task_id, cand.index), 0) >= self._max_losses
            if suspect and items:
                break
            items.append(self._again.popleft())
            if suspect:
                break
        if not items:
            for cand in self._fresh:
                stripped, key = strip_pair(cand)
                if key is not None and key not in self.texts:
                    self.texts[key] = (cand.test or "", cand.prompt)
                items.append((stripped, key))
                if len(items) >= self._size:
                    break
            if not items:
                self._exhausted = True
                return None
        self._numbers += 1
        chunk = Chunk(self._numbers, tuple(items))
        self._out[chunk.number] = chunk
        return chunk

    def done(self, number: int) -> Chunk:
        """The chunk whose results came back: its candidates are no longer owed."""
        return self._out.pop(number)

    def returned(self, number: int) -> None:
        """The chunk came back unjudged (its actor refused to join): it goes out again as is."""
        self._again.extendleft(reversed(self._out.pop(number).items))

    def lost(self, number: int, reason: str, *, batch_seed: int) -> list[CandidateResult]:
        """The chunk went down with its actor: its candidates go out again; the results of
        those lost alone after earlier losses (``error``, with ``reason``)."""
        chunk = self._out.pop(number)
        alone = len(chunk.items) == 1
        given_up = []
        for cand, key in chunk.items:
            ident = (cand.task_id, cand.index)
            self._losses[ident] = losses = self._losses.get(ident, 0) + 1
            if not (alone and losses >= self._max_losses):
                self._again.append((cand, key))
                continue
            self._losses.pop(ident, None)
            given_up.append(_given_up(cand, losses, reason, batch_seed))
        return given_up

    def finished(self) -> bool:
        """Nothing left to send and nothing out."""
        return not self._out and not self._again and self._exhausted

    def owed(self) -> int:
        """Candidates sent and not yet answered."""
        return sum(len(chunk.items) for chunk in self._out.values())


def _given_up(cand: Candidate, losses: int, reason: str, batch_seed: int) -> CandidateResult:
    return CandidateResult(
        task_id=cand.task_id,
        index=cand.index,
        status=Status.ERROR,
        exit_code=exit_code_for(Status.ERROR, 1),
        detail=(
            f"automock: the Ray actor judging it died {losses} times (node lost or worker killed)"
            f"; not retried again: {reason}"
        ),
        seed=sample_seed(batch_seed, cand.task_id, cand.index),
    )
