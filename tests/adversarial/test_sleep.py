"""Sleeping past the timeout with calls the virtual clock does not cover."""

from __future__ import annotations

import pytest

from automock.errors import EXIT_TIMEOUT

from .harness import Attack, batch_attack, cli_attack, run_attack

ATTACKS = [run_attack, cli_attack, batch_attack]
IDS = ["run", "cli", "batch"]


@pytest.mark.parametrize("name", ["sleep_select", "sleep_pause", "sleep_event"])
@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_real_sleeps_end_at_timeout(attack: Attack, name: str) -> None:
    outcome = attack(name, timeout=3)
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status == "timeout", outcome.explain()
    assert outcome.exit_code == EXIT_TIMEOUT, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_time_sleep_is_virtual(attack: Attack) -> None:
    outcome = attack("sleep_virtual", timeout=5)
    assert outcome.exit_code == 0, outcome.explain()
    assert "slept 3600" in outcome.stdout, outcome.explain()
    assert "waited 10800" in outcome.stdout, outcome.explain()  # the longer wait, not the sum
