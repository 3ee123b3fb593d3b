"""Untyped parameters named in other languages (issue 30).

``mischen(anzahl, liste)``, seen in a real repository, takes a count and a list, but
neither word was known: the list was taken for an int, and the check stopped with "needs a
function that takes a sequence", given ``--property permutation`` or not. List words
(``liste``, ``lista``, ``tableau``, ``arreglo``, ``vetor``...) and count words (``anzahl``,
``cantidad``, ``veces``...) of the languages real code is written in are read as the
English ones are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import random


def mezclar(veces, lista):
    for _ in range(veces):
        a = random.randint(0, len(lista) - 1)
        b = random.randint(0, len(lista) - 1)
        lista[a], lista[b] = lista[b], lista[a]
    return lista


def mezclar_pierde(veces, lista):
    for _ in range(veces):
        a = random.randint(0, len(lista) - 1)
        b = random.randint(0, len(lista) - 1)
        lista[a] = lista[b]
    return lista
"""

module = written_module("mezcla.py", SOURCE)


@pytest.mark.parametrize(("function", "code"), [("mezclar", 0), ("mezclar_pierde", 1)])
@pytest.mark.parametrize("flags", [(), ("--property", "permutation")])
def test_a_count_and_a_list_named_in_spanish_are_driven_as_such(
    module: Path,
    capsys: pytest.CaptureFixture[str],
    function: str,
    code: int,
    flags: tuple[str, ...],
) -> None:
    got, report = check_json(capsys, module, function, 60, *flags)
    assert got == code, report
    assert verdicts(report).get("permutation") is (code == 0), report
