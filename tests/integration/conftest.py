"""Fixtures shared by the integration tests."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

import pytest


@pytest.fixture
def loopback_server() -> Iterator[tuple[int, list[object]]]:
    """A TCP server on 127.0.0.1 that records the peer of every connection it accepts."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    accepted: list[object] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                conn, addr = server.accept()
                accepted.append(addr)
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join(2)
    server.close()
