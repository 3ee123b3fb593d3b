"""Writes outside the workdir: absolute paths, '..' climbs and symlinks must leave nothing behind.

The target directory is made world-writable on purpose (like /tmp), so the test checks confinement
rather than just the unprivileged uid's lack of permission.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import NOT_OK, batch_attack, run_attack


@pytest.fixture
def outside() -> Iterator[Path]:
    """A directory the test made under /tmp, world-writable like /tmp itself, so only real
    confinement (not merely the child's unprivileged uid) keeps the child out."""
    target = Path(tempfile.mkdtemp(prefix="automock-adv-outside-", dir="/tmp"))
    target.chmod(0o1777)
    try:
        yield target
    finally:
        shutil.rmtree(target, ignore_errors=True)


ATTACKS = [run_attack, batch_attack]
IDS = ["run", "batch"]


def _contained(outcome, path: Path) -> None:  # type: ignore[no-untyped-def]
    assert not path.exists(), f"{path} was written\n{outcome.explain()}"
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status in NOT_OK, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_absolute_write_outside(attack, outside: Path) -> None:  # type: ignore[no-untyped-def]
    target = outside / "abs.txt"
    _contained(attack("fs_write_absolute", str(target)), target)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_absolute_write_into_tmp(attack, outside: Path) -> None:  # type: ignore[no-untyped-def]
    """/tmp itself is world-writable with the sticky bit: the classic place a program drops files."""
    target = Path("/tmp") / f"{outside.name}-{os.getpid()}.txt"
    try:
        _contained(attack("fs_write_absolute", str(target)), target)
    finally:
        target.unlink(missing_ok=True)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_dotdot_climb_outside(attack, outside: Path) -> None:  # type: ignore[no-untyped-def]
    target = outside / "dotdot.txt"
    _contained(attack("fs_write_dotdot", str(target)), target)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_symlink_out_of_workdir(attack, outside: Path) -> None:  # type: ignore[no-untyped-def]
    target = outside / "via-link.txt"
    _contained(attack("fs_symlink", str(outside), "via-link.txt"), target)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_parent_of_workdir_is_cleaned(attack) -> None:  # type: ignore[no-untyped-def]
    """Writing one level above the workdir is either refused or removed with the sandbox's temp root."""
    outcome = attack("fs_write_parent")
    line = next((ln for ln in outcome.stdout.splitlines() if ln.startswith("TARGET ")), "")
    assert line, outcome.explain()
    target = Path(line.split(" ", 1)[1])
    assert not target.exists(), f"{target} survived the run\n{outcome.explain()}"
