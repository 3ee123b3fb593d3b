"""``automock check`` on a bootstrap resample (issue 30): as many draws from the data as it
holds, put back. The name says the draws come from the data (``subset``), and each draw is
a fair choice of it (``uniform``): drawing indices instead of values, or never the last
value, fails; ``random.choices`` itself passes. A name with more words (``bootstrap_means``)
says nothing of the output's elements."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json

BODIES = {
    "fair": "return choices(data, k=len(data))",
    "indices": "return choices(range(len(data)), k=len(data))",
    "not_last": "return choices(data[:-1], k=len(data))",
}


@pytest.mark.parametrize(
    ("body", "expected", "failing"),
    [("fair", 0, set()), ("indices", 1, {"subset"}), ("not_last", 1, {"uniform"})],
)
def test_a_bootstrap_draws_fairly_from_its_data(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    body: str,
    expected: int,
    failing: set[str],
) -> None:
    path = tmp_path / f"resample_{body}.py"
    path.write_text(
        f"from random import choices\n\n\ndef bootstrap(data):\n    {BODIES[body]}\n",
        encoding="utf-8",
    )
    code, report = check_json(capsys, path, "bootstrap", 40, "--runs", "600")
    assert code == expected, report["results"]
    failed = {r["name"] for r in report["results"] if not r["passed"]}
    assert failing <= failed, report["results"]
    assert "subset" in {p["property"] for p in report["properties"]}


def test_a_bootstrap_of_means_is_not_held_to_its_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "means.py"
    path.write_text(
        "from random import choices\n\n\ndef bootstrap_means(data, n: int):\n"
        "    return [sum(choices(data, k=len(data))) / max(1, len(data)) for _ in range(n)]\n",
        encoding="utf-8",
    )
    code, report = check_json(capsys, path, "bootstrap_means", 40)
    assert code == 0, report["results"]
    assert "subset" not in {p["property"] for p in report["properties"]}
