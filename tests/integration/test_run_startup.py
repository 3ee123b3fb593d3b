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


REPRS = "print(object(), id(object()) % 4096, [type(o).__name__ for o in {object(), 1, 'a'}])\n"


def _processes_naming(text: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if text.encode() in cmdline:
            found.append(entry.name)
    return found


def test_the_command_starts_the_runs_interpreter_before_reading_the_plan(tmp_path: Path) -> None:
    """``automock run`` starts the run's sandbox interpreter as soon as it knows the seed
    (``early``), while it imports, scans and reads the plan; later runs of ``--repeat``
    start their own. Both print the same addresses and set order: the early one is started
    exactly as any run's is."""
    from tests.conftest import automock_command

    (tmp_path / "reprs.py").write_text(REPRS)
    done = automock_command(
        ["run", "--json", "--repeat", "2", "reprs.py"], cwd=tmp_path, AUTOMOCK_SERVER="0"
    )
    report = json.loads(done.stdout)

    assert done.returncode == 0, report["stderr"]
    assert [r["start"] for r in report["runs"]] == ["early", "spawn"]
    assert report["deterministic"] is True, report["diff"]
    assert "object object at 0x" in report["stdout"]


def test_an_early_interpreter_the_run_cannot_use_is_ended(tmp_path: Path) -> None:
    """``--allow-network``: the run starts its own child; nothing of the early one is left
    (no process, no workdir) once the command returned. A plan that sets variables takes the
    early interpreter: every child starts with the fixed environment, the plan's variables
    are applied inside it once it is isolated."""
    from tests.conftest import automock_command

    (tmp_path / "env.py").write_text("import os\nprint(os.environ.get('GREETING'))\n")
    temp = tmp_path / "temp"
    temp.mkdir()
    first = automock_command(["run", "env.py"], cwd=tmp_path, AUTOMOCK_SERVER="0", TMPDIR=str(temp))
    assert first.returncode == 0, first.stderr
    plan = tmp_path / "fixtures" / "env.automock.json"
    plan.write_text(json.dumps({**json.loads(plan.read_text()), "env": {"GREETING": "hi"}}))

    with_env = automock_command(
        ["run", "--json", "env.py"], cwd=tmp_path, AUTOMOCK_SERVER="0", TMPDIR=str(temp)
    )
    left = list(temp.iterdir()), _processes_naming(str(temp))  # (the next command sweeps)
    networked = automock_command(
        ["run", "--json", "--allow-network", "env.py"],
        cwd=tmp_path,
        AUTOMOCK_SERVER="0",
        TMPDIR=str(temp),
    )

    report = json.loads(with_env.stdout)
    assert (report["stdout"], [r["start"] for r in report["runs"]]) == ("hi\n", ["early"])
    assert [r["start"] for r in json.loads(networked.stdout)["runs"]] == ["spawn"]
    assert left == ([], [])
