"""``automock run`` start-up work: what the CLI parent imports and what it caches.

The speed figures live in ``benchmarks/run_overhead.py``; these tests pin the
behaviour that makes them possible: an unchanged file with a plan is not
parsed again (its scan comes from ``.automock-cache/`` by content hash, so the
parent never imports libcst), and ``--no-save`` writes no cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

PROGRAM = "import random, time\nprint(time.time(), random.random())\n"


def _cli(cwd: Path, *argv: str) -> dict[str, object]:
    """Run the CLI in a fresh interpreter; the JSON report plus the parent's imports."""
    code = (
        "import json, sys\n"
        "from automock.cli import main\n"
        "sys.argv[1:] = []\n"
        f"rc = main({list(argv)!r})\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write(json.dumps({'rc': rc, 'libcst': 'libcst' in sys.modules}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    tail = json.loads(done.stderr.strip().splitlines()[-1])
    return {**tail, "report": json.loads(done.stdout) if "--json" in argv else None}


def test_unchanged_file_is_not_parsed_again(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(PROGRAM)

    first = _cli(tmp_path, "run", "--json", "app.py")
    second = _cli(tmp_path, "run", "--json", "app.py")

    assert first["rc"] == second["rc"] == 0
    assert first["libcst"] is True  # drafting the plan needs the full scan
    assert second["libcst"] is False  # plan and scan both reused
    apis = [[t["api"] for t in r["touchpoints"]] for r in (first["report"], second["report"])]  # type: ignore[index]
    assert apis[0] == apis[1] == ["time.time", "random.random"]
    assert list((tmp_path / ".automock-cache" / "scan").rglob("*.json"))


def test_changed_file_is_scanned_again(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(PROGRAM)
    _cli(tmp_path, "run", "--json", "app.py")
    (tmp_path / "app.py").write_text(PROGRAM + "import uuid\nprint(uuid.uuid4())\n")

    again = _cli(tmp_path, "run", "--json", "app.py")

    apis = [t["api"] for t in again["report"]["touchpoints"]]  # type: ignore[index]
    assert apis == ["time.time", "random.random", "uuid.uuid4"]


def test_no_save_writes_no_cache(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(PROGRAM)

    result = _cli(tmp_path, "run", "--no-save", "app.py")

    assert result["rc"] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.py"]


def test_program_sees_no_bytecode_prefix(tmp_path: Path) -> None:
    """The child may keep its own start-up bytecode in a private cache; the program never
    writes bytecode and sees no prefix."""
    import importlib.util

    import automock.sandbox.run.spawn as spawn

    (tmp_path / "app.py").write_text(
        "import sys\nprint(sys.pycache_prefix, sys.dont_write_bytecode)\n"
    )
    cache = tmp_path / "xdg"
    code = (
        "import sys\nfrom automock.cli import main\n"
        "sys.exit(main(['run', '--no-save', '--json', 'app.py']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )

    assert json.loads(done.stdout)["stdout"] == "None True\n"
    if not os.path.exists(importlib.util.cache_from_source(spawn.__file__)):  # no .pyc here
        cached = list((cache / "automock" / "pycache").rglob("child.cpython-*.pyc"))
        assert cached, "the child's start-up bytecode was not cached"
        assert (cache / "automock" / "pycache").stat().st_mode & 0o077 == 0


def test_bytecode_cache_others_can_write_is_not_used(tmp_path: Path) -> None:
    """Bytecode the child runs before isolation must come only from a directory nobody else
    can write to."""
    (tmp_path / "app.py").write_text("print('hi')\n")
    shared = tmp_path / "xdg" / "automock" / "pycache"
    shared.mkdir(parents=True)
    shared.chmod(0o777)
    code = "import sys\nfrom automock.cli import main\nsys.exit(main(['run', '--no-save', 'app.py']))\n"
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )

    assert done.returncode == 0 and done.stdout == "hi\n"
    assert not list(shared.rglob("*.pyc"))


def test_damaged_scan_cache_entry_is_scanned_again(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(PROGRAM)
    _cli(tmp_path, "run", "--json", "app.py")
    (entry,) = (tmp_path / ".automock-cache" / "scan").rglob("*.json")
    rows = json.loads(entry.read_text())
    rows[0].update(kind=["time"], line="2")  # keys right, types wrong
    entry.write_text(json.dumps(rows))

    again = _cli(tmp_path, "run", "--json", "app.py")

    assert again["rc"] == 0
    apis = [t["api"] for t in again["report"]["touchpoints"]]  # type: ignore[index]
    assert apis == ["time.time", "random.random"]
    assert json.loads(entry.read_text())[0]["kind"] == "time"  # rewritten
