"""A body the code reads only as text is drafted as JSON when the request talks JSON."""

from __future__ import annotations

import json
from textwrap import dedent

from automock.drafting.shapes import infer_shapes


def test_a_host_sent_a_json_payload_answers_with_json_even_where_printed_as_text() -> None:
    shapes = infer_shapes(
        dedent(
            """
            import requests
            API = "https://notes.example.com/v1"
            made = requests.post(API + "/notes", json={"text": "hello"})
            print(made.text)
            print(requests.get(API + "/notes").text)
            """
        )
    )
    assert len(shapes) == 2
    made, listed = sorted(shapes, key=lambda s: s.method != "POST")
    assert isinstance(made.json, dict) and isinstance(listed.json, list)  # one made, all listed
    for shape in shapes:
        assert shape.text is None and shape.json
        assert shape.headers["Content-Type"] == "application/json"
        json.dumps(shape.json)


def test_a_json_accept_header_on_a_session_makes_its_text_json() -> None:
    (shape,) = infer_shapes(
        dedent(
            """
            import asyncio
            import aiohttp

            async def main():
                headers = {"Accept": "application/json"}
                async with aiohttp.ClientSession(headers=headers) as session:
                    async with session.get("http://localhost:8080/status") as reply:
                        print(await reply.text())

            asyncio.run(main())
            """
        )
    )
    assert isinstance(shape.json, dict) and shape.json and shape.text is None


def test_a_text_body_with_no_sign_of_json_stays_text() -> None:
    (shape,) = infer_shapes(
        dedent(
            """
            import requests
            print(requests.get("https://example.com/motd.txt").text)
            """
        )
    )
    assert shape.json is None and isinstance(shape.text, str)
