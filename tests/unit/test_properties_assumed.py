"""What a docstring assumes of a number (``automock.properties.assumed``)."""

from __future__ import annotations

from automock.properties.assumed import assumed_lows, broken_assumption


def flips(numFlips, bias=0.5):
    """Assumes numFlips a positive int."""


def walk(steps, start):
    """steps: a non-negative integer; start may be negative."""


def draw(k, pool):
    """Draw k items; k must be at least 1. The pool is a list of numbers."""


def plain(n):
    """Return n shuffled numbers."""


def test_each_wording_bounds_only_the_parameter_it_names() -> None:
    assert assumed_lows(flips) == {"numFlips": 1}
    assert assumed_lows(walk) == {"steps": 0}
    assert assumed_lows(draw) == {"k": 1}
    assert assumed_lows(plain) == {}


def test_an_argument_below_the_assumption_is_named() -> None:
    assert broken_assumption(flips, [-1]) == "its docstring assumes numFlips >= 1"
    assert broken_assumption(flips, [3]) is None
    assert broken_assumption(walk, [0, -5]) is None  # start is allowed below zero
    assert broken_assumption(walk, [-1, 0]) == "its docstring assumes steps >= 0"
