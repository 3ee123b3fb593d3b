"""Property checks for outputs with no single right answer.

Value checks (no function call)::

    from automock.properties import permutation_of, is_sorted
    permutation_of([2, 0, 1], [0, 1, 2]).passed   # True
    is_sorted([1, 0]).counterexample               # {"index": 0, "pair": [1, 0]}

Over generated inputs (Hypothesis, imported lazily), with shrinking::

    from automock.properties import check_property
    check_property(my_sort, "sorted", max_examples=200, seed=0)

Plus :func:`shuffle_uniformity` (chi-square over many seeded runs) and
:func:`detect_hardcoding` (works only on the tests' example inputs?).
"""

from __future__ import annotations

from automock.properties.checks import (
    PropertyResult,
    idempotent,
    is_sorted,
    permutation_of,
    round_trip,
    sample_without_replacement,
    subset_of,
    unique,
    within_bounds,
)
from automock.properties.distribution import (
    DistributionResult,
    chi_square_p_value,
    chi_square_statistic,
    shuffle_uniformity,
    uniformity,
)
from automock.properties.hardcoding import HardcodingReport, detect_hardcoding, examples_from_tests
from automock.properties.hypothesis_glue import check_property, strategy_for, type_of_value
from automock.properties.infer import AppliedProperty, infer_properties
from automock.properties.runner import PROPERTIES, canonical_property, evaluate

__all__ = [
    "PROPERTIES",
    "AppliedProperty",
    "DistributionResult",
    "HardcodingReport",
    "PropertyResult",
    "canonical_property",
    "check_property",
    "chi_square_p_value",
    "chi_square_statistic",
    "detect_hardcoding",
    "evaluate",
    "examples_from_tests",
    "idempotent",
    "infer_properties",
    "is_sorted",
    "permutation_of",
    "round_trip",
    "sample_without_replacement",
    "shuffle_uniformity",
    "strategy_for",
    "subset_of",
    "type_of_value",
    "uniformity",
    "unique",
    "within_bounds",
]
