"""Response-shape inference: how code reads an HTTP response decides the drafted body."""

from __future__ import annotations

import re
from datetime import datetime
from textwrap import dedent
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automock.drafting.shapes import HttpShape, infer_shapes


def only(source: str) -> HttpShape:
    shapes = infer_shapes(dedent(source))
    assert len(shapes) == 1, shapes
    return shapes[0]


def resolve(data: Any, pointer: str) -> Any:
    for token in pointer.lstrip("/").split("/") if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        data = data[int(token)] if isinstance(data, list) else data[token]
    return data


def test_chained_subscripts_build_nested_objects_and_lists() -> None:
    shape = only(
        """
        import requests
        r = requests.get("https://api.example.com/search")
        print(r.json()["items"][0]["name"])
        """
    )
    items = shape.json["items"]
    assert isinstance(items, list) and len(items) >= 1
    assert isinstance(items[0]["name"], str)


def test_get_with_typed_default_follows_the_default_type() -> None:
    shape = only(
        """
        import requests
        body = requests.get("https://api.example.com/stats").json()
        print(body.get("visits", 0) + 1, body.get("label", "none").upper(), body.get("ratio", 0.5))
        """
    )
    assert type(shape.json["visits"]) is int
    assert isinstance(shape.json["label"], str)
    assert type(shape.json["ratio"]) is float


def test_get_without_default_uses_the_key_name() -> None:
    shape = only(
        """
        import requests
        data = requests.get("https://w.example.com/now").json()
        print(data.get("temp"))
        """
    )
    assert type(shape.json["temp"]) is float


def test_iteration_makes_a_list_of_objects() -> None:
    shape = only(
        """
        import requests
        r = requests.get("https://api.example.com/users")
        for user in r.json()["users"]:
            print(user["id"], user["email"])
        """
    )
    users = shape.json["users"]
    assert len(users) == 2
    assert [type(u["id"]) for u in users] == [int, int]
    assert all("@" in u["email"] for u in users)


def test_status_code_only_needs_no_body() -> None:
    shape = only(
        """
        import requests
        r = requests.head("https://example.com/health")
        print(r.status_code == 200)
        """
    )
    assert shape.method == "HEAD"
    assert shape.status == 200
    assert shape.json is None and shape.text is None


def test_text_access_drafts_a_text_body() -> None:
    shape = only(
        """
        import requests
        r = requests.get("https://example.com/robots.txt")
        print(r.text.splitlines()[0])
        """
    )
    assert isinstance(shape.text, str) and shape.text
    assert "/text" in shape.guessed
    assert "text" in shape.stub_data() and "json" not in shape.stub_data()


def test_attribute_chain_through_simple_assignments() -> None:
    shape = only(
        """
        import requests
        r = requests.get("https://w.example.com/current")
        data = r.json()
        cur = data["current"]
        wind = cur["wind"]
        print(cur["temp"], wind["speed"], wind["direction"])
        """
    )
    current = shape.json["current"]
    assert type(current["temp"]) is float
    assert type(current["wind"]["speed"]) is float
    assert isinstance(current["wind"]["direction"], str)


def test_function_return_value_used_by_the_caller() -> None:
    shape = only(
        """
        import requests
        API = "https://api.weather.example.com/v1"

        def fetch_current(city):
            r = requests.get(f"{API}/current", params={"city": city})
            r.raise_for_status()
            return r.json()

        def main():
            data = fetch_current("Oslo")
            print(data["current"]["temp"], data["station"]["name"])
        """
    )
    assert shape.url == "https://api.weather.example.com/v1/current"
    assert shape.match == "prefix"
    assert type(shape.json["current"]["temp"]) is float
    assert isinstance(shape.json["station"]["name"], str)


def test_value_passed_to_a_function_parameter() -> None:
    shape = only(
        """
        import requests

        def show(payload):
            print(payload["title"], payload["created_at"])

        show(requests.get("https://api.example.com/post/1").json())
        """
    )
    assert isinstance(shape.json["title"], str)
    datetime.fromisoformat(shape.json["created_at"].replace("Z", "+00:00"))


def test_comprehension_and_sum_give_numbers() -> None:
    shape = only(
        """
        import requests
        orders = requests.get("https://shop.example.com/orders").json()["orders"]
        names = [o["customer"] for o in orders]
        print(names, sum(o["total"] for o in orders))
        """
    )
    orders = shape.json["orders"]
    assert all(isinstance(o["customer"], str) for o in orders)
    assert all(
        isinstance(o["total"], int | float) and not isinstance(o["total"], bool) for o in orders
    )


def test_min_with_a_key_lambda_and_next_over_a_generator() -> None:
    shape = only(
        """
        import requests
        API = "https://api.shop.example.com"

        def cheapest():
            items = requests.get(f"{API}/items").json()["items"]
            return min(items, key=lambda i: i["price"])

        item = cheapest()
        first = next(i for i in item["variants"] if i["in_stock"])
        print(f"{item['name']}: {item['price']:.2f}", first["sku"])
        """
    )
    item = shape.json["items"][0]
    assert type(item["price"]) is float and isinstance(item["name"], str)
    assert isinstance(item["variants"][0]["sku"], str)


def test_format_spec_decides_number_type() -> None:
    shape = only(
        """
        import requests
        d = requests.get("https://x.example.com/a").json()
        print(f"{d['label']:.2f} {d['other']:>5d}")
        """
    )
    assert type(shape.json["label"]) is float
    assert type(shape.json["other"]) is int


def test_enumerate_and_dict_items() -> None:
    shape = only(
        """
        import requests
        d = requests.get("https://x.example.com/b").json()
        for i, row in enumerate(d["rows"]):
            print(i, row["is_active"])
        for key, value in d["meta"].items():
            print(key, value["count"])
        """
    )
    assert all(type(r["is_active"]) is bool for r in shape.json["rows"])
    assert isinstance(shape.json["meta"], dict)
    (inner,) = shape.json["meta"].values()
    assert type(inner["count"]) is int


def test_json_loads_of_text_is_a_json_body() -> None:
    shape = only(
        """
        import json
        import urllib.request
        with urllib.request.urlopen("https://api.example.com/feed") as resp:
            feed = json.loads(resp.read())
        print(feed["url"])
        """
    )
    assert shape.method == "GET"
    assert shape.json["url"].startswith("https://")


def test_headers_are_drafted() -> None:
    shape = only(
        """
        import requests
        r = requests.get("https://api.example.com/limits")
        print(r.headers["X-RateLimit-Remaining"])
        """
    )
    assert "X-RateLimit-Remaining" in shape.headers
    assert "/headers/X-RateLimit-Remaining" in shape.guessed


def test_async_client_param_and_gather() -> None:
    shapes = infer_shapes(
        dedent(
            """
        import asyncio
        import httpx
        BASE = "https://api.code.example.com"

        async def fetch(client: httpx.AsyncClient, name: str) -> dict:
            resp = await client.get(f"{BASE}/repos/{name}")
            return resp.json()

        async def main():
            async with httpx.AsyncClient() as client:
                repos = await asyncio.gather(*(fetch(client, n) for n in ["a", "b"]))
            for repo in repos:
                print(repo["full_name"], repo["updated_at"])
            print(sum(r["stargazers_count"] for r in repos))
        """
        )
    )
    # the names reach fetch() from a literal list: one stub per repository
    assert [s.url for s in shapes] == [
        "https://api.code.example.com/repos/a",
        "https://api.code.example.com/repos/b",
    ]
    for shape in shapes:
        assert type(shape.json["stargazers_count"]) is int
        assert isinstance(shape.json["full_name"], str)


def test_post_through_a_session_variable() -> None:
    shapes = infer_shapes(
        dedent(
            """
            import requests
            s = requests.Session()
            resp = s.post("https://api.example.com/login", json={"u": 1})
            token = resp.json()["token"]
            """
        )
    )
    assert [(s.method, s.url) for s in shapes] == [("POST", "https://api.example.com/login")]
    assert isinstance(shapes[0].json["token"], str)


def test_unknown_middle_of_url_becomes_an_anchored_regex() -> None:
    shape = only(
        """
        import requests
        BASE = "https://api.example.com"
        def tags(repo):
            return requests.get(f"{BASE}/repos/{repo}/tags").json()
        """
    )
    assert shape.match == "regex"
    assert re.search(shape.url, "https://api.example.com/repos/octo/tags")
    assert not re.search(shape.url, "https://evil.example.com/repos/x/tags")


def test_unresolvable_url_is_a_guessed_catch_all() -> None:
    shape = only(
        """
        import requests
        def get(url):
            return requests.get(url).json()["x"]
        """
    )
    assert shape.match == "regex" and "/url" in shape.guessed


def test_dict_get_on_plain_dicts_is_not_an_http_call() -> None:
    shapes = infer_shapes(
        dedent(
            """
            config = {"a": 1}
            print(config.get("a"), {}.get("b"))
            """
        )
    )
    assert shapes == []


@pytest.mark.parametrize(
    "source",
    [
        'import requests\nd = requests.get("https://a.example.com").json()\nprint(d["a"]["b"][0]["c"], d["n"])',
        'import httpx\nr = httpx.get("https://a.example.com")\nfor x in r.json():\n    print(x["id"])',
    ],
)
def test_every_guessed_pointer_resolves_into_the_body(source: str) -> None:
    shape = only(source)
    data = shape.stub_data()
    assert shape.guessed
    for pointer in shape.guessed:
        resolve(data, pointer)


def test_drafts_are_reproducible() -> None:
    source = 'import requests\nd = requests.get("https://a.example.com").json()\nprint(d["temp"], d["id"])'
    assert infer_shapes(source) == infer_shapes(source)


# -- property: any consistent set of access chains is satisfied by the drafted body ---


KEYS = ("items", "name", "id", "temp", "created_at", "is_open", "url", "description", "meta", "n")
SEGMENT = st.one_of(
    st.tuples(st.just("key"), st.sampled_from(KEYS)),
    st.tuples(st.just("get"), st.sampled_from(KEYS)),
    st.tuples(st.just("index"), st.integers(0, 1)),
)


def _expr(chain: list[tuple[str, Any]]) -> str:
    out = "v"
    for kind, value in chain:
        out += f"[{value!r}]" if kind != "get" else f".get({value!r})"
    return out


def _signature(chain: list[tuple[str, Any]]) -> list[tuple[tuple[str, ...], str]]:
    """(path, container kind) for each step: used to reject contradictory chains."""
    steps, path = [], ()
    for kind, value in chain:
        steps.append((path, "list" if kind == "index" else "dict"))
        path = (*path, str(value) if kind != "index" else "[]")
    return steps


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(SEGMENT, min_size=1, max_size=4), min_size=1, max_size=4))
def test_drafted_body_satisfies_every_consistent_access(
    chains: list[list[tuple[str, Any]]],
) -> None:
    seen: dict[tuple[str, ...], str] = {}
    for chain in chains:
        for path, kind in _signature(chain):
            if seen.setdefault(path, kind) != kind:
                return  # contradictory uses (object here, list there): no body satisfies both
    lines = [_expr(chain) for chain in chains]
    source = "import requests\nv = requests.get('https://api.example.com/x').json()\n"
    source += "".join(f"print({line})\n" for line in lines)
    shape = only(source)
    for line in lines:
        eval(line, {"v": shape.json})  # raises KeyError/IndexError/TypeError on a wrong shape
