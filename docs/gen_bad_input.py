"""Generate docs/bad-input.md by actually feeding automock each bad input.

Every case runs ``python -m automock ...`` in a fresh temp directory (so the
messages show short relative names), records the exit code and the message
automock printed, and writes the table. ``--check`` compares the table with
the committed file instead of writing it (exit 1 when they differ), so a test
can tell the document from reality apart.

    python docs/gen_bad_input.py            # rewrite docs/bad-input.md
    python docs/gen_bad_input.py --check    # exit 1 if the doc is out of date
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "bad-input.md"
HANG_LIMIT = 60.0

GOOD = "import random\nprint(random.random())\n"
FETCH = 'import requests\nprint(requests.get("https://api.example.com/x").json()["a"])\n'


@dataclass(frozen=True)
class Case:
    what: str
    argv: tuple[str, ...]
    setup: Callable[[Path], None] = lambda root: None
    unprivileged: bool = False  # run in a user namespace where root's files are not root's
    env: tuple[tuple[str, str], ...] = ()  # variables set for this case only


def _write(name: str, data: str | bytes) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")

    return setup


def _both(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        for step in steps:
            step(root)

    return setup


def _plan(data: object) -> Callable[[Path], None]:
    text = data if isinstance(data, str) else json.dumps(data)
    return _both(_write("prog.py", GOOD), _write("fixtures/prog.automock.json", text))


def _mkdir(name: str) -> Callable[[Path], None]:
    return lambda root: (root / name).mkdir()


def _link(name: str, target: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).symlink_to(target)

    return setup


def _unreadable(root: Path) -> None:
    _write("secret.py", GOOD)(root)
    (root / "secret.py").chmod(0)


def _symlink_loop(root: Path) -> None:
    (root / "loop.py").symlink_to("loop.py")


def _dangling(root: Path) -> None:
    (root / "gone.py").symlink_to("nowhere/never.py")


def _fifo(root: Path) -> None:
    os.mkfifo(root / "pipe.py")


ENTRY = {"line": 2, "col": 6, "kind": "random", "api": "random.random", "strategy": "seed"}
NET = {"line": 2, "col": 6, "kind": "network", "api": "requests.post", "strategy": "stub_http"}
STUB = {"method": "POST", "url": "https://api.example.com/pay", "match": "regex", "json": {}}

CASES: tuple[Case, ...] = (
    Case("missing file", ("run", "nope.py")),
    Case("directory given to run", ("run", "pkg"), _mkdir("pkg")),
    Case("syntax error", ("run", "broken.py"), _write("broken.py", "def f(:\n    pass\n")),
    Case(
        "binary file", ("run", "blob.py"), _write("blob.py", b"\x7fELF\x02\x01\x01\x00\x00\xff\xfe")
    ),
    Case("non-UTF-8 source", ("run", "latin.py"), _write("latin.py", b"print('caf\xe9')\n")),
    Case(
        "unknown coding comment",
        ("run", "odd.py"),
        _write("odd.py", b"# -*- coding: klingon -*-\nprint('hi')\n"),
    ),
    Case(
        "source not valid in its declared encoding",
        ("run", "ascii.py"),
        _write("ascii.py", b"# coding: ascii\nprint('caf\xc3\xa9')\n"),
    ),
    Case(
        "file is not Python (.txt)",
        ("run", "notes.txt"),
        _write("notes.txt", "hello\n"),
    ),
    Case(
        "file is not Python (.json, valid Python syntax)",
        ("run", "data.json"),
        _write("data.json", '{"a": 1}\n'),
    ),
    Case(
        "unreadable file (mode 000, no CAP_DAC_OVERRIDE)", ("run", "secret.py"), _unreadable, True
    ),
    Case("symlink loop", ("run", "loop.py"), _symlink_loop),
    Case("dangling symlink", ("run", "gone.py"), _dangling),
    Case("FIFO instead of a file", ("run", "pipe.py"), _fifo),
    Case(
        "malformed plan JSON (truncated)", ("run", "prog.py"), _plan('{"automock": 1, "entries": [')
    ),
    Case("plan is not an object", ("run", "prog.py"), _plan([1, 2, 3])),
    Case("plan of a newer version", ("run", "prog.py"), _plan({"automock": 99, "entries": []})),
    Case(
        "plan field of the wrong type (seed)",
        ("run", "prog.py"),
        _plan({"automock": 1, "seed": "three"}),
    ),
    Case(
        "plan entry with an unknown strategy",
        ("run", "prog.py"),
        _plan({"automock": 1, "entries": [{**ENTRY, "strategy": "teleport"}]}),
    ),
    Case(
        "plan entry with a strategy for another kind",
        ("run", "prog.py"),
        _plan({"automock": 1, "entries": [{**ENTRY, "strategy": "stub_http"}]}),
    ),
    Case(
        "plan entry with a misspelt key (stratgy)",
        ("run", "prog.py"),
        _plan({"automock": 1, "entries": [{**ENTRY, "stratgy": "seed"}]}),
    ),
    Case(
        "plan stub with a misspelt data key (jsno)",
        ("run", "prog.py"),
        _plan({"automock": 1, "entries": [{**NET, "data": {**STUB, "jsno": {}}}]}),
    ),
    Case(
        "drafted stub that matches every request",
        ("run", "prog.py"),
        _plan(
            {
                "automock": 1,
                "entries": [{**NET, "drafted": True, "data": {**STUB, "url": ".*"}}],
            }
        ),
    ),
    Case(
        "plan drafted for another file",
        ("run", "prog.py"),
        _plan({"automock": 1, "source": {"path": "other.py", "sha256": None}}),
    ),
    Case(
        "plan clock instant not ISO 8601",
        ("run", "prog.py"),
        _plan({"automock": 1, "clock": {"at": "yesterday"}}),
    ),
    Case(
        "plan names a corrupt cassette",
        ("run", "prog.py"),
        _both(
            _plan({"automock": 1, "cassette": {"path": "fixtures/prog.yaml"}}),
            _write(
                "fixtures/prog.yaml", "interactions:\n- request: {method: GET, uri: 'http://x/'\n"
            ),
        ),
    ),
    Case(
        "plan names a missing cassette",
        ("run", "prog.py"),
        _plan({"automock": 1, "cassette": {"path": "fixtures/gone.yaml"}}),
    ),
    Case(
        "plan allows the network (no --allow-network)",
        ("run", "prog.py"),
        _plan({"automock": 1, "network": "allow"}),
    ),
    Case(
        "plan's cassette records (no --record)",
        ("run", "prog.py"),
        _plan({"automock": 1, "cassette": {"path": "fixtures/p.yaml", "record_mode": "all"}}),
    ),
    Case(
        "plan's cassette path is absolute",
        ("run", "prog.py"),
        _plan({"automock": 1, "cassette": {"path": "/etc/hostname"}}),
    ),
    Case(
        "plan's cassette path leaves the project",
        ("run", "prog.py"),
        _plan({"automock": 1, "cassette": {"path": "../other/prog.yaml"}}),
    ),
    Case(
        "plan's cassette is a symlink out of the project",
        ("run", "prog.py"),
        _both(
            _plan({"automock": 1, "cassette": {"path": "fixtures/prog.yaml"}}),
            _link("fixtures/prog.yaml", "/etc/hostname"),
        ),
    ),
    Case(
        "plan file is a symlink out of the project",
        ("run", "prog.py"),
        _both(_write("prog.py", GOOD), _link("fixtures/prog.automock.json", "/etc/hostname")),
    ),
    Case(
        "fixtures/ is a symlink out of the project",
        ("run", "prog.py"),
        _both(_write("prog.py", GOOD), _link("fixtures", "/nonexistent-automock-target")),
    ),
    Case(
        "batch: --plan allows the network",
        ("batch", "prog.py", "--plan", "fixtures/prog.automock.json"),
        _plan({"automock": 1, "network": "allow"}),
    ),
    Case(
        "--cassette file missing",
        ("run", "prog.py", "--cassette", "gone.yaml"),
        _write("prog.py", GOOD),
    ),
    Case("--plan file missing", ("run", "prog.py", "--plan", "nope.json"), _write("prog.py", GOOD)),
    Case(
        "--plan is a directory",
        ("run", "prog.py", "--plan", "fixtures"),
        _both(_write("prog.py", GOOD), _mkdir("fixtures")),
    ),
    Case("NUL byte in the source", ("run", "nul.py"), _write("nul.py", b"print(1)\x00\n")),
    Case("--memory-mb 0", ("run", "prog.py", "--memory-mb", "0"), _write("prog.py", GOOD)),
    Case(
        "--read of a missing path", ("run", "prog.py", "--read", "nowhere"), _write("prog.py", GOOD)
    ),
    Case(
        "--timeout not a number", ("run", "prog.py", "--timeout", "soon"), _write("prog.py", GOOD)
    ),
    Case("--timeout negative", ("run", "prog.py", "--timeout", "-1"), _write("prog.py", GOOD)),
    Case("--timeout zero", ("run", "prog.py", "--timeout", "0"), _write("prog.py", GOOD)),
    Case("--seed not an integer", ("run", "prog.py", "--seed", "abc"), _write("prog.py", GOOD)),
    Case("--repeat 0", ("run", "prog.py", "--repeat", "0"), _write("prog.py", GOOD)),
    Case(
        "--draft-rounds 11", ("run", "prog.py", "--draft-rounds", "11"), _write("prog.py", GOOD)
    ),
    Case("--seeds with one seed", ("run", "prog.py", "--seeds", "3"), _write("prog.py", GOOD)),
    Case(
        "AUTOMOCK_LLM unknown",
        ("run", "prog.py", "--drafter", "llm"),
        _write("prog.py", FETCH),
        env=(("AUTOMOCK_LLM", "gemini"),),
    ),
    Case(
        "[tool.automock] drafter unknown",
        ("run", "prog.py"),
        _both(
            _write("prog.py", FETCH),
            _write("pyproject.toml", '[tool.automock]\ndrafter = "claude"\n'),
        ),
    ),
    Case(
        "--seeds with --seed",
        ("run", "prog.py", "--seeds", "0,1", "--seed", "2"),
        _write("prog.py", GOOD),
    ),
    Case("unknown flag", ("run", "prog.py", "--frobnicate"), _write("prog.py", GOOD)),
    Case(
        "scan: unknown --kinds",
        ("scan", "prog.py", "--kinds", "time,weather"),
        _write("prog.py", GOOD),
    ),
    Case("scan: missing path", ("scan", "nope.py")),
    Case(
        "scan: binary file", ("scan", "blob.py"), _write("blob.py", b"\x7fELF\x02\x01\x00\xff\xfe")
    ),
    Case("scan: syntax error", ("scan", "broken.py"), _write("broken.py", "x = (1,\n")),
    Case(
        "scan: a file over the size limit (generated code)",
        ("scan", "generated.py", "--max-file-size", "1K"),
        _write("generated.py", "import time\n" + "stamp = time.time()\n" * 120),
    ),
    Case("draft: missing file", ("draft", "nope.py")),
    Case("draft: a directory", ("draft", "pkg"), _mkdir("pkg")),
    Case(
        "draft: one bad file among good ones (each drafted, each failure reported)",
        ("draft", "prog.py", "broken.py"),
        _both(_write("prog.py", GOOD), _write("broken.py", "x = (1,\n")),
    ),
    Case(
        "draft: unknown --drafter",
        ("draft", "prog.py", "--drafter", "oracle"),
        _write("prog.py", GOOD),
    ),
    Case(
        "draft: hand-edited plan without --force",
        ("draft", "prog.py"),
        _plan({"automock": 1, "seed": 5, "entries": []}),
    ),
    Case("check: FILE alone, nothing in it depends on the seed", ("check", "prog.py"), _write("prog.py", GOOD)),
    Case("check: unknown function", ("check", "prog.py::nope"), _write("prog.py", GOOD)),
    Case("batch: missing directory", ("batch", "cands")),
    Case(
        "batch: malformed JSONL",
        ("batch", "c.jsonl"),
        _write("c.jsonl", '{"task_id": "t1", "code": \n'),
    ),
    Case("batch: JSONL line is not an object", ("batch", "c.jsonl"), _write("c.jsonl", "[1, 2]\n")),
    Case(
        "batch: JSONL record without code",
        ("batch", "c.jsonl"),
        _write("c.jsonl", '{"task_id": "t1"}\n'),
    ),
    Case(
        "batch: bad --pass-at-k",
        ("batch", "c.jsonl", "--pass-at-k", "1,zero"),
        _write("c.jsonl", '{"task_id": "t", "code": "pass"}\n'),
    ),
    Case(
        "batch: --workers 0",
        ("batch", "c.jsonl", "--workers", "0"),
        _write("c.jsonl", '{"task_id": "t", "code": "pass"}\n'),
    ),
    Case(
        "batch: corrupt .jsonl.gz samples",
        ("batch", "samples.jsonl.gz"),
        _write("samples.jsonl.gz", b"\x1f\x8b\x08\x00 not deflate data"),
    ),
    Case(
        "batch: truncated .jsonl.gz problems",
        ("batch", "c.jsonl", "--problems", "HumanEval.jsonl.gz"),
        _both(
            _write("c.jsonl", '{"task_id": "t", "completion": "pass"}\n'),
            _write("HumanEval.jsonl.gz", gzip.compress(b'{"task_id": "t"}\n' * 40)[:30]),
        ),
    ),
    Case(
        "batch: --results-jsonl with a directory of .py",
        ("batch", "cands", "--results-jsonl", "r.jsonl"),
        _write("cands/a.py", GOOD),
    ),
    Case(
        "batch: --resume without --jsonl",
        ("batch", "c.jsonl", "--resume"),
        _write("c.jsonl", '{"task_id": "t", "code": "pass"}\n'),
    ),
    Case(
        "batch: --resume from a file that is not batch output",
        ("batch", "c.jsonl", "--jsonl", "c.jsonl", "--resume"),
        _write("c.jsonl", '{"task_id": "t", "code": "pass"}\n'),
    ),
    Case("unknown command", ("frobnicate",)),
)


_ERROR = re.compile(r"^automock[\w ]*: (error|internal error|runtime failed)\b")


def _message(stderr: str) -> str:
    """automock's own one-line error, else the run report's status line, else the last line."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    if not lines:
        return "(nothing on stderr)"
    errors = [ln for ln in lines if _ERROR.match(ln)]
    status = [ln for ln in lines if ln.startswith("status: ")]
    tagged = [ln for ln in lines if ln.startswith("automock")]
    return (errors or status or tagged or lines)[-1]


def _own_traceback(stderr: str) -> bool:
    """A traceback through automock's code (a program's own traceback is its business)."""
    frames = [ln for ln in stderr.splitlines() if ln.strip().startswith('File "')]
    return any("automock" + os.sep in ln and "/tmp/automock/src/" not in ln for ln in frames)


def run_case(case: Case) -> tuple[str, str, str]:
    """Return (exit code, message, notes) for one case, run in a fresh temp directory."""
    root = Path(tempfile.mkdtemp(prefix="automock-badinput-"))
    try:
        case.setup(root)
        before = {
            p: p.read_bytes() for p in root.rglob("*") if p.is_file() and os.access(p, os.R_OK)
        }
        cmd = [sys.executable, "-m", "automock", *case.argv]
        if case.unprivileged and os.geteuid() == 0:
            cmd = ["unshare", "-U", *cmd]
        env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "200"}
        env.pop("ANTHROPIC_API_KEY", None)
        env.pop("AUTOMOCK_DEBUG", None)
        env.update(case.env)
        try:
            proc = subprocess.run(
                cmd, cwd=root, env=env, capture_output=True, text=True, timeout=HANG_LIMIT
            )
        except subprocess.TimeoutExpired:
            return "hang", f"no answer within {HANG_LIMIT:g} s", "**hangs**"
        notes = []
        if _own_traceback(proc.stderr):
            notes.append("**traceback**")
        for path, data in before.items():
            if path.read_bytes() != data:
                notes.append(f"**modified {path.relative_to(root)}**")
        message = _message(proc.stderr).replace(str(root) + os.sep, "").replace(str(root), ".")
        return str(proc.returncode), message, ", ".join(notes)
    finally:
        for path in root.rglob("*"):
            if not path.is_symlink():
                path.chmod(0o700 if path.is_dir() else 0o600)
        shutil.rmtree(root, ignore_errors=True)


def render(rows: Sequence[tuple[Case, tuple[str, str, str]]]) -> str:
    out = [
        "# Bad input: what automock says",
        "",
        "Generated by `python docs/gen_bad_input.py`, which runs each input through",
        "`python -m automock` in a fresh temporary directory and records the exit code and",
        "the message printed on stderr (`--check` verifies this file is current; a test runs it).",
        "Exit codes: 2 bad input, 3 bad plan, 70 automock's own bug (see `automock/errors.py`).",
        "Rows marked **traceback**, **hangs** or **modified** are bugs.",
        "",
        "| Bad input | Command | Exit | Message |",
        "|---|---|---|---|",
    ]
    for case, (code, message, notes) in rows:
        command = "automock " + " ".join(case.argv)
        if case.unprivileged:
            command += " (as a non-root user)"
        text = message.replace("|", "\\|")
        if notes:
            text += f" — {notes}"
        out.append(f"| {case.what} | `{command}` | {code} | {text} |")
    out.append("")
    return "\n".join(out)


def generate() -> str:
    return render([(case, run_case(case)) for case in CASES])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with docs/bad-input.md")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print(f"{DOC} is out of date; run: python docs/gen_bad_input.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC} ({len(CASES)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
