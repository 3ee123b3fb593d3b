"""Seed-dependent output lines and the properties inferred for them."""

from __future__ import annotations

from automock.properties.seeds import compare_outputs, suggest


def test_lines_that_change_with_the_seed_are_marked() -> None:
    lines = compare_outputs(["a\n[1, 2, 3]\nend\n", "a\n[3, 1, 2]\nend\n", "a\n[2, 3, 1]\n"])
    assert [line.seed_dependent for line in lines] == [False, True, True]
    assert lines[1].suggestions == ("permutation",)
    assert lines[2].values == ("end", "end", None)
    assert lines[2].suggestions == ()


def test_properties_inferred_from_the_values_seen() -> None:
    assert suggest(["hand: 4 2 9", "hand: 9 4 2"]) == (("permutation",), {})
    assert suggest(["[1, 5, 9]", "[2, 3, 8]"]) == (("sorted", "subset"), {})
    assert suggest(["[5, 1]", "[3, 8]"]) == (("subset",), {})
    assert suggest(["p = 0.25", "p = 0.75"]) == (("bounds",), {"low": 0.25, "high": 0.75})
    assert suggest(["alice wins", "bob wins"])[0] != ("permutation",)


def test_a_header_with_an_id_and_a_time_is_no_subset() -> None:
    header = [
        "News digest dg-3f2a (2026-12-05 10:00)",
        "News digest dg-91bc (2026-12-05 10:07)",
        "News digest dg-77aa (2026-12-05 11:02)",
    ]
    assert "subset" not in suggest(header)[0]


def test_comma_separated_shuffled_words_are_a_permutation() -> None:
    assert suggest(["order: b, a, c", "order: c, b, a", "order: a, c, b"])[0] == ("permutation",)
