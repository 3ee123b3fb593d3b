"""``automock run --record``: real traffic into a vcrpy cassette, then offline replay.

Every request goes to a JSON server the test starts on 127.0.0.1; the server
counts what reaches it, so a replay that touched the network would show.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from automock.cli import main
from automock.errors import EXIT_INPUT, EXIT_UNMOCKED
from automock.plan.io import is_hand_edited, load_plan

PROGRAM = """\
import sys
import requests

port = sys.argv[1]
name = sys.argv[2] if len(sys.argv) > 2 else "x"
print(requests.get(f"http://127.0.0.1:{port}/{name}", timeout=10).text)
"""
CASSETTE = Path("fixtures/prog.cassette.yaml")
PLAN = Path("fixtures/prog.automock.json")


class _Server:
    def __init__(self) -> None:
        self.paths: list[str] = []
        seen = self.paths

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                seen.append(self.path)
                body = json.dumps({"path": self.path, "served": len(seen)}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = str(self.httpd.server_address[1])


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server()
    thread = threading.Thread(target=srv.httpd.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


@pytest.fixture
def prog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["run", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow  # three sandboxed runs
def test_record_then_replay_offline_and_a_miss_fails_closed(
    server: _Server, prog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = prog.read_bytes()
    code, recorded, err = _run(capsys, "prog.py", "--record", "--", server.port)
    assert code == 0, err
    assert server.paths == ["/x"]
    assert json.loads(recorded) == {"path": "/x", "served": 1}
    assert CASSETTE.is_file()
    assert f"uri: http://127.0.0.1:{server.port}/x" in CASSETTE.read_text()
    assert "off because of --record" in err
    plan = load_plan(PLAN)  # the generated plan now replays the cassette
    assert plan.cassette is not None
    assert (plan.cassette.path, plan.cassette.record_mode) == (str(CASSETTE), "none")
    assert not plan.http_stubs() and not is_hand_edited(PLAN)
    assert prog.read_bytes() == source

    code, replayed, err = _run(capsys, "prog.py", "--", server.port)
    assert code == 0, err
    assert replayed == recorded
    assert server.paths == ["/x"]  # nothing reached the server
    assert "new network namespace" in err

    code, out, err = _run(capsys, "prog.py", "--", server.port, "y")
    url = f"http://127.0.0.1:{server.port}/y"
    assert code == EXIT_UNMOCKED and out == "", err
    assert f"GET {url}" in err and "is not in cassette" in err
    assert f"{CASSETTE} has no recording of GET {url}" in err
    assert server.paths == ["/x"]
    assert prog.read_bytes() == source


@pytest.mark.slow  # three sandboxed runs
def test_record_json_and_new_episodes_add_to_the_cassette(
    server: _Server, prog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", "prog.py", "--record", "--json", "--", server.port])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["automock_exit_code"] == 0
    record = report["record"]
    assert record["cassette"] == str(CASSETTE) and record["record_mode"] == "once"
    assert record["written"] is True and record["interactions"] == 1
    assert record["plan"] == str(PLAN) and record["plan_updated"] is True
    network = next(layer for layer in report["layers"] if layer["name"] == "network")
    assert network["active"] is False and "--record" in network["detail"]
    recorded = [a for a in report["accesses"] if a["kind"] == "network"]
    assert [(a["target"], a["mocked"]) for a in recorded] == [
        (f"GET http://127.0.0.1:{server.port}/x", False)
    ]

    argv = ["prog.py", "--record", "--record-mode", "new_episodes", "--", server.port, "y"]
    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    assert server.paths == ["/x", "/y"]
    assert "2 HTTP interaction(s) recorded" in err
    for name, served in (("x", 1), ("y", 2)):  # both replay offline now
        code, out, err = _run(capsys, "prog.py", "--", server.port, name)
        assert code == 0, err
        assert json.loads(out) == {"path": f"/{name}", "served": served}
    assert server.paths == ["/x", "/y"]


def test_hand_edited_plan_is_left_alone_with_a_note(
    server: _Server, prog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    PLAN.parent.mkdir()
    PLAN.write_text('{"automock": 1, "network": "deny", "seed": 3}\n')
    before = PLAN.read_bytes()
    code, out, err = _run(capsys, "prog.py", "--record", "--", server.port)
    assert code == 0, err
    assert server.paths == ["/x"] and CASSETTE.is_file()
    assert json.loads(out)["path"] == "/x"
    assert PLAN.read_bytes() == before
    wanted = '"cassette": {"path": "fixtures/prog.cassette.yaml", "record_mode": "none"}'
    notes = [line for line in err.splitlines() if "edited by hand" in line]
    assert len(notes) == 1 and wanted in notes[0], err


def test_record_mode_needs_record_and_a_known_mode(
    prog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "prog.py", "--record-mode", "all", "--", "1")
    assert code == EXIT_INPUT and out == "" and "add --record" in err
    code, out, err = _run(capsys, "prog.py", "--record", "--record-mode", "none", "--", "1")
    assert code == EXIT_INPUT and out == "" and "'new_episodes'" in err
    assert not CASSETTE.exists() and not PLAN.exists()
