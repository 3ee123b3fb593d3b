"""Every ```python block in docs/properties.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "properties.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(
        compile(BLOCKS[index], f"{DOC.name}[block {index}]", "exec"),
        {"__name__": "__doc_example__"},
    )
    assert capsys.readouterr().out.strip(), "each example prints what it shows"
