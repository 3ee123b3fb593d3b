"""Inline HTTP stubs as responses' users rely on them (issue 26), through ``automock.http``
inside ``automock.mocked_network()`` and, for what the plugin shows, in pytester sessions.

No request leaves the process: every URL is on ``.test`` hosts and served or refused by
the runtime.
"""

from __future__ import annotations

import asyncio
import re
import textwrap
import urllib.error
import urllib.request

import httpx
import pytest
import requests

import automock
from automock.errors import UnmockedAccessError

pytest_plugins = ["pytester"]

API = "https://api.test"


def test_a_url_added_again_is_served_in_turn_and_the_last_repeats() -> None:
    with automock.mocked_network():
        first = automock.http.get(f"{API}/token", json={"token": "a"})
        second = automock.http.get(f"{API}/token", json={"token": "b"}, status=201)
        got = [requests.get(f"{API}/token") for _ in range(4)]
        assert [r.json()["token"] for r in got] == ["a", "b", "b", "b"]
        assert [r.status_code for r in got] == [200, 201, 201, 201]
        assert (first.call_count, second.call_count) == (1, 3)
        assert [c.url for c in first.calls] == [f"{API}/token"]
        assert first.stub.url == f"{API}/token" and first.method == "GET"


def test_an_inline_sequence_is_served_in_order() -> None:
    with automock.mocked_network():
        automock.http.get(
            f"{API}/job", sequence=[{"json": {"state": "queued"}}, {"json": {"state": "done"}}]
        )
        states = [httpx.get(f"{API}/job").json()["state"] for _ in range(3)]
    assert states == ["queued", "done", "done"]


def test_assert_all_called_names_the_stubs_never_used() -> None:
    with automock.mocked_network():
        automock.http.get(f"{API}/used", json={})
        automock.http.post(f"{API}/never", json={})
        requests.get(f"{API}/used")
        with pytest.raises(
            AssertionError, match=r"never called: POST prefix https://api.test/never$"
        ):
            automock.http.assert_all_called()
        requests.post(f"{API}/never")
        automock.http.assert_all_called()


def test_a_callback_computes_the_response_from_the_request() -> None:
    def echo(request: object) -> tuple[int, dict[str, str], str]:
        assert isinstance(request, object)
        return 202, {"X-Method": request.method}, request.url  # type: ignore[attr-defined]

    with automock.mocked_network():
        stub = automock.http.add("*", f"{API}/echo", callback=echo)
        answer = requests.put(f"{API}/echo/7?x=1")
        assert (answer.status_code, answer.text) == (202, f"{API}/echo/7?x=1")
        assert answer.headers["X-Method"] == "PUT"
        automock.http.get(f"{API}/dict", callback=lambda request: {"status": 200, "json": [1]})
        assert httpx.get(f"{API}/dict").json() == [1]
        assert stub.call_count == 1


@pytest.mark.parametrize(
    ("raised", "caught"),
    [
        (requests.ConnectionError("refused"), requests.ConnectionError),
        (requests.Timeout, requests.Timeout),
    ],
)
def test_a_stub_can_raise_instead_of_answering(raised: object, caught: type[BaseException]) -> None:
    with automock.mocked_network():
        stub = automock.http.get(f"{API}/flaky", raises=raised)  # type: ignore[arg-type]
        with pytest.raises(caught):
            requests.get(f"{API}/flaky")
        assert stub.call_count == 1


def _urllib_get(url: str) -> None:
    urllib.request.urlopen(url)


@pytest.mark.parametrize(
    ("client", "failure", "expected"),
    [
        (requests.get, "connection", requests.ConnectionError),
        (requests.get, "timeout", requests.Timeout),
        (httpx.get, "connection", httpx.ConnectError),
        (httpx.get, "timeout", httpx.TimeoutException),
        (_urllib_get, "connection", urllib.error.URLError),
        (_urllib_get, "timeout", urllib.error.URLError),
    ],
)
def test_raises_connection_or_timeout_is_the_calling_clients_own_error(
    client: object, failure: str, expected: type[BaseException]
) -> None:
    with automock.mocked_network():
        automock.http.get(f"{API}/down", raises=failure)
        with pytest.raises(expected) as caught:
            client(f"{API}/down")  # type: ignore[operator]
        assert not isinstance(caught.value, UnmockedAccessError)  # a stub served it
        assert automock.http.calls == []  # raised, not answered


def test_raises_refuses_anything_but_an_exception_or_a_failure_name() -> None:
    refused = pytest.raises(automock.InputError, match="'connection' or 'timeout'")
    with automock.mocked_network(), refused:
        automock.http.get(f"{API}/down", raises="dns")


def _aiohttp_get(url: str) -> None:
    aiohttp = pytest.importorskip("aiohttp")

    async def fetch() -> None:
        async with aiohttp.ClientSession() as session:
            await session.get(url)

    asyncio.run(fetch())


@pytest.mark.parametrize(
    ("client", "own_error"),
    [
        (lambda url: requests.get(url), requests.ConnectionError),
        (lambda url: httpx.get(url), httpx.ConnectError),
        (lambda url: urllib.request.urlopen(url), urllib.error.URLError),
        (_aiohttp_get, "aiohttp.ClientConnectionError"),
    ],
    ids=["requests", "httpx", "urllib", "aiohttp"],
)
def test_an_unmatched_request_is_also_the_clients_own_connection_error(
    client: object, own_error: type[BaseException] | str
) -> None:
    if isinstance(own_error, str):
        own_error = getattr(pytest.importorskip("aiohttp"), own_error.split(".")[1])
    assert isinstance(own_error, type)
    with automock.mocked_network():
        with pytest.raises(own_error) as caught:
            client(f"{API}/missing")  # type: ignore[operator]
        assert isinstance(caught.value, UnmockedAccessError)
        assert "GET https://api.test/missing" in str(caught.value)
        with pytest.raises(UnmockedAccessError):
            client(f"{API}/missing")  # type: ignore[operator]


def test_any_three_digit_status_with_a_reason_phrase() -> None:
    with automock.mocked_network():
        automock.http.get(f"{API}/odd", status=799)
        automock.http.get(f"{API}/teapot", status=499)
        odd, teapot = requests.get(f"{API}/odd"), requests.get(f"{API}/teapot")
    assert (odd.status_code, odd.reason) == (799, "Unknown Status")
    assert (teapot.status_code, teapot.reason) == (499, "Client Error")


def test_a_compiled_pattern_is_a_regex_url_with_its_flags() -> None:
    with automock.mocked_network():
        automock.http.get(re.compile(r"https://api\.test/ITEMS/\d+$", re.IGNORECASE), json={})
        assert requests.get(f"{API}/items/42").status_code == 200
        with pytest.raises(UnmockedAccessError):
            requests.get(f"{API}/items/x")


def test_content_type_none_sends_no_header_and_the_defaults_are_as_documented() -> None:
    with automock.mocked_network():
        automock.http.get(f"{API}/bare", body="plain", content_type=None)
        automock.http.get(f"{API}/text", body="plain")
        automock.http.get(f"{API}/json", json={"a": 1})
        assert "Content-Type" not in requests.get(f"{API}/bare").headers
        assert httpx.get(f"{API}/bare").headers.get("content-type") is None
        assert requests.get(f"{API}/text").headers["Content-Type"] == "text/plain; charset=utf-8"
        assert requests.get(f"{API}/json").headers["Content-Type"] == "application/json"


def _inner(pytester: pytest.Pytester, source: str) -> pytest.RunResult:
    pytester.makepyfile(test_inner=textwrap.dedent(source))
    return pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")


def test_a_failure_hides_automocks_frames_and_says_how_to_add_an_inline_stub(
    pytester: pytest.Pytester,
) -> None:
    result = _inner(
        pytester,
        """
        import requests

        def test_weather(automock):
            automock.http.get("https://api.test/forecast", json={"t": 1})
            requests.get("https://api.test/current?city=Oslo")
        """,
    )
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert (
        "add an inline stub: automock.http.get('https://api.test/current', query={'city': 'Oslo'}, json={})"
        in text
    )
    assert "def resolve(" not in text  # automock's own frames and files are hidden
    assert "automock/runtime/" not in text and "site-packages/requests/" in text


def test_the_fixture_carries_the_error_types(pytester: pytest.Pytester) -> None:
    result = _inner(
        pytester,
        """
        import pytest
        import requests

        def test_refused(automock):
            with pytest.raises(automock.UnmockedAccessError):
                requests.get("https://api.test/x")
            assert issubclass(automock.UnmockedAccessError, automock.AutomockError)
        """,
    )
    result.assert_outcomes(passed=1)
