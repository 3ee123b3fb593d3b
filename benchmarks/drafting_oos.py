"""Out-of-sample drafting: single-shot drafts vs the drafting loop on real network programs.

The programs live outside this repository, in a corpus directory (one folder per
program, see ``benchmarks/drafting_corpus/README.md``); the manifests in
``benchmarks/drafting_corpus/manifest*.json`` say where each came from, what to
pass it, and the regexes on its stdout that fire only when it printed data
extracted from a response. For each program, in one run, each mode from a fresh
copy of its folder through ``automock run ENTRY --repeat 2 --json``:

- ``hand``: the hand-written plan. Its expectation must fire; a program whose
  does not is reported as broken and left out of the totals (never counted as a
  drafter failure);
- ``single``: no plan, ``--draft-rounds 0`` (the single-shot draft);
- ``loop``: no plan, the default rounds (the drafting loop);
- ``control``: a negative control, the hand plan with every stub's body emptied
  (``{}`` / ``[]`` / ``""``, the same content type). The expectation must NOT
  fire there: one that does fires on something other than the extracted data
  (a label, an error line) and the program is reported as *weak*.

A mode serves a program when the run is clean (exit 0, both runs the same) and
reaches its data (every expectation fires). Printed: a table, single-shot X/N,
loop Y/N, and the loop's wall time as a multiple of the single-shot's (median
over programs and total).

    python benchmarks/drafting_oos.py --corpus /work/corpus/net [--ids ID ...]
        [--kind json] [--jobs 1] [--modes hand,single,loop,control] [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._perturb import perturbed_plan

HERE = Path(__file__).resolve().parent / "drafting_corpus"
MODES = ("hand", "single", "loop", "control")
TARGET = 0.90
# files of a corpus folder that are ours, never the program's
OURS = ("hand.automock.json", "hand.spec.json", "source.json")
CONTROL_PLAN = "control.automock.json"


def load_manifests(folder: Path = HERE) -> list[dict[str, Any]]:
    """Every entry of every ``manifest*.json`` in ``folder``, ids unique."""
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in sorted(folder.glob("manifest*.json")):
        for entry in json.loads(path.read_text()):
            if entry["id"] in seen:
                raise SystemExit(f"drafting_oos: {path.name}: id {entry['id']} given twice")
            seen.add(entry["id"])
            entries.append(entry)
    return entries


def hand_plan(corpus: Path, ident: str) -> Path | None:
    """The hand-written plan: the corpus one first, then the committed one."""
    for path in (corpus / ident / "hand.automock.json", HERE / "hand" / f"{ident}.json"):
        if path.is_file():
            return path
    return None


def expectations(entry: dict[str, Any]) -> list[str]:
    expect = entry["expect"]
    return [expect] if isinstance(expect, str) else list(expect)


def fires(entry: dict[str, Any], stdout: str) -> bool:
    return all(re.search(p, stdout, re.MULTILINE) for p in expectations(entry))


def emptied(data: dict[str, Any]) -> dict[str, Any]:
    """A stub's data with its body (and each sequence item's) empty, same content type."""
    out = dict(data)
    if "json" in out:
        body = out["json"]
        out["json"] = [] if isinstance(body, list) else {} if isinstance(body, dict) else None
    if "text" in out:
        out["text"] = ""
    if isinstance(out.get("sequence"), list):
        out["sequence"] = [emptied(item) for item in out["sequence"]]
    return out


def control_plan(hand: Path, dest: Path) -> Path:
    """The negative control: the hand plan with every ``stub_http`` body emptied."""
    plan = json.loads(hand.read_text())
    for item in plan.get("entries", []):
        if item.get("strategy") == "stub_http":
            item["data"] = emptied(item.get("data") or {})
    dest.write_text(json.dumps(plan, indent=1) + "\n")
    return dest


def command(entry: dict[str, Any], mode: str, plan: Path | None, save: bool = False) -> list[str]:
    cmd = [sys.executable, "-m", "automock", "run", entry["entry"], "--repeat", "2"]
    cmd += ["--json"] if save else ["--json", "--no-save"]
    if mode in ("hand", "control") and plan is not None:
        cmd += ["--plan", str(plan)]
    elif mode == "single":
        cmd += ["--draft-rounds", "0"]
    args = [str(a) for a in entry.get("args", [])]
    return cmd + (["--", *args] if args else [])


def read(proc: subprocess.CompletedProcess[str]) -> tuple[dict[str, Any] | None, bool, str]:
    """``automock run --json``'s report (None when it printed none), whether the run was
    clean (exit 0, both runs the same), and the program's stdout."""
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        return None, False, ""
    clean = proc.returncode == 0 and report.get("deterministic") is True
    return report, clean, str(report.get("stdout", ""))


def flow(
    entry: dict[str, Any], work: Path, plan: Path | None, before: str, timeout: float
) -> dict[str, Any]:
    """Run again on ``plan`` with every response value changed to another of the same shape
    (:mod:`_perturb`): the output came from the responses when it changes."""
    if plan is None or not plan.is_file():
        return {"flows": False, "flow_why": "no plan to change"}
    changed = work.parent / "perturbed.automock.json"
    changed.write_text(json.dumps(perturbed_plan(json.loads(plan.read_text())), indent=1))
    try:
        proc = subprocess.run(
            command(entry, "hand", changed), cwd=work, capture_output=True, text=True,
            timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"flows": False, "flow_why": "the changed plan's run timed out"}
    _, clean, after = read(proc)
    if not clean:
        return {"flows": False, "flow_why": "the changed plan's run was not clean"}
    out = {"flows": after != before, "flow_fires": fires(entry, after)}
    out["flow_why"] = "output changed" if after != before else "output the same"
    return out


def run_mode(
    corpus: Path, entry: dict[str, Any], mode: str, timeout: float, with_flow: bool = False
) -> dict[str, Any]:
    """One mode on a fresh copy of the program's folder (``with_flow``: then the flow check
    on the plan it ran, the hand plan or the loop's saved draft)."""
    plan = hand_plan(corpus, entry["id"])
    if mode in ("hand", "control") and plan is None:
        return {
            "mode": mode,
            "clean": False,
            "reaches": False,
            "seconds": 0.0,
            "why": "no hand plan",
        }
    with tempfile.TemporaryDirectory(prefix=f"oos-{entry['id']}-") as tmp:
        work = Path(tmp) / entry["id"]
        shutil.copytree(corpus / entry["id"], work, ignore=shutil.ignore_patterns(*OURS))
        if mode == "control" and plan is not None:
            plan = control_plan(plan, Path(tmp) / CONTROL_PLAN)
        save = with_flow and mode == "loop"
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                command(entry, mode, plan, save),
                cwd=work,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            seconds = time.perf_counter() - start
            return {"mode": mode, "clean": False, "reaches": False, "seconds": seconds,
                    "why": f"automock run took over {timeout:.0f}s"}  # fmt: skip
        seconds = time.perf_counter() - start
        ran = read(proc)
        result = judge(entry, mode, proc, seconds, ran)
        if with_flow and mode in ("hand", "loop") and result["clean"]:
            drafted = next(iter(sorted((work / "fixtures").glob("*.automock.json"))), None)
            used = plan if mode == "hand" else drafted
            result.update(flow(entry, work, used, ran[2], timeout))
    return result


def judge(
    entry: dict[str, Any],
    mode: str,
    proc: subprocess.CompletedProcess[str],
    seconds: float,
    ran: tuple[dict[str, Any] | None, bool, str],
) -> dict[str, Any]:
    """Clean, reaches its data, and a short reason, from ``automock run --json`` (``ran``:
    its :func:`read`)."""
    result: dict[str, Any] = {"mode": mode, "seconds": round(seconds, 2), "exit": proc.returncode}
    report, clean, stdout = ran
    if report is None:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {**result, "clean": False, "reaches": False, "why": f"no report: {tail[:160]}"}
    reaches = fires(entry, stdout)
    rounds = (report.get("drafting") or {}).get("rounds") or []
    result.update(clean=clean, reaches=reaches, rounds=len(rounds))
    result["ended"] = [r.get("ended") for r in rounds]
    if mode == "control":
        why = ("fires on " + repr(stdout[-160:])) if reaches else "does not fire"
    elif clean and reaches:
        why = "ok"
    elif not clean:
        first = report.get("runs", [{}])[0]
        why = report.get("detail") or first.get("exception") or f"exit {proc.returncode}"
        if report.get("deterministic") is False:
            why = "runs differ"
    else:
        why = "expectation did not fire: " + repr(stdout[-160:])
    result["why"] = str(why)[:200]
    return result


def measure(
    corpus: Path,
    entry: dict[str, Any],
    modes: tuple[str, ...],
    timeout: float,
    with_flow: bool = False,
) -> dict[str, Any]:
    row: dict[str, Any] = {"id": entry["id"], "kind": entry.get("kind", "?")}
    if not (corpus / entry["id"] / entry["entry"]).is_file():
        row["missing"] = True
        return row
    for mode in modes:
        row[mode] = run_mode(corpus, entry, mode, timeout, with_flow)
    return row


def served(row: dict[str, Any], mode: str) -> bool:
    got = row.get(mode) or {}
    return bool(got.get("clean") and got.get("reaches"))


def flows(row: dict[str, Any], mode: str) -> bool:
    """Clean, and its output changed when every response value did (the flow measure)."""
    got = row.get(mode) or {}
    return bool(got.get("clean") and got.get("flows"))


def usable(row: dict[str, Any], modes: tuple[str, ...]) -> bool:
    """Counted: present, and (when the hand mode ran) served by its hand plan."""
    return not row.get("missing") and ("hand" not in modes or served(row, "hand"))


def weak(row: dict[str, Any]) -> bool:
    """The expectation fired on the negative control (emptied bodies): it is weak."""
    return bool((row.get("control") or {}).get("reaches"))


def cell(row: dict[str, Any], mode: str) -> str:
    got = row.get(mode)
    if got is None:
        return "-"
    if mode == "control":
        return f"{'WEAK' if weak(row) else 'ok'} {got.get('seconds', 0):.1f}s"
    mark = "ok" if served(row, mode) else ("noread" if got.get("clean") else "FAIL")
    return f"{mark} {got.get('seconds', 0):.1f}s"


def summary(rows: list[dict[str, Any]], modes: tuple[str, ...]) -> dict[str, Any]:
    counted = [r for r in rows if usable(r, modes)]
    out: dict[str, Any] = {
        "programs": len(rows),
        "counted": len(counted),
        "broken": [r["id"] for r in rows if not r.get("missing") and not usable(r, modes)],
        "missing": [r["id"] for r in rows if r.get("missing")],
    }
    if "control" in modes:
        out["weak"] = [r["id"] for r in rows if weak(r)]
    for mode in ("single", "loop"):
        if mode in modes:
            out[mode] = sum(served(r, mode) for r in counted)
    for mode in ("hand", "loop"):
        if mode in modes and any("flows" in (r.get(mode) or {}) for r in counted):
            out[f"{mode}_flows"] = sum(flows(r, mode) for r in counted)
            out[f"{mode}_flow_fires"] = sum(
                bool((r.get(mode) or {}).get("flow_fires")) for r in counted
            )
    if "single" in modes and "loop" in modes and counted:
        pairs = [(r["loop"]["seconds"], r["single"]["seconds"]) for r in counted]
        ratios = [loop / single for loop, single in pairs if single > 0]
        out["loop_cost_median"] = round(statistics.median(ratios), 2) if ratios else None
        single_total = sum(s for _, s in pairs)
        out["loop_cost_total"] = round(sum(lp for lp, _ in pairs) / single_total, 2)
        out["single_seconds"] = round(single_total, 1)
        out["loop_seconds"] = round(sum(lp for lp, _ in pairs), 1)
    return out


def report(rows: list[dict[str, Any]], modes: tuple[str, ...], totals: dict[str, Any]) -> None:
    print(f"{'id':<34} {'kind':<5} " + " ".join(f"{m:<14}" for m in modes) + " why (first failing)")
    for row in rows:
        if row.get("missing"):
            print(f"{row['id']:<34} {row['kind']:<5} missing from the corpus directory")
            continue
        cells = " ".join(f"{cell(row, m):<14}" for m in modes)
        measured = [m for m in modes if m != "control"]
        why = next((row[m]["why"] for m in measured if not served(row, m)), "")
        if not why and weak(row):
            why = "expectation fires on the control: " + row["control"]["why"]
        print(f"{row['id']:<34} {row['kind']:<5} {cells} {why}")
    n = totals["counted"]
    print(f"\nprograms {totals['programs']}, counted {n} (hand plan serves them)")
    if totals["broken"]:
        print(f"broken (hand plan does not serve them; excluded): {', '.join(totals['broken'])}")
    if "weak" in totals:
        names = ", ".join(totals["weak"]) or "none"
        print(f"weak (expectation fires with every stub body emptied): {names}")
    for mode in ("single", "loop"):
        if mode in totals and n:
            share = totals[mode] / n
            print(f"{mode:<7} {totals[mode]}/{n} = {share:.0%} clean and reaching their data")
    for mode in ("hand", "loop"):
        if f"{mode}_flows" in totals and n:
            print(
                f"{mode:<7} {totals[f'{mode}_flows']}/{n} = {totals[f'{mode}_flows'] / n:.0%} "
                "clean with output drawn from the responses (flow: it changed when every "
                f"value did; expectation still fired on {totals[f'{mode}_flow_fires']})"
            )
    if "loop_cost_total" in totals:
        print(
            f"loop cost: median {totals['loop_cost_median']}x a single-shot run, total "
            f"{totals['loop_cost_total']}x ({totals['loop_seconds']}s vs {totals['single_seconds']}s)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, type=Path, help="folder of program folders")
    parser.add_argument("--ids", nargs="*", default=None, help="only these programs")
    parser.add_argument("--kind", default=None, help="only programs of this kind (json, html...)")
    parser.add_argument("--jobs", type=int, default=1, help="programs measured at once")
    parser.add_argument(
        "--modes", default=",".join(MODES), help="comma-separated of hand,single,loop,control"
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per automock run")
    parser.add_argument("--out", type=Path, default=None, help="write the results JSON here")
    parser.add_argument(
        "--flow",
        action="store_true",
        help="also rerun hand and loop plans with every response value changed (the flow measure)",
    )
    args = parser.parse_args(argv)
    modes = tuple(m for m in args.modes.split(",") if m)
    if not args.corpus.is_dir() or any(m not in MODES for m in modes):
        print(f"drafting_oos: --corpus must be a folder and --modes of {MODES}", file=sys.stderr)
        return 2
    entries = [e for e in load_manifests() if not args.ids or e["id"] in args.ids]
    entries = [e for e in entries if args.kind is None or e.get("kind") == args.kind]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(
            pool.map(lambda e: measure(args.corpus, e, modes, args.timeout, args.flow), entries)
        )
    totals = summary(rows, modes)
    report(rows, modes, totals)
    if args.out:
        text = json.dumps({"totals": totals, "programs": rows}, indent=1) + "\n"
        args.out.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
