"""Facts about the host's kernel that reach a program through /proc and the clocks: the boot id,
the uptime and idle time, the boot time, the load, CLOCK_MONOTONIC and CLOCK_BOOTTIME read from C.
Each run and each batch candidate must see fixed values that are not the host's (read here, by
the test) and that agree between runs (automock/sandbox/kernel/hostfacts.py)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import automock_command

from .harness import Outcome, batch_attacks, program, run_attack, served_attack

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/ns/time") or os.geteuid() != 0,
    reason="needs a kernel with time namespaces (Linux >= 5.6) and root",
)
_SLACK_S = 60.0  # how far a sandboxed clock may have moved from its start during one run


def _host() -> dict[str, Any]:
    with open("/proc/sys/kernel/random/boot_id") as handle:
        boot_id = handle.read().strip()
    with open("/proc/uptime") as handle:
        uptime, idle = (float(x) for x in handle.read().split())
    with open("/proc/stat") as handle:
        btime = next(int(x.split()[1]) for x in handle if x.startswith("btime "))
    return {
        "boot_id": boot_id,
        "uptime": uptime,
        "idle": idle,
        "btime": btime,
        "monotonic": time.clock_gettime(time.CLOCK_MONOTONIC),
        "boottime": time.clock_gettime(time.CLOCK_BOOTTIME),
    }


def _facts(stdout: str) -> dict[str, Any]:
    assert "ESCAPED" not in stdout and "LEFT IN /tmp" not in stdout, stdout
    lines = [x for x in stdout.splitlines() if x.startswith("FACTS ")]
    assert len(lines) == 1, stdout
    facts: dict[str, Any] = json.loads(lines[0][len("FACTS ") :])
    return facts


def _assert_hidden_and_fixed(seen: list[dict[str, Any]], host: dict[str, Any]) -> None:
    """Not the host's values, and the same in every run (the clocks: the same start)."""
    first = seen[0]
    for facts in seen:
        assert facts["boot_id"] != host["boot_id"], facts
        assert facts["btime"] != host["btime"], (facts, host)
        for name in ("boot_id", "btime", "uptime", "idle", "loadavg"):
            assert facts[name] == first[name], (name, seen)
        for clock in ("uptime", "monotonic", "boottime"):
            value = facts[clock]
            assert isinstance(value, float), facts
            # the host's clocks kept running since; the sandbox's restart from one fixed point
            assert abs(value - host[clock]) > _SLACK_S, (clock, facts, host)
            assert abs(value - first[clock]) < _SLACK_S, (clock, seen)
    assert {f["idle"] for f in seen} != {host["idle"]}, (seen, host)


def _assert_layers(outcome: Outcome) -> None:
    layers = {x["name"]: x for x in outcome.layers}
    for name in ("time", "hostfacts"):
        assert name in layers and layers[name]["active"], (name, outcome.explain())


def _host_or_skip() -> dict[str, Any]:
    host = _host()
    if host["uptime"] < 3 * _SLACK_S + 1000:
        pytest.skip("the host booted too recently to tell its uptime from the sandbox's")
    return host


def test_host_facts_hidden_and_fixed_over_repeated_runs() -> None:
    """``automock run --repeat 2`` in-process: a fresh interpreter per run."""
    host = _host_or_skip()
    outcome = run_attack("host_facts", timeout=20, extra=("--repeat", "2"))
    runs = outcome.raw["runs"]
    assert len(runs) == 2, outcome.explain()
    _assert_hidden_and_fixed([_facts(r["stdout"]) for r in runs], host)
    _assert_layers(outcome)
    assert outcome.raw["deterministic"] is True, outcome.explain()


def test_host_facts_hidden_through_the_commands(tmp_path: Path) -> None:
    """The real commands in new processes: ``automock run --repeat 2 --no-stable-addresses``
    (each run's child forked from the command) and ``automock batch`` over a directory."""
    host = _host_or_skip()
    argv = ["run", str(program("host_facts")), "--json", "--no-save", "--repeat", "2"]
    done = automock_command([*argv, "--no-stable-addresses"], cwd=tmp_path)
    report = json.loads(done.stdout)
    assert [r["start"] for r in report["runs"]] == ["fork", "fork"], done.stdout
    runs = [_facts(r["stdout"]) for r in report["runs"]]
    candidates = tmp_path / "candidates"
    candidates.mkdir()
    for name in ("a", "b"):
        shutil.copy(program("host_facts"), candidates / f"{name}.py")
    done = automock_command(["batch", str(candidates), "--pass-at-k", "1"], cwd=tmp_path)
    shared, *results = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    assert len(results) == 2 and all(r["status"] == "passed" for r in results), done.stdout
    _assert_hidden_and_fixed([*runs, *(_facts(r["stdout"]) for r in results)], host)
    # batch writes the layers once (its first record); a candidate lists only what differs
    assert all(r["layers_differ"] == [] or r["layers_differ"][0]["name"] == "uid" for r in results)
    for layers in [report["layers"], shared["layers"]]:
        _assert_layers(Outcome("cli", "passed", 0, "", "", layers=layers))


def test_host_facts_hidden_through_a_warm_server() -> None:
    """``automock run`` handed to a warm server: its handler forks the run's child, which
    entered its namespaces ahead, as a spare, before the run was asked for."""
    host = _host_or_skip()
    outcome = served_attack("host_facts", timeout=20)
    _assert_hidden_and_fixed([_facts(outcome.stdout)], host)
    _assert_layers(outcome)


def test_host_facts_hidden_and_fixed_in_batch() -> None:
    """``execute_many``: the pool's children (forked by its zygote, as init of their PID
    namespace) each get a time namespace of their own and the same fixed files."""
    host = _host_or_skip()
    outcomes = batch_attacks([("host_facts", ())] * 3, timeout=20)
    _assert_hidden_and_fixed([_facts(o.stdout) for o in outcomes], host)
    for outcome in outcomes:
        _assert_layers(outcome)
        time_layer = next(x for x in outcome.layers if x["name"] == "time")
        assert "seen from outside" in str(time_layer["detail"]), time_layer  # the pool's look


def test_host_facts_hidden_unprivileged() -> None:
    """The non-root path (uid 1000 in a user namespace of its own): the time namespace and the
    masks come from the sandbox's user namespace; the program's capabilities there do not
    take the masks off (its umount2 attempts fail)."""
    from .test_unprivileged import _run_unprivileged

    host = _host_or_skip()
    report = _run_unprivileged("host_facts")
    _assert_hidden_and_fixed([_facts(report["stdout"])], host)
    _assert_layers(Outcome("run", report["status"], 0, "", "", layers=report["layers"]))
