"""Resource exhaustion: CPU, memory, processes, threads, output. Each ends with the right code and
leaves nothing running."""

from __future__ import annotations

import pytest

from automock.errors import EXIT_MEMORY, EXIT_TIMEOUT, EXIT_VIOLATION

from .harness import Attack, batch_attack, cli_attack, run_attack, survivors

ATTACKS = [run_attack, cli_attack, batch_attack]
IDS = ["run", "cli", "batch"]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_cpu_spin_ends_at_timeout(attack: Attack) -> None:
    outcome = attack("res_cpu_spin", timeout=3)
    assert outcome.status == "timeout", outcome.explain()
    assert outcome.exit_code == EXIT_TIMEOUT, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_memory_bomb_ends_with_memory_code(attack: Attack) -> None:
    outcome = attack("res_memory_bomb", timeout=20)
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status == "memory", outcome.explain()
    assert outcome.exit_code == EXIT_MEMORY, outcome.explain()


@pytest.mark.slow
@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_fork_bomb_contained(attack: Attack, marker: str) -> None:
    outcome = attack("res_fork_bomb", marker, timeout=3)
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status in {"timeout", "violation"}, outcome.explain()
    left = survivors(marker)
    assert left == [], f"{len(left)} fork-bomb processes survived: {left[:5]}\n{outcome.explain()}"


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_thread_bomb_contained(attack: Attack, marker: str) -> None:
    outcome = attack("res_thread_bomb", marker, timeout=10)
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status == "violation", outcome.explain()
    assert outcome.exit_code == EXIT_VIOLATION, outcome.explain()
    assert survivors(marker) == [], outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_huge_output_is_capped_with_a_note(attack: Attack) -> None:
    outcome = attack("res_huge_stdout", "256", timeout=20)
    # 256 MiB written; what comes back is bounded and says it was cut
    assert len(outcome.stdout) < 4 * 1024 * 1024, outcome.explain()
    assert len(outcome.stderr) < 4 * 1024 * 1024, outcome.explain()
    note = (outcome.stdout[-400:] + outcome.stderr[-400:] + outcome.detail).lower()
    assert "truncated" in note or "capped" in note or "omitted" in note, outcome.explain()
