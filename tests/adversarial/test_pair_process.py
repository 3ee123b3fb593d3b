"""Attacks from a pair's candidate process on its test process (the one whose word is the verdict).

Each candidate is wrong (``add`` returns 0), so the pair can only pass if the attack reaches
the test process or the verdict pipe. Each attack reports on stdout what the kernel said, so
the test checks both that the pair failed and that the attack was really refused (not
skipped). The test process is the candidate's parent, with the same uid, made non-dumpable
before the fork (:mod:`automock.sandbox.child.pair`).
"""

from __future__ import annotations

import pytest

from automock import execute_many
from automock.sandbox.batch.candidates import Candidate

TESTS = "def check(candidate):\n    assert candidate(2, 3) == 5\n"

VERDICT = 'b\'{"status": "passed", "exit_code": 0, "detail": "", "layers": []}\''

ATTACKS = {
    "write the verdict through /proc/<test>/fd": (
        "    import os\n"
        "    for fd in range(0, 16):\n"
        "        try:\n"
        "            with open(f'/proc/{os.getppid()}/fd/{fd}', 'wb') as f:\n"
        f"                f.write({VERDICT})\n"
        "            print('WROTE', fd)\n"
        "        except OSError as e:\n"
        "            print('refused', e.errno)\n"
        "    return 0\n"
    ),
    "write the test process's memory through /proc/<test>/mem": (
        "    import os\n"
        "    try:\n"
        "        open(f'/proc/{os.getppid()}/mem', 'r+b')\n"
        "        print('OPENED')\n"
        "    except OSError as e:\n"
        "        print('refused', e.errno)\n"
        "    return 0\n"
    ),
    "ptrace-attach to the test process": (
        "    import ctypes, os\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    rc = libc.ptrace(16, os.getppid(), 0, 0)  # PTRACE_ATTACH\n"
        "    print('ATTACHED' if rc == 0 else 'refused', ctypes.get_errno())\n"
        "    return 0\n"
    ),
    "process_vm_writev into the test process": (
        "    import ctypes, os\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    class iovec(ctypes.Structure):\n"
        "        _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]\n"
        "    buf = ctypes.create_string_buffer(8)\n"
        "    local = iovec(ctypes.addressof(buf), 8)\n"
        "    remote = iovec(0x10000, 8)\n"
        "    rc = libc.process_vm_writev(os.getppid(), ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)\n"
        "    print('WROTE' if rc >= 0 else 'refused', ctypes.get_errno())\n"
        "    return 0\n"
    ),
    "read the test process's environment and fds listing": (
        "    import os\n"
        "    for what in ('environ', 'fd'):\n"
        "        try:\n"
        "            p = f'/proc/{os.getppid()}/{what}'\n"
        "            os.listdir(p) if what == 'fd' else open(p, 'rb').read()\n"
        "            print('READ', what)\n"
        "        except OSError as e:\n"
        "            print('refused', e.errno)\n"
        "    return 0\n"
    ),
    "kill the test process": (
        "    import os, signal\n"
        "    os.kill(os.getppid(), signal.SIGKILL)\n"
        "    print('killed')\n"
        "    return 0\n"
    ),
}


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    candidates = [
        Candidate(
            task_id=name,
            index=0,
            code="def add(a, b):\n" + body,
            test=TESTS,
            entry_point="add",
            source="attack.py",
        )
        for name, body in ATTACKS.items()
    ]
    candidates.append(
        Candidate("honest", 0, "def add(a, b):\n    return a + b\n", TESTS, "add", "honest.py")
    )
    return {r.task_id: r for r in execute_many(candidates, timeout=10)}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_an_attack_on_the_test_process_does_not_pass_the_pair(
    name: str, results: dict[str, object]
) -> None:
    result = results[name]
    assert result.status != "passed", result  # type: ignore[attr-defined]
    out = result.stdout  # type: ignore[attr-defined]
    for success in ("WROTE", "OPENED", "ATTACHED", "READ"):
        assert success not in out, result


@pytest.mark.parametrize("name", [n for n in ATTACKS if n != "kill the test process"])
def test_each_attack_was_attempted_and_refused_by_the_kernel(
    name: str, results: dict[str, object]
) -> None:
    assert "refused" in results[name].stdout, results[name]  # type: ignore[attr-defined]


def test_the_honest_candidate_passes(results: dict[str, object]) -> None:
    assert results["honest"].status == "passed", results["honest"]  # type: ignore[attr-defined]
