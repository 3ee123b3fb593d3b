"""The plugin's network for test authors: inline stubs, allowed hosts, respx/responses, cassettes.

Driven through ``pytester``; the only real traffic is to HTTP servers the inner tests start
on 127.0.0.1.
"""

from __future__ import annotations

import importlib.metadata
import json
import textwrap
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module", autouse=True)
def _warm_modules() -> None:
    """Import the libraries and the runtime once out here: ``runpytest`` restores
    ``sys.modules`` after each inner session, and a module first imported inside one would
    be a second copy in the next (see tests/integration/test_pytest_plugin.py)."""
    import http.server  # noqa: F401
    import urllib.request  # noqa: F401

    import httpx  # noqa: F401
    import requests  # noqa: F401
    import responses  # noqa: F401
    import respx  # noqa: F401

    import automock
    from automock.plan.model import Plan
    from automock.runtime import deterministic

    with deterministic(Plan(), seed=0, allow_hosts=["127.0.0.1"]):
        assert automock.http.calls == []


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    installed = any(
        ep.value == "automock.pytest_plugin"
        for ep in importlib.metadata.entry_points(group="pytest11")
    )
    plugin = [] if installed else ["-p", "automock.pytest_plugin"]
    options = ["-o", "asyncio_default_fixture_loop_scope=function", "-p", "no:randomly"]
    return pytester.runpytest(*options, *plugin, *args)


SERVER = """
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def local_server():
    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()
"""


def test_inline_stubs_through_the_fixture_and_the_module(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import httpx
        import pytest
        import requests
        import urllib.request

        import automock as am

        def test_fixture(automock):
            automock.http.get("https://api.test/user", json={"name": "Ada"}, headers={"X-Id": "7"})
            automock.http.add("DELETE", "https://api.test/user", status=204)
            response = requests.get("https://api.test/user")
            assert response.json() == {"name": "Ada"} and response.headers["X-Id"] == "7"
            assert httpx.delete("https://api.test/user").status_code == 204
            assert [(c.method, c.url, c.status) for c in automock.http.calls] == [
                ("GET", "https://api.test/user", 200),
                ("DELETE", "https://api.test/user", 204),
            ]

        @pytest.mark.automock
        def test_marker():
            am.http.post("https://api.test/items", status=201, body="made", match="exact")
            with urllib.request.urlopen(urllib.request.Request("https://api.test/items", method="POST")) as r:
                assert (r.status, r.read()) == (201, b"made")
            with pytest.raises(am.UnmockedAccessError, match="https://api.test/items/1"):
                requests.post("https://api.test/items/1")  # exact: no prefix match
            assert len(am.http.calls) == 1

        STUB = {"method": "GET", "url": "https://api.test/", "json": "plan"}
        ENTRY = {"line": 1, "col": 0, "kind": "network", "api": "requests.get", "strategy": "stub_http", "data": STUB}

        @pytest.mark.automock(plan={"automock": 1, "entries": [ENTRY]})
        def test_inline_stub_comes_before_the_plans(automock):
            assert requests.get("https://api.test/a").json() == "plan"
            automock.http.get("https://api.test/a", json="inline")
            assert requests.get("https://api.test/a").json() == "inline"

        def test_outside_a_block_is_a_clear_error():
            with pytest.raises(am.InputError, match="no automock network is active"):
                am.http.get("https://api.test/x", json={})

        @pytest.mark.automock
        def test_bad_arguments_are_named():
            with pytest.raises(am.InputError, match="json= or body="):
                am.http.get("https://api.test/x", json={}, body="x")
            with pytest.raises(am.InputError, match="unknown keyword 'jsn'"):
                am.http.get("https://api.test/x", jsn={})
            with pytest.raises(am.PlanError, match="status"):
                am.http.get("https://api.test/x", status=99)
        """
    )
    result = _run(pytester)
    result.assert_outcomes(passed=5)


def test_allow_hosts_lets_a_local_server_through_and_nothing_else(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(SERVER)
    pytester.makepyfile(
        """
        import json
        import urllib.request

        import httpx
        import pytest
        import requests

        import automock

        @pytest.mark.automock(allow_hosts=["127.0.0.1", "localhost"])
        def test_local(local_server):
            base = f"http://127.0.0.1:{local_server}"
            assert requests.get(f"{base}/a").json() == {"path": "/a"}
            assert httpx.get(f"{base}/b").json() == {"path": "/b"}
            with urllib.request.urlopen(f"http://localhost:{local_server}/c") as response:
                assert json.loads(response.read()) == {"path": "/c"}
            with pytest.raises(automock.UnmockedAccessError, match="example.com"):
                requests.get("http://example.com/")

        @pytest.mark.automock
        def test_refused_without_it(local_server):
            with pytest.raises(automock.UnmockedAccessError, match="127.0.0.1"):
                requests.get(f"http://127.0.0.1:{local_server}/a")

        @pytest.mark.automock(allow_hosts="127.0.0.1")
        def test_a_string_is_a_usage_error():
            pass
        """
    )
    result = _run(pytester)
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*allow_hosts: expected a list of hosts*"])


def test_respx_and_responses_answer_the_clients_they_mock(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import httpx
        import pytest
        import requests
        import responses
        import respx

        import automock

        @pytest.mark.automock
        def test_respx_context():
            with respx.mock:
                route = respx.get("https://api.test/x").respond(json={"via": "respx"})
                assert httpx.get("https://api.test/x").json() == {"via": "respx"}
                assert route.called

        @pytest.mark.automock
        @respx.mock
        def test_respx_decorator():
            respx.post("https://api.test/y").respond(201)
            assert httpx.post("https://api.test/y").status_code == 201

        def test_respx_fixture_before_automock(respx_mock, automock):
            respx_mock.get("https://api.test/z").respond(text="z")
            assert httpx.get("https://api.test/z").text == "z"

        @pytest.mark.automock
        @responses.activate
        def test_responses_decorator():
            responses.get("https://api.test/r", json={"via": "responses"})
            assert requests.get("https://api.test/r").json() == {"via": "responses"}

        @pytest.fixture
        def rsps():
            with responses.RequestsMock() as mock:
                yield mock

        def test_responses_started_before_automock(rsps, automock):
            rsps.get("https://api.test/s", json=1)
            assert requests.get("https://api.test/s").json() == 1

        @pytest.mark.automock
        def test_without_them_automock_refuses():
            with respx.mock:
                pass
            with pytest.raises(automock.UnmockedAccessError):
                httpx.get("https://api.test/x")
            with pytest.raises(automock.UnmockedAccessError):
                requests.get("https://api.test/r")
        """
    )
    result = _run(pytester)
    result.assert_outcomes(passed=6)


CASSETTE = """\
interactions:
- request:
    body: null
    headers: {}
    method: GET
    uri: https://api.test/taped
  response:
    body: {string: '{"taped": true}'}
    headers: {Content-Type: [application/json]}
    status: {code: 200, message: OK}
version: 1
"""


def test_a_plans_cassette_is_found_from_the_plan_not_the_cwd(pytester: pytest.Pytester) -> None:
    project = pytester.path / "project"
    (project / "fixtures").mkdir(parents=True)
    (project / "fixtures" / "api.cassette.yaml").write_text(CASSETTE)
    plan = {
        "automock": 1,
        "cassette": {"path": "fixtures/api.cassette.yaml", "record_mode": "none"},
    }
    (project / "fixtures" / "api.automock.json").write_text(json.dumps(plan))
    missing = {
        "automock": 1,
        "cassette": {"path": "fixtures/gone.cassette.yaml", "record_mode": "none"},
    }
    (project / "fixtures" / "gone.automock.json").write_text(json.dumps(missing))
    (project / "test_api.py").write_text(
        textwrap.dedent(
            """
            import pytest
            import requests

            @pytest.mark.automock(plan="fixtures/api.automock.json")
            def test_replayed():
                assert requests.get("https://api.test/taped").json() == {"taped": True}

            @pytest.mark.automock(plan="fixtures/gone.automock.json")
            def test_missing():
                pass
            """
        )
    )
    result = _run(pytester, str(project))  # the cwd is the project's parent
    result.assert_outcomes(passed=1, errors=1)
    gone = Path(project / "fixtures" / "gone.cassette.yaml")
    result.stdout.fnmatch_lines([f"*cassette {gone} not found (record it with*"])
    result.stdout.no_fnmatch_line("*no recording of*")
