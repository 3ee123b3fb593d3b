"""Every public name of ``automock`` is visible to type checkers, not ``Any``.

The package exports lazily (PEP 562 ``__getattr__``, which returns ``Any``), so
each name also needs an import under ``TYPE_CHECKING`` in ``automock/__init__.py``.
mypy's own API checks a snippet that reveals each name's type.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import automock
from tests.conftest import REPO


def _checked_names() -> list[str]:
    return sorted(automock._EXPORTS)


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert sorted(automock.__all__) == sorted(["__version__", *automock._EXPORTS])
    for name in _checked_names():
        assert getattr(automock, name) is not None


@pytest.mark.slow  # a cold mypy run over the package (~6 s)
def test_no_public_name_is_any_to_mypy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api")
    names = _checked_names()
    snippet = tmp_path / "reveal.py"
    snippet.write_text("import automock\n" + "".join(f"reveal_type(automock.{n})\n" for n in names))
    monkeypatch.chdir(REPO)  # the project's mypy settings; automock from this checkout
    out, err, status = api.run(
        [str(snippet), "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"]
    )
    revealed = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(r'reveal\.py:(\d+): note: Revealed type is "(.*)"', out)
    }
    assert len(revealed) == len(names), out + err
    untyped = [name for line, name in enumerate(names, start=2) if revealed[line] == "Any"]
    assert not untyped, f"Any to type checkers: {untyped}"
    assert status == 0, out + err  # no error for any name (e.g. "not explicitly exported")
