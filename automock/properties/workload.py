"""A function whose defaults set its own workload, called with a lighter one.

``def estimate_pi(n_samples: int = 1_000_000)`` takes its count of trials from its
default. The checker calls a function like this thousands of times: once per seeded
run of a distribution or bounds check, and many times while observing it. At the
default, one call costs a third of a second, so one check took twelve minutes.

A count of trials, or of what the function makes, whose default is above 1000 is a
workload, not a size the function's properties depend on. With fewer trials an estimate
is only noisier, and the estimate checks allow for sampling error. :func:`lightened`
returns the same function (same code, globals, closure and source) with such a default
lowered to 1000, and says which defaults it lowered. The report lists them, so the user
knows what was called.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

from automock.properties._signature import signature_of, sizes_output, trial_named

__all__ = ["LIGHT_COUNT", "lightened"]

LIGHT_COUNT = 1000  # a lowered default: what the estimate checks already pass a count of trials


def _workload(p: inspect.Parameter) -> bool:
    if type(p.default) is not int or p.default <= LIGHT_COUNT:
        return False
    return sizes_output(p.name) or trial_named(p.name)


def lightened(fn: Callable[..., Any]) -> tuple[Callable[..., Any], tuple[str, ...]]:
    """``fn`` with each workload default above :data:`LIGHT_COUNT` lowered to it, and a note
    per lowered default; ``fn`` itself, and no note, when it has none or is not a plain
    Python function."""
    signature = signature_of(fn)
    if signature is None or not isinstance(fn, types.FunctionType):
        return fn, ()
    heavy = [p for p in signature.parameters.values() if _workload(p)]
    if not heavy:
        return fn, ()
    lowered = {p.name: LIGHT_COUNT for p in heavy}
    code = fn.__code__
    positional = code.co_varnames[: code.co_argcount]
    defaults = fn.__defaults__ or ()
    first = len(positional) - len(defaults)  # the position of the first defaulted parameter
    light = types.FunctionType(
        code,
        fn.__globals__,
        fn.__name__,
        tuple(lowered.get(positional[first + i], d) for i, d in enumerate(defaults)),
        fn.__closure__,
    )
    light.__kwdefaults__ = (
        {k: lowered.get(k, v) for k, v in fn.__kwdefaults__.items()} if fn.__kwdefaults__ else None
    )
    light.__qualname__, light.__module__, light.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    light.__annotations__ = dict(fn.__annotations__)
    light.__dict__.update(fn.__dict__)
    notes = tuple(
        f"{p.name}={p.default} called as {p.name}={LIGHT_COUNT}: a count above "
        f"{LIGHT_COUNT} in a default is taken for a workload, not a size the properties depend on"
        for p in heavy
    )
    return light, notes
