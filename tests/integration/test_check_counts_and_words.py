"""``automock check`` reads counts and words that behaviour alone would learn wrong (issue 30).

Each buggy function here is consistent with itself, so what it does cannot show its bug;
what its parameters and docstring say can:

* a die's faces with a default (``sides=6``) are varied like a count, so a count after them
  (``number=1``) is varied too, and one roll too many fails ``length``;
* a docstring's range in Spanish, French, Portuguese, Italian or German words ("del 1 al
  6", "entre 1 et 6") is a bound, as "between 1 and 6" was;
* "``len() = d``" in a docstring is the output's length;
* one item past a bare ``n`` is one too many (outside walks and histories), as one past
  ``length`` was; ``nb_elements`` counts items as ``num_elements`` does;
* ``mix`` shuffles, and a word's letters shuffled are a permutation of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = '''
import random


def roll_pool(sides=6, number=1):
    return [random.randint(1, sides) for _ in range(number)]


def roll_pool_extra(sides=6, number=1):
    return [random.randint(1, sides) for _ in range(number + 1)]


def lanzar(n):
    """Devuelve n tiradas de un dado, numeros del 1 al 6."""
    return random.choices([1, 2, 3, 4, 5, 6, 7], k=n)


def lancer(n):
    """Renvoie n lancers, chacun entre 1 et 6."""
    return [random.randint(1, 6) for _ in range(n)]


def throw(d):
    """A throw of d dice: len() = d, each from 1 to 6."""
    return [random.randint(1, 6) for _ in range(d + 1)]


def pick_many(data, n):
    return random.choices(data, k=n + 1)


def extract(items, nb_elements):
    return [random.choice(items) for _ in range(nb_elements - 1)]


def mix_cards(cards):
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = random.randint(0, i)
        out[i], out[j] = out[j], out[i]
    out[0] = out[-1]
    return out


def shuffle_word(word):
    letters = list(word)
    random.shuffle(letters)
    return "".join(letters)


def shuffle_word_short(word):
    letters = list(word)
    random.shuffle(letters)
    return "".join(letters[1:])
'''


module = written_module("worded.py", SOURCE)


@pytest.mark.parametrize(
    ("function", "code", "prop"),
    [
        ("roll_pool", 0, "length"),
        ("roll_pool_extra", 1, "length"),
        ("lanzar", 1, "bounds"),
        ("lancer", 0, "bounds"),
        ("throw", 1, "length"),
        ("pick_many", 1, "length"),
        ("extract", 1, "length"),
        ("mix_cards", 1, "permutation"),
        ("shuffle_word", 0, "permutation"),
        ("shuffle_word_short", 1, "permutation"),
    ],
)
def test_what_a_function_says_is_checked(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int, prop: str
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert got == code, report
    passed = verdicts(report)
    assert passed.get(prop) is (code == 0), report
