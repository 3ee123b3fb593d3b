"""The virtual-clock scheduler through the CLI: sleeping threads and tasks wake in virtual-time
order, so output that depends only on sleep timing is what plain Python prints on an idle
machine, every run, in ``automock run`` and in ``automock batch``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

FRAME, MAIN_SLEEP = 0.05, 1.0
SPINNER = f"""\
import threading, time
done = False
frames = 0
def spin():
    global frames
    while not done:
        frames += 1
        time.sleep({FRAME})
t = threading.Thread(target=spin)
t.start()
time.sleep({MAIN_SLEEP})
done = True
t.join()
print("frames", frames)
"""
# frames at 0, 0.05, ..., 0.95; the wake at 1.0 ties with main's, whose sleep began first
EXPECTED_FRAMES = round(MAIN_SLEEP / FRAME)

WAITS = """\
import queue, threading, time
out = []
event, cond, q, sem = threading.Event(), threading.Condition(), queue.Queue(), threading.Semaphore(0)
lock = threading.Lock()
lock.acquire()
def on_event(): out.append(("event", event.wait(0.3)))
def on_cond():
    with cond:
        out.append(("cond", cond.wait(0.2)))
def on_queue():
    try:
        out.append(("queue", q.get(timeout=0.1)))
    except queue.Empty:
        out.append(("queue", "empty"))
def on_lock(): out.append(("lock", lock.acquire(timeout=0.15)))
def on_sem(): out.append(("sem", sem.acquire(timeout=0.05)))
def setter():
    time.sleep(0.25)
    event.set()
threads = [threading.Thread(target=f) for f in (on_event, on_cond, on_queue, on_lock, on_sem, setter)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(out, round(time.monotonic() - 1000, 2))
"""
# timeouts in deadline order; the event is set at 0.25, before its 0.3 timeout
EXPECTED_WAITS = (
    "[('sem', False), ('queue', 'empty'), ('lock', False), ('cond', False), ('event', True)] 0.25\n"
)

DELAYS = {"a": 0.3, "b": 0.2, "c": 0.5}
ASYNC = f"""\
import asyncio
async def worker(name, delay):
    for i in range(3):
        await asyncio.sleep(delay)
        print(name, i, round(asyncio.get_running_loop().time() - 1000, 3))
async def main():
    await asyncio.gather(*(worker(n, d) for n, d in {DELAYS!r}.items()))
asyncio.run(main())
"""


def _expected_async() -> str:
    # plain asyncio: by wake time; at a tie the timer scheduled first (an earlier wake) runs first
    wakes = [
        (round(delay * (i + 1), 3), round(delay * i, 3), name, i)
        for name, delay in DELAYS.items()
        for i in range(3)
    ]
    return "".join(f"{name} {i} {at}\n" for at, _, name, i in sorted(wakes))


def _run(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> dict:
    code = main(["run", "--json", str(path), *argv])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report["stderr"]
    return report


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (SPINNER, f"frames {EXPECTED_FRAMES}\n"),
        (WAITS, EXPECTED_WAITS),
        (ASYNC, _expected_async()),
    ],
    ids=["spinner", "waits", "asyncio"],
)
def test_sleep_timed_output_is_plain_pythons_every_run(
    source: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "prog.py"
    path.write_text(source)
    report = _run(capsys, path, "--repeat", "3")
    assert report["deterministic"] is True
    assert [run["stdout"] for run in report["runs"]] == [expected] * 3


def test_batch_spinner_prints_the_same_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cands = tmp_path / "cands" / "spin"
    cands.mkdir(parents=True)
    for i in range(3):
        (cands / f"s{i}.py").write_text(SPINNER)
    out_file = tmp_path / "results.jsonl"
    code = main(["batch", str(tmp_path / "cands"), "--jsonl", str(out_file)])
    assert code == 0, capsys.readouterr().err
    results = [json.loads(line) for line in out_file.read_text().splitlines()[1:]]
    assert [(r["status"], r["stdout"]) for r in results] == [
        ("passed", f"frames {EXPECTED_FRAMES}\n")
    ] * 3


def test_a_thread_blocked_on_real_io_neither_deadlocks_nor_goes_unnamed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pipe.py"
    path.write_text(
        "import os, threading, time\n"
        "r, w = os.pipe()\n"
        "got = []\n"
        "t = threading.Thread(target=lambda: got.append(os.read(r, 10)), name='pipe-reader')\n"
        "t.start()\n"
        "for _ in range(3):\n"
        "    time.sleep(60)\n"
        "os.write(w, b'hi')\n"
        "t.join()\n"
        "print(got, round(time.monotonic() - 1000))\n"
    )
    report = _run(capsys, path, "--timeout", "20")
    assert report["stdout"] == "[b'hi'] 180\n"
    named = {(a["kind"], a["target"]) for a in report["unmocked"]}
    assert ("thread", "pipe-reader") in named


def test_a_thread_that_dies_before_it_starts_releases_its_starter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # at the address-space limit a new thread can die of MemoryError before it marks itself
    # started; its starter then waited forever on the scheduler (a thread bomb timed out in CI)
    path = tmp_path / "stillborn.py"
    path.write_text(
        "import threading\n"
        "def refuse(self):\n"
        "    raise MemoryError\n"
        "threading.Thread._set_tstate_lock = refuse\n"
        "try:\n"
        "    threading.Thread(target=print, args=('ran',)).start()\n"
        "except RuntimeError as exc:\n"
        "    print('refused:', exc)\n"
        "print('threads', threading.active_count())\n"
    )
    report = _run(capsys, path, "--timeout", "20")
    assert report["stdout"] == "refused: can't start new thread\nthreads 1\n"
