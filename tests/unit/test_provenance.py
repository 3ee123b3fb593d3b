"""Everything in the repository is our own text, unless THIRD_PARTY.md says otherwise.

A file that says of itself that it was copied, ported or vendored from another project
(or carries another project's copyright or licence header) fails here unless
THIRD_PARTY.md lists its path with the licence it came under. Facts learned from other
projects (what a library returns, which pattern a real script follows) are not text and
need no entry; corpus scripts say "pattern seen in <repo>".
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REGISTER = ROOT / "THIRD_PARTY.md"
SKIP_DIRS = {".git", "__pycache__", "node_modules", "build", "dist"}
TEXT_SUFFIXES = {".py", ".md", ".json", ".toml", ".txt", ".cfg", ".ini", ".sh", ".yaml", ".yml"}
THIS_FILE = Path(__file__).resolve()

# Each pattern is a file speaking of its own origin. Split so this file does not match them.
_FROM = r"(?:verbatim\s+)?from\s+(?:https?://|github\.com|the\s+\w+\s+project|[\w.-]+/[\w.-]+|[\w-]+'s\s)"
DECLARATIONS = [
    re.compile(r"(?i)\b(?:port" + r"ed|vendor" + r"ed|copi" + r"ed|adapt" + r"ed)\s+" + _FROM),
    re.compile(r"(?i)\bcopi" + r"ed\s+verbatim\b"),
    re.compile(r"(?i)\blicen[cs]ed\s+under\s+the\b"),
    re.compile(r"(?i)\bSPDX-License" + r"-Identifier\b"),
    re.compile(r"(?i)\bcopyright\s+(?:\(c\)\s+)?(?:\d{4}|[A-Z][a-z]+\s+[A-Z][a-z]+)"),
]


def _files(root: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        parts = set(path.relative_to(root).parts)
        if parts & SKIP_DIRS or any(
            p.startswith(".venv") or p.endswith(".egg-info") for p in parts
        ):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path.resolve() != THIS_FILE:
            found.append(path)
    return found


def declarations(root: Path) -> dict[str, str]:
    """Relative path -> the first line in it that declares third-party origin."""
    flagged: dict[str, str] = {}
    for path in _files(root):
        if path.name == REGISTER.name:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for line in text.splitlines():
            if any(p.search(line) for p in DECLARATIONS):
                flagged[path.relative_to(root).as_posix()] = line.strip()[:160]
                break
    return flagged


def registered(register: Path) -> dict[str, str]:
    """THIRD_PARTY.md's table rows: `path` -> licence (rows with an empty licence are left out)."""
    if not register.is_file():
        return {}
    rows: dict[str, str] = {}
    for line in register.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        path_cell = cells[0].startswith("`") and cells[0].endswith("`")
        if len(cells) >= 3 and path_cell and cells[2]:
            rows[cells[0].strip("`")] = cells[2]
    return rows


def test_no_file_declares_third_party_origin_without_a_register_entry() -> None:
    allowed = registered(REGISTER)
    unlisted = {p: line for p, line in declarations(ROOT).items() if p not in allowed}
    assert not unlisted, (
        "files that declare another project's text, not listed in THIRD_PARTY.md with their "
        f"licence (rewrite them in our own words, or list them): {unlisted}"
    )


def test_register_exists_and_lists_only_files_that_exist() -> None:
    assert REGISTER.is_file(), "THIRD_PARTY.md is missing"
    missing = [p for p in registered(REGISTER) if not (ROOT / p).is_file()]
    assert not missing


def test_check_catches_each_kind_of_declaration(tmp_path: Path) -> None:
    samples = {
        "a.py": '"""Tests port' + 'ed from https://example.org/lib, tests/test_x.py."""\n',
        "b.py": "# licence: MIT (someone/else); copi" + "ed verbatim\n",
        "c.md": "Copy" + "right 2020 Jane Doe and contributors\n",
        "d.py": "# Licens" + "ed under the Apache License, Version 2.0\n",
        "e.py": "# vendor" + "ed from someone/tool at v1.2\n",
        "ours.py": "# a copy of the workdir, copied from the host into the sandbox\n",
    }
    for name, text in samples.items():
        (tmp_path / name).write_text(text)
    assert sorted(declarations(tmp_path)) == ["a.py", "b.py", "c.md", "d.py", "e.py"]
    (tmp_path / "THIRD_PARTY.md").write_text(
        "| file | from | licence |\n|---|---|---|\n| `a.py` | example.org/lib | MIT |\n"
        "| `b.py` | someone/else | |\n"
    )
    assert registered(tmp_path / "THIRD_PARTY.md") == {"a.py": "MIT"}
