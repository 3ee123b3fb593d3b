"""``automock run`` runs FILE as ``__main__`` the way ``python FILE`` does.

The program's module stays ``sys.modules['__main__']`` after its code ends, so
``atexit`` handlers and threads still find what it defined (pickle looks classes
up there); its source keeps its own ``__future__`` flags and coding cookie.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import automock_command

PROGRAM = """# -*- coding: latin-1 -*-
import atexit, pickle, sys, threading

class Point:
    def __init__(self, x: int) -> None:
        self.x = x

code_done = threading.Event()

def later() -> None:
    code_done.wait()
    print("thread pickle", pickle.loads(pickle.dumps(Point(2))).x)

atexit.register(lambda: print("atexit pickle", pickle.loads(pickle.dumps(Point(1))).x))
threading.Thread(target=later).start()
print("annotations", Point.__init__.__annotations__)
print("builtins", type(__builtins__).__name__, "caf\xe9")
code_done.set()  # the thread goes on after the module's code has ended
"""


@pytest.mark.parametrize("spawn", ["0", "1"], ids=["fork", "spawn"])
def test_the_program_is_main_as_for_python_file(tmp_path: Path, spawn: str) -> None:
    (tmp_path / "prog.py").write_bytes(PROGRAM.encode("latin-1"))
    plain = subprocess.run(
        [sys.executable, "prog.py"], cwd=tmp_path, capture_output=True, text=True, check=True
    )

    fork = ["--no-stable-addresses"] if spawn == "0" else []
    done = automock_command(["run", "--json", *fork, "prog.py"], cwd=tmp_path, AUTOMOCK_SPAWN=spawn)
    report = json.loads(done.stdout)

    assert done.returncode == 0, report["stderr"]
    # the command starts a stable-address run's interpreter as soon as it knows the seed
    assert report["runs"][0]["start"] == ("early" if spawn == "1" else "fork")
    assert report["stdout"] == plain.stdout
    assert "atexit pickle 1" in plain.stdout


LATE = """
import atexit, random, threading, time

def late():
    threading.Event().wait(0.1)
    print("thread", time.time(), random.random())

atexit.register(lambda: print("atexit", time.time(), random.random()))
threading.Thread(target=late).start()
print("main", time.time(), random.random())
"""


@pytest.mark.parametrize("spawn", ["0", "1"], ids=["fork", "spawn"])
def test_late_threads_and_atexit_handlers_run_under_the_runtime(tmp_path: Path, spawn: str) -> None:
    """After the module's code ends, python FILE waits for its threads and runs its atexit
    handlers: they too see the frozen clock and the seeded generators."""
    (tmp_path / "late.py").write_text(LATE)

    from automock.sandbox.batch.task import sample_seed

    seed = str(sample_seed(0, "candidate-0", 0))  # the seed the batch candidate below runs under
    done = automock_command(
        ["run", "--json", "--repeat", "2", "--seed", seed, "late.py"],
        cwd=tmp_path,
        AUTOMOCK_SPAWN=spawn,
    )
    report = json.loads(done.stdout)

    assert done.returncode == 0, report["stderr"]
    assert report["deterministic"] is True, report["diff"]
    lines = [line.split() for line in report["stdout"].splitlines()]
    assert [line[0] for line in lines] == ["main", "thread", "atexit"]
    # one frozen instant, moved by the thread's virtual 0.1 s wait (the scheduler), as in Python
    start = float(lines[0][1])
    assert [round(float(line[1]) - start, 3) for line in lines] == [0, 0.1, 0.1]
    from automock import execute_many

    (candidate,) = execute_many([LATE], timeout=10)
    assert candidate.stdout == report["stdout"]  # a batch candidate ends the same way


def test_a_multiprocessing_program_ends_without_warnings(tmp_path: Path) -> None:
    """Processes the program started (here multiprocessing's resource tracker) are still
    there while its exit handlers run, as for python FILE."""
    (tmp_path / "mp.py").write_text(
        "import multiprocessing as mp\n"
        "def sq(x):\n    return x * x\n"
        "if __name__ == '__main__':\n"
        "    lock = mp.get_context('spawn').Lock()  # unregistered with the tracker at exit\n"
        "    with mp.get_context('spawn').Pool(1) as pool:\n"
        "        print(pool.map(sq, range(3)))\n"
    )

    done = automock_command(["run", "--json", "mp.py"], cwd=tmp_path)
    report = json.loads(done.stdout)

    assert done.returncode == 0, report["stderr"]
    assert report["stdout"] == "[0, 1, 4]\n"
    assert report["stderr"] == ""


def test_a_thread_that_never_ends_is_a_timeout_that_keeps_the_output(tmp_path: Path) -> None:
    program = "import threading\nthreading.Thread(target=threading.Event().wait).start()\nprint('main done')\n"
    (tmp_path / "hang.py").write_text(program)

    done = automock_command(["run", "--json", "--timeout", "2", "hang.py"], cwd=tmp_path)
    report = json.loads(done.stdout)
    from automock import execute_many

    (candidate,) = execute_many([program], timeout=2)

    assert (report["status"], done.returncode) == ("timeout", 124)
    assert report["stdout"] == "main done\n"
    assert (candidate.status, candidate.stdout) == ("timeout", "main done\n")


ENDING = """
import sys

class Bye:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("bye", self.name, flush=True)

keep = Bye("global")
cycle = Bye("cycle")
cycle.me = cycle
del cycle
print("hello")
sys.exit(3)
"""


def test_the_program_ends_as_under_python_file(tmp_path: Path) -> None:
    """A fresh run's interpreter ends quickly (automock.sandbox.run.ending), but the program's
    globals are still released at exit (their __del__ print) and its exit code is kept."""
    (tmp_path / "prog.py").write_text(ENDING)
    plain = subprocess.run(
        [sys.executable, "prog.py"], cwd=tmp_path, capture_output=True, text=True
    )

    done = automock_command(["run", "--json", "prog.py"], cwd=tmp_path, AUTOMOCK_SERVER="0")
    report = json.loads(done.stdout)

    assert report["runs"][0]["start"] == "early"
    assert (
        (done.returncode, report["stdout"])
        == (plain.returncode, plain.stdout)
        == (3, "hello\nbye cycle\nbye global\n")
    )
