"""Undoing the runtime's mocks (reloads, audit hooks) changes nothing about containment: the
network namespace still holds, and a sabotaged child still yields a report."""

from __future__ import annotations

import pytest

from .harness import NOT_OK, Attack, LoopbackServer, batch_attack, cli_attack, run_attack

ATTACKS = [run_attack, cli_attack, batch_attack]
IDS = ["run", "cli", "batch"]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_reloaded_modules_still_reach_nothing(attack: Attack, server: LoopbackServer) -> None:
    outcome = attack("mock_reload", str(server.port))
    assert server.accepted == [], outcome.explain()
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status in NOT_OK, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_audit_hook_sabotage_still_reports(attack: Attack, server: LoopbackServer) -> None:
    outcome = attack("mock_audithook", str(server.port), timeout=10)
    assert server.accepted == [], outcome.explain()
    assert not outcome.escaped_claim, outcome.explain()
    assert "BLOCKED" in outcome.stdout or outcome.status in NOT_OK, outcome.explain()
