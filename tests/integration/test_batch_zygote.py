"""The pool's zygote: children forked from a process that entered the runtime once.

Every candidate must still start from the same pristine seeded state as a
child that enters ``deterministic(plan, seed)`` itself, whatever candidates
ran before it in the pool. (Each sample is then re-seeded with its own seed,
derived from its task id and index: the candidates here share one identity,
so one seed; tests/integration/test_batch_seeds.py covers distinct samples.)
"""

from __future__ import annotations

from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.pool import WorkerPool
from automock.sandbox.batch.task import BatchSettings

PRINTER = (
    "import random, time, uuid, tempfile, os, secrets\n"
    "r = random.Random()\n"
    "print(random.random(), r.random(), time.time(), uuid.uuid4(), uuid.uuid1(),\n"
    "      next(tempfile._get_candidate_names()), os.urandom(4).hex(), secrets.token_hex(4))\n"
)
CONSUMER = (
    "import random, uuid, os, time\n"
    "for _ in range(1000):\n"
    "    random.random(); random.Random(); uuid.uuid4(); os.urandom(8); time.time()\n"
    "random.seed(12345)\n"
)


def _run(zygote: bool, sources: list[str], seed: int = 3) -> list[str]:
    cands = [Candidate("z", 0, code) for code in sources]  # one sample identity, one seed
    with WorkerPool(BatchSettings(timeout=10, seed=seed, zygote=zygote), workers=2) as pool:
        results = pool.run(cands)
    assert [r.status for r in results] == ["passed"] * len(sources), [r.stderr for r in results]
    return [r.stdout for r in results]


def test_every_child_starts_from_the_same_seeded_state() -> None:
    out = _run(True, [PRINTER, CONSUMER, PRINTER, CONSUMER, PRINTER, PRINTER])
    printed = [out[i] for i in (0, 2, 4, 5)]
    assert len(set(printed)) == 1, printed  # earlier candidates leave nothing behind
    assert printed[0].strip()


def test_zygote_children_see_what_self_entering_children_see() -> None:
    assert _run(True, [PRINTER]) == _run(False, [PRINTER])
    assert _run(True, [PRINTER], seed=4) != _run(True, [PRINTER], seed=3)


def test_zygote_children_report_the_same_layers() -> None:
    cand = [Candidate("z", 0, "print('ok')")]
    layers = []
    for zygote in (True, False):
        with WorkerPool(BatchSettings(timeout=10, zygote=zygote), workers=1) as pool:
            (result,) = pool.run(cand)
        assert result.status == "passed" and result.stdout == "ok\n"
        layers.append([(x["name"], x["active"]) for x in result.layers])
    assert layers[0] == layers[1]


def test_modules_candidates_import_are_preloaded_in_the_zygote() -> None:
    code = "import sys\nprint('colorsys' in sys.modules)\nimport colorsys\n"
    assert _run(True, [code, code]) == ["True\n", "True\n"]


def test_zygote_children_are_whole_processes() -> None:
    """Forked without Python's at-fork hooks, a child still runs threads, forks and signals."""
    code = (
        "import os, signal, threading\n"
        "out = []\n"
        "t = threading.Thread(target=out.append, args=('thread',))\n"
        "t.start(); t.join()\n"
        "assert threading.current_thread() is threading.main_thread()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os._exit(7)\n"
        "out.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
        "got = []\n"
        "signal.signal(signal.SIGUSR1, lambda *a: got.append('signal'))\n"
        "signal.raise_signal(signal.SIGUSR1)\n"
        "print(out, got, os.getpid())\n"
    )
    assert _run(True, [code, code]) == ["['thread', 7] ['signal'] 1\n"] * 2


def test_the_zygote_runs_the_callers_automock(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A caller that imported automock from another directory than the installed one (a
    checkout, a worktree) gets a zygote, and so children, running that same code."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import automock

    copy = tmp_path / "checkout"
    shutil.copytree(
        Path(automock.__file__).parent, copy / "automock", ignore=shutil.ignore_patterns("*.pyc")
    )
    (copy / "automock" / "sandbox" / "batch" / "marker.py").write_text("HERE = 'the copy'\n")
    script = (
        f"import sys; sys.path.insert(0, {str(copy)!r})\n"
        "from automock import execute_many\n"
        "[r] = execute_many(['from automock.sandbox.batch import marker; print(marker.HERE)'])\n"
        "print(r.status, r.stdout.strip(), r.stderr.strip()[-300:])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stdout.strip() == "passed the copy", (done.stdout, done.stderr[-2000:])


def test_atexit_handlers_of_candidates_run_once_each() -> None:
    """atexit is imported by the zygote (each child's interpreter exit needs it): a
    candidate's handlers still run at its exit, once, last registered first, and no
    handler of one candidate runs in the next."""
    code = (
        "import atexit, sys\n"
        "atexit.register(print, 'first', sys.argv[0])\n"
        "atexit.register(print, 'second')\n"
    )
    out = _run(True, [code, "print('plain')", code])
    assert out[0].split() == ["second", "first", out[0].split()[2]], out
    assert out[1] == "plain\n", out
    assert out[2].count("first") == 1, out
