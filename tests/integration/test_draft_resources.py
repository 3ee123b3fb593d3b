"""Bodies printed whole whose URL names a common REST resource, through the CLI (single shot).

A body read only whole tells nothing of its fields, but ``/quotes``, ``/events`` or
``/posts/7`` name what it holds, and records of such resources carry much the same fields
everywhere: a quote its author and its text, an event its ``...Event`` type and the
repository it touched, a post its title, body and date, a user a username and an email.
A resource the vocabulary does not know keeps its generic record (an id and a name).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

QUOTES = """\
import pprint
import requests

pprint.pprint(requests.get("https://sayings.example.net/v2/quotes").json())
"""

EVENTS = """\
import asyncio
import aiohttp


async def main():
    async with aiohttp.ClientSession() as session:
        async with session.get("https://api.hub.example.dev/feed/events") as resp:
            print(await resp.text())

asyncio.run(main())
"""

POSTS_AND_USERS = """\
import json
from urllib.request import urlopen

print(json.loads(urlopen("http://127.0.0.1:9000/posts/7").read()))
print(json.loads(urlopen("http://127.0.0.1:9000/users").read()))
print(json.loads(urlopen("http://127.0.0.1:9000/gadgets").read()))
"""


def test_quotes_printed_whole_have_an_author_and_a_sentence(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "quotes.py", QUOTES)
    assert code == 0, report["stderr"]
    assert re.search(r"'author': '[A-Z][a-z]+ [A-Z][a-z]+'", report["stdout"])
    assert re.search(r"'body': '\S+( \S+){3,}'", report["stdout"])


def test_events_printed_whole_have_a_type_and_a_repository(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "events.py", EVENTS)
    assert code == 0, report["stderr"]
    assert re.search(r'"type": "[A-Z][a-z]+Event"', report["stdout"])
    assert re.search(r'"repo": \{[^{}]*"name": "[\w-]+/[\w-]+"', report["stdout"])


def test_posts_and_users_have_their_usual_fields_other_nouns_a_name(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "blog.py", POSTS_AND_USERS)
    assert code == 0, report["stderr"]
    post, users, gadgets = report["stdout"].splitlines()
    assert re.search(r"'body': '\S+( \S+){3,}'", post)
    assert re.search(r"'created_at': '\d{4}-\d\d-\d\d", post)
    assert re.search(r"'username': '\w+'", users)
    assert re.search(r"'email': '[\w.]+@[\w.]+'", users)
    assert re.fullmatch(r"\[\{'id': 1, 'name': '\w+'\}, \{'id': 2, 'name': '\w+'\}\]", gadgets)


QUANTITIES = """\
import requests

data = requests.get("https://api.example.org/v1/fx/latest").json()
for q in data["quotes"]:
    print("mid", q["mid"], "close", q["close"])
print("Built in", data["year"])
print("Key", data["uuid"])
"""

FORECAST = """\
import xml.etree.ElementTree as ET
from urllib.request import urlopen

root = ET.fromstring(urlopen("https://wx.example.org/forecast.xml").read())
for day in root.iter("day"):
    print("low", day.find("tmn").text, "high", day.find("tmx").text)
t = root.find("temperature")
print("now", t.get("value"), t.get("unit"))
"""


def test_quotes_years_and_uuids_have_their_shape(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "fx.py", QUANTITIES)
    assert code == 0, report["stderr"]
    out = report["stdout"]
    assert re.search(r"^mid \d+\.\d+ close \d+\.\d+$", out, re.MULTILINE), out
    assert re.search(r"^Built in (19|20)\d\d$", out, re.MULTILINE), out
    assert re.search(r"^Key [0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$", out, re.MULTILINE), out


def test_a_forecasts_lows_and_highs_are_degrees_and_a_unit_a_word(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "forecast.py", FORECAST)
    assert code == 0, report["stderr"]
    out = report["stdout"]
    assert re.search(r"^low -?\d+ high -?\d+$", out, re.MULTILINE), out
    assert re.search(r"^now -?\d+(\.\d+)? [a-z]+$", out, re.MULTILINE), out


SCHEMELESS = """\
import requests
import bs4

page = requests.get("https://wiki.example.org/wiki/Lighthouses")
soup = bs4.BeautifulSoup(page.text, "html.parser")
for n, img in enumerate(soup.select(".thumbimage")):
    print(img["src"])
    data = requests.get("https:" + img["src"]).content
    with open(f"image_{n}.jpg", "wb") as f:
        f.write(data)
"""


def test_a_link_pasted_after_a_scheme_alone_is_protocol_relative(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "imgs.py", SCHEMELESS, "--draft-rounds", "3")
    assert code == 0, report["stderr"]
    lines = report["stdout"].splitlines()
    assert lines and all(re.fullmatch(r"//[\w.-]+\.\w+/\S+", line) for line in lines), lines


GLUED = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://wiki.example.org/wiki/Tides").text, "html.parser")
for item in soup.select(".toctext"):
    print(item.text)
for item in soup.select("div.cardtitle"):
    print(item.get_text())
"""


def test_a_class_named_text_or_title_glued_to_a_word_holds_words(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "toc.py", GLUED)
    assert code == 0, report["stderr"]
    lines = report["stdout"].splitlines()
    assert lines and all(re.fullmatch(r"[A-Z]\w*( \w+)+\.?", line) for line in lines), lines


POSTED = """\
import json
import urllib.request

payload = json.dumps({"note": "hello"}).encode("utf8")
req = urllib.request.Request("http://127.0.0.1:8085/api/notes", payload)
req.add_header("Content-Type", "application/json")
with urllib.request.urlopen(req) as res:
    print(res.status, json.loads(res.read()))
"""


def test_a_request_object_carrying_data_is_drafted_as_a_post(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "post.py", POSTED)
    assert code == 0, report["stderr"]
    assert re.match(r"20[01] \{'id': 1", report["stdout"]), report["stdout"]


RATED = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://films.example.org/chart/best").text, "html.parser")
for row in soup.find("tbody", {"class": "chart-rows"}).find_all("tr"):
    name = row.find("td", {"class": "filmTitle"}).find("a").string
    rating = row.find("td", {"class": "scoreCell"}).find("strong").string
    print(f"{name}: {rating}")
"""


def test_a_rating_shown_on_a_page_is_a_score_with_one_decimal(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "chart.py", RATED)
    assert code == 0, report["stderr"]
    lines = report["stdout"].splitlines()
    assert lines and all(re.fullmatch(r"\S.*: \d\.\d", line) for line in lines), lines


HOURLY = """\
import time
import requests


def now_temperature(url, hour=time.gmtime().tm_hour):
    series = requests.get(url).json()["hourly"]["temp"]
    return series[hour]


print("now:", now_temperature("https://api.example.org/v1/hourly?lat=1&lon=2"))
"""


def test_a_series_indexed_by_an_hour_is_a_list(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "hourly.py", HOURLY)
    assert code == 0, report["stderr"]
    assert re.fullmatch(r"now: -?\d+(\.\d+)?\n", report["stdout"]), report["stdout"]
