"""Run a set of properties against one function and collect a :class:`CheckReport`.

This is what ``automock check FILE::function`` does after loading the file:
each per-input property is searched over generated inputs (shrinking any
failure; inputs come from the type hints, else from the types of sample
``inputs`` a plan's property args give), ``uniform`` runs the chi-square test over seeded runs, and, given
the example inputs of the function's tests, hard-coding detection compares
the examples against fresh inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from automock._serialize import JsonMixin
from automock.properties.checks import PropertyResult
from automock.properties.distribution import DistributionResult, shuffle_uniformity
from automock.properties.hardcoding import HardcodingReport, detect_hardcoding
from automock.properties.hypothesis_glue import check_property
from automock.properties.infer import AppliedProperty, resolve_options
from automock.properties.runner import DISTRIBUTION_PROPERTIES

__all__ = ["CheckReport", "check_function"]


@dataclass(frozen=True, slots=True)
class CheckReport(JsonMixin):
    """Every property verdict for one function; ``passed`` only if all held and nothing is flagged."""

    function: str
    seed: int
    max_examples: int
    results: tuple[PropertyResult | DistributionResult, ...]
    hardcoding: HardcodingReport | None = None

    @property
    def passed(self) -> bool:
        properties_ok = all(r.passed for r in self.results)
        return properties_ok and (self.hardcoding is None or self.hardcoding.verdict == "ok")

    def to_dict(self) -> dict[str, Any]:
        return {
            "function": self.function,
            "passed": self.passed,
            "seed": self.seed,
            "max_examples": self.max_examples,
            "results": [r.to_dict() for r in self.results],
            "hardcoding": self.hardcoding.to_dict() if self.hardcoding else None,
        }


def _plan_inputs(options: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """``inputs`` in a plan's property args: sample argument lists whose types guide generation."""
    inputs = options.get("inputs")
    if not isinstance(inputs, list):
        return []
    return [tuple(i) if isinstance(i, list | tuple) else (i,) for i in inputs]


def check_function(
    fn: Callable[..., Any],
    properties: Sequence[AppliedProperty],
    *,
    namespace: Mapping[str, Any] | None = None,
    max_examples: int = 100,
    seed: int = 0,
    runs: int = 2000,
    examples: Sequence[Sequence[Any]] = (),
) -> CheckReport:
    """Check each property of ``fn``; with ``examples``, also look for hard-coding."""
    names = namespace or {}
    results: list[PropertyResult | DistributionResult] = []
    for applied in properties:
        options = resolve_options(applied.options, names)
        if applied.property in DISTRIBUTION_PROPERTIES:
            n = int(options.get("n", 5))
            results.append(shuffle_uniformity(fn, n=n, runs=runs, seed=seed))
            continue
        results.append(
            check_property(
                fn,
                applied.property,
                options=options,
                max_examples=max_examples,
                seed=seed,
                examples=examples or _plan_inputs(options),
            )
        )
    hardcoding = None
    per_input = [p for p in properties if p.property not in DISTRIBUTION_PROPERTIES]
    if examples and per_input:
        merged: dict[str, Any] = {}
        for applied in per_input:
            merged.update(resolve_options(applied.options, names))
        hardcoding = detect_hardcoding(
            fn,
            examples,
            [p.property for p in per_input],
            options=merged,
            max_examples=max_examples,
            seed=seed,
        )
    name = getattr(fn, "__qualname__", getattr(fn, "__name__", "function"))
    return CheckReport(str(name), seed, max_examples, tuple(results), hardcoding)
