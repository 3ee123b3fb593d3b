"""Secrets of the parent: its environment, its HOME, a planted private key."""

from __future__ import annotations

import pytest

from .harness import Attack, batch_attack, cli_attack, program, run_attack, served_attack

ATTACKS = [run_attack, cli_attack, batch_attack]
IDS = ["run", "cli", "batch"]


@pytest.mark.parametrize("attack", [*ATTACKS, served_attack], ids=[*IDS, "served"])
def test_parent_env_secret_not_visible(attack: Attack, secret_env: dict[str, str]) -> None:
    outcome = attack("secrets_env", secret_env["secret"])
    assert not outcome.escaped_claim, outcome.explain()
    assert secret_env["secret"] not in outcome.stdout + outcome.stderr, outcome.explain()
    assert "BLOCKED secret not visible" in outcome.stdout, outcome.explain()


@pytest.mark.parametrize(
    "attack",
    [
        run_attack,
        cli_attack,
        batch_attack,  # children are forked from the zygote, a fresh interpreter
        served_attack,  # forked from a warm server's handler: it never had the secret either
    ],
    ids=[*IDS, "served"],
)
def test_parent_env_secret_not_in_the_childs_memory(
    attack: Attack, secret_env: dict[str, str]
) -> None:
    """A forked child holds a copy of its parent's memory: the secret must never have been there
    (the command restarts with a scrubbed environment; the API and the pool start from fixed ones)."""
    outcome = attack("secrets_memory", secret_env["secret"][::-1])
    assert not outcome.escaped_claim, outcome.explain()
    assert "BLOCKED secret not in memory" in outcome.stdout, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_parent_home_and_private_key_not_readable(
    attack: Attack, secret_env: dict[str, str]
) -> None:
    outcome = attack("secrets_ssh", secret_env["key"], secret_env["secret"])
    assert not outcome.escaped_claim, outcome.explain()
    assert secret_env["secret"] not in outcome.stdout + outcome.stderr, outcome.explain()
    home_line = next(ln for ln in outcome.stdout.splitlines() if ln.startswith("HOME"))
    assert secret_env["home"] not in home_line, outcome.explain()


def test_program_run_from_home_cannot_read_private_siblings(secret_env: dict[str, str]) -> None:
    """A script kept in the home directory gets a copy of its directory as cwd; files only the
    owner may read (the 0600 key under a 0700 .ssh) must not be handed to the sandbox uid."""
    import os
    import shutil

    from automock.pipeline.run import run_file

    if os.geteuid() != 0:
        pytest.skip("without root there is no uid drop: the program reads what the user can")

    script = shutil.copy(program("secrets_ssh"), secret_env["home"])
    report = run_file(script, args=(secret_env["key"], secret_env["secret"]), timeout=10)
    assert "ATTACK-START" in report.stdout, report.stderr
    assert "ESCAPED" not in report.stdout, report.stdout
    assert secret_env["secret"] not in report.stdout + report.stderr
