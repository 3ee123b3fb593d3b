"""mocked_network: stubs served to every client, unplanned requests refused, nothing real."""

from __future__ import annotations

import asyncio
import http.server
import socket
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import httpx
import pytest
import requests

from automock.errors import UnmockedAccessError
from automock.plan.model import CassetteSettings, HttpStub
from automock.runtime.events import recording
from automock.runtime.http import mocked_network

API = "https://api.example.com/v1"
STUBS = (
    HttpStub(method="GET", url=f"{API}/items", json={"items": [1, 2, 3]}),
    HttpStub(method="POST", url=f"{API}/orders", match="exact", status=201, text="created"),
)


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def loopback() -> Iterator[tuple[str, list[str]]]:
    hits: ClassVar[list[str]] = []
    handler = type("Handler", (_Counter,), {"hits": hits})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


def test_stubs_served_to_requests_httpx_and_urllib() -> None:
    with recording() as log, mocked_network(STUBS):
        got = requests.get(f"{API}/items", params={"page": 2})
        assert got.status_code == 200
        assert got.json() == {"items": [1, 2, 3]}
        assert got.headers["content-type"] == "application/json"
        posted = requests.post(f"{API}/orders", json={"sku": "x"})
        assert (posted.status_code, posted.text) == (201, "created")
        assert httpx.get(f"{API}/items").json() == {"items": [1, 2, 3]}
        with httpx.Client() as client:
            assert client.post(f"{API}/orders").status_code == 201
        with urllib.request.urlopen(f"{API}/items/9") as resp:
            assert resp.status == 200
            assert resp.read() == b'{"items": [1, 2, 3]}'
    targets = {(a.api, a.target) for a in log.accesses}
    assert ("requests", f"GET {API}/items?page=2") in targets
    assert ("httpx", f"POST {API}/orders") in targets
    assert ("http.client", f"GET {API}/items/9") in targets
    assert all(a.mocked for a in log.accesses)


def test_stubs_served_to_async_httpx_and_aiohttp() -> None:
    aiohttp = pytest.importorskip("aiohttp")

    async def main() -> list[object]:
        async with httpx.AsyncClient() as client:
            first = (await client.get(f"{API}/items")).json()
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{API}/items", params={"q": "a"}) as resp:
                second = (resp.status, await resp.json(), await resp.text())
            posted = await session.post(f"{API}/orders")
            third = (posted.status, await posted.text())
        return [first, second, third]

    with mocked_network(STUBS):
        first, second, third = asyncio.run(main())
    assert first == {"items": [1, 2, 3]}
    assert second == (200, {"items": [1, 2, 3]}, '{"items": [1, 2, 3]}')
    assert third == (201, "created")


def test_aiohttp_content_streams_the_stubbed_body() -> None:
    """``resp.content`` (aiohttp's StreamReader) serves the stub: read whole, by line, in
    chunks, and by ``async for`` over lines, as programs that stream a body read it."""
    aiohttp = pytest.importorskip("aiohttp")
    stubs = (HttpStub(method="GET", url=f"{API}/log", text="one\ntwo\nthree"),)

    async def main() -> list[object]:
        out: list[object] = []
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{API}/log") as resp:
                out.append(await resp.content.read())
            async with session.get(f"{API}/log") as resp:
                out.append([await resp.content.readline(), await resp.content.read(3)])
            async with session.get(f"{API}/log") as resp:
                out.append([chunk async for chunk in resp.content.iter_chunked(5)])
            async with session.get(f"{API}/log") as resp:
                out.append([line async for line in resp.content])
        return out

    with mocked_network(stubs):
        whole, parts, chunks, lines = asyncio.run(main())
    assert whole == b"one\ntwo\nthree"
    assert parts == [b"one\n", b"two"]
    assert chunks == [b"one\nt", b"wo\nth", b"ree"]
    assert lines == [b"one\n", b"two\n", b"three"]


def test_a_text_body_is_sent_in_the_charset_its_content_type_names() -> None:
    """A page served as GBK or Latin-1 reaches the client as those bytes, as from a server:
    code that decodes the bytes itself, or lets the client read the header, gets the text."""
    aiohttp = pytest.importorskip("aiohttp")
    page = "天气 晴 Zürich"
    stubs = (
        HttpStub(
            method="GET",
            url=f"{API}/gbk",
            text=page,
            headers={"Content-Type": "text/html; charset=GBK"},
        ),
        HttpStub(method="GET", url=f"{API}/plain", text="Zürich"),
        HttpStub(
            method="GET",
            url=f"{API}/latin",
            text="Zürich €",
            headers={"Content-Type": "text/plain; charset=latin-1"},
        ),
    )

    async def with_aiohttp() -> str:
        async with aiohttp.ClientSession() as session, session.get(f"{API}/gbk") as resp:
            return await resp.text()

    with mocked_network(stubs):
        gbk = requests.get(f"{API}/gbk")
        plain = urllib.request.urlopen(f"{API}/plain").read()
        latin = requests.get(f"{API}/latin").content
        aio = asyncio.run(with_aiohttp())
    assert gbk.content == page.encode("gbk") and gbk.text == page
    assert plain == "Zürich".encode()  # no charset named: UTF-8
    assert latin == "Zürich ?".encode("latin-1")  # what Latin-1 cannot hold is replaced
    assert aio == page


def _message_for(call: object) -> UnmockedAccessError:
    with pytest.raises(UnmockedAccessError) as info:
        call()  # type: ignore[operator]
    return info.value


@pytest.mark.parametrize(
    ("client", "api"),
    [
        (lambda url: requests.get(url), "requests"),
        (lambda url: httpx.get(url), "httpx"),
        (lambda url: urllib.request.urlopen(url), "http.client"),
    ],
)
def test_unplanned_request_fails_closed_with_the_fix(client: object, api: str) -> None:
    url = "https://other.example.org/x/y"
    with recording() as log, mocked_network(STUBS):
        error = _message_for(lambda: client(url))  # type: ignore[operator]
    text = str(error)
    assert f"unmocked HTTP request GET {url} via {api}" in text
    assert 'add a stub_http entry to the plan: {"method": "GET", "url": "' + url in text
    assert f"stub #1 (GET prefix {API}/items): host https://other.example.org != " in text
    assert f"stub #2 (POST exact {API}/orders): method GET != POST; host" in text
    assert error.exit_code == 5
    (access,) = log.unmocked
    assert (access.kind, access.api, access.target) == ("network", api, f"GET {url}")
    assert access.fix.startswith("add a stub_http entry")


def test_unplanned_async_requests_fail_closed() -> None:
    aiohttp = pytest.importorskip("aiohttp")

    async def with_httpx() -> None:
        async with httpx.AsyncClient() as client:
            await client.delete("https://other.example.org/a")

    async def with_aiohttp() -> None:
        async with aiohttp.ClientSession() as session:
            await session.get("https://other.example.org/b")

    with recording() as log, mocked_network():
        for coro in (with_httpx, with_aiohttp):
            with pytest.raises(UnmockedAccessError, match="the plan has no HTTP stubs"):
                asyncio.run(coro())
    assert {a.api for a in log.unmocked} == {"httpx", "aiohttp"}


def test_no_connection_reaches_a_loopback_server(loopback: tuple[str, list[str]]) -> None:
    aiohttp = pytest.importorskip("aiohttp")
    base, hits = loopback
    host, port = base.removeprefix("http://").split(":")

    async def aio() -> None:
        async with aiohttp.ClientSession() as session:
            await session.get(base + "/aiohttp")

    attempts = [
        lambda: requests.get(base + "/requests"),
        lambda: httpx.get(base + "/httpx"),
        lambda: urllib.request.urlopen(base + "/urllib"),
        lambda: asyncio.run(aio()),
        lambda: socket.create_connection((host, int(port))),
        lambda: socket.socket().connect((host, int(port))),
    ]
    with recording() as log, mocked_network():
        for attempt in attempts:
            with pytest.raises(UnmockedAccessError):
                attempt()
    assert hits == []
    assert len(log.unmocked) >= 5
    # the server itself works: outside the block a request does reach it
    assert requests.get(base + "/after", timeout=5).text == "ok"
    assert hits == ["/after"]


def test_library_imported_inside_the_block_is_fail_closed(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        f"import sys; sys.path.insert(0, {str(Path.cwd())!r})\n"
        "from automock.runtime.http import mocked_network\n"
        "from automock.errors import UnmockedAccessError\n"
        "with mocked_network():\n"
        "    assert 'requests' not in sys.modules\n"
        "    import requests\n"
        "    try:\n"
        "        requests.get('https://late.example.com/')\n"
        "    except UnmockedAccessError as exc:\n"
        "        print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "unmocked HTTP request GET https://late.example.com/ via requests" in out.stdout


def test_allow_passes_unmatched_requests_through(loopback: tuple[str, list[str]]) -> None:
    base, hits = loopback
    with mocked_network(STUBS, allow=True):
        assert requests.get(base + "/real", timeout=5).text == "ok"
        assert requests.get(f"{API}/items").json() == {"items": [1, 2, 3]}
    assert hits == ["/real"]


def test_patches_are_removed_after_exit() -> None:
    send = requests.adapters.HTTPAdapter.send
    handle = httpx.HTTPTransport.handle_request
    connect = socket.socket.connect
    with mocked_network(STUBS):
        assert requests.adapters.HTTPAdapter.send is not send
    assert requests.adapters.HTTPAdapter.send is send
    assert httpx.HTTPTransport.handle_request is handle
    assert socket.socket.connect is connect


def test_decorator_forms() -> None:
    @mocked_network(STUBS)
    def sync_fetch() -> object:
        return requests.get(f"{API}/items").json()

    @mocked_network(STUBS)
    async def async_fetch() -> object:
        async with httpx.AsyncClient() as client:
            return (await client.get(f"{API}/items")).json()

    assert sync_fetch() == asyncio.run(async_fetch()) == {"items": [1, 2, 3]}


CASSETTE = """\
interactions:
- request:
    body: null
    headers: {}
    method: GET
    uri: https://recorded.example.com/v2/status
  response:
    status: {code: 200, message: OK}
    headers: {Content-Type: [application/json]}
    body: {string: '{"up": true}'}
version: 1
"""


def test_cassette_replay_and_fail_closed_miss(tmp_path: Path) -> None:
    path = tmp_path / "status.yaml"
    path.write_text(CASSETTE)
    before = path.read_text()
    url = "https://recorded.example.com/v2/status"
    with recording() as log, mocked_network(STUBS, cassette=CassetteSettings(str(path))):
        assert requests.get(url).json() == {"up": True}
        assert requests.get(url).json() == {"up": True}  # replays repeat
        assert httpx.get(url).json() == {"up": True}
        assert urllib.request.urlopen(url).read() == b'{"up": true}'
        assert requests.get(f"{API}/items").json() == {"items": [1, 2, 3]}  # stubs first
        for call in (
            lambda: requests.get(url + "/missing"),
            lambda: httpx.get(url + "/missing"),
            lambda: urllib.request.urlopen(url + "/missing"),
        ):
            with pytest.raises(UnmockedAccessError, match="is not in cassette"):
                call()
    assert path.read_text() == before
    assert {a.api for a in log.unmocked} == {"requests", "httpx", "http.client"}
