"""The examples a function's docstring gives: the author's own claims (issue 30).

Observed behaviour cannot tell ``kth_number`` returning the k-th smallest element from
one returning that element plus one: both are deterministic, both are numbers. The
docstring can (``>>> kth_number([2, 1, 3, 4, 5], 3)`` then ``3``). The property
``examples`` runs the function's docstring as a doctest in a copy of its module's
namespace, :data:`RUNS` times, each run under a different seed, and judges each
example by what it printed across the runs:

- the same output on every run (a deterministic answer, or one the example seeds
  itself with ``random.seed(1)``) must be what the docstring says: a different one is
  a failure, the same on every seed, so no run of the checker decides it by chance;
- an output that changes with the seed documents one run only (``>>> roll()`` then
  ``4``): not a claim about every run, so it is not checked;
- an example that cannot run here (a name or module the docstring assumes,
  ``NameError``/``ImportError``) is not checked either.
"""

from __future__ import annotations

import doctest
import inspect
from collections.abc import Callable
from typing import Any

from automock._seed import derive
from automock.errors import CallTimeout, CallTooCostly
from automock.properties.bounded import bounded
from automock.properties.checks import PropertyResult

__all__ = ["RUNS", "documented_examples", "example_count"]

RUNS = 3
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
_CANNOT_RUN = ("NameError", "ImportError", "ModuleNotFoundError")


def _examples(fn: Callable[..., Any]) -> list[doctest.Example]:
    doc = getattr(inspect.unwrap(fn), "__doc__", None)
    if not isinstance(doc, str) or ">>>" not in doc:
        return []
    try:
        return doctest.DocTestParser().get_examples(doc)
    except ValueError:  # a malformed docstring example: nothing the author claimed clearly
        return []


def example_count(fn: Callable[..., Any]) -> int:
    """How many examples ``fn``'s docstring gives."""
    return len(_examples(fn))


class _Recorder(doctest.DocTestRunner):
    """Keeps, per example, whether it matched and what it printed."""

    def __init__(self) -> None:
        super().__init__(verbose=False, optionflags=_FLAGS)
        self.seen: dict[int, tuple[bool, str]] = {}

    def report_success(self, out: Any, test: Any, example: Any, got: str) -> None:
        self.seen[id(example)] = (True, got)

    def report_failure(self, out: Any, test: Any, example: Any, got: str) -> None:
        self.seen[id(example)] = (False, got)

    def report_unexpected_exception(self, out: Any, test: Any, example: Any, exc_info: Any) -> None:
        kind, value = exc_info[0], exc_info[1]
        self.seen[id(example)] = (False, f"raised {kind.__name__}: {value}")


def _run_once(
    fn: Callable[..., Any], examples: list[doctest.Example]
) -> dict[int, tuple[bool, str] | None]:
    module = dict(getattr(inspect.unwrap(fn), "__globals__", {}))
    test = doctest.DocTest(examples, module, getattr(fn, "__name__", "f"), None, None, None)
    recorder = _Recorder()
    recorder.run(test, out=lambda _text: None, clear_globs=False)
    return {i: recorder.seen.get(id(e)) for i, e in enumerate(examples)}


def documented_examples(
    fn: Callable[..., Any], *, seed: int = 0, call_seconds: float = 5.0
) -> PropertyResult:
    """Check ``fn``'s docstring examples (see the module docstring)."""
    examples = _examples(fn)
    seconds = min(30.0, call_seconds * max(1, len(examples)))
    runs: list[dict[int, tuple[bool, str] | None]] = []
    for run in range(RUNS):
        try:
            runs.append(
                bounded(
                    lambda: _run_once(fn, examples),
                    seed=derive(seed, "docstring examples", str(run), bits=32),
                    seconds=seconds,
                    what="the docstring's examples",
                )
            )
        except (CallTimeout, CallTooCostly) as exc:
            return PropertyResult("examples", True, f"not checked: {exc}")
    checked = skipped = 0
    for i, example in enumerate(examples):
        outcomes = [o for o in (r.get(i) for r in runs) if o is not None]
        if len(outcomes) < len(runs):  # not reached in some run: nothing to compare
            continue
        if all(passed for passed, _ in outcomes):
            checked += 1
            continue
        got = {o[1] for o in outcomes}
        cannot_run = any(o[1].startswith(f"raised {n}") for o in outcomes for n in _CANNOT_RUN)
        if len(got) > 1 or cannot_run:  # one run's output, or not runnable here
            skipped += 1
            continue
        said = example.want.strip() or example.exc_msg or "nothing"
        return PropertyResult(
            "examples",
            False,
            f"docstring example `{example.source.strip()}` gave {got.pop().strip()!r} on "
            f"{RUNS} of {RUNS} seeds; the docstring says {said.strip()!r}",
            counterexample=example.source.strip(),
        )
    note = f"; {skipped} that vary with the seed or cannot run here not checked" if skipped else ""
    return PropertyResult(
        "examples", True, f"{checked} docstring examples gave what they say{note}"
    )
