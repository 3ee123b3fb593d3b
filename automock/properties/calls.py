"""The calls of one property search: seeded, bounded, each input's verdict kept (issue 30).

:class:`Calls` is what :func:`~automock.properties.hypothesis_glue.check_property`
hands to ``hypothesis.find``: each call runs seeded from its input and under a
time bound; an input the function refuses is outside its domain (a ``raise``
of its own, ``random``'s error for an empty population, or an error the input
raises under every seed); an input that runs out of the memory bound is too
costly and skipped; a hang ends the search with its own verdict.
"""

from __future__ import annotations

import ast
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from automock.errors import CallTimeout, CallTooCostly
from automock.properties._signature import function_tree
from automock.properties.bounded import bounded, call_seed, replay_seed, seeded
from automock.properties.checks import PropertyResult
from automock.properties.runner import REJECTED, call_output, evaluate

__all__ = ["Calls", "hang", "large", "replay_seed", "shown"]

_SEEN_SEEDS = 4  # more seeds each input seen accepted is tried under, before the search
_SEEN_SECONDS = 0.5  # ... when its calls under their own seeds took no more CPU than this

# what a function raises when an input is outside its domain (a precondition it checks, or one
# it assumes: an index past the end, a count of zero it divides by or loops over, a failed assert,
# an iterator asked by `next()` for more items than the input has)
_DOMAIN_ERRORS = (
    UnboundLocalError,
    ValueError,
    TypeError,
    IndexError,
    StopIteration,
    KeyError,
    ZeroDivisionError,
    AssertionError,
    RecursionError,
)
_REPLAYS = 2  # other seeds an input that raised is re-run under
_UNBOUND = re.compile(r"local variable '(\w+)'")


def _reads_itself(exc: BaseException) -> bool:
    """Is ``exc`` an ``UnboundLocalError`` for a name that its function only ever assigns
    from itself (``roll = roll.randint(1, 6)``, ``total += x`` with no ``total = 0``,
    ``n: int = n + 1``), never by a loop, an import or another assignment? No
    input can bind it first: a defect on every input that reaches it, never a limit of the
    domain (unlike ``return last`` after a loop that ran zero times)."""
    if not isinstance(exc, UnboundLocalError) or not (found := _UNBOUND.search(str(exc))):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    tree = function_tree(tb.tb_frame.f_code) if tb is not None else None
    if tree is None:
        return False
    name = found.group(1)
    selves = stores = 0
    for node in ast.walk(tree):
        stores += _binds(node, name)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets) and (
                isinstance(node, ast.AugAssign)
                or any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.value))
            ):
                selves += 1
    return selves > 0 and selves == stores


def _binds(node: ast.AST, name: str) -> int:
    """1 where ``node`` binds ``name`` (an assignment's or a loop's target, an import, a
    ``def``, an ``except ... as``), else 0."""
    if isinstance(node, ast.Name):
        return int(node.id == name and isinstance(node.ctx, ast.Store))
    if isinstance(node, ast.alias):
        return int((node.asname or node.name.split(".")[0]) == name)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return int(node.name == name)
    if isinstance(node, ast.ExceptHandler):
        return int(node.name == name)
    return 0


class Calls:
    """The calls of one search: each seeded from its input and bounded; hangs and refusals kept.

    Each input's verdict is kept, so Hypothesis meets the same answer when it
    replays an input (a random function is re-run under the same seed, and a
    search that ended on a hang answers as before for the inputs it saw).
    """

    def __init__(
        self, fn: Callable[..., Any], name: str, options: Any, seed: int, seconds: float
    ) -> None:
        self.fn, self.name, self.options, self.seed, self.seconds = fn, name, options, seed, seconds
        self.hung: list[tuple[Any, ...]] = []
        self.refused: list[tuple[Any, ...]] = []
        self.costly: list[tuple[Any, ...]] = []
        self.accepted = 0
        self.verdicts: dict[str, bool] = {}

    def run(self, args: tuple[Any, ...], replay: int = 0) -> PropertyResult:
        """The verdict on ``args``, run under its seed (``replay`` > 0: another seed of it)."""
        seed = call_seed(self.seed, args) if not replay else replay_seed(self.seed, args, replay)
        return bounded(
            lambda: evaluate(
                self.fn,
                args,
                self.name,
                self.options,
                preconditions=True,
                refuses=lambda exc: self.every_seed(args, exc),
            ),
            seed=seed,
            seconds=self.seconds,
        )

    def seen_failing(
        self, replays: Sequence[tuple[Any, ...]], excluded: Sequence[Sequence[Any]]
    ) -> tuple[tuple[Any, ...], int] | None:
        """The first input seen accepted that breaks the property, with its replay: under its
        own seed first, then (when those calls were quick) under :data:`_SEEN_SEEDS` more
        seeds each, since a random function's off-by-one shows on a small input under some
        seeds only (a fraction of one flip past 1 a quarter of the time)."""
        kept = [args for args in replays if list(args) not in excluded]
        started = time.process_time()  # CPU, not wall: the same answer on a loaded machine
        for args in kept:
            if self.breaks(args):
                return args, 0
        if time.process_time() - started > _SEEN_SECONDS:
            return None
        for replay in range(1, _SEEN_SEEDS + 1):
            for args in kept:
                try:
                    result = self.run(args, replay)
                except (CallTimeout, CallTooCostly):
                    return None
                if not result.passed:
                    return args, replay
        return None

    def every_seed(self, args: tuple[Any, ...], exc: BaseException) -> bool:
        """Does the input raise ``exc``'s type whatever the function draws? Then it is outside
        the domain (``estimate_pi(0)`` dividing by zero); an error under some seeds only is a
        bug on an input the function otherwise accepts (an index drawn one past the end)."""
        if not isinstance(exc, _DOMAIN_ERRORS) or _reads_itself(exc):
            return False
        for replay in range(1, _REPLAYS + 1):
            try:
                with seeded(call_seed(self.seed + replay * 7919, args)):
                    call_output(self.fn, args, in_place=bool((self.options or {}).get("in_place")))
            except type(exc):
                continue
            except Exception:
                return False
            return False
        return True

    def breaks(self, args: tuple[Any, ...]) -> bool:
        key = repr(args)
        if key in self.verdicts:
            return self.verdicts[key]
        if self.hung:  # the search is over: a hang is reported as found
            return False
        try:
            result = self.run(args)
        except CallTooCostly:  # a size asking for gigabytes: skipped, never a failure
            self.costly.append(args)
            self.verdicts[key] = False
            return False
        except CallTimeout:
            self.hung.append(args)
            return False
        if result.passed and REJECTED in result.detail:
            self.refused.append(args)
        else:
            self.accepted += 1
        self.verdicts[key] = not result.passed
        return not result.passed

    def without_failure(self, held: str) -> PropertyResult:
        """The verdict when no input broke the property: a hang, no input accepted, or held."""
        if self.hung:
            return hang(self.fn, self.name, self.hung[0], self.seconds)
        if self.refused and not self.accepted:  # a precondition no input meets: broken
            failure = evaluate(self.fn, self.refused[0], self.name, self.options)
            detail = f"rejected every input: {failure.detail}"
            return PropertyResult(self.name, False, detail, list(self.refused[0]))
        if self.refused:
            example = shown(self.refused[0])
            held += f"; {len(self.refused)} input(s) outside its domain, e.g. ({example})"
        if self.costly:
            example = shown(self.costly[0])
            held += f"; {len(self.costly)} input(s) too costly (out of memory), e.g. ({example})"
        return PropertyResult(self.name, True, held)


def large(args: Sequence[Any]) -> bool:
    """Is an argument big enough to be why a call ran long (a count, a list, a string)?"""
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool) and abs(arg) > 64:
            return True
        if isinstance(arg, str | bytes | list | tuple | dict | set) and len(arg) > 5:
            return True
    return False


def shown(args: Sequence[Any], limit: int = 150) -> str:
    shown = ", ".join(repr(a) for a in args)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def hang(fn: Callable[..., Any], name: str, args: Sequence[Any], seconds: float) -> PropertyResult:
    detail = (
        f"{getattr(fn, '__name__', 'f')}({shown(args)}) did not finish within {seconds:g}s: "
        "a hang (not a broken property); the search stopped there"
    )
    return PropertyResult(name, False, detail, list(args), timed_out=True)
