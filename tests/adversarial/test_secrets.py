"""Secrets of the parent: its environment, its HOME, a planted private key."""

from __future__ import annotations

import pytest

from .harness import batch_attack, run_attack

ATTACKS = [run_attack, batch_attack]
IDS = ["run", "batch"]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_parent_env_secret_not_visible(attack, secret_env: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    outcome = attack("secrets_env", secret_env["secret"])
    assert not outcome.escaped_claim, outcome.explain()
    assert secret_env["secret"] not in outcome.stdout + outcome.stderr, outcome.explain()
    assert "BLOCKED secret not visible" in outcome.stdout, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_parent_home_and_private_key_not_readable(attack, secret_env: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    outcome = attack("secrets_ssh", secret_env["key"], secret_env["secret"])
    assert not outcome.escaped_claim, outcome.explain()
    assert secret_env["secret"] not in outcome.stdout + outcome.stderr, outcome.explain()
    home_line = next(ln for ln in outcome.stdout.splitlines() if ln.startswith("HOME"))
    assert secret_env["home"] not in home_line, outcome.explain()
