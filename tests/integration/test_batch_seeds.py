"""Per-sample seeds: derived from the batch seed, task id and index; reproducible; not shared.

Each sample's random sources (``random``, ``Random()``, ``os.urandom``,
``secrets``, ``uuid4``) start from its own seed, the same in every run
whatever the worker count, the order of the input or the pool's fork path,
and different for two identical samples of one task.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from automock import execute_many
from automock._seed import derive
from automock.cli import main
from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.pool import BatchSettings, WorkerPool
from automock.sandbox.batch.task import CandidateResult, sample_seed

DRAW = (
    "import os, random, secrets, uuid\n"
    "print(random.random(), random.Random().random(), os.urandom(4).hex(),\n"
    "      secrets.token_hex(4), uuid.uuid4())\n"
)


def _batch() -> list[Candidate]:
    return [Candidate(task, i, DRAW) for task in ("a", "b") for i in range(3)]


def _outputs(results: list[CandidateResult]) -> dict[tuple[str, int], str]:
    out = {}
    for r in results:
        assert r.status == "passed", r.stderr
        out[(r.task_id, r.index)] = r.stdout
    return out


def test_identical_samples_draw_differently_and_repeat_across_runs() -> None:
    first = execute_many(_batch(), workers=2, seed=5)
    second = execute_many(list(reversed(_batch())), workers=1, seed=5)
    draws = _outputs(first)
    assert draws == _outputs(second)  # same sample, same draws: any worker count, any order
    assert len(set(draws.values())) == len(draws)  # identical samples are not correlated
    for value in draws.values():  # no source is shared between two samples either
        assert all(
            value.split()[k] != other.split()[k]
            for other in draws.values()
            if other != value
            for k in range(5)
        )
    for r in first:
        assert (
            r.seed == sample_seed(5, r.task_id, r.index) == derive(5, "sample", r.task_id, r.index)
        )
    assert len({r.seed for r in first}) == 6
    other = _outputs(execute_many(_batch(), workers=2, seed=6))
    assert all(other[key] != draws[key] for key in draws)  # the batch seed matters


def test_the_sample_seed_is_what_random_starts_from() -> None:
    (result,) = execute_many([Candidate("t/1", 4, "import random\nprint(random.random())\n")])
    expected = random.Random(derive(sample_seed(0, "t/1", 4), "random")).random()
    assert result.stdout.strip() == repr(expected)


def test_one_sample_replays_alone_with_its_task_id_and_index() -> None:
    whole = _outputs(execute_many(_batch(), seed=9))
    (alone,) = execute_many([Candidate("b", 2, DRAW)], seed=9)
    assert alone.stdout == whole[("b", 2)]
    (first,) = execute_many([Candidate("b", 0, DRAW)], seed=9)
    assert first.stdout == whole[("b", 0)] != alone.stdout  # the index, not the position, counts


@pytest.mark.parametrize("zygote", [True, False])
def test_pairs_code_and_tests_both_start_from_the_sample_seed(zygote: bool) -> None:
    code = "import random\ndef draw():\n    return random.random()\n"
    tests = "import random\nmine = random.random()\ntheirs = draw()\nprint(mine, theirs)\nassert theirs < 1\n"
    cands = [Candidate("p", i, code, tests) for i in range(2)]
    with WorkerPool(BatchSettings(timeout=5.0, seed=3, zygote=zygote), workers=2) as pool:
        results = pool.run(cands)
    seen = []
    for r in results:
        assert r.status == "passed", r.stderr
        mine, theirs = r.stdout.split()
        expected = random.Random(derive(sample_seed(3, "p", r.index), "random")).random()
        assert mine == theirs == repr(expected)
        seen.append(mine)
    assert seen[0] != seen[1]


def test_mixed_pairs_and_programs_draw_the_same_whichever_spare_runs_them() -> None:
    """A spare that expects a pair forks the candidate's process ahead (and re-seeds it once
    the sample is known); a program that comes instead gets it discarded. Either way every
    sample draws what it draws in a pool that never forks ahead (no zygote)."""
    code = "import random\ndef draw():\n    return random.random()\n"
    tests = "theirs = draw()\nprint(theirs)\nassert theirs < 1\n"
    mixed = [
        Candidate("m", i, code, tests) if i % 3 != 1 else Candidate("m", i, DRAW) for i in range(6)
    ]
    outputs = []
    for zygote in (True, False):
        with WorkerPool(BatchSettings(timeout=5.0, seed=5, zygote=zygote), workers=1) as pool:
            outputs.append(_outputs(pool.run(mixed) + pool.run(mixed[::-1])))
    assert outputs[0] == outputs[1]
    assert len(set(outputs[0].values())) == 6


def test_cli_prints_each_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    samples = tmp_path / "s.jsonl"
    records = [
        {"task_id": "t", "code": "import random\nassert random.random() < 2\n"},
        {"task_id": "t", "code": "import random\nassert random.random() > 2\n"},
    ]
    samples.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["batch", str(samples), "--seed", "7", "--pass-at-k", "1"]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [r["seed"] for r in lines] == [sample_seed(7, "t", 0), sample_seed(7, "t", 1)]
    assert f"t#1 failed (seed {sample_seed(7, 't', 1)})" in err
    assert f"seed {sample_seed(7, 't', 0)}" not in err  # only the samples that did not pass


def test_a_program_sample_replays_with_automock_run_and_its_seed(tmp_path: Path) -> None:
    """``automock run --seed <the sample's seed>`` draws what the sample drew in the batch."""
    from tests.conftest import automock_command

    (tmp_path / "prog.py").write_text(DRAW)
    (result,) = execute_many([Candidate("prog", 2, DRAW)], seed=11)
    assert result.seed is not None
    done = automock_command(["run", "--seed", str(result.seed), "prog.py"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == result.stdout
    other = automock_command(["run", "--seed", "11", "prog.py"], cwd=tmp_path)
    assert other.stdout != result.stdout  # the batch seed alone is not the sample's seed
