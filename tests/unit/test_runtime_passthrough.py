"""The Python API of the network's ways through: ``allow_hosts`` and inline stubs.

The only real traffic goes to a server this test starts on 127.0.0.1; refused hosts are
refused before any look-up or connection.
"""

from __future__ import annotations

import socket
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import requests

import automock
from automock.errors import UnmockedAccessError
from automock.runtime.http import mocked_network


class _Echo(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = self.path.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def port() -> Iterator[int]:
    server = HTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    yield server.server_port
    server.shutdown()
    server.server_close()


def test_allow_hosts_opens_only_those_hosts(port: int) -> None:
    with mocked_network(allow_hosts=["localhost"]):
        assert requests.get(f"http://127.0.0.1:{port}/a").text == "/a"
        with urllib.request.urlopen(f"http://localhost:{port}/b") as response:
            assert response.read() == b"/b"
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        with pytest.raises(UnmockedAccessError, match=r"example\.com"):
            socket.getaddrinfo("example.com", 80)
        with pytest.raises(UnmockedAccessError, match=r"example\.com"):
            requests.get("http://example.com/")
    with mocked_network(), pytest.raises(UnmockedAccessError, match=r"127\.0\.0\.1"):
        requests.get(f"http://127.0.0.1:{port}/a")


def test_a_stub_still_wins_over_an_allowed_host(port: int) -> None:
    with mocked_network(allow_hosts=["127.0.0.1"]):
        automock.http.get(f"http://127.0.0.1:{port}/stubbed", body="stub")
        assert requests.get(f"http://127.0.0.1:{port}/stubbed").text == "stub"
        assert requests.get(f"http://127.0.0.1:{port}/real").text == "/real"
        assert [c.url for c in automock.http.calls] == [f"http://127.0.0.1:{port}/stubbed"]


def test_inline_stubs_end_with_their_block() -> None:
    with automock.deterministic() as session:
        session.http.get("https://api.test/x", json=[1])
        assert requests.get("https://api.test/x").json() == [1]
    with automock.deterministic(), pytest.raises(UnmockedAccessError):
        requests.get("https://api.test/x")


def test_bad_allow_hosts_are_named() -> None:
    with pytest.raises(ValueError, match="expected a list of hosts"):
        mocked_network(allow_hosts="127.0.0.1")
    with pytest.raises(ValueError, match="expected host names or addresses"):
        automock.deterministic(allow_hosts=["127.0.0.1", ""])
