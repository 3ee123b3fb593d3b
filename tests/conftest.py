"""Shared test configuration.

Tests import ``automock`` from the checkout. Anything that needs the network
uses a server the test starts on 127.0.0.1; nothing needs an API key.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent


@contextmanager
def short_runtime_dir() -> Iterator[Path]:
    """A private ``XDG_RUNTIME_DIR`` for a warm server, short enough for its socket's path
    (108 bytes): a test's ``tmp_path`` under an xdist worker is not."""
    with tempfile.TemporaryDirectory(prefix="am-xdg-", dir="/tmp") as scratch:
        run = Path(scratch) / "x"
        run.mkdir(mode=0o700)
        yield run


EXAMPLES = REPO / "examples"

# An API key in the developer's environment must never turn tests into paid calls.
os.environ.pop("ANTHROPIC_API_KEY", None)


def automock_command(
    argv: list[str],
    *,
    cwd: Path | str,
    timeout: float = 120,
    ignoring: tuple[int, ...] = (),
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """``python -m automock ARGV`` in a new process, as a user runs it, from this checkout.

    Nothing that changes how the command starts is inherited (``PYTHONHASHSEED``,
    ``AUTOMOCK_SPAWN``), so it restarts and forks its sandbox child; ``env`` adds or
    overrides variables. The command starts with the signals in ``ignoring`` ignored
    (as a shell starts a background job with SIGINT and SIGQUIT ignored).
    """
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "AUTOMOCK_SPAWN")}
    prefix = []
    if ignoring:  # `trap "" SIG` ignores it; an ignored signal stays ignored across exec
        traps = "; ".join(f"trap '' {signal.Signals(s).name[3:]}" for s in ignoring)
        prefix = ["sh", "-c", f'{traps}; exec "$@"', "sh"]
    return subprocess.run(
        [*prefix, sys.executable, "-m", "automock", *argv],
        cwd=cwd,
        env={**base, "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_json(
    capsys: pytest.CaptureFixture[str], program: str, *flags: str
) -> tuple[int, dict[str, Any]]:
    """``automock run PROGRAM --json FLAGS`` in this process: its exit code and its report."""
    from automock.cli import main

    code = main(["run", program, "--json", *flags])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, report


def draft_run(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, *flags: str
) -> tuple[int, dict[str, Any]]:
    """Write ``source`` as ``here/name`` and run it twice on its drafted plan (``flags``: the
    drafting flags, by default a single-shot draft): exit code and report."""
    (here / name).write_text(source)
    return run_json(capsys, name, "--repeat", "2", *(flags or ("--draft-rounds", "0")))


def check_json(
    capsys: pytest.CaptureFixture[str],
    module: Path,
    function: str,
    examples: int = 60,
    *flags: str,
) -> tuple[int, dict[str, Any]]:
    """``automock check MODULE::FUNCTION --examples N FLAGS --json`` in this process: code,
    report."""
    from automock.cli import main

    argv = ["check", f"{module}::{function}", "--examples", str(examples), *flags, "--json"]
    code = main(argv)
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, report


def written_module(name: str, source: str) -> Any:
    """A ``module`` fixture for a test file: ``source`` written to ``tmp_path / name``, its path.

    ``module = written_module("dice.py", SOURCE)`` at a test module's top level."""

    @pytest.fixture
    def module(tmp_path: Path) -> Path:
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        return path

    return module


def verdicts(report: dict[str, Any]) -> dict[str, bool]:
    """Each checked property of a ``check --json`` report, and whether it passed."""
    return {r["name"]: r["passed"] for r in report["results"]}


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's own directory, made the working one (``run`` saves ``fixtures/`` there)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
