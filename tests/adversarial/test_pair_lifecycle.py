"""What a pair's two processes do around its tests, and that none of it can be turned into a pass.

The pool compiles a problem's tests once and the test process loads them
(:mod:`automock.sandbox.child.trusted`); a spare rehearses its pair's work while it
waits (:mod:`automock.sandbox.child.rehearsal`); at the end of the tests the candidate's
process is left to die with the test process's PID namespace, after the verdict. Each is
checked through
``execute_many`` on real pairs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from automock import execute_many
from automock.sandbox.batch.candidates import Candidate

CHECK = "def check(candidate):\n    assert candidate(2, 3) == 5\n"
RIGHT = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return 0\n"


def _pair(code: str, task_id: str = "T/1", test: str = CHECK) -> Candidate:
    return Candidate(task_id, 0, code, test, "add", f"{task_id}.py")


def test_a_failing_test_shows_its_line_from_the_tests_compiled_by_the_pool() -> None:
    (wrong,) = execute_many([_pair(WRONG)], timeout=10)

    assert wrong.status == "failed", wrong
    assert wrong.stderr.splitlines() == [
        "Traceback (most recent call last):",
        '  File "T/1 (test)", line 2, in check',
        "    assert candidate(2, 3) == 5",
        "AssertionError",
    ]


def test_a_chained_exception_in_the_tests_is_printed_whole() -> None:
    tests = (
        "def check(candidate):\n"
        "    try:\n"
        "        candidate(2, 3)\n"
        "    except ZeroDivisionError as exc:\n"
        "        raise AssertionError('no division') from exc\n"
    )
    (result,) = execute_many([_pair("def add(a, b):\n    return a / 0\n", test=tests)], timeout=10)

    assert result.status == "failed", result
    assert "ZeroDivisionError: division by zero" in result.stderr
    assert "direct cause of the following exception" in result.stderr
    assert result.stderr.rstrip().endswith("AssertionError: no division")


def test_the_tests_keep_their_asserts_when_the_pool_runs_under_python_O() -> None:
    # the pool compiles the trusted tests in its own process: with -O an assert would vanish
    # and every wrong candidate would pass
    script = textwrap.dedent(
        f"""
        import json
        from automock import execute_many
        from automock.sandbox.batch.candidates import Candidate
        wrong = Candidate("T/1", 0, {WRONG!r}, {CHECK!r}, "add", "T.py")
        right = Candidate("T/1", 1, {RIGHT!r}, {CHECK!r}, "add", "T.py")
        print(json.dumps([r.status for r in execute_many([wrong, right], timeout=10)]))
        """
    )
    out = subprocess.run(
        [sys.executable, "-O", "-c", script], capture_output=True, text=True, timeout=120
    )

    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == ["failed", "passed"]


def test_a_candidate_process_that_lives_on_does_not_hold_back_the_verdict() -> None:
    # after its last answer the candidate's process keeps running a thread that waits 100 s
    # (real time: select, not the runtime's virtual sleep) with stdout open; the pair's
    # verdict still comes at once (not at the 10 s timeout), and the process is killed
    # with its PID namespace
    code = RIGHT + (
        "import select, threading\n"
        "threading.Thread(target=select.select, args=([], [], [], 100)).start()\n"
        "print('loaded', flush=True)\n"
    )
    (result,) = execute_many([_pair(code)], timeout=10)

    assert result.status == "passed", result
    assert result.stdout == "loaded\n"


def test_the_candidate_process_holds_only_its_stdio_and_channel() -> None:
    # its code came from the pool on a pipe of its own, closed once read: what it holds
    # while it loads is stdin (/dev/null), stdout, stderr and its two channel ends
    code = RIGHT + (
        "import os\n"
        "links = []\n"
        "for fd in sorted(os.listdir('/proc/self/fd'), key=int):\n"
        "    try:\n"
        "        links.append(fd + ':' + os.readlink('/proc/self/fd/' + fd).split('[')[0])\n"
        "    except OSError:  # the listing's own\n"
        "        pass\n"
        "print(' '.join(links))\n"
    )
    (result,) = execute_many([_pair(code)], timeout=10)

    assert result.status == "passed", result
    assert result.stdout.split() == ["0:/dev/null", "1:pipe:", "2:pipe:", "3:pipe:", "4:pipe:"]


def test_output_the_candidate_prints_in_each_call_is_all_kept() -> None:
    code = "def add(a, b):\n    print('x' * 50_000)\n    print('called', a, b)\n    return a + b\n"
    tests = "def check(candidate):\n" + "".join(
        f"    assert candidate({i}, 1) == {i + 1}\n" for i in range(3)
    )
    (result,) = execute_many([_pair(code, test=tests)], timeout=10, output_bytes=1 << 20)

    assert result.status == "passed", result
    assert [line for line in result.stdout.splitlines() if line.startswith("called")] == [
        "called 0 1",
        "called 1 1",
        "called 2 1",
    ]


def test_the_rehearsal_leaves_nothing_for_the_candidate_to_find() -> None:
    code = RIGHT + (
        "import linecache, random, sys\n"
        "FOUND = '__rehearsal__' in sys.modules or any('rehearsal' in k for k in linecache.cache)\n"
        "print(FOUND, random.random())\n"
    )
    program = "import random\nprint(False, random.random())\n"
    pair, alone = execute_many(
        [_pair(code), Candidate("T/1", 0, program, source="T.py")], timeout=10, seed=3
    )

    assert pair.status == "passed", pair
    # nothing rehearsed is left, and random starts from the sample's seed, as in a program
    # run alone with the same task id and index
    assert pair.stdout == alone.stdout, (pair.stdout, alone.stdout)


def test_threads_and_exit_handlers_of_the_tests_still_run_after_them() -> None:
    tests = (
        "import atexit, threading\n"
        "atexit.register(print, 'exit handler')\n"
        "def late():\n"
        "    print('late thread')\n"
        "def check(candidate):\n"
        "    assert candidate(2, 3) == 5\n"
        "    threading.Timer(0.05, late).start()\n"
    )
    (result,) = execute_many([_pair(RIGHT, test=tests)], timeout=10)

    assert result.status == "passed", result
    assert result.stdout == "late thread\nexit handler\n", result
