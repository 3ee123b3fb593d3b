"""A distribution property given by hand, its parameters named the short way, spelled out.

Inference hands the distribution checks their parameters as mappings (``{"list":
"population", "weights": "fitness"}``); a person types ``--property proportional
--option weights=fitness`` or ``--option tournament=population,fitness,k``. Here the short
forms become the mappings, from the function's own signature: the weights' list is the
other parameter without a default, and one more such parameter is the list's size
(``population_size``). A distribution property that lacks what it needs, or names a
parameter the function does not have, is an input error naming the option to give; it is
never run as some other check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from automock.errors import InputError
from automock.properties._signature import driven_parameters, parameter_names

_NEEDS: Mapping[str, str] = {
    "proportional": "--option weights=PARAM (the weights parameter's name)",
    "tournament": "--option tournament=LIST,WEIGHTS,SIZE (the three parameters' names)",
    "estimates": "--option value=NUMBER (what the estimate should average to)",
}


def spelled_out(fn: Callable[..., Any], prop: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with ``prop``'s short forms written as the mappings the checks take."""
    out = dict(options)
    if prop == "proportional":
        out["weights"] = _weighted(fn, out.get("weights"), out)
    elif prop == "tournament":
        out["tournament"] = _contest(fn, out.get("tournament"))
    elif prop == "estimates":
        value = out.get("value")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _lacking(fn, prop)
    return out


def _weighted(fn: Callable[..., Any], weights: Any, options: Mapping[str, Any]) -> Any:
    if isinstance(weights, Mapping):
        return weights
    if not isinstance(weights, str) or not weights:
        raise _lacking(fn, "proportional")
    _named(fn, "weights", weights)
    rest = [p.name for p in driven_parameters(fn) if p.name != weights]
    items = options.get("list") or (rest[0] if rest else "")
    if not isinstance(items, str) or not items:
        raise InputError(
            f"--property proportional on {_name(fn)}(): no parameter left for the list the "
            "weights belong to; give --option list=PARAM"
        )
    _named(fn, "list", items)
    size = options.get("size") or (rest[1] if len(rest) == 2 and rest[0] == items else "")
    chosen = {"list": items, "weights": weights}
    return chosen | ({"size": _named(fn, "size", str(size))} if size else {})


def _contest(fn: Callable[..., Any], contest: Any) -> Mapping[str, Any]:
    if isinstance(contest, Mapping):
        return contest
    names: Sequence[Any] = contest.split(",") if isinstance(contest, str) else contest or ()
    names = [str(n).strip() for n in names] if isinstance(names, list | tuple) else []
    if len(names) not in (3, 4) or not all(names):
        raise _lacking(fn, "tournament")
    keys = ("list", "weights", "size", "count")
    return {key: _named(fn, key, name) for key, name in zip(keys, names, strict=False)}


def _named(fn: Callable[..., Any], role: str, name: str) -> str:
    parameters = parameter_names(fn)
    if name not in parameters:
        listed = ", ".join(parameters) or "none"
        raise InputError(
            f"--option {role}={name}: {_name(fn)}() has no parameter {name!r} "
            f"(its parameters: {listed})"
        )
    return name


def _lacking(fn: Callable[..., Any], prop: str) -> InputError:
    return InputError(f"--property {prop} on {_name(fn)}(): give {_NEEDS[prop]}")


def _name(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__name__", "the function"))
