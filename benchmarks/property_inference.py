"""How well ``automock check`` infers and checks properties of real randomized functions.

    python benchmarks/property_inference.py --corpus /work/corpus/random

(add ``--mirrors /work/.mirror`` to first extract the sources there from fetched
repositories: the ``fetch`` tool's mirrors, ``<mirrors>/<owner>+<name>/repo``) reads ``benchmarks/corpus/random_functions.json`` (where each function comes from, what a
careful engineer would check, our planted-bug edits) and the extracted sources under
``--corpus``. Prints, with no flags given to the checker: how many functions get the
expected properties by inference; correct functions reported failing over several checker
seeds; planted bugs caught by inference alone and with the expected properties given
explicitly; seconds per function. Figures are counts, not timings against a baseline.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).resolve().parent / "corpus" / "random_functions.json"


_KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _definitions(tree: ast.Module) -> ast.Module:
    """Only the module's imports, definitions and assignments that call nothing.

    Scripts in the corpus print, loop for seconds or read ``input()`` at import
    (their demo code); what the measured function needs is its definitions.
    """

    def kept(node: ast.stmt) -> bool:
        if isinstance(node, _KEPT):
            return True
        return isinstance(node, ast.Assign | ast.AnnAssign) and not any(
            isinstance(n, ast.Call) for n in ast.walk(node)
        )

    return ast.Module(body=[n for n in tree.body if kept(n)], type_ignores=[])


def extract(mirrors: Path, corpus: Path) -> list[str]:
    """Write each manifest source to ``corpus/<owner>+<name>/<file name>``; what is missing."""
    missing: list[str] = []
    for entry in json.loads(MANIFEST.read_text(encoding="utf-8"))["functions"]:
        folder = entry["repo"].replace("/", "+")
        repo = mirrors / folder / "repo"
        git_dir = repo / ".git" if (repo / ".git").is_dir() else repo
        done = subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", f"{entry['commit']}:{entry['path']}"],
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            missing.append(f"{entry['repo']}@{entry['commit'][:12]}:{entry['path']}")
            continue
        (corpus / folder).mkdir(parents=True, exist_ok=True)
        (corpus / folder / Path(entry["path"]).name).write_bytes(done.stdout)
    return missing


def _load(path: Path, function: str) -> Any:
    name = f"_bench_{path.stem}_{id(path)}"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    tree = _definitions(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    from automock.runtime.entropy import seeded_random

    # imported as `automock check` imports it, under the runtime's seeding: a module's
    # `from random import seed` then binds the seeded reseed, not one from the OS
    with seeded_random(0):
        exec(compile(tree, str(path), "exec"), module.__dict__)
    return getattr(module, function)


def _check(fn: Any, applied: Any, seen: Any = (), *, seed: int) -> str:
    """ "pass", "fail" or "error" (the checker itself raised: neither a catch nor a pass)."""
    from automock.properties.suite import check_function

    try:
        report = check_function(
            fn,
            applied,
            max_examples=60,
            seed=seed,
            runs=1000,
            call_seconds=2.0,
            type_examples=seen,
        )
    except Exception as exc:  # reported, never hidden
        print(f"    ERROR {type(exc).__name__}: {str(exc)[:200]}")
        return "error"
    for r in report.results:
        if not r.passed:
            print(f"    FAIL {r.name}: {r.detail[:200]}")
    return "pass" if report.passed else "fail"


def _inferred(fn: Any, name: str) -> tuple[Any, Any]:
    """What ``automock check FILE::fn`` checks with no flags, and the inputs it saw."""
    from automock.properties.propose import propose

    applied, observed = propose(fn, name=name, call_seconds=2.0)
    return applied, [o.args for o in observed.accepted]


def _explicit(entry: dict[str, Any]) -> Any:
    from automock.properties.infer import AppliedProperty

    options = entry.get("options", {})
    return tuple(AppliedProperty(n, options.get(n, {}), "flag") for n in entry["expected"])


def _given(fn: Any, entry: dict[str, Any]) -> tuple[Any, Any]:
    """What ``--property`` checks (in place when seen so) and the inputs it saw."""
    from automock.properties.given import given

    applied, observed = given(fn, _explicit(entry), call_seconds=2.0)
    return applied, [o.args for o in observed.accepted]


def _mutants(entry: dict[str, Any], source: Path, out: dict[str, Any]) -> None:
    text = source.read_text(encoding="utf-8")
    for mutant in entry["mutants"]:
        assert mutant["old"] in text, (entry["function"], mutant["old"])
        with tempfile.TemporaryDirectory() as tmp:
            planted = Path(tmp) / source.name
            planted.write_text(text.replace(mutant["old"], mutant["new"], 1), encoding="utf-8")
            bad = _load(planted, entry["function"])
            applied, seen = _inferred(bad, entry["function"])
            by_inference = _check(bad, applied, seen, seed=0) == "fail"
            explicit = _check(bad, *_given(bad, entry), seed=0) == "fail"
        out["mutants"] += 1
        out["caught_inferred"] += by_inference
        out["caught_explicit"] += explicit
        print(
            f"  mutant ({mutant['kind']}): caught by inference {by_inference}, explicit {explicit}"
        )


def _judge(entry: dict[str, Any], fn: Any, applied: Any, seen: Any, seeds: list[int]) -> Any:
    """Check the upstream function: (seeds it failed under by inference, explicitly)."""
    started = time.perf_counter()
    first = _check(fn, applied, seen, seed=seeds[0])
    seconds = time.perf_counter() - started
    rest = seeds[1:] if entry["correct"] else []
    failing = [
        s
        for s, v in zip(
            seeds, [first] + [_check(fn, applied, seen, seed=s) for s in rest], strict=False
        )
        if v != "pass"
    ]
    given, inputs = _given(fn, entry)
    used = seeds if entry["correct"] else seeds[:1]
    explicit = [s for s in used if _check(fn, given, inputs, seed=s) != "pass"]
    return failing, explicit, seconds


def measure(corpus: Path, seeds: list[int], only: str = "", batch: str = "") -> dict[str, Any]:
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))["functions"]
    keys = [
        "functions",
        "expected_found",
        "correct",
        "correct_failing",
        "correct_failing_explicit",
        "wrong",
        "wrong_caught",
        "wrong_caught_explicit",
        "mutants",
        "caught_inferred",
        "caught_explicit",
    ]
    out: dict[str, Any] = dict.fromkeys(keys, 0)
    out["seconds"], out["check_seconds"] = [], []
    for entry in entries:
        if only and entry["function"] != only:
            continue
        if batch and entry.get("batch", "a") != batch:
            continue
        source = corpus / entry["repo"].replace("/", "+") / Path(entry["path"]).name
        started = time.perf_counter()
        fn = _load(source, entry["function"])
        applied, seen = _inferred(fn, entry["function"])
        inferring = time.perf_counter() - started
        found = {a.property for a in applied}
        out["functions"] += 1
        out["expected_found"] += set(entry["expected"]) <= found
        print(
            f"{entry['repo']}::{entry['function']}: inferred {sorted(found)}, expected {entry['expected']}"
        )
        failing, explicit, seconds = _judge(entry, fn, applied, seen, seeds)
        out["check_seconds"].append(inferring + seconds)
        if entry["correct"]:
            out["correct"] += 1
            out["correct_failing"] += bool(failing)
            out["correct_failing_explicit"] += bool(explicit)
            print(f"  correct: failing under checker seeds {failing} (explicit: {explicit})")
        else:
            out["wrong"] += 1
            out["wrong_caught"] += bool(failing)
            out["wrong_caught_explicit"] += bool(explicit)
            print(
                f"  wrong upstream: caught by inference {bool(failing)}, explicit {bool(explicit)}"
            )
        _mutants(entry, source, out)
        out["seconds"].append(time.perf_counter() - started)
    return out


def _batches() -> list[str]:
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))["functions"]
    return sorted({e.get("batch", "a") for e in entries})


def _sum(values: list[Any]) -> Any:
    return [x for v in values for x in v] if isinstance(values[0], list) else sum(values)


def _summary(title: str, r: dict[str, Any], seeds: str) -> None:
    secs, checks = r["seconds"], r["check_seconds"]
    print(f"== {title}")
    print(f"expected properties inferred: {r['expected_found']}/{r['functions']}")
    print(
        f"correct functions reported failing (seeds {seeds}): inference "
        f"{r['correct_failing']}/{r['correct']}, explicit {r['correct_failing_explicit']}/{r['correct']}"
    )
    print(
        f"wrong upstream functions caught: inference {r['wrong_caught']}/{r['wrong']}, "
        f"explicit {r['wrong_caught_explicit']}/{r['wrong']}"
    )
    print(
        f"planted bugs caught: inference {r['caught_inferred']}/{r['mutants']}, "
        f"explicit properties {r['caught_explicit']}/{r['mutants']}"
    )
    print(
        f"seconds per function (with its mutants): mean {sum(secs) / len(secs):.1f}, max {max(secs):.1f}"
    )
    print(
        f"seconds per function (inference + inferred check, first seed): "
        f"mean {sum(checks) / len(checks):.1f}, max {max(checks):.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, type=Path, help="directory of extracted sources")
    parser.add_argument("--seeds", default="0,1,2", help="checker seeds for correct functions")
    parser.add_argument("--only", default="", help="measure only the function of this name")
    parser.add_argument(
        "--batch", default="", help="only this batch (entries without one are batch a)"
    )
    parser.add_argument(
        "--mirrors", type=Path, help="first extract the sources from these fetched repositories"
    )
    args = parser.parse_args(argv)
    if args.mirrors:
        missing = extract(args.mirrors, args.corpus)
        for name in sorted(set(missing)):
            print(f"not in the mirrors (fetch github:OWNER/NAME): {name}", file=sys.stderr)
        if missing:
            return 2
    if not args.corpus.is_dir():
        print(
            f"{args.corpus}: no such directory; extract the manifest's files there", file=sys.stderr
        )
        return 2
    seeds = [int(s) for s in args.seeds.split(",")]
    batches = [args.batch] if args.batch else _batches()
    results = [(b, measure(args.corpus, seeds, args.only, b)) for b in batches]
    for batch, r in results:
        if r["functions"]:
            _summary(f"batch {batch}", r, args.seeds)
    if len(results) > 1:
        total = {k: _sum([r[k] for _, r in results]) for k in results[0][1]}
        _summary("all batches", total, args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
