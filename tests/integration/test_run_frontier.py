"""Determinism beyond mocks, through the CLI: addresses, child interpreters, seed dependence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from automock.cli import main

REPRS = """\
class Foo:
    pass

def gen():
    yield 1

print(Foo(), object(), gen(), lambda: 0)
print(id(Foo()), hash(object()))
"""
SETS = """\
class Node:
    def __init__(self, name):
        self.name = name

nodes = {Node(f"n{i}") for i in range(16)}
print([n.name for n in nodes], min(map(id, nodes)))
print([v for _, v in sorted((id(k), v) for k, v in {object(): i for i in range(8)}.items())])
"""
CHILD = """\
import subprocess, sys
code = "import time, random; print(time.time(), random.random())"
for _ in range(2):
    print(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip())
print(subprocess.run(["echo", "not python"], capture_output=True, text=True).stdout.strip())
"""
POOL = """\
import random, time
from concurrent.futures import ProcessPoolExecutor
import multiprocessing as mp

def work(i):
    return i, time.time(), random.random()

if __name__ == "__main__":
    with ProcessPoolExecutor(4, mp_context=mp.get_context("spawn")) as pool:
        for row in pool.map(work, range(8)):
            print(*row)
    with mp.get_context("fork").Pool(2) as pool:
        print("pool", [r for _, _, r in pool.map(work, range(4), chunksize=1)])
"""
# a forked child dies of SIGTERM by default, as under python FILE, even when it is sent before
# the child first ran (one CPU, the parent does not yield first): a Pool(2) terminated right
# after it forked a worker the OS had not scheduled yet
KILLED_EARLY = """\
import os, signal
pid = os.fork()
if pid == 0:
    os._exit(0 if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL else 1)
print("default", os.waitpid(pid, 0)[1] == 0)
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
fates = []
for _ in range(20):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(w)
        os.read(r, 1)  # EOF once the parent closes its end: a child that lost the signal exits 0
        os._exit(0)
    os.kill(pid, signal.SIGTERM)
    os.close(w)
    os.close(r)
    fates.append(os.waitpid(pid, 0)[1])
print(sorted({os.WTERMSIG(s) if os.WIFSIGNALED(s) else -os.WEXITSTATUS(s) for s in fates}))
"""
SHUFFLE = """\
import random
deck = list(range(1, 11))
print("dealing", len(deck), "cards")
random.shuffle(deck)
print(deck)
print("done")
"""


def _plain(path: Path) -> str:
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, check=True, cwd=path.parent
    ).stdout


def _run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["run", "--json", "--no-save", *argv])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("source", [REPRS, SETS], ids=["reprs", "sets"])
def test_addresses_repeat_under_repeat_3(
    source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "prog.py"
    path.write_text(source)
    assert _plain(path) != _plain(path), "plain runs should differ (ASLR, allocation history)"

    code, report = _run_json(capsys, str(path), "--repeat", "3")

    assert code == 0, report["stderr"]
    assert report["deterministic"] is True, report["diff"]
    assert "object at 0x" in report["stdout"] or "n0" in report["stdout"]


def test_addresses_vary_when_runs_may_fork(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The opt-out is honest: without a fresh interpreter per run, ASLR shows again."""
    path = tmp_path / "prog.py"
    path.write_text(REPRS)
    env = {**os.environ, "AUTOMOCK_SPAWN": "1"}
    cmd = [sys.executable, "-m", "automock", "run", "--no-save", "--json"]
    outputs = [
        json.loads(
            subprocess.run(
                [*cmd, *extra, str(path)], capture_output=True, text=True, env=env, check=False
            ).stdout
        )["stdout"]
        for extra in ([], [], ["--no-stable-addresses"])
    ]
    assert outputs[0] == outputs[1], "two separate commands start from the same layout"
    assert outputs[2] != outputs[0]


def test_python_children_follow_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "parent.py"
    path.write_text(CHILD)
    assert _plain(path) != _plain(path)

    code, report = _run_json(capsys, str(path), "--repeat", "2")

    assert code == 0, report["stderr"]
    assert report["deterministic"] is True, report["diff"]
    first, second, echo = report["stdout"].splitlines()
    assert first.split()[0] == second.split()[0] == "1704067200.0"  # the plan's frozen clock
    assert first != second, "each child gets its own seed, derived by start order"
    unmocked = [a["target"] for a in report["unmocked"]]
    assert unmocked == ["echo"], "a non-Python child stays an unmocked process access"
    assert echo == "not python"


def test_process_pool_workers_follow_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pool.py"
    path.write_text(POOL)
    assert _plain(path) != _plain(path)

    code, report = _run_json(capsys, str(path), "--repeat", "2", "--timeout", "60")

    assert code == 0, report["stderr"]
    assert report["deterministic"] is True, report["diff"]
    *lines, mp_pool = report["stdout"].splitlines()
    rows = [line.split() for line in lines]
    assert mp_pool.startswith("pool [")
    assert [r[0] for r in rows] == [str(i) for i in range(8)]
    assert {r[1] for r in rows} == {"1704067200.0"}
    assert len({r[2] for r in rows}) == 8, "every task draws from its own seed"


def test_a_forked_child_killed_before_it_ran_dies_as_under_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The program runs as init with a handler for SIGTERM & co.; its forked children inherited
    it, and a Python handler can miss a signal (CPython drops one caught before the child's
    after-fork reset; one caught just before a blocking call waits for it): a child signalled
    before it first ran lived on, and a fork pool's terminate waited for it until the timeout."""
    path = tmp_path / "killed.py"
    path.write_text(KILLED_EARLY)
    assert _plain(path) == "default True\n[15]\n"

    code, report = _run_json(capsys, str(path), "--timeout", "60")

    assert code == 0, report["stderr"]
    default, fates = report["stdout"].splitlines()
    assert default == "default True", "a forked child has no handler that could miss a signal"
    assert fates == "[15]", "every child dies of its SIGTERM, none lives on and exits 0"


def test_seeds_marks_the_shuffled_line_and_suggests_permutation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deal.py"
    path.write_text(SHUFFLE)

    code, report = _run_json(capsys, str(path), "--seeds", "0,1,2")

    assert code == 0
    assert [line["seed_dependent"] for line in report["lines"]] == [False, True, False]
    assert report["lines"][1]["suggestions"] == ["permutation"]
    assert report["suggested"] == [
        {"function": "shuffle", "property": "permutation", "args": {"output_line": 2}}
    ]
    code = main(["run", "--no-save", str(path), "--seeds", "0,1"])
    text = capsys.readouterr().out
    assert code == 0
    assert "  2 SEED" in text and "suggest: permutation" in text and "  1 same" in text


def test_seeds_refuses_a_single_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.py"
    path.write_text(SHUFFLE)
    assert main(["run", str(path), "--seeds", "3"]) == 2
    assert "two or more different seeds" in capsys.readouterr().err


ESCAPE = """\
import json, os, shlex, sys
import automock.runtime.children as children
with open("evil.json", "w") as handle:
    json.dump({"automock": 1, "network": "allow"}, handle)
os.environ.update(
    PYTHONPATH=children.SITE_DIR,
    AUTOMOCK_CHILD_PLAN=os.path.abspath("evil.json"),
    AUTOMOCK_CHILD_SEED="1",
    AUTOMOCK_CHILD_ROOT=os.path.dirname(os.path.dirname(children.__file__)),
)
code = (
    "import socket\\n"
    "try:\\n"
    "    socket.create_connection(('1.1.1.1', 53), timeout=2)\\n"
    "    print('CONNECTED')\\n"
    "except OSError as exc:\\n"
    "    print('refused', type(exc).__name__)\\n"
)
sys.stdout.flush()
os.system(shlex.join([sys.executable, "-c", code]))
"""


def test_a_child_given_a_plan_of_the_programs_own_is_still_sandboxed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attack: bootstrap a child with a plan that lets the network through."""
    path = tmp_path / "escape.py"
    path.write_text(ESCAPE)

    code, report = _run_json(capsys, str(path))

    assert code == 0, report["stderr"]
    assert report["stdout"].startswith("refused"), report["stdout"] + report["stderr"]
    assert "CONNECTED" not in report["stdout"]
