"""Memory RLIMIT_AS does not count (memfd, tmpfs, SysV shm, many processes) and process counts
are bounded by the run's (or lane's) cgroup, measured from outside while the attack runs; and
no cgroup of a run outlives it."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from automock.sandbox.kernel import cgroup as cg
from automock.sandbox.kernel.isolation import Limits

from .harness import Outcome, candidate_source, cli_attack, run_attack, survivors

LIMIT_MB = 256
TRY_MB = 1536  # six times the limit: held outside the cgroup it would show
SHM_KEY = 0x5A5A0000
MODES = ["memfd", "tmpfs", "shm", "anon"]


def _cgroup_parents() -> list[str]:
    found = cg._parents()
    if isinstance(found, str) or os.geteuid() != 0:
        pytest.skip(f"no cgroup layer here: {found}")
    return found[1]


def _ours() -> set[str]:
    return {
        os.path.join(parent, name)
        for parent in _cgroup_parents()
        for name in os.listdir(parent)
        if name.startswith("automock-")
    }


def _left_behind(before: set[str]) -> list[str]:
    """New automock cgroups made by this process or by a process that is gone: left
    behind (not those of other automock processes running alongside on this machine)."""
    left = []
    for path in _ours() - before:
        match = re.search(r"-(\d+)-\d+$", path)
        if match and (int(match[1]) == os.getpid() or not Path(f"/proc/{match[1]}").exists()):
            left.append(path)
    return sorted(left)


def _available() -> int:
    text = Path("/proc/meminfo").read_text()
    match = re.search(r"^MemAvailable:\s+(\d+) kB", text, re.M)
    assert match is not None
    return int(match[1]) * 1024


class Sampler:
    """From outside: the host's MemAvailable and every automock cgroup's charge and tasks."""

    def __init__(self) -> None:
        self.base = _available()
        self.lowest = self.base
        self.charged = 0
        self.tasks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.lowest = min(self.lowest, _available())
            for path in _ours():
                for name, attr in (("memory.usage_in_bytes", "charged"), ("pids.current", "tasks")):
                    try:
                        value = int(Path(path, name).read_text())
                    except (OSError, ValueError):
                        continue
                    setattr(self, attr, max(getattr(self, attr), value))
            time.sleep(0.02)

    def stop(self) -> Sampler:
        self._stop.set()
        self._thread.join()
        return self

    @property
    def used_mb(self) -> float:
        return (self.base - self.lowest) / (1 << 20)


@pytest.fixture
def sampled() -> Iterator[Callable[[], Sampler]]:
    before = _ours()
    sampler = Sampler()
    yield sampler.stop
    sampler.stop()
    _remove_segments()
    assert not _left_behind(before), f"cgroups left behind: {_left_behind(before)}"


def _remove_segments() -> None:
    """SysV segments the shm attack made (without an IPC namespace they outlive the run)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]:
        key, shmid = (int(f) for f in line.split()[:2])
        if SHM_KEY <= key < SHM_KEY + 256:
            libc.shmctl(shmid, 0, None)  # IPC_RMID


def _run(mode: str) -> Outcome:
    extra = ["--memory-mb", str(LIMIT_MB)]
    return run_attack(
        "mem_outside_rlimit", mode, str(TRY_MB), str(SHM_KEY), timeout=30, extra=extra
    )


def _bounded(outcome: Outcome, sampler: Sampler) -> None:
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status in {"memory", "error", "violation"}, outcome.explain()
    # the cgroup's charge (the kernel's count) never went over the limit ...
    assert 0 < sampler.charged <= LIMIT_MB << 20, (sampler.charged, outcome.explain())
    # ... and the host lost far less than the attack tried to take (other work runs too)
    assert sampler.used_mb < TRY_MB / 2, (sampler.used_mb, outcome.explain())


@pytest.mark.parametrize("mode", MODES)
def test_memory_outside_rlimit_is_bounded_run(mode: str, sampled: Callable[[], Sampler]) -> None:
    outcome = _run(mode)
    _bounded(outcome, sampled())
    assert outcome.status == "memory", outcome.explain()
    assert "OOM killer" in outcome.raw["runs"][0]["detail"], outcome.explain()
    layers = {layer["name"]: layer for layer in outcome.layers}
    assert layers["cgroup"]["active"], layers


def test_memory_outside_rlimit_is_bounded_cli(sampled: Callable[[], Sampler]) -> None:
    outcome = cli_attack(
        "mem_outside_rlimit", "memfd", str(TRY_MB), timeout=30, extra=["--memory-mb", str(LIMIT_MB)]
    )
    _bounded(outcome, sampled())
    assert outcome.status == "memory", outcome.explain()


def test_memory_outside_rlimit_is_bounded_batch(sampled: Callable[[], Sampler]) -> None:
    from automock import execute_many

    sources = [candidate_source("mem_outside_rlimit", m, str(TRY_MB), str(SHM_KEY)) for m in MODES]
    results = execute_many(sources, timeout=30, limits=Limits(memory_mb=LIMIT_MB))
    sampler = sampled()
    for mode, result in zip(MODES, results, strict=True):
        assert "ATTACK-START" in result.stdout, (mode, result)
        assert "ESCAPED" not in result.stdout, (mode, result)
        assert result.status == "memory", (mode, result.status, result.detail, result.stdout[-300:])
        cgroup = [layer for layer in result.layers if layer["name"] == "cgroup"]
        assert cgroup and cgroup[0]["active"], (mode, result.layers)
    assert 0 < sampler.charged <= LIMIT_MB << 20, sampler.charged
    assert sampler.used_mb < TRY_MB / 2, sampler.used_mb


def test_fork_bomb_is_bounded_by_the_pids_cgroup(
    marker: str, sampled: Callable[[], Sampler]
) -> None:
    outcome = run_attack("res_fork_bomb", marker, timeout=3)
    sampler = sampled()
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status in {"timeout", "violation"}, outcome.explain()
    assert 0 < sampler.tasks <= Limits().processes + cg.PIDS_SLACK, sampler.tasks
    assert survivors(marker) == [], outcome.explain()


def test_a_cgroup_that_cannot_be_made_is_reported_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cg, "_parents", lambda: "no writable memory and pids cgroup controllers")
    outcome = run_attack("probe_facts", timeout=20)
    layers = {layer["name"]: layer for layer in outcome.layers}
    assert not layers["cgroup"]["active"], layers["cgroup"]
    assert "no writable memory" in layers["cgroup"]["detail"], layers["cgroup"]
    assert outcome.status == "passed", outcome.explain()
