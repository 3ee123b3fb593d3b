"""Drafted text bodies for code that reads a response as text: line by line, one JSON
value a line, regexes (from a local name, on ``str(bytes)``, several on one text) and CSV
rows read by position. Each body is checked by what the code does with it."""

from __future__ import annotations

import csv
import json
import re
from textwrap import dedent

from automock.drafting.shapes import HttpShape, infer_shapes


def only(source: str) -> HttpShape:
    found = infer_shapes(dedent(source))
    assert len(found) == 1, found
    return found[0]


def test_a_response_iterated_line_by_line_gets_a_text_body() -> None:
    shape = only(
        """
        import urllib.request
        for line in urllib.request.urlopen("http://books.example/poem.txt"):
            print(line.decode().strip())
        """
    )
    assert shape.text and shape.text.strip()


def test_json_loads_on_each_line_gets_json_lines() -> None:
    shape = only(
        """
        import json, requests
        r = requests.get("https://events.example/stream", stream=True)
        for line in r.iter_lines(decode_unicode=True):
            event = json.loads(line)
            print(event["kind"], event["at"])
        """
    )
    assert shape.text is not None and shape.json is None
    rows = [json.loads(line) for line in shape.text.splitlines()]
    assert len(rows) >= 2 and all({"kind", "at"} <= set(row) for row in rows)


def test_a_pattern_held_in_a_local_name_shapes_the_text() -> None:
    shape = only(
        """
        import re, requests
        def main():
            content = requests.get("https://shop.example/orders").text
            pattern = '<li class="buyer">(.+?)</li>'
            for buyer in re.findall(pattern, content):
                print(buyer)
        main()
        """
    )
    assert shape.text and re.findall('<li class="buyer">(.+?)</li>', shape.text)


def test_a_regex_on_str_of_the_bytes_read_shapes_the_text() -> None:
    shape = only(
        """
        import re, urllib.request
        data = urllib.request.urlopen("https://blog.example/post").read()
        for para in re.findall('<p>(.*?)</p>', str(data)):
            print(para)
        """
    )
    assert shape.text and re.findall("<p>(.*?)</p>", str(shape.text.encode()))


def test_every_regex_searched_on_one_text_finds_something() -> None:
    shape = only(
        """
        import re
        from urllib.request import urlopen
        html = urlopen("https://site.example/page.html").read().decode("utf-8")
        print(re.findall(r"<title>(.+?)</title>", html)[0])
        print(re.findall(r"<h2>(.*?)</h2>", html, flags=re.DOTALL)[0])
        print(re.findall(r'src="(.*?)"', html))
        """
    )
    text = shape.text or ""
    for pattern in (r"<title>(.+?)</title>", r"<h2>(.*?)</h2>", r'src="(.*?)"'):
        assert re.findall(pattern, text, flags=re.DOTALL), pattern


def test_csv_rows_read_by_position_have_that_many_columns() -> None:
    shape = only(
        """
        import csv
        from urllib import request
        data = request.urlopen("https://stats.example/towns.csv").read().decode("latin1")
        for town in csv.reader(data.splitlines()):
            print(town[6], town[2])
        """
    )
    rows = list(csv.reader((shape.text or "").splitlines()))
    assert len(rows) >= 2 and all(len(row) >= 7 for row in rows)
