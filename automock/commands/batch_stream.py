"""``automock batch --backend ray`` and ``--resume``: result lines written as results arrive.

A batch that outgrows one machine is not held in memory: each result line is appended to
``--jsonl OUT`` as soon as its result is in (the ``layers`` record first, from the first
result), in the order results finish, each line with one ``write`` on a file opened for
appending. This is the one file automock writes in place rather than atomically: a batch
killed midway leaves every line written so far, whole but perhaps the last, which is what
``--resume`` reads.

``--resume`` reads ``OUT``: the candidates it already has a line for are not run again
(their lines stay and count in the summary), a torn last line is cut off, and the new
lines are appended. The driver keeps only a brief of each result (identity, verdict,
seed) for the pass@k summary and ``--results-jsonl``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from typing import Any

from automock.commands.batch_lines import candidate_line, layer_keys, layers_line
from automock.errors import InputError
from automock.sandbox.batch.task import CandidateResult

__all__ = ["ResultStream", "brief", "in_order"]


def brief(result: Any) -> CandidateResult:
    """What the summary needs of a result: no output, no layers."""
    return CandidateResult(
        task_id=result.task_id,
        index=result.index,
        status=result.status,
        exit_code=result.exit_code,
        detail=result.detail,
        seed=result.seed,
    )


class ResultStream:
    """The ``--jsonl`` file, appended to as results come in (a context manager)."""

    def __init__(self, path: str, *, resume: bool) -> None:
        self.path = path
        self.briefs: dict[tuple[str, int], CandidateResult] = {}
        self._known: set[tuple[Any, ...]] | None = None
        self._fd = -1
        self._resume = resume

    def __enter__(self) -> ResultStream:
        end = self._read() if self._resume else 0
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
        try:
            self._fd = os.open(self.path, flags, 0o666)
            os.truncate(self._fd, end)  # a fresh batch starts empty; a resumed one, whole lines
        except OSError as exc:
            raise InputError(
                f"--jsonl {self.path}: cannot write it ({exc.strerror or exc}); "
                "choose a writable file"
            ) from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def judged(self) -> frozenset[tuple[str, int]]:
        """The candidates ``OUT`` already has a line for."""
        return frozenset(self.briefs)

    def write(self, result: Any) -> None:
        """Append ``result``'s line (and, first, the layers record)."""
        row = result.to_dict()
        text = ""
        if self._known is None:
            text = layers_line(row["layers"])
            self._known = layer_keys(row["layers"])
        text += candidate_line(row, result, self._known)
        self.briefs[(result.task_id, result.index)] = brief(result)
        data = memoryview(text.encode("utf-8"))
        while data:
            data = data[os.write(self._fd, data) :]

    def _read(self) -> int:
        """Read ``OUT`` for ``--resume``: its layers and candidates; the length of its whole
        lines (a torn last line is cut off)."""
        try:
            with open(self.path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise InputError(
                f"--resume: cannot read --jsonl {self.path} ({exc.strerror or exc})"
            ) from None
        end = data.rfind(b"\n") + 1
        for number, line in enumerate(data[:end].splitlines(), 1):
            self._take(number, line)
        return end

    def _take(self, number: int, line: bytes) -> None:
        record: Any = None
        with contextlib.suppress(ValueError):
            record = json.loads(line)
        kind = record.get("record") if isinstance(record, dict) else None
        if kind == "layers":
            self._known = layer_keys(record.get("layers") or [])
        elif kind == "candidate":
            fields = ("task_id", "index", "status", "exit_code", "detail", "seed")
            result = CandidateResult(**{name: record.get(name) for name in fields})
            self.briefs[(str(result.task_id), int(result.index))] = result
        else:
            raise InputError(
                f"--resume: {self.path} line {number} is not an automock batch result line; "
                "resume only from the --jsonl file of an earlier batch, or drop --resume"
            )


def in_order(briefs: dict[tuple[str, int], CandidateResult], order: Sequence[Any]) -> list[Any]:
    """The briefs of ``order``'s candidates, in its order."""
    return [briefs[(c.task_id, c.index)] for c in order if (c.task_id, c.index) in briefs]
