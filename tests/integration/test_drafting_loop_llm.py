"""The drafting loop with the model, through ``automock run --drafter llm``.

A stand-in for the Messages API listens on loopback (``ANTHROPIC_BASE_URL``), so the real
``anthropic`` SDK builds, sends and parses every request; its answers are the recorded
envelope of ``tests/fixtures/anthropic/tool_use_good.json`` with the plan the stand-in
chooses. Nothing leaves the machine; the sandboxed program never sees this server.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from automock.cli import main

pytest.importorskip("anthropic")

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "anthropic" / "tool_use_good.json"

# fails on every plan the rules can write: the code wants a status only a reader of it knows
STATUS = """\
import sys
import requests

data = requests.get("https://api.example.com/status").json()
if data["state"] != "ready":
    sys.exit(f"service not ready: {data['state']}")
print("ready")
"""

Policy = Callable[[dict[str, Any], int], list[dict[str, Any]]]


def _tried(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The entries of the plan the loop said it tried (its follow-up turn's tool_use)."""
    for message in reversed(request["messages"]):
        if message["role"] == "assistant":
            for block in message["content"]:
                if block.get("type") == "tool_use":
                    return list(block["input"]["entries"])
    return []


class StandIn:
    """Answers each Messages request with the recorded envelope and ``policy``'s entries."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.requests: list[dict[str, Any]] = []
        self.envelope = json.loads(RECORDED.read_text())

    def answer(self, request: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        self.requests.append(request)
        body = copy.deepcopy(self.envelope["body"])
        tool = next(b for b in body["content"] if b["type"] == "tool_use")
        tool["input"] = {"entries": self.policy(request, len(self.requests)), "properties": []}
        return self.envelope["status"], self.envelope["headers"], json.dumps(body).encode()


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Policy], StandIn]]:
    servers: list[ThreadingHTTPServer] = []

    def start(policy: Policy) -> StandIn:
        model = StandIn(policy)

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                status, headers, payload = model.answer(json.loads(self.rfile.read(size)))
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{server.server_port}")
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        return model

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AUTOMOCK_DRAFTER", raising=False)
    (tmp_path / "status.py").write_text(STATUS)
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, dict[str, Any]]:
    code = main(["run", "status.py", "--json", "--timeout", "20", *flags])
    return code, json.loads(capsys.readouterr().out)


def _said(request: dict[str, Any]) -> str:
    """The text of the request's last user turn (the loop's follow-up)."""
    content = request["messages"][-1]["content"]
    return json.dumps(content)


def test_a_model_that_never_improves_is_asked_a_bounded_number_of_times(
    here: Path, stand_in: Callable[[Policy], StandIn], capsys: pytest.CaptureFixture[str]
) -> None:
    model = stand_in(lambda request, n: _tried(request))  # the plan it was shown, unchanged
    code, report = _run(capsys, "--drafter", "llm")
    assert code == 1 and "service not ready" in report["stderr"]
    assert 2 <= len(model.requests) <= 5
    for request in model.requests[1:]:
        said = _said(request)
        assert "exit code 1" in said and "service not ready" in said
    assert report["drafting"]["kept"] == 0


def test_a_model_that_answers_well_after_seeing_the_failure_serves_the_run(
    here: Path, stand_in: Callable[[Policy], StandIn], capsys: pytest.CaptureFixture[str]
) -> None:
    def policy(request: dict[str, Any], n: int) -> list[dict[str, Any]]:
        entries = _tried(request)
        if n >= 2 and "service not ready" in _said(request):  # it read the failure
            for entry in entries:
                if entry["strategy"] == "stub_http":
                    entry["data"]["json"] = {"state": "ready"}
        return entries

    model = stand_in(policy)
    code, report = _run(capsys, "--drafter", "llm")
    assert code == 0 and report["stdout"] == "ready\n"
    assert len(model.requests) == 2
    saved = json.loads((here / "fixtures" / "status.automock.json").read_text())
    (stub,) = [e for e in saved["entries"] if e["strategy"] == "stub_http"]
    assert stub["provenance"]["drafter"] == "llm" and "/json" in stub["guessed"]


def test_a_key_in_the_environment_alone_never_calls_the_model(
    here: Path, stand_in: Callable[[Policy], StandIn], capsys: pytest.CaptureFixture[str]
) -> None:
    model = stand_in(lambda request, n: _tried(request))
    code, _ = _run(capsys)
    assert code == 1 and model.requests == []
