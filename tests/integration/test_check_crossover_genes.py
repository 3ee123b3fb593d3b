"""``automock check`` on crossovers named in other languages and children with a slot
left empty (issue 30, batch t).

``cruce_uniforme(padre1, padre2, probabilidad_cruza)``: its parents are lists (a
crossover's two parents, whatever the language) and its chance a probability; before, the
second parent was tried as an int and the check stopped on a Hypothesis error. A
crossover's child holds its parents' genes: one that leaves a slot ``None`` on the calls
that cross fails ``subset``, named for a crossover though it was never seen holding only
their genes. A crossover that makes new values (``blend``) is held to nothing of the kind.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import random


def cruce_uniforme(padre1, padre2, probabilidad_cruza):
    if random.uniform(0, 1) < probabilidad_cruza:
        return [a if random.choice([True, False]) else b for a, b in zip(padre1, padre2)]
    return random.choice([padre1, padre2])


def cruce_uniforme_hueco(padre1, padre2, probabilidad_cruza):
    if random.uniform(0, 1) < probabilidad_cruza:
        hijo = [None] * len(padre1)
        for i in range(len(padre1) - 1):
            hijo[i] = padre1[i] if random.choice([True, False]) else padre2[i]
        return hijo
    return random.choice([padre1, padre2])


def blend_crossover(parent1, parent2):
    w = random.random()
    return [w * a + (1 - w) * b for a, b in zip(parent1, parent2)]
"""


module = written_module("cruce.py", SOURCE)


def test_a_crossover_in_spanish_is_read_as_one(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "cruce_uniforme", 60)
    names = {p["property"] for p in report["properties"]}
    assert {"subset", "length"} <= names, report["properties"]
    assert code == 0, report["results"]


def test_a_child_with_an_empty_slot_fails_subset(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "cruce_uniforme_hueco", 60)
    assert code == 1, report["results"]
    assert verdicts(report).get("subset") is False, report


def test_a_blend_crossover_is_not_held_to_its_parents_genes(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from automock.cli import main

    code = main(["check", f"{module}::blend_crossover", "--examples", "30", "--json"])
    out = capsys.readouterr()
    assert '"subset"' not in out.out, out.out
    assert code in (0, 2), out


def test_parents_typed_as_numbers_are_drawn_as_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Parents a hint makes ints are no tour to reorder: before, the search asked Hypothesis
    for the permutations of an int and stopped on its error."""
    path = tmp_path / "numbers.py"
    path.write_text(
        "import random\n\n\ndef pick_parent(p1: int, p2: int) -> int:\n"
        "    return random.choice([p1, p2])\n",
        encoding="utf-8",
    )
    code, report = check_json(capsys, path, "pick_parent", 30, "--property", "returns")
    assert code == 0, report
