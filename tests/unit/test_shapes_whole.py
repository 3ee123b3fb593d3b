"""Bodies the code reads whole or through another call (http.client), and shared requests."""

from __future__ import annotations

from textwrap import dedent

from automock.drafting.shapes import infer_shapes


def test_a_body_printed_whole_is_drafted_as_an_object() -> None:
    (shape,) = infer_shapes(
        dedent(
            """
            import httpx
            response = httpx.get("https://api.example.com/todos/1")
            print(response.status_code)
            print(response.json())
            """
        )
    )
    assert isinstance(shape.json, dict) and shape.json
    assert all(f"/json/{key}" in shape.guessed for key in shape.json)


def test_a_body_used_as_a_number_stays_a_number() -> None:
    (shape,) = infer_shapes(
        dedent(
            """
            import requests
            price = requests.get("https://api.example.com/price").json()
            print(f"{price:.2f}")
            """
        )
    )
    assert isinstance(shape.json, int | float) and not isinstance(shape.json, bool)


def test_a_retried_request_shares_the_body_read_at_the_other_call() -> None:
    shapes = infer_shapes(
        dedent(
            """
            import requests

            def ask(query):
                r = requests.post("https://api.example.com/graphql", json={"query": query})
                while r.status_code == 502:
                    r = requests.post("https://api.example.com/graphql", json={"query": query})
                return r.json()

            result = ask("{ viewer { login } }")
            print(result["data"]["viewer"]["login"])
            """
        )
    )
    assert len(shapes) == 2
    assert [s.json for s in shapes] == [shapes[1].json] * 2
    assert isinstance(shapes[0].json["data"]["viewer"]["login"], str)


def test_http_client_response_is_the_request_last_sent_on_the_connection() -> None:
    (shape,) = infer_shapes(
        dedent(
            """
            import http.client
            import json

            conn = http.client.HTTPSConnection("api.example.com")
            conn.request("GET", "/users", "", {"Accept": "application/json"})
            body = conn.getresponse().read().decode()
            for user in json.loads(body):
                print(user["email"])
            """
        )
    )
    assert isinstance(shape.json, list) and shape.json
    assert all(isinstance(u["email"], str) for u in shape.json)


def test_data_round_tripped_through_json_keeps_its_place_in_the_body() -> None:
    (shape,) = infer_shapes(
        dedent(
            """
            import json
            import requests

            books = requests.get("https://api.example.com/volumes?q=x").json()
            items = json.loads(json.dumps(books["items"]))
            print(items[0]["volumeInfo"]["title"])
            """
        )
    )
    assert isinstance(shape.json["items"][0]["volumeInfo"]["title"], str)


def test_a_total_of_something_is_drafted_as_a_count() -> None:
    (shape,) = infer_shapes(
        dedent(
            """
            import requests
            books = requests.get("https://api.example.com/volumes?q=x").json()
            print(books["totalItems"], books["total_price"], books["num_pages"])
            """
        )
    )
    assert type(shape.json["totalItems"]) is int
    assert type(shape.json["num_pages"]) is int
    assert type(shape.json["total_price"]) is float
