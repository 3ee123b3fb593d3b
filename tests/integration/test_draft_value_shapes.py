"""Drafted values of the shape the program prints or walks, through the CLI (single shot).

A body read only whole is a record of what its URL names (a list of them for a fetched
collection; one with a ``title`` for a document-like resource); a page printed whole is an
HTML document with a ``<title>``; ``next(iter(d.values()))`` needs an entry in ``d``;
``tr.next_siblings`` needs rows after the first; an element named for a price holds an
amount with a currency sign and cents; links sit beside the page; ``timestamp`` is seconds since the epoch and
``country_name`` a capitalised name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

FIRST_ENTRY = """\
import requests

reply = requests.get("https://api.example.com/v2/lookup", params={"q": "moon"}).json()
entry = next(iter(reply["results"]["byId"].values()))
print("summary:", entry["summary"])
"""


def test_the_first_value_of_an_object_is_drafted(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "lookup.py", FIRST_ENTRY)
    assert code == 0 and report["stdout"].startswith("summary: ")


SIBLINGS = """\
from urllib.request import urlopen

from bs4 import BeautifulSoup

page = BeautifulSoup(urlopen("https://shop.example.com/catalogue/stock.html"), "html.parser")
for row in page.find("table", {"id": "stock"}).tr.next_siblings:
    print(row)
"""


def test_the_rows_after_the_first_are_drafted(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "stock.py", SIBLINGS)
    assert code == 0 and len(re.findall(r"^<tr", report["stdout"], re.MULTILINE)) >= 2


PRICES_AND_LINKS = """\
import requests
from bs4 import BeautifulSoup

html = requests.get("https://shop.example.com/catalogue/index.html").text
soup = BeautifulSoup(html, "html.parser")
for card in soup.find_all("div", class_="card"):
    link = card.find("a")["href"]
    cost = card.find("span", class_="item-cost").get_text()
    print(link, cost)
"""


def test_an_element_named_for_a_price_holds_an_amount_and_links_sit_beside_the_page(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "shop.py", PRICES_AND_LINKS)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2
    assert all(re.fullmatch(r"/catalogue/\S+ \$\d+\.\d\d", line) for line in lines), lines


POSITION = """\
import json
from urllib.request import urlopen

where = json.loads(urlopen("https://geo.example.com/v1/position").read())
print("at", where["timestamp"])
print("in", where["country_name"])
"""


def test_a_timestamp_is_epoch_seconds_and_a_country_a_name(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "where.py", POSITION)
    assert code == 0
    assert re.search(r"^at \d{10}$", report["stdout"], re.MULTILINE)
    assert re.search(r"^in [A-Z][a-z]+$", report["stdout"], re.MULTILINE)


WHOLE = """\
import httpx

print(httpx.get("https://api.example.com/v1/articles/7").json())
print(httpx.get("https://api.example.com/v1/articles").json())
page = httpx.get("https://www.example.org/about")
print(page.text)
"""


def test_bodies_printed_whole_are_what_their_url_names(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "whole.py", WHOLE)
    one, many, *page = report["stdout"].splitlines()
    assert code == 0
    record = r"\{'id': %s, [^{}]*'title': '\w[\w ]*'[^{}]*\}"
    assert re.fullmatch(record % r"\d+", one), one
    assert re.fullmatch(rf"\[{record % '1'}, {record % '2'}\]", many), many
    assert re.search(r"<title>\w[\w ]*</title>", "\n".join(page))


GATHERED = """\
import asyncio

import aiohttp

ADDRESSES = ["https://api.example.com/v1/posts/1", "https://api.example.com/v1/posts/2"]


async def one(session, address):
    async with session.get(address) as reply:
        return await reply.json()


async def main():
    async with aiohttp.ClientSession() as session:
        for post in await asyncio.gather(*(one(session, a) for a in ADDRESSES)):
            print(post)


asyncio.run(main())
"""


def test_a_body_read_whole_at_a_url_known_only_at_run_time_is_what_the_url_names(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "gathered.py", GATHERED, "--draft-rounds", "3")
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2
    record = r"\{'id': \d+, [^{}]*'title': '\w[\w ]*'[^{}]*\}"
    assert all(re.fullmatch(record, line) for line in lines), lines


BOARD = """\
import requests

BOARD = requests.get("https://quotes.example.com/board.txt").text


def last(symbol):
    for block in BOARD.split("<Quote sym="):
        if symbol.lower() in block:
            return float(block.split("<Price>")[1].split("<")[0])


print("abc", last("ABC"))
print("xyz", last("XYZ"))
"""


def test_a_module_text_searched_in_a_helper_for_the_literal_it_is_passed_holds_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "board.py", BOARD)
    assert code == 0
    assert re.fullmatch(r"abc \d+\.\d+\nxyz \d+\.\d+\n", report["stdout"]), report["stdout"]


DECODED = """\
import requests
from requests import utils

text = utils.get_unicode_from_response(requests.get("https://status.example.com/now"))
print("uptime", text.split("Uptime:")[1].split()[0])
"""


def test_a_body_decoded_by_requests_utils_is_its_text(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "uptime.py", DECODED)
    assert code == 0 and re.fullmatch(r"uptime \S+\n", report["stdout"]), report["stdout"]


ECHO = """\
import requests

sign_up = {"handle": "kim", "plan": "basic"}
reply = requests.post("https://echo.example.com/anything", data=sign_up)
print("echoed:", reply.json()["form"])
"""


def test_an_echo_service_answers_with_the_form_it_was_sent(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "echo.py", ECHO)
    assert code == 0 and report["stdout"] == "echoed: {'handle': 'kim', 'plan': 'basic'}\n"
