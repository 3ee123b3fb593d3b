"""How a request finds its stub: canonical URLs, segment-bounded prefixes, the most
specific stub, request matchers and response sequences, through real clients."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from importlib import resources

import httpx
import pytest
import requests

from automock.errors import UnmockedAccessError
from automock.plan.model import HttpStub, Plan
from automock.runtime.events import recording
from automock.runtime.http import mocked_network

API = "https://api.example.com"


def stub(url: str, match: str = "prefix", method: str = "GET", **data: object) -> HttpStub:
    return HttpStub.from_dict({"method": method, "url": url, "match": match, **data}, "stub")


def refused(call: object) -> str:
    with pytest.raises(UnmockedAccessError) as info:
        call()  # type: ignore[operator]
    return str(info.value)


# -- the URL as the client sends it ----------------------------------------------
def test_encoding_port_case_fragment_and_query_order_do_not_matter() -> None:
    stubs = [
        stub("HTTPS://API.Example.com:443/search?q=New York&lang=en", "exact", json={"hit": 1}),
        stub(f"{API}/wiki/Café", json={"page": "cafe"}),
        stub("http://plain.example.com:80/status", "exact", text="up"),
    ]
    with mocked_network(stubs):
        got = requests.get(f"{API}/search", params={"lang": "en", "q": "New York"})
        assert got.json() == {"hit": 1}
        assert httpx.get(f"{API}/search?lang=en&q=New%20York").json() == {"hit": 1}
        assert httpx.get(f"{API}/wiki/Caf%C3%A9/history").json() == {"page": "cafe"}
        with urllib.request.urlopen(f"{API}/wiki/Caf%C3%A9#section") as resp:
            assert json.load(resp) == {"page": "cafe"}
        assert requests.get("http://PLAIN.example.com/status").text == "up"
        # an exact stub wants exactly its query pairs
        assert "query lang=en != q=New York&lang=en" in refused(
            lambda: requests.get(f"{API}/search", params={"lang": "en"})
        )


def test_prefix_respects_path_segments() -> None:
    with mocked_network([stub(f"{API}/repos/x", json={"name": "x"})]):
        assert requests.get(f"{API}/repos/x/releases/latest").json() == {"name": "x"}
        assert requests.get(f"{API}/repos/x", params={"per_page": 5}).json() == {"name": "x"}
        assert httpx.get(f"{API}/repos/x/").json() == {"name": "x"}
        message = refused(lambda: requests.get(f"{API}/repos/x-y"))
    assert "path /repos/x-y not under /repos/x" in message


def test_query_in_a_prefix_url_and_regexes_on_the_decoded_url() -> None:
    stubs = [
        stub(f"{API}/search?q=", json="any q"),  # as drafted from f"{API}/search?q={q}"
        stub(r"^https://api\.example\.com/wiki/Café$", "regex", json="cafe"),
    ]
    with mocked_network(stubs):
        assert requests.get(f"{API}/search", params={"page": 2, "q": "x y"}).json() == "any q"
        assert httpx.get(f"{API}/wiki/Caf%C3%A9").json() == "cafe"
        assert "query param q missing" in refused(lambda: requests.get(f"{API}/search?page=2"))


# -- the most specific stub wins -------------------------------------------------
def test_most_specific_stub_wins_whatever_the_plan_order() -> None:
    stubs = [
        stub(".*", "regex", method="*", json="catch-all"),
        stub(r"^https://api\.example\.com/users/[^/]+/tags", "regex", json="tags"),
        stub(f"{API}/repos/", json="repos"),
        stub(f"{API}/repos/x", json="repo x"),
        stub(f"{API}/repos/x/releases/latest", "exact", json="latest"),
        stub(f"{API}/repos/x", query={"page": "2"}, json="repo x page 2"),
    ]
    served = {
        f"{API}/repos/x/releases/latest": "latest",
        f"{API}/repos/x/releases": "repo x",
        f"{API}/repos/x?page=2": "repo x page 2",
        f"{API}/repos/y": "repos",
        f"{API}/repos/y/tags": "repos",  # a prefix beats any regex
        f"{API}/users/z/tags": "tags",  # the regex with the longer literal prefix
        f"{API}/users/z": "catch-all",
    }
    with recording() as log, mocked_network(stubs):
        for url, body in served.items():
            assert requests.get(url).json() == body, url
    by_target = {a.target: a.served_by for a in log.accesses}
    assert by_target[f"GET {API}/repos/x?page=2"].startswith("stub #6 (GET prefix ")
    assert "query page=2" in by_target[f"GET {API}/repos/x?page=2"]
    assert by_target[f"GET {API}/users/z"] == "stub #1 (* regex .*)"


def test_ties_keep_plan_order_and_a_named_method_beats_any() -> None:
    stubs = [
        stub(f"{API}/v1", method="*", json="any"),
        stub(f"{API}/v1", json="first"),
        stub(f"{API}/v1", json="second"),
    ]
    with mocked_network(stubs):
        assert requests.get(f"{API}/v1/a").json() == "first"
        assert requests.delete(f"{API}/v1/a").json() == "any"


# -- request matchers ------------------------------------------------------------
def test_query_header_and_body_matchers_pick_the_stub() -> None:
    stubs = [
        stub(f"{API}/weather", json={"temp": 0}),
        stub(f"{API}/weather", query={"city": "Oslo"}, json={"temp": 4}),
        stub(f"{API}/weather", query={"city": "Lima"}, json={"temp": 19}),
        stub(f"{API}/me", request_headers={"x-api-key": "k1"}, json={"user": 1}),
        stub(f"{API}/orders", "exact", "POST", body_json={"sku": "a"}, status=201, text="a"),
        stub(f"{API}/orders", "exact", "POST", body_json={"sku": "b"}, status=201, text="b"),
    ]
    with mocked_network(stubs):
        assert requests.get(f"{API}/weather", params={"city": "Oslo"}).json() == {"temp": 4}
        assert httpx.get(f"{API}/weather?units=si&city=Lima").json() == {"temp": 19}
        assert requests.get(f"{API}/weather", params={"city": "Rome"}).json() == {"temp": 0}
        assert requests.get(f"{API}/me", headers={"X-API-Key": "k1"}).json() == {"user": 1}
        assert httpx.post(f"{API}/orders", json={"sku": "b"}).text == "b"
        request = urllib.request.Request(
            f"{API}/orders", data=b'{"sku": "a"}', headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request) as resp:
            assert (resp.status, resp.read()) == (201, b"a")
        assert "header x-api-key: 'k2' (wants 'k1')" in refused(
            lambda: requests.get(f"{API}/me", headers={"X-Api-Key": "k2"})
        )
        message = refused(lambda: requests.post(f"{API}/orders", json={"sku": "c"}))
    assert 'body {"sku": "c"} != body_json {"sku": "a"}' in message


def test_aiohttp_requests_are_matched_on_query_headers_and_body() -> None:
    aiohttp = pytest.importorskip("aiohttp")
    stubs = [
        stub(f"{API}/q", query={"city": "Oslo"}, request_headers={"Accept": "x/y"}, json=1),
        stub(f"{API}/q", "prefix", "POST", body_json=[1, 2], json=2),
    ]

    async def main() -> list[object]:
        async with aiohttp.ClientSession(headers={"Accept": "x/y"}) as session:
            async with session.get(f"{API}/q", params={"city": "Oslo"}) as resp:
                first = await resp.json()
            second = await (await session.post(f"{API}/q", json=[1, 2])).json()
        return [first, second]

    with mocked_network(stubs):
        assert asyncio.run(main()) == [1, 2]


def test_sequences_are_served_in_order_the_last_repeats_per_session() -> None:
    job = stub(
        f"{API}/jobs/7",
        headers={"X-Job": "7"},
        sequence=[{"status": 202, "json": {"state": "queued"}}, {"json": {"state": "done"}}],
    )
    with recording() as log, mocked_network([job]):
        seen = [requests.get(f"{API}/jobs/7") for _ in range(3)]
        assert [(r.status_code, r.json()["state"]) for r in seen] == [
            (202, "queued"),
            (200, "done"),
            (200, "done"),
        ]
        assert seen[1].headers["X-Job"] == "7"  # items inherit the stub's status and headers
    with mocked_network([job]):
        assert httpx.get(f"{API}/jobs/7").status_code == 202  # a new session starts over
    assert {a.served_by[-15:] for a in log.accesses} == {"response 1 of 2", "response 2 of 2"}


# -- an unmatched request --------------------------------------------------------
def test_unmatched_request_lists_the_nearest_stubs_and_the_entry_to_add() -> None:
    stubs = [
        stub("https://elsewhere.example.org/weather"),
        *(stub(f"{API}/v{i}/other") for i in range(3)),
        stub(f"{API}/v2/weather", query={"city": "Oslo"}),
        stub(f"{API}/v2/weather", method="POST"),
        stub(f"{API}/v2/weather", request_headers={"Authorization": "Bearer t"}),
    ]
    with recording() as log, mocked_network(stubs):
        message = refused(lambda: requests.get(f"{API}/v2/weather?city=Rome#now"))
    nearest = message.split("nearest: ", 1)[1]
    assert nearest.index("stub #5") < nearest.index("stub #4") < nearest.index("stub #2")
    assert "stub #5 (GET prefix https://api.example.com/v2/weather, query city=Oslo" in nearest
    assert "query param city=Rome (wants city=Oslo)" in nearest
    assert "stub #6 (POST prefix https://api.example.com/v2/weather): method GET != POST" in nearest
    assert "header Authorization missing" in nearest
    assert "stub #1" not in nearest and "and 2 more" in nearest  # at most 5, other hosts last
    entry = {
        "method": "GET",
        "url": f"{API}/v2/weather",
        "match": "prefix",
        "query": {"city": "Rome"},
        "status": 200,
        "json": {},
    }
    (miss,) = log.unmocked
    assert miss.fix == (
        f"add a stub_http entry to the plan: {json.dumps(entry)}; nearest stub #5 (GET prefix"
        f" {API}/v2/weather, query city=Oslo): query param city=Rome (wants city=Oslo)"
    )
    with mocked_network([HttpStub.from_dict(entry, "fix")]):
        assert requests.get(f"{API}/v2/weather?city=Rome#now").json() == {}


# -- the plan side ---------------------------------------------------------------
def test_plan_labels_stubs_with_their_entries_and_old_stubs_load_unchanged() -> None:
    old = {"method": "GET", "url": f"{API}/x", "match": "prefix", "status": 200, "json": {}}
    plan = Plan.from_dict(
        {
            "automock": 1,
            "entries": [
                {"line": 3, "kind": "time", "api": "time.time", "strategy": "freeze"},
                {
                    "line": 9,
                    "kind": "network",
                    "api": "requests.get",
                    "strategy": "stub_http",
                    "data": old,
                },
            ],
        }
    )
    (only,) = plan.http_stubs()
    assert only.label == "entries[1], line 9"
    assert only.to_dict() == {**old, "headers": {}}
    assert Plan.from_dict(plan.to_dict()) == plan
    full = stub(
        f"{API}/x",
        query={"a": "1"},
        request_headers={"H": "v"},
        body_json=[1],
        sequence=[{"status": 500}, {"text": "ok"}],
    )
    assert HttpStub.from_dict(full.to_dict(), "again") == full


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"query": {"a": 1}}, "stub.query.a: expected a string"),
        ({"request_headers": ["x"]}, "stub.request_headers: expected an object of strings"),
        ({"sequence": {"status": 200}}, "stub.sequence: expected a list of responses"),
        ({"sequence": [{"status": 99}]}, "stub.sequence[0].status: expected an integer HTTP"),
        ({"sequence": [{"text": 1}]}, "stub.sequence[0].text: expected a string"),
        (
            {"sequence": [{}, {"body": "x"}]},
            "stub.sequence[1].body: unknown field; expected one of status",
        ),
    ],
)
def test_bad_matcher_fields_name_the_field(data: dict[str, object], needle: str) -> None:
    with pytest.raises(Exception, match=needle.replace("[", r"\[").replace("]", r"\]")):
        HttpStub.from_dict({"url": API, **data}, "stub")


def test_schema_accepts_the_matchers_and_rejects_malformed_ones() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("automock.plan").joinpath("schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)

    def plan(**data: object) -> dict[str, object]:
        entry = {"line": 1, "kind": "network", "api": "requests.get", "strategy": "stub_http"}
        return {"automock": 1, "entries": [{**entry, "data": {"url": API, **data}}]}

    good = plan(
        query={"city": "Oslo"},
        request_headers={"Accept": "application/json"},
        body_json={"a": [1]},
        sequence=[{"status": 202, "json": {}}, {"text": "done", "headers": {"X": "y"}}],
    )
    assert validator.is_valid(good)
    assert validator.is_valid(plan(json={}))  # an old stub
    for bad in (
        plan(query={"city": 1}),
        plan(request_headers=["Accept"]),
        plan(sequence={"status": 200}),
        plan(sequence=[{"status": 99}]),
        plan(sequence=[{"body": "x"}]),
    ):
        assert not validator.is_valid(bad), bad
    # what the schema accepts, the plan model loads
    assert Plan.from_dict(good).http_stubs()[0].sequence[1].text == "done"
