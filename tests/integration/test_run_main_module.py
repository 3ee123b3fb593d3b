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

    done = automock_command(["run", "--json", "prog.py"], cwd=tmp_path, AUTOMOCK_SPAWN=spawn)
    report = json.loads(done.stdout)

    assert done.returncode == 0, report["stderr"]
    assert report["runs"][0]["start"] == ("spawn" if spawn == "1" else "fork")
    assert report["stdout"] == plain.stdout
    assert "atexit pickle 1" in plain.stdout
