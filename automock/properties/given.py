"""Properties given by flag (``--property``), with what observing the function tells of them.

The checker does not infer here: the person named the properties. Observation still says
how to read the function's output (in place, one element per call) and the types of its
untyped parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from automock.properties.bounded import DEFAULT_CALL_SECONDS
from automock.properties.fair_draws import shuffled_text
from automock.properties.infer import AppliedProperty
from automock.properties.observe import Observations, observe

__all__ = ["given"]


def given(
    fn: Callable[..., Any],
    applied: Sequence[AppliedProperty],
    *,
    examples: Sequence[Sequence[Any]] = (),
    call_seconds: float = DEFAULT_CALL_SECONDS,
) -> tuple[tuple[AppliedProperty, ...], Observations]:
    """Properties given by flag, with what observing ``fn`` tells about them.

    A function seen returning ``None`` after changing its sequence argument is in
    place: each given per-input property then reads that argument as the output,
    changed or not (an in-place sort of ``[]`` returns ``None`` and changes
    nothing; it is not a failure). ``uniform`` of a function seen returning one
    element, not a list, is a fair choice; of one seen rearranging a string's characters, a
    shuffle of a string. The observations' inputs tell the
    search the types of untyped parameters.
    """
    observed = observe(fn, examples=examples, call_seconds=call_seconds)
    outputs = [o.output for o in observed.accepted]
    picks = bool(outputs) and not any(isinstance(v, list | tuple) for v in outputs)
    out = []
    for a in applied:
        extra: dict[str, Any] = {}
        if a.property == "uniform" and shuffled_text(observed):  # a string's characters
            extra = {"text": True}
        elif a.property == "uniform" and picks:  # one element per call: a fair choice
            extra = {"choice": True}
        elif a.property != "uniform" and observed.in_place:
            extra = {"in_place": True}
        out.append(AppliedProperty(a.property, {**extra, **a.options}, a.source, a.evidence))
    return tuple(out), observed
