"""Drafted values that fit what the code does with them across responses and requests.

A field tested equal to a literal holds it; a field named after another endpoint holds
its ids; a fully literal query is echoed; fixed positions and slices size arrays; a URL
name is the value assigned just above the call, however long its concatenation.
"""

from __future__ import annotations

from textwrap import dedent

from automock.drafting.shapes import HttpShape, infer_shapes


def only(source: str) -> HttpShape:
    shapes = infer_shapes(dedent(source))
    assert len(shapes) == 1, shapes
    return shapes[0]


def test_a_field_tested_equal_to_a_string_holds_it_in_the_first_item() -> None:
    shape = only(
        """
        import requests
        for animal in requests.get("https://zoo.example.com/animals").json()["animals"]:
            if animal["diet"] == "herbivore" and animal.get("status") != "error":
                print(animal["name"])
            if animal["state"] == "failed" or animal["code"] == "404":
                raise SystemExit(1)
        """
    )
    first, second = shape.json["animals"]
    assert first["diet"] == "herbivore" and second["diet"] != "herbivore"  # both branches
    assert first["state"] != "failed" and first["code"] != "404"  # failures: never drafted


def test_a_field_named_after_another_endpoint_holds_that_endpoint_s_ids() -> None:
    shapes = infer_shapes(
        dedent(
            """
            import requests
            API = "https://library.example.com/v1"
            names = {a["id"]: a["name"] for a in requests.get(API + "/writers").json()}
            for book in requests.get(API + "/books").json():
                print(book["title"], "by", names[book["writer"]])
            """
        )
    )
    authors, books = (s.json for s in shapes)
    ids = {a["id"] for a in authors}
    assert ids and all(book["writer"] in ids for book in books)


def test_a_json_array_read_at_a_fixed_position_has_that_many_items() -> None:
    shape = only(
        """
        import requests
        rows = requests.get("https://market.example.com/candles").json()
        print(float(rows[0][4]) - float(rows[0][1]))
        """
    )
    assert all(len(row) >= 5 for row in shape.json)


def test_a_url_concatenated_from_many_parts_keeps_its_host() -> None:
    shape = only(
        """
        import requests
        def candles(symbol, start):
            url = "https://market.example.com/v3/candles?pair=" + symbol + "EUR&step=1m" \\
                + "&from=" + str(start) + "000" + "&to=" + str(start + 60) + "000" \\
                + "&limit=" + str(1) + "&tz=" + "UTC"
            return requests.get(url).json()
        print(candles("BTC", 1)["close"])
        print(candles("ETH", 2)["close"])
        """
    )
    assert shape.url.startswith(r"^https://market\.example\.com/v3/candles")


def test_a_url_name_reassigned_in_a_loop_is_the_value_assigned_just_above_the_call() -> None:
    shapes = infer_shapes(
        dedent(
            """
            import requests
            url = "https://news.example.com/v1/top.json"
            for story in requests.get(url).json()[:2]:
                url = "https://news.example.com/v1/story/" + str(story) + ".json"
                print(requests.get(url).json()["headline"])
            """
        )
    )
    top, story = shapes
    assert top.url == "https://news.example.com/v1/top.json"
    assert "story" in story.url and story.json["headline"]


def test_literal_queries_to_one_path_get_a_stub_each_that_echoes_them() -> None:
    shapes = infer_shapes(
        dedent(
            """
            import requests
            eur = requests.get("https://fx.example.com/v1/rate?pair=EURUSD").json()
            gbp = requests.get("https://fx.example.com/v1/rate?pair=GBPUSD").json()
            print(eur["pair"], eur["rate"], gbp["pair"], gbp["rate"])
            """
        )
    )
    assert [(s.query, s.json["pair"]) for s in shapes] == [
        ({"pair": "EURUSD"}, "EURUSD"),
        ({"pair": "GBPUSD"}, "GBPUSD"),
    ]


def test_a_json_list_sliced_to_n_items_has_n_of_them() -> None:
    shape = only(
        """
        import requests
        for story in requests.get("https://news.example.com/top.json").json()[:4]:
            print(story)
        """
    )
    assert len(shape.json) == 4


def test_a_tree_walk_s_branch_value_is_not_drafted_to_match() -> None:
    shape = only(
        """
        import requests
        def walk(url, depth=0):
            for entry in requests.get(url).json():
                if entry["type"] == "dir":
                    walk(entry["path"], depth + 1)
                else:
                    print("  " * depth + entry["name"])
        walk("https://code.example.com/contents/")
        """
    )
    assert all(entry["type"] != "dir" for entry in shape.json)  # it would recurse for ever
