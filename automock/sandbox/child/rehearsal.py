"""A spare that expects a pair rehearses its work while it waits for its candidate.

Every page a freshly forked process writes is first copied from its parent
(a page fault each, ~2 µs): a pair's two processes copy ~1,800 between them,
most on the round trip a refinement loop waits for (candidate in, verdict
out). Much of that is the same in every pair: the channel's codec, the
compiler, ``exec`` of a module, the runtime's re-seeding, a traceback. A
spare forked for a pair (:func:`automock.sandbox.child.candidate.fork_ahead`)
does that work once on throwaway values while it is idle, in each of its two
processes after the fork that separates them, so the pages are already its
own when the candidate arrives. A process whose candidate (or code) is already
waiting for it skips the rehearsal: there it would only delay the round trip.

Nothing rehearsed stays: the throwaway namespace and ``linecache`` entry are
dropped, and the runtime is re-seeded with the sample's seed afterwards
(:func:`~automock.runtime.entropy.reseed` starts over whatever came before).
No candidate code exists in either process yet, and the test process has not
read any tests.
"""

from __future__ import annotations

import builtins
import contextlib
import linecache
import marshal
import select
import sys
import types
from collections.abc import Callable
from typing import Any

from automock.sandbox.child.channel import decode, encode
from automock.sandbox.child.trusted import cache_lines

__all__ = ["rehearse_candidate_side", "rehearse_test_side", "waiting"]

_NAME = "<automock rehearsal>"
_SOURCE = (  # a module as a HumanEval prompt starts: an import of a module already loaded
    "from typing import List as _List\n\n\n"
    "def _rehearsal(x: _List[int], *, y: str = ()) -> _List[float]:\n"
    "    return [x, {'k': (x, 1.5)}, y]\n\n\n"
    "def _check(candidate):\n    assert candidate(1) == [2]\n"
)

# compiled once, where this module is imported (the zygote): the test process compiles nothing
_COMPILED = marshal.dumps(compile(_SOURCE, _NAME, "exec", dont_inherit=True))


def _reseed() -> None:
    from automock.runtime.entropy import reseed

    with contextlib.suppress(RuntimeError):  # outside a runtime block: nothing to re-seed
        reseed(0)


def waiting(fd: int) -> bool:
    """Whether nothing is to be read on ``fd`` yet (the candidate has not come): a
    rehearsal then costs the round trip nothing."""
    try:
        return not select.select([fd], [], [], 0)[0]
    except (OSError, ValueError):
        return False


def rehearse_candidate_side(compile_source: Callable[[str, str], types.CodeType]) -> None:
    """In the candidate's process forked ahead: load a module and answer a call, for nothing."""
    with contextlib.suppress(Exception):
        _, code, source, _seed = decode(encode(("load", _SOURCE, _NAME, 0)))
        _reseed()
        module = types.ModuleType("__rehearsal__")
        sys.modules["__rehearsal__"] = module
        namespace = module.__dict__
        namespace["__builtins__"] = builtins
        exec(compile_source(code, source), namespace)
        names = [n for n, v in list(namespace.items()) if not n.startswith("__") and callable(v)]
        encode(("ready", names))
        _, name, args, kwargs = decode(encode(("call", names[0], (1,), {"y": "z"})))
        encode(("ok", namespace[name](*args, **kwargs)))
    sys.modules.pop("__rehearsal__", None)
    linecache.cache.pop(_NAME, None)


def rehearse_test_side(format_failure: Callable[[BaseException], str | None]) -> None:
    """In the test process, after the fork of the candidate's: load compiled code, run it
    with a call over the codec, fail an assertion and format its traceback, for nothing."""
    with contextlib.suppress(Exception):
        code = marshal.loads(_COMPILED)  # as the tests come: compiled by the pool
        _reseed()
        namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
        exec(code, namespace)
        cache_lines(_SOURCE, _NAME)

        def call(*args: Any) -> Any:  # as a proxy does: the call and its answer encoded
            decode(encode(("call", "_rehearsal", args, {})))
            return decode(encode(("ok", namespace["_rehearsal"](*args))))[1]

        try:
            namespace["_check"](call)  # fails: a traceback to format
        except AssertionError as exc:
            format_failure(exc)
    linecache.cache.pop(_NAME, None)
