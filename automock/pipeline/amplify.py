"""Test amplification against a reference, and candidate selection without one.

:func:`amplify_many` judges each (code, tests) candidate on up to ``count``
generated inputs (:mod:`automock.properties.amplify`) against a reference
function (a problem's ``canonical_solution``, or one the caller names). The
reference runs here, in the trusted parent, with a time limit per call; the
candidates run in the sandbox pool as pairs whose *tests* are the trusted
harness (:mod:`automock.properties.harness`): the inputs and the reference's
outputs live only in the test process, and each call crosses the plain-data
channel. A candidate that disagrees gets the smallest disagreeing input,
shrunk further (:func:`~automock.properties.amplify.shrink_steps`, up to
``SHRINK_ROUNDS`` more sandboxed runs), with the expected and actual outputs.

:func:`select_many` (no reference) runs every candidate on the same generated
inputs, groups a problem's candidates by their outputs (behavioural
clusters) and ranks the clusters CodeT-style: cluster size times the given
test cases its behaviour passes; the chosen candidate is the first of the
best cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from automock._serialize import JsonMixin
from automock.properties.amplify import (
    DEFAULT_COUNT,
    bounded,
    deterministic,
    generate_inputs,
    keep_reference_runs,
    shrink_steps,
)
from automock.properties.harness import harness_tests, read_summary
from automock.properties.infer import infer_properties
from automock.properties.outputs import size_of
from automock.properties.testcases import cases_from_tests, distinct_args
from automock.sandbox.batch.candidates import Candidate

__all__ = [
    "SHRINK_ROUNDS",
    "SLOW_FACTOR",
    "AmplifiedResult",
    "Cluster",
    "Selection",
    "amplify_many",
    "prompt_function",
    "reference_function",
    "run_candidates",
]

SHRINK_ROUNDS = 3
SLOW_FACTOR = 10.0  # slower than this many times the reference (+ 1 s): flagged
_SHOWN = 300


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


@dataclass(frozen=True, slots=True)
class AmplifiedResult(JsonMixin):
    """One candidate on the generated inputs. ``counterexample``: ``{"args", "expected",
    "actual"}`` as reprs, the smallest disagreeing input found; ``signature``: its outputs'
    fingerprint; ``cases_passed``: given test cases its outputs satisfy."""

    task_id: str
    index: int
    status: str
    inputs_tried: int = 0
    disagreements: int = 0
    counterexample: dict[str, str] | None = None
    slow: bool = False
    seconds: float = 0.0
    reference_seconds: float = 0.0
    signature: str = ""
    cases_passed: int = 0
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "passed"


@dataclass(frozen=True, slots=True)
class Cluster(JsonMixin):
    signature: str
    members: tuple[int, ...]
    cases_passed: int
    score: float


@dataclass(frozen=True, slots=True)
class Selection(JsonMixin):
    """A problem's behavioural clusters, best first, and the candidate chosen."""

    task_id: str
    chosen: int
    inputs: int
    clusters: tuple[Cluster, ...]


def reference_function(source: str, name: str) -> Callable[..., Any]:
    """``name`` from ``source`` (a problem's prompt + canonical solution, or a file's text)."""
    from automock.errors import InputError

    namespace: dict[str, Any] = {"__name__": "__reference__"}
    try:
        exec(compile(source, "<reference>", "exec"), namespace)
    except Exception as exc:
        raise InputError(f"the reference for {name!r} does not run ({exc}); fix it") from None
    found = namespace.get(name)
    if not callable(found):
        raise InputError(f"the reference defines no function {name!r}; name the right one")
    return found  # type: ignore[no-any-return]


def prompt_function(candidate: Candidate) -> Callable[..., Any] | None:
    """The prompt's function (signature and hints), for drawing inputs."""
    if not candidate.prompt or not candidate.entry_point:
        return None
    try:
        return reference_function(candidate.prompt + "    pass\n", candidate.entry_point)
    except Exception:
        return None


def _harnessed(candidate: Candidate, tests: str) -> Candidate:
    return replace(candidate, test=tests)


def run_candidates(candidates: Sequence[Candidate], options: Mapping[str, Any]) -> list[Any]:
    from automock.sandbox.batch.pool import execute_many

    return execute_many(list(candidates), **options)


@dataclass
class _Problem:
    reference: Callable[..., Any]
    inputs: list[tuple[Any, ...]]
    expected: list[Any]
    seconds: float
    properties: list[tuple[str, dict[str, Any]]] | None = None  # nondeterministic reference

    def tests(self, inputs: Sequence[tuple[Any, ...]] | None = None, expected: Any = None) -> str:
        if inputs is None:
            inputs, expected = self.inputs, self.expected
        return harness_tests(inputs, expected, properties=self.properties)


def _verdict(result: Any, problem: _Problem) -> tuple[AmplifiedResult, int, str]:
    """The amplified verdict, and the first disagreeing input's index and actual output."""
    summary = read_summary(result.detail or "")
    if summary is None:
        detail = result.detail or result.status
        return (
            AmplifiedResult(result.task_id, result.index, str(result.status), detail=detail),
            -1,
            "",
        )
    seconds = float(summary.get("seconds", 0.0))
    bad = int(summary.get("bad", 0))
    first = int(summary.get("first", -1))
    verdict = AmplifiedResult(
        result.task_id,
        result.index,
        "failed" if bad else "passed",
        inputs_tried=int(summary.get("tried", 0)),
        disagreements=bad,
        slow=seconds > SLOW_FACTOR * problem.seconds + 1.0,
        seconds=seconds,
        reference_seconds=round(problem.seconds, 4),
        signature=str(summary.get("sig", "")),
        cases_passed=int(summary.get("cases", 0)),
        detail=f"differs from the reference on {bad} of {len(problem.inputs)} inputs"
        if bad
        else "",
    )
    return verdict, first if bad else -1, str(summary.get("actual", ""))


def _prepare(
    candidate: Candidate,
    reference: Callable[..., Any],
    count: int,
    seed: int,
    per_call: float,
    plan: Any = None,
) -> _Problem:
    pool = generate_inputs(
        candidate.test or "", candidate.entry_point or "", count=count,
        signature_of=reference, seed=seed,
    )  # fmt: skip
    try:  # ints and lengths within max(1000, 10 x the tests' largest): the reference's time
        examples = distinct_args(
            cases_from_tests(candidate.test or "", candidate.entry_point or "")
        )
    except Exception:  # tests that do not parse
        examples = []
    pool = bounded(pool, examples)
    inputs, expected, seconds = keep_reference_runs(reference, pool, count=count, per_call=per_call)
    props = None
    if not deterministic(reference, inputs[:20], per_call):
        props = [
            (p.property, dict(p.options))
            for p in infer_properties(
                reference, name=candidate.entry_point, specs=getattr(plan, "properties", ())
            )
            if p.property not in ("uniform", "round_trip")
        ]
    return _Problem(reference, inputs, expected, seconds, props)


def amplify_many(
    candidates: Sequence[Candidate],
    references: Mapping[str, Callable[..., Any]],
    *,
    count: int = DEFAULT_COUNT,
    seed: int = 0,
    per_call: float = 0.25,
    **options: Any,
) -> list[AmplifiedResult]:
    """Each candidate against its task's reference on generated inputs (see the module).

    ``options`` go to :func:`~automock.sandbox.batch.pool.execute_many` (``workers``,
    ``timeout``, ``plan``...). Candidates whose task has no reference are an InputError.
    """
    from automock.errors import InputError

    options = {**options, "seed": seed}
    problems: dict[str, _Problem] = {}
    for cand in candidates:
        if cand.task_id not in problems:
            if cand.task_id not in references or not cand.entry_point:
                raise InputError(
                    f"{cand.task_id}: --amplify needs a reference (a canonical_solution in "
                    "--problems, or --reference FILE::FUNCTION) and an entry_point"
                )
            ref = references[cand.task_id]
            plan = options.get("plan")
            problems[cand.task_id] = _prepare(cand, ref, count, seed, per_call, plan)
    runs = [_harnessed(c, problems[c.task_id].tests()) for c in candidates]
    # as long as a candidate SLOW_FACTOR times slower than the slowest reference may take
    slowest = max((p.seconds for p in problems.values()), default=0.0)
    options["timeout"] = float(options.get("timeout", 10.0)) + SLOW_FACTOR * slowest
    results: list[AmplifiedResult] = []
    current: dict[int, tuple[tuple[Any, ...], Any, str]] = {}
    for n, result in enumerate(run_candidates(runs, options)):
        problem = problems[result.task_id]
        verdict, first, actual = _verdict(result, problem)
        results.append(verdict)
        if first >= 0 and problem.properties is None:
            current[n] = (problem.inputs[first], problem.expected[first], actual)
        elif first >= 0:  # judged by properties: no single expected value, not shrunk
            wanted = ", ".join(name for name, _ in problem.properties or ()) or "no exception"
            current[n] = (problem.inputs[first], _Shown(f"<{wanted}>"), actual)
    shrinkable = {n: c for n, c in current.items() if type(c[1]) is not _Shown}
    _shrink(candidates, shrinkable, problems, per_call, options)
    current.update(shrinkable)
    return [
        replace(res, counterexample=_counterexample(*current[n])) if n in current else res
        for n, res in enumerate(results)
    ]


class _Shown(str):
    """An expectation that is a description, shown as is."""

    def __repr__(self) -> str:
        return str(self)


def _counterexample(args: tuple[Any, ...], expected: Any, actual: str) -> dict[str, str]:
    return {"args": _short(args), "expected": _short(expected), "actual": actual}


def _shrink(
    candidates: Sequence[Candidate],
    current: dict[int, tuple[tuple[Any, ...], Any, str]],
    problems: Mapping[str, _Problem],
    per_call: float,
    options: Mapping[str, Any],
) -> None:
    """Shrink each disagreement in ``current`` (in place): rerun the candidate on smaller
    neighbours of its counterexample while one still disagrees."""
    for _ in range(SHRINK_ROUNDS):
        runs, owners, tables = [], [], []
        for n, (args, _expected, _actual) in current.items():
            problem = problems[candidates[n].task_id]
            steps = shrink_steps(args)
            inputs, expected, _ = keep_reference_runs(
                problem.reference, steps, count=len(steps), per_call=per_call, budget=5.0
            )
            if inputs:
                runs.append(_harnessed(candidates[n], problem.tests(inputs, expected)))
                owners.append(n)
                tables.append((inputs, expected))
        if not runs:
            return
        shrunk = False
        for n, (inputs, expected), result in zip(
            owners, tables, run_candidates(runs, options), strict=True
        ):
            summary = read_summary(result.detail or "")
            if summary and int(summary.get("first", -1)) >= 0:
                i = int(summary["first"])
                if size_of(inputs[i]) < size_of(current[n][0]):
                    current[n] = (inputs[i], expected[i], str(summary.get("actual", "")))
                    shrunk = True
        if not shrunk:
            return
