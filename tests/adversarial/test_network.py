"""Network escapes: every way out must reach nothing, because the child has its own network
namespace with loopback down (the in-process mocks are not the boundary)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .harness import (
    NOT_OK,
    Attack,
    LoopbackResolver,
    LoopbackServer,
    Outcome,
    batch_attack,
    cli_attack,
    run_attack,
)

TCP_ATTACKS = [
    "net_socket",
    "net_raw_socket",
    "net_ctypes",
    "net_urllib",
    "net_python_c",
    "net_curl",
]


def _needs(name: str) -> None:
    if name == "net_curl" and shutil.which("curl") is None:
        pytest.skip("curl is not installed")


def _assert_contained(outcome: Outcome, server: LoopbackServer) -> None:
    assert server.accepted == [], outcome.explain()
    assert not outcome.escaped_claim, outcome.explain()
    if "MOCKED" in outcome.stdout:  # served by a stub the drafter put in the plan: fine
        return
    assert outcome.status in NOT_OK, outcome.explain()
    # the report says why: an unmocked entry or the blocked error, not a silent failure
    assert "BLOCKED" in outcome.stdout or outcome.detail, outcome.explain()


@pytest.mark.parametrize("name", TCP_ATTACKS)
def test_tcp_escape_blocked_under_run(name: str, server: LoopbackServer) -> None:
    _needs(name)
    outcome = run_attack(name, str(server.port))
    _assert_contained(outcome, server)


@pytest.mark.parametrize("name", TCP_ATTACKS)
def test_tcp_escape_blocked_under_the_command(name: str, server: LoopbackServer) -> None:
    _needs(name)
    outcome = cli_attack(name, str(server.port))
    _assert_contained(outcome, server)


@pytest.mark.parametrize("name", TCP_ATTACKS)
def test_tcp_escape_blocked_in_batch(name: str, server: LoopbackServer) -> None:
    _needs(name)
    outcome = batch_attack(name, str(server.port))
    _assert_contained(outcome, server)


def test_plain_socket_is_reported_as_unmocked(server: LoopbackServer) -> None:
    """A Python-level socket connect is seen by the runtime and named in the report with a fix."""
    outcome = run_attack("net_socket", str(server.port))
    assert server.accepted == []
    unmocked = outcome.raw.get("unmocked") or []
    assert outcome.status == "unmocked", outcome.explain()
    assert any(u.get("target") == f"127.0.0.1:{server.port}" and u.get("fix") for u in unmocked), (
        outcome.explain()
    )


@pytest.mark.parametrize(
    "attack", [run_attack, cli_attack, batch_attack], ids=["run", "cli", "batch"]
)
def test_dns_reaches_no_resolver(attack: Attack, resolver: LoopbackResolver) -> None:
    outcome = attack("net_dns", str(resolver.port))
    assert resolver.received == [], outcome.explain()
    assert not outcome.escaped_claim, outcome.explain()
    assert "BLOCKED getaddrinfo" in outcome.stdout, outcome.explain()
    assert outcome.status in NOT_OK, outcome.explain()


def test_unplanned_url_fails_closed_with_the_fix(server: LoopbackServer, tmp_path: Path) -> None:
    """With a plan that stubs nothing, urllib is refused and the report names the URL to stub."""
    plan = tmp_path / "empty.automock.json"
    plan.write_text('{"automock": 1, "network": "deny", "entries": []}')
    outcome = run_attack("net_urllib", str(server.port), extra=["--plan", str(plan)])
    assert server.accepted == [], outcome.explain()
    assert outcome.status in NOT_OK, outcome.explain()
    assert f"127.0.0.1:{server.port}/secret" in outcome.detail, outcome.explain()
