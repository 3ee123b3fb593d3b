"""How well ``automock check`` infers and checks properties of real randomized functions.

    python benchmarks/property_inference.py --corpus /work/corpus/random

reads ``benchmarks/corpus/random_functions.json`` (where each function comes from, what a
careful engineer would check, our planted-bug edits) and the extracted sources under
``--corpus``. Prints, with no flags given to the checker: how many functions get the
expected properties by inference; correct functions reported failing over several checker
seeds; planted bugs caught by inference alone and with the expected properties given
explicitly; seconds per function. Figures are counts, not timings against a baseline.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).resolve().parent / "corpus" / "random_functions.json"


def _load(path: Path, function: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"_bench_{path.stem}_{id(path)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, function)


def _check(fn: Any, applied: Any, seed: int) -> bool:
    from automock.properties.suite import check_function

    report = check_function(fn, applied, max_examples=60, seed=seed, runs=1000, call_seconds=2.0)
    return bool(report.passed)


def _inferred(fn: Any, name: str) -> Any:
    from automock.properties.propose import propose

    return propose(fn, name=name, call_seconds=2.0)[0]


def _explicit(names: list[str]) -> Any:
    from automock.properties.infer import AppliedProperty

    return tuple(AppliedProperty(n, {}, "flag") for n in names)


def measure(corpus: Path, seeds: list[int]) -> dict[str, Any]:
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))["functions"]
    out: dict[str, Any] = {
        "functions": 0,
        "expected_found": 0,
        "correct": 0,
        "correct_failing": 0,
        "mutants": 0,
        "caught_inferred": 0,
        "caught_explicit": 0,
        "seconds": [],
    }
    for entry in entries:
        source = corpus / entry["repo"].replace("/", "+") / Path(entry["path"]).name
        started = time.perf_counter()
        fn = _load(source, entry["function"])
        applied = _inferred(fn, entry["function"])
        found = {a.property for a in applied}
        out["functions"] += 1
        out["expected_found"] += set(entry["expected"]) <= found
        print(f"{entry['function']}: inferred {sorted(found)}, expected {entry['expected']}")
        if entry["correct"]:
            out["correct"] += 1
            failing = [s for s in seeds if not _check(fn, applied, s)]
            out["correct_failing"] += bool(failing)
            print(f"  correct function: reported failing under checker seeds {failing}")
        text = source.read_text(encoding="utf-8")
        for mutant in entry["mutants"]:
            assert mutant["old"] in text, (entry["function"], mutant["old"])
            with tempfile.TemporaryDirectory() as tmp:
                planted = Path(tmp) / source.name
                planted.write_text(text.replace(mutant["old"], mutant["new"], 1), encoding="utf-8")
                bad = _load(planted, entry["function"])
                by_inference = not _check(bad, _inferred(bad, entry["function"]), 0)
                explicit = not _check(bad, _explicit(entry["expected"]), 0)
            out["mutants"] += 1
            out["caught_inferred"] += by_inference
            out["caught_explicit"] += explicit
            print(
                f"  mutant ({mutant['kind']}): caught by inference {by_inference}, explicit {explicit}"
            )
        out["seconds"].append(time.perf_counter() - started)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, type=Path, help="directory of extracted sources")
    parser.add_argument("--seeds", default="0,1,2", help="checker seeds for correct functions")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(
            f"{args.corpus}: no such directory; extract the manifest's files there", file=sys.stderr
        )
        return 2
    r = measure(args.corpus, [int(s) for s in args.seeds.split(",")])
    secs = r["seconds"]
    print(f"expected properties inferred: {r['expected_found']}/{r['functions']}")
    print(
        f"correct functions reported failing (seeds {args.seeds}): {r['correct_failing']}/{r['correct']}"
    )
    print(
        f"planted bugs caught: inference {r['caught_inferred']}/{r['mutants']}, "
        f"explicit properties {r['caught_explicit']}/{r['mutants']}"
    )
    print(
        f"seconds per function (with its mutants): mean {sum(secs) / len(secs):.1f}, max {max(secs):.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
