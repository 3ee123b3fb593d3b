"""An interpreter, venv or project under /tmp stays importable behind the private /tmp.

The sandbox mounts a fresh tmpfs on /tmp; a venv created under /tmp (common in
CI and in throwaway checkouts) must still be visible, read-only, to the child,
both for ``automock run`` and for batch candidates.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def tmp_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A venv under /tmp whose site-packages holds a module found nowhere else."""
    if not str(tmp_path.resolve()).startswith("/tmp/"):
        pytest.skip(f"pytest's tmp_path is not under /tmp here ({tmp_path})")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python*/site-packages"))
    # the new venv sees everything this interpreter sees (automock and its dependencies)
    outer = [p for p in sys.path if p and os.path.isdir(p)]
    (site / "outer.pth").write_text("\n".join(outer) + "\n")
    (site / "tmp_only_module.py").write_text("VALUE = 'visible'\n")
    return venv / "bin" / "python", site


def _automock(python: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), "-m", "automock", *argv], capture_output=True, text=True, timeout=120, cwd=cwd
    )


def test_site_packages_under_tmp_are_visible_read_only(
    tmp_path: Path, tmp_venv: tuple[Path, Path]
) -> None:
    python, site = tmp_venv
    prog = tmp_path / "prog.py"
    prog.write_text(
        "import tmp_only_module, pathlib\n"
        "print(tmp_only_module.VALUE)\n"
        "try:\n"
        "    pathlib.Path(tmp_only_module.__file__).write_text('overwritten')\n"
        "    print('wrote')\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n"
    )
    done = _automock(python, "run", str(prog), "--no-save", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "visible"
    assert lines[1].startswith("refused")
    assert (site / "tmp_only_module.py").read_text() == "VALUE = 'visible'\n"


def test_batch_candidates_see_site_packages_under_tmp(
    tmp_path: Path, tmp_venv: tuple[Path, Path]
) -> None:
    python, _ = tmp_venv
    cands = tmp_path / "cands"
    cands.mkdir()
    (cands / "c1.py").write_text("import tmp_only_module\nprint(tmp_only_module.VALUE)\n")
    done = _automock(python, "batch", str(cands), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"passed"' in done.stdout and "visible" in done.stdout, done.stdout
