"""The trusted test text of an amplified run, and how its one-line verdict is read back.

:func:`harness_tests` writes a human-eval style ``check(candidate)`` that holds
the generated inputs, the reference's outputs (``compare`` mode) or the given
tests' cases (``select`` mode) as literals, and the comparison of
:mod:`automock.properties.outputs`. It runs as a pair's *tests*: in the test
process, which reads its text only after the candidate process was forked, so
the candidate never holds the inputs or the expected outputs; each call goes
through the plain-data channel.

``check`` always ends by raising ``AssertionError("automock-amplify {json}")``:
the pair's verdict detail (written by the test process) carries the summary
:func:`read_summary` parses: inputs tried, disagreements, the index of the
first (smallest) disagreeing input with the candidate's output (a short repr),
the candidate's time on them, the number of given cases it passes and a
fingerprint of all its outputs (for clustering). A detail without that prefix
(the candidate process died, the run timed out) is no summary.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import Any

from automock.properties import outputs
from automock.properties.amplify import is_plain, source_text

__all__ = ["MARKER", "harness_tests", "read_summary"]

MARKER = "automock-amplify "
_PREFIX = "AssertionError: " + MARKER
_SHOWN = 100  # characters of the candidate's output repr kept in the summary

_NAMES = 'inf = float("inf")\nnan = float("nan")\n'

_CHECK = """
def _elapsed():
    import os as _os

    try:
        return _os.times().elapsed
    except Exception:
        return 0.0


def _broken(candidate, args):
    # the first property of _PROPERTIES the candidate breaks on args ("" if none)
    from automock.properties.runner import evaluate

    for name, options in _PROPERTIES:
        result = evaluate(candidate, list(args), name, options)
        if not result.passed:
            return name + ": " + result.detail
    return ""


def check(candidate):
    import hashlib as _hashlib
    import json as _json
    tried = bad = passed_cases = 0
    first = -1
    actual = ""
    prints = []
    started = _elapsed()
    for i, args in enumerate(_INPUTS):
        try:
            out = ("ok", candidate(*args))
        except Exception as exc:
            out = ("raise", type(exc).__name__ + ": " + str(exc)[:60])
        tried += 1
        prints.append(fingerprint(out[1]) if out[0] == "ok" else out[0] + ":" + out[1].split(":")[0])
        wrong = ""
        if out[0] != "ok" and _MODE != "select":
            wrong = "raised " + out[1]
        elif _MODE == "compare" and not same_output(_EXPECTED[i], out[1]):
            wrong = repr(out[1])
        elif _MODE == "properties":
            wrong = _broken(candidate, args)
        if wrong:
            bad += 1
            if first < 0:
                first = i
                actual = wrong
    for args, expected, compare, tolerance, wrapper, wrapper_args in _CASES:
        try:
            output = candidate(*args)
        except Exception:
            continue
        passed_cases += case_matches(output, expected, compare, tolerance, wrapper, wrapper_args)
    summary = {
        "tried": tried,
        "bad": bad,
        "first": first,
        "actual": actual[:_SHOWN],
        "seconds": round(_elapsed() - started, 3),
        "cases": passed_cases,
        "sig": _hashlib.sha256("\\n".join(prints).encode("utf-8", "replace")).hexdigest()[:16],
    }
    text = _json.dumps(summary, ensure_ascii=False)
    while len(text) > 250 and summary["actual"]:
        summary["actual"] = summary["actual"][: len(summary["actual"]) // 2]
        text = _json.dumps(summary, ensure_ascii=False)
    raise AssertionError(_MARKER + text)
"""


def _module_source() -> str:
    """The comparison functions, as their module defines them (one home)."""
    text = inspect.getsource(outputs)
    return text.replace("from __future__ import annotations\n", "")


def harness_tests(
    inputs: Sequence[tuple[Any, ...]],
    expected: Sequence[Any] | None = None,
    cases: Sequence[Any] = (),
    properties: Sequence[tuple[str, dict[str, Any]]] | None = None,
) -> str:
    """The tests' text: check ``properties`` (``[(name, options)]``, the functions of
    :func:`automock.properties.runner.evaluate`; a raise where the reference returned also
    disagrees) when given, else compare against ``expected`` when given, else only record
    behaviour (``select``). ``cases``: :class:`~automock.properties.testcases.TestCase` values whose
    assertions are counted (CodeT's test agreement)."""
    mode = (
        "properties" if properties is not None else "compare" if expected is not None else "select"
    )
    rows = [
        (c.args, c.expected, c.compare, c.tolerance, c.wrapper, c.wrapper_args)
        for c in cases
        if c.compare and is_plain((c.args, c.expected, c.wrapper_args))
    ]
    parts = [
        _NAMES,
        _module_source(),
        f"_MARKER = {MARKER!r}",
        f"_SHOWN = {_SHOWN}",
        f"_MODE = {mode!r}",
        "_PROPERTIES = " + source_text([tuple(p) for p in properties or ()]),
        "_INPUTS = " + source_text(list(inputs)),
        "_EXPECTED = " + source_text(list(expected or [])),
        "_CASES = " + source_text(rows),
        _CHECK,
    ]
    return "\n".join(parts)


def read_summary(detail: str) -> dict[str, Any] | None:
    """The summary ``check`` raised, or None (the run ended some other way)."""
    if not detail.startswith(_PREFIX):
        return None
    try:
        found = json.loads(detail[len(_PREFIX) :])
    except ValueError:  # cut at the verdict's length limit: the fixed fields come first
        return None
    return found if isinstance(found, dict) else None
