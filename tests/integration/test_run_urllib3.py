"""urllib3 used directly (``PoolManager().request``, ``urllib3.request``, a pool's ``urlopen``).

The scan and the draft always knew urllib3 as a network client, but the run served only
requests, httpx, aiohttp and http.client: a program calling urllib3 itself reached the
socket guard and died unmocked, whatever its plan said.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_json

PRICES = """\
import json
import urllib3

http = urllib3.PoolManager()
reply = http.request("GET", "https://prices.example.org/v1/quote", fields={"sym": "ABC"})
quote = json.loads(reply.data.decode("utf-8"))
print("status", reply.status, reply.headers["Content-Type"])
print("price", quote["price"])
again = urllib3.request("GET", "https://prices.example.org/v1/quote")
print("json", again.json()["price"])
pool = urllib3.HTTPSConnectionPool("prices.example.org")
print("pool", pool.urlopen("GET", "/v1/quote").json()["price"])
"""

PLAN = {
    "automock": 2,
    "entries": [
        {
            "module": "prices.py",
            "line": 5,
            "col": 8,
            "kind": "network",
            "api": "urllib3.PoolManager",
            "strategy": "stub_http",
            "data": {
                "method": "GET",
                "url": "https://prices.example.org/v1/quote",
                "match": "prefix",
                "status": 200,
                "headers": {},
                "json": {"price": 41.5},
            },
        },
        {
            "module": "prices.py",
            "line": 5,
            "col": 8,
            "kind": "network",
            "api": "urllib3.PoolManager",
            "strategy": "stub_http",
            "data": {
                "method": "GET",
                "url": "https://old.example.org/moved",
                "match": "exact",
                "status": 301,
                "headers": {"Location": "https://prices.example.org/v1/quote"},
                "text": "",
            },
        },
    ],
}


def test_urllib3_requests_are_served_by_the_plans_stubs(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "prices.py").write_text(PRICES)
    (here / "plan.json").write_text(json.dumps(PLAN))
    code, report = run_json(capsys, "prices.py", "--plan", "plan.json", "--repeat", "2")
    assert code == 0, report.get("error")
    assert report["stdout"].splitlines() == [
        "status 200 application/json",
        "price 41.5",
        "json 41.5",
        "pool 41.5",
    ]
    served = [a for a in report["accesses"] if a["kind"] == "network"]
    assert {a["api"] for a in served} == {"urllib3"} and all(a["mocked"] for a in served)


def test_a_redirect_stub_is_followed_by_the_pool_manager(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "moved.py").write_text(
        "import urllib3\n"
        "reply = urllib3.PoolManager().request('GET', 'https://old.example.org/moved')\n"
        "print(reply.status, reply.json()['price'], reply.geturl())\n"
    )
    plan = {**PLAN, "entries": [{**e, "module": "moved.py"} for e in PLAN["entries"]]}
    (here / "plan.json").write_text(json.dumps(plan))
    code, report = run_json(capsys, "moved.py", "--plan", "plan.json")
    assert code == 0, report.get("error")
    assert report["stdout"] == "200 41.5 https://prices.example.org/v1/quote\n"


def test_a_drafted_plan_serves_a_program_calling_urllib3(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "prices.py").write_text(PRICES)
    code, report = run_json(capsys, "prices.py", "--repeat", "2")
    assert code == 0, report.get("error")
    assert report["stdout"].count("price ") == 1 and "pool " in report["stdout"]


def test_an_unstubbed_urllib3_request_is_refused_naming_the_fix(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "prices.py").write_text(PRICES)
    (here / "plan.json").write_text(json.dumps({**PLAN, "entries": PLAN["entries"][1:]}))
    code, report = run_json(capsys, "prices.py", "--plan", "plan.json")
    assert code != 0
    assert "urllib3 GET https://prices.example.org/v1/quote" in json.dumps(report)
    assert "stub_http" in json.dumps(report)


def test_an_unstubbed_request_is_urllib3s_own_error_to_a_fallback(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "fallback.py").write_text(
        "import urllib3\n"
        "try:\n"
        "    urllib3.request('GET', 'https://nowhere.example.org/x')\n"
        "except urllib3.exceptions.HTTPError as exc:\n"
        "    print('offline:', type(exc).__name__)\n"
    )
    (here / "plan.json").write_text(json.dumps({**PLAN, "entries": []}))
    code, report = run_json(capsys, "fallback.py", "--plan", "plan.json")
    assert (code, report["stdout"]) == (0, "offline: UnmockedAccessError\n")
    (refused,) = [a for a in report["accesses"] if a["kind"] == "network"]
    assert refused["api"] == "urllib3" and not refused["mocked"]  # the report still says it


TAPE = """\
interactions:
- request:
    body: null
    headers: {}
    method: GET
    uri: http://api.test/taped
  response:
    body: {string: 'from the tape'}
    headers: {}
    status: {code: 200, message: OK}
- request:
    body: null
    headers: {}
    method: GET
    uri: http://api.test/other
  response:
    body: {string: 'from the other tape'}
    headers: {}
    status: {code: 200, message: OK}
version: 1
"""


@pytest.mark.slow  # a cassette replayed under vcrpy in the sandbox
def test_cassette_requests_through_requests_and_urllib3_are_each_resolved_once(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "tape.yaml").write_text(TAPE)
    (here / "both.py").write_text(
        "import requests, urllib3\n"
        "print(requests.get('http://api.test/taped').text)\n"
        "print(urllib3.PoolManager().request('GET', 'http://api.test/other').data.decode())\n"
    )
    code, report = run_json(capsys, "both.py", "--cassette", "tape.yaml", "--no-save")
    assert code == 0, report.get("error")
    assert report["stdout"] == "from the tape\nfrom the other tape\n"
    network = [(a["api"], a["target"]) for a in report["accesses"] if a["kind"] == "network"]
    assert sorted(network) == [  # the request sent by requests is not urllib3's too
        ("requests", "GET http://api.test/taped"),
        ("urllib3", "GET http://api.test/other"),
    ]
