"""Host files outside the allow-list (interpreter, sys.path, system libraries, workdir, --read)
cannot be read, whatever their mode: a nonce file the test writes under host directories
(/var/tmp, /work, /home, /run, /srv) and a root-only one; checked from outside by looking
for the nonce in everything the program printed. ``--read`` (``readable=``) opens one."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from automock.sandbox.kernel.landlock import abi
from automock.sandbox.run.observe import CLAIMED

from .harness import batch_attack, candidate_source, cli_attack, run_attack

pytestmark = pytest.mark.skipif(abi() <= 0, reason="Landlock is not available here")

_HOST_DIRS = ("/var/tmp", "/work", "/home", "/run", "/srv")


class Nonces:
    def __init__(self) -> None:
        self.value = "nonce-" + secrets.token_hex(12)
        self.dirs: list[Path] = []
        self.files: list[Path] = []

    def plant(self, parent: str, mode: int = 0o644) -> None:
        if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
            return
        where = Path(parent) / f"automock-nonce-{secrets.token_hex(4)}"
        where.mkdir(mode=0o755)
        where.chmod(0o755)
        self.dirs.append(where)
        secret = where / "secret.txt"
        secret.write_text(self.value)
        secret.chmod(mode)
        self.files.append(secret)

    def seen_in(self, text: str) -> bool:
        return self.value in text


@pytest.fixture
def nonces() -> Iterator[Nonces]:
    found = Nonces()
    for parent in _HOST_DIRS:
        found.plant(parent)
    found.plant("/var/tmp", 0o600)  # root-only, like /etc/shadow
    assert found.files, "no host directory to plant a nonce in"
    yield found
    for where in found.dirs:
        shutil.rmtree(where, ignore_errors=True)


def _paths(nonces: Nonces) -> list[str]:
    return [*map(str, nonces.files), *map(str, nonces.dirs), "/etc/shadow", "/etc/passwd"]


@pytest.mark.parametrize(
    "attack", [run_attack, cli_attack, batch_attack], ids=["run", "cli", "batch"]
)
def test_host_files_are_unreadable(attack, nonces: Nonces) -> None:  # type: ignore[no-untyped-def]
    outcome = attack("fs_read_host", *_paths(nonces), timeout=20)
    text = outcome.stdout + outcome.stderr
    assert not nonces.seen_in(text), outcome.explain()
    assert "ESCAPED" not in outcome.stdout, outcome.explain()
    assert outcome.stdout.count("DENIED") == len(_paths(nonces)), outcome.explain()
    landlock = [layer for layer in outcome.layers if layer["name"] == "landlock"]
    assert landlock and landlock[0]["active"], outcome.layers
    if attack is not batch_attack:  # not visible in /proc: the sandbox's claim, labelled
        assert CLAIMED in landlock[0]["detail"], landlock


def test_read_flag_opens_one_path(nonces: Nonces) -> None:
    """The control: the same file is readable when named with --read (so the denial above is
    the allow-list, not the file's mode), and only that one."""
    shared = next(f for f in nonces.files if f.stat().st_mode & 0o004)
    other = [str(f) for f in nonces.files if f.parent != shared.parent]
    outcome = run_attack(
        "fs_read_host", str(shared), *other, timeout=20, extra=["--read", str(shared.parent)]
    )
    assert f"ESCAPED read {shared}" in outcome.stdout and nonces.seen_in(outcome.stdout)
    assert outcome.stdout.count("DENIED") == len(other), outcome.explain()


def test_readable_opens_one_path_in_batch(nonces: Nonces) -> None:
    from automock import execute_many

    shared = next(f for f in nonces.files if f.stat().st_mode & 0o004)
    source = candidate_source("fs_read_host", str(shared))
    with_it, without = (
        execute_many([source], timeout=20, readable=extra)[0]
        for extra in ([str(shared.parent)], [])
    )
    assert nonces.seen_in(with_it.stdout), with_it
    assert not nonces.seen_in(without.stdout + without.stderr) and "DENIED" in without.stdout


def test_read_flag_refuses_a_missing_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from automock.cli import main

    program = tmp_path / "p.py"
    program.write_text("print(1)\n")
    code = main(["run", str(program), "--no-save", "--read", str(tmp_path / "missing")])
    assert code == 2, capsys.readouterr()
    assert "--read" in capsys.readouterr().err


_OWN_MOUNTS = r"""
import os
for path in ("/tmp/own.txt", "/tmp/automock/own.txt", "/dev/shm/own.txt"):
    try:
        with open(path, "w") as handle:
            handle.write("mine")
        with open(path) as handle:
            print("OK", path, handle.read())
    except OSError as exc:
        print("REFUSED", path, exc.errno)
with open("/proc/self/status") as handle:
    print("OK /proc", handle.read().startswith("Name:"))
try:
    open("/etc/passwd").read()
    print("ESCAPED /etc/passwd")
except OSError:
    print("DENIED /etc/passwd")
print("FDS", sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
"""


def test_batch_children_use_their_own_mounts_and_hold_no_rule_fd() -> None:
    """The pool's zygote opens the rules' paths once; each child adds the rules on the
    /tmp, /dev/shm and /proc it mounts itself (a rule on the directory a mount hides does
    not reach into that mount). Every child of the batch: its own mounts are usable, the
    host's files stay denied, and none of the zygote's fds reaches the program."""
    from automock import execute_many

    for result in execute_many([_OWN_MOUNTS] * 3, timeout=20):
        out = result.stdout
        assert "REFUSED" not in out and out.count("OK /") == 4, result
        assert "OK /proc True" in out and "DENIED /etc/passwd" in out, result
        fds = next(line for line in out.splitlines() if line.startswith("FDS"))
        # 0-4: stdin, stdout, stderr, verdict, task; the listing's own fd is closed by now
        assert fds == "FDS [0, 1, 2, 3, 4]", result
