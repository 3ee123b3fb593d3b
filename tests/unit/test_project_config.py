"""The project's own pytest configuration, as a newcomer's first ``pytest`` run sees it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_pytest_starts_without_deprecation_warnings() -> None:
    """pytest-asyncio warns when ``asyncio_default_fixture_loop_scope`` is unset (pyproject)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "tests/unit/test_atomic.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert "Warning" not in output, output
