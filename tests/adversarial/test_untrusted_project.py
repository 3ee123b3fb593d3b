"""The project is untrusted, the parent is root: what the project ships never acts with the
parent's rights (docs/security.md, "Threat model: an untrusted project").

Each test builds a small hostile project in ``tmp_path`` (a program, a plan, a cassette, a
symlink), runs the real ``automock`` command on it in a new process, and checks the ground
truth from outside: a marker a ``sitecustomize.py`` would write as root does not exist, no
file appears where a symlink points, a loopback listener in the host's network namespace saw
no connection, a root-only token's bytes appear nowhere in what automock printed.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import automock_command, short_runtime_dir

from .harness import LoopbackServer

PRINT_PATH = 'import os\nprint("ATTACK-START", os.getenv("PYTHONPATH", "."))\n'
CONNECT = """\
import socket, sys
print("ATTACK-START")
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).close()
    print("ESCAPED connected")
except OSError as exc:
    print("contained", type(exc).__name__)
"""
READ_STAGED = """\
import pathlib
print("ATTACK-START")
for found in sorted(pathlib.Path("..", "cassettes").glob("*")):
    print(found.read_text())
"""
WRITE_STAGED = """\
import pathlib
print("ATTACK-START")
for found in sorted(pathlib.Path("..", "cassettes").glob("*")):
    found.write_text("PLANTED by the program\\n")
print("wrote")
"""
PRINT_TOKEN = 'import os\nprint("ATTACK-START", os.environ.get("API_TOKEN"))\n'


def _sitecustomize(marker: Path) -> str:
    """A ``sitecustomize.py`` that leaves ``marker`` (with its uid) wherever it runs."""
    return (
        "import os\n"
        "try:\n"
        f"    with open({str(marker)!r}, 'w') as f:\n"
        "        f.write(f'uid={os.getuid()}\\n')\n"
        "except OSError:\n"
        "    pass\n"
    )


def _plan(**fields: Any) -> str:
    return json.dumps({"automock": 1, "seed": 0, "network": "deny", "entries": [], **fields})


def _project(tmp_path: Path, program: str) -> Path:
    project = tmp_path / "project"
    (project / "fixtures").mkdir(parents=True)
    (project / "app.py").write_text(program)
    (tmp_path / "elsewhere").mkdir()
    return project


def _run(project: Path, *argv: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return automock_command(list(argv), cwd=project, timeout=timeout + 60)


def _token_cassette(path: Path) -> str:
    """Another project's root-only cassette, holding a recorded secret; returns the secret."""
    token = "TOKEN-" + secrets.token_hex(8)
    path.write_text(
        f"interactions: []\nversion: 1\n# recorded with Authorization: Bearer {token}\n"
    )
    path.chmod(0o600)
    return token


def _one_line_error(done: subprocess.CompletedProcess[str], code: int, *words: str) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == code, (done.returncode, done.stdout[-800:], done.stderr[-800:])
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------- no root code before isolation


def test_a_drafted_pythonpath_starts_no_code_as_root(tmp_path: Path) -> None:
    """`os.getenv("PYTHONPATH", ".")` drafts PYTHONPATH="." into the plan; the child
    interpreter must not start with it (a sitecustomize.py beside the script would run as
    root before any layer). The program still sees the planned value."""
    project = _project(tmp_path, PRINT_PATH)
    marker = tmp_path / "elsewhere" / "ran-as-root"
    (project / "sitecustomize.py").write_text(_sitecustomize(marker))
    done = _run(project, "run", "app.py", "--json")
    report = json.loads(done.stdout)
    assert report["status"] == "passed", report
    assert "ATTACK-START .\n" in report["stdout"], report["stdout"]
    assert (
        json.loads((project / "fixtures" / "app.automock.json").read_text())["env"]["PYTHONPATH"]
        == "."
    )
    assert not marker.exists(), marker.read_text()


@pytest.mark.parametrize("found", ["beside", "--plan"])
def test_a_shipped_plan_env_starts_no_code_as_root(tmp_path: Path, found: str) -> None:
    """A plan shipped with the project sets PYTHONPATH=lib, and lib/sitecustomize.py is there:
    nothing of it runs in an interpreter started outside the sandbox."""
    project = _project(tmp_path, PRINT_PATH)
    marker = tmp_path / "elsewhere" / "ran-as-root"
    (project / "lib").mkdir()
    (project / "lib" / "sitecustomize.py").write_text(_sitecustomize(marker))
    plan = project / "fixtures" / "app.automock.json"
    plan.write_text(_plan(env={"PYTHONPATH": "lib", "PYTHONSTARTUP": "lib/sitecustomize.py"}))
    extra = ["--plan", str(plan)] if found == "--plan" else []
    done = _run(project, "run", "app.py", "--json", *extra)
    report = json.loads(done.stdout)
    assert "ATTACK-START lib\n" in report["stdout"], report["stdout"]
    assert not marker.exists(), marker.read_text()


PRELOAD = """\
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void probe(void) {
    FILE *f = fopen(MARKER, "w");
    if (f) { fprintf(f, "uid=%d\\n", (int) getuid()); fclose(f); }
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build the preload library")
def test_a_shipped_plan_ld_preload_loads_nothing_as_root(tmp_path: Path) -> None:
    """A plan's LD_PRELOAD naming a library the project ships, whose constructor leaves a
    marker: the loader of no interpreter started outside the sandbox ever sees it."""
    project = _project(tmp_path, 'import os\nprint("ATTACK-START", os.environ["LD_PRELOAD"])\n')
    marker = tmp_path / "elsewhere" / "loaded-as-root"
    (project / "lib").mkdir()
    source = tmp_path / "probe.c"
    source.write_text(PRELOAD.replace("MARKER", json.dumps(str(marker))))
    built = subprocess.run(
        ["gcc", "-shared", "-fPIC", "-o", str(project / "lib" / "probe.so"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    plan = _plan(env={"LD_PRELOAD": "lib/probe.so"})
    (project / "fixtures" / "app.automock.json").write_text(plan)
    done = _run(project, "run", "app.py", "--json")
    report = json.loads(done.stdout)
    assert not marker.exists(), marker.read_text()
    assert "ATTACK-START lib/probe.so\n" in report["stdout"], report["stdout"]


def test_a_served_run_starts_no_code_as_root(tmp_path: Path) -> None:
    """The same plan through a warm server (`automock server start`): the handler's spare
    interpreter, started before the run was asked for, takes the run; nothing of the plan's
    environment reaches an interpreter's start-up."""
    project = _project(tmp_path, PRINT_PATH)
    marker = tmp_path / "elsewhere" / "ran-as-root"
    (project / "lib").mkdir()
    (project / "lib" / "sitecustomize.py").write_text(_sitecustomize(marker))
    (project / "fixtures" / "app.automock.json").write_text(_plan(env={"PYTHONPATH": "lib"}))
    with short_runtime_dir() as xdg:
        try:
            started = automock_command(["server", "start"], cwd=project, XDG_RUNTIME_DIR=str(xdg))
            assert started.returncode == 0, started.stderr
            done = automock_command(
                ["run", "app.py", "--json"], cwd=project, timeout=80, XDG_RUNTIME_DIR=str(xdg)
            )
            status = automock_command(["server", "status"], cwd=project, XDG_RUNTIME_DIR=str(xdg))
        finally:
            automock_command(["server", "stop"], cwd=project, XDG_RUNTIME_DIR=str(xdg))
    assert not marker.exists(), marker.read_text()
    assert "; 2 connections served" in status.stdout, status.stdout
    report = json.loads(done.stdout)
    assert "ATTACK-START lib\n" in report["stdout"], report["stdout"]
    assert [r["start"] for r in report["runs"]] == ["spare"], report["runs"]


# ------------------------------------------------------ a plan may narrow, never widen


@pytest.mark.parametrize("found", ["beside", "--plan"])
def test_a_plan_cannot_allow_the_network(tmp_path: Path, found: str) -> None:
    """`"network": "allow"` in a plan is refused without the person's --allow-network; the
    host's loopback listener sees nothing."""
    project = _project(tmp_path, CONNECT)
    plan = project / "fixtures" / "app.automock.json"
    plan.write_text(_plan(network="allow"))
    extra = ["--plan", str(plan)] if found == "--plan" else []
    listener = LoopbackServer()
    try:
        done = _run(project, "run", "app.py", *extra, "--", str(listener.port))
    finally:
        listener.close()
    assert listener.accepted == [], listener.accepted
    assert "ESCAPED" not in done.stdout
    _one_line_error(done, 3, "--allow-network", "app.automock.json")


def test_a_plan_with_the_network_allowed_runs_with_the_flag(tmp_path: Path) -> None:
    """With the person's --allow-network the same plan runs, and only then does the report say
    the network was allowed by that flag."""
    project = _project(tmp_path, 'print("ATTACK-START")\n')
    (project / "fixtures" / "app.automock.json").write_text(_plan(network="allow"))
    done = _run(project, "run", "app.py", "--json", "--allow-network")
    report = json.loads(done.stdout)
    network = next(layer for layer in report["layers"] if layer["name"] == "network")
    assert report["status"] == "passed" and not network["active"], report
    assert "allowed by --allow-network" in network["detail"]


@pytest.mark.parametrize("asks", ["network", "record"])
def test_a_batch_plan_cannot_widen_a_candidates_run(tmp_path: Path, asks: str) -> None:
    """`automock batch --plan` has no --allow-network and no --record: a plan that allows the
    network or records a cassette is refused, and the listener sees nothing."""
    project = _project(tmp_path, CONNECT.replace("int(sys.argv[1])", "PORT"))
    plan = project / "fixtures" / "batch.automock.json"
    cassette = {"path": "fixtures/batch.yaml", "record_mode": "all"}
    plan.write_text(_plan(network="allow") if asks == "network" else _plan(cassette=cassette))
    listener = LoopbackServer()
    try:
        (project / "app.py").write_text(
            (project / "app.py").read_text().replace("PORT", str(listener.port))
        )
        done = _run(project, "batch", "app.py", "--plan", str(plan), "--pass-at-k", "1")
    finally:
        listener.close()
    assert listener.accepted == [], listener.accepted
    _one_line_error(done, 3, asks, "batch.automock.json")


@pytest.mark.parametrize("where", ["absolute", "dotdot"])
def test_a_plan_cassette_cannot_copy_a_host_file_in(tmp_path: Path, where: str) -> None:
    """A plan naming another project's root-only cassette (by absolute path, or by `..`) is
    refused: the parent never copies it into the workdir, its secret is printed nowhere."""
    project = _project(tmp_path, READ_STAGED)
    token = _token_cassette(tmp_path / "elsewhere" / "other.yaml")
    path = (
        str(tmp_path / "elsewhere" / "other.yaml")
        if where == "absolute"
        else "../elsewhere/other.yaml"
    )
    (project / "fixtures" / "app.automock.json").write_text(
        _plan(cassette={"path": path, "record_mode": "once"})
    )
    done = _run(project, "run", "app.py")
    assert token not in done.stdout + done.stderr, done.stdout
    _one_line_error(done, 3, "other.yaml", "project")


@pytest.mark.parametrize("where", ["absolute", "dotdot"])
def test_a_plan_cassette_cannot_write_outside_the_project(tmp_path: Path, where: str) -> None:
    """A recording cassette outside the project (record_mode all, no --record): the program's
    bytes are never copied back out to the host path."""
    project = _project(tmp_path, WRITE_STAGED)
    target = tmp_path / "elsewhere" / "planted.yaml"
    path = str(target) if where == "absolute" else "../elsewhere/planted.yaml"
    (project / "fixtures" / "app.automock.json").write_text(
        _plan(cassette={"path": path, "record_mode": "all"})
    )
    done = _run(project, "run", "app.py")
    assert not target.exists(), target.read_text()
    assert done.returncode == 3, (done.stdout, done.stderr)


def test_a_recording_cassette_needs_record(tmp_path: Path) -> None:
    """A plan cassette that records (record_mode other than none) without --record is refused
    naming --record; the program's bytes never reach the project's cassette."""
    project = _project(tmp_path, WRITE_STAGED)
    cassette = project / "fixtures" / "app.cassette.yaml"
    cassette.write_text("interactions: []\nversion: 1\n")
    (project / "fixtures" / "app.automock.json").write_text(
        _plan(cassette={"path": "fixtures/app.cassette.yaml", "record_mode": "all"})
    )
    done = _run(project, "run", "app.py")
    assert "PLANTED" not in cassette.read_text()
    _one_line_error(done, 3, "--record", "record_mode")


# ------------------------------------------------------- no symlink out is followed


@pytest.mark.parametrize("command", ["run", "draft"])
def test_a_fixtures_symlink_out_is_not_written_through(tmp_path: Path, command: str) -> None:
    """`fixtures -> /elsewhere`: the drafted plan is not written there (one line names it)."""
    project = _project(tmp_path, PRINT_PATH)
    (project / "fixtures").rmdir()
    (project / "fixtures").symlink_to(tmp_path / "elsewhere")
    done = _run(project, command, "app.py")
    assert list((tmp_path / "elsewhere").iterdir()) == []
    _one_line_error(done, 3, "fixtures", "symbolic link")


def test_a_recording_is_not_kept_through_a_fixtures_symlink_out(tmp_path: Path) -> None:
    """`--record --no-save` with `fixtures -> /elsewhere`: the cassette automock would name
    beside the plan is there, and the program writes its staged copy; nothing is copied out."""
    program = (
        'import pathlib\nprint("ATTACK-START")\n'
        'pathlib.Path("..", "cassettes", "app.cassette.yaml").write_text("PLANTED\\n")\n'
    )
    project = _project(tmp_path, program)
    (project / "fixtures").rmdir()
    (project / "fixtures").symlink_to(tmp_path / "elsewhere")
    done = _run(project, "run", "app.py", "--record", "--no-save")
    assert list((tmp_path / "elsewhere").iterdir()) == []
    _one_line_error(done, 3, "fixtures", "symbolic link")


def test_a_cache_symlink_out_is_not_written_through(tmp_path: Path) -> None:
    """`.automock-cache -> /elsewhere`: the scan cache is not kept there; the run goes on."""
    project = _project(tmp_path, 'print("ATTACK-START")\n')
    (project / ".automock-cache").symlink_to(tmp_path / "elsewhere")
    done = _run(project, "run", "app.py")
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize("cwd", ["project", "."])
def test_a_plan_symlink_out_is_not_read(tmp_path: Path, cwd: str) -> None:
    """fixtures/app.automock.json -> another project's root-only plan holding a token in its
    env: the parent does not read it for this project, the program never sees the token
    (also when automock is run from a directory holding both projects, e.g. a home)."""
    project = _project(tmp_path, PRINT_TOKEN)
    token = "TOKEN-" + secrets.token_hex(8)
    other = tmp_path / "elsewhere" / "other.automock.json"
    other.write_text(_plan(env={"API_TOKEN": token}))
    other.chmod(0o600)
    (project / "fixtures" / "app.automock.json").symlink_to(other)
    done = _run(tmp_path / cwd, "run", str(project / "app.py"))
    assert token not in done.stdout + done.stderr, done.stdout
    _one_line_error(done, 3, "app.automock.json", "symbolic link")


@pytest.mark.parametrize("cwd", ["project", "elsewhere", "."])
def test_a_cassette_symlink_out_is_not_read(tmp_path: Path, cwd: str) -> None:
    """fixtures/app.cassette.yaml -> another project's root-only cassette: not staged, also
    when automock is run from the directory the link points into (`automock run
    /abs/project/app.py` from a home directory holding the secret)."""
    project = _project(tmp_path, READ_STAGED)
    token = _token_cassette(tmp_path / "elsewhere" / "other.yaml")
    (project / "fixtures" / "app.cassette.yaml").symlink_to(tmp_path / "elsewhere" / "other.yaml")
    (project / "fixtures" / "app.automock.json").write_text(
        _plan(cassette={"path": "fixtures/app.cassette.yaml", "record_mode": "none"})
    )
    done = _run(tmp_path / cwd, "run", str(project / "app.py"))
    assert token not in done.stdout + done.stderr, done.stdout
    _one_line_error(done, 3, "app.cassette.yaml", "project")
