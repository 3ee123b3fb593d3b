"""Drafting for well-known public APIs, through the CLI: the shape a real endpoint answers.

Our own small programs whose code gives the drafter no sign of what is inside a body: it
is printed whole, read as text, iterated by key, or followed link by link. Before the
catalog of well-known APIs (``drafting/catalog.py``), each got a generic record
(``{'id': 1, 'name': 'Zeta'}``) or a web page; now the body starts from the API's own
shape and the code's reads still win where they say something else. Names, scores,
sentences and currency keys take the shape real data has even off the catalog.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_json

ECHO = """\
import requests

reply = requests.get("https://postman-echo.com/get", params={"lang": "pt"}, timeout=5)
print(reply.json())
"""

JOKE_TEXT = """\
import urllib.request

with urllib.request.urlopen("https://api.chucknorris.io/jokes/random") as answer:
    print(answer.read().decode("utf-8"))
"""

SPACE = """\
import requests

where = requests.get("http://api.open-notify.org/iss-now.json").json()
position = where["iss_position"]
print("lat", float(position["latitude"]) + 0.0, "seen by", where["observer"])
print(where)
mon = requests.get("https://pokeapi.co/api/v2/pokemon/25").json()
print("name:", mon["name"])
"""

REPOS = """\
import requests

person = requests.get("https://api.github.com/users/some-dev").json()
print(person["html_url"])
for project in requests.get(person["repos_url"]).json():
    spoken = requests.get(project["languages_url"]).json()
    if "Python" in spoken:
        print("python project:", project["name"], project["html_url"])
"""

UNKNOWN_TAIL = """\
import random
import requests

name = random.choice(["ditto", "eevee"])
mon = requests.get("https://pokeapi.co/api/v2/pokemon/" + name).json()
print(mon["name"], "types:", ", ".join(t["type"]["name"] for t in mon["types"]))
page = requests.get("https://en.wikipedia.org/api/rest_v1/page/summary/Oslo").json()
print(page["extract"][:40] + "...")
"""

ASKED = """\
import requests

guess = requests.get("https://api.agify.io/", params={"name": "ines"}).json()
print(guess["name"], "is probably", guess["age"])
print(requests.get("https://api.genderize.io/", params={"name": "ines"}).json())
"""

MADE_UP = """\
import requests

day = requests.get("https://api.example.net/v1/daily").json()
print("points:", day["points"] + 1)
print("by", day["author"], "-", day["fact"])
for code, rate in day["rates"].items():
    print(code, rate)
"""


def _run(here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str) -> str:
    (here / name).write_text(source)
    code, report = run_json(capsys, name, "--timeout", "20", "--draft-rounds", "0")
    assert code == 0, report.get("stderr")
    printed: str = report["stdout"]
    return printed


def _plan(here: Path, name: str) -> list[dict[str, Any]]:
    plan = json.loads((here / "fixtures" / f"{Path(name).stem}.automock.json").read_text())
    return [e for e in plan["entries"] if e["strategy"] == "stub_http"]


def test_a_body_printed_whole_has_the_endpoints_shape(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "echo.py", ECHO)
    assert re.search(r"'headers': \{'[A-Z][\w-]*': ", printed), printed
    assert "'url': 'https://postman-echo.com/get" in printed, printed
    (stub,) = _plan(here, "echo.py")
    assert stub["provenance"]["catalog"], stub
    assert "/json" in stub["guessed"], stub["guessed"]


def test_a_known_json_api_read_as_text_is_json(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "joke.py", JOKE_TEXT)
    body = json.loads(printed)
    assert len(body["value"].split()) >= 4, printed


def test_the_codes_reads_win_over_the_catalog_and_add_to_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "space.py", SPACE)
    lines = printed.splitlines()
    assert re.fullmatch(r"lat -?\d+\.\d+ seen by \S+", lines[0]), printed
    assert "'timestamp': 1" in lines[1] and "'message': 'success'" in lines[1], printed
    assert re.fullmatch(r"name: [a-z]+", lines[2]), printed  # PokeAPI names are lower-case
    stubs = _plan(here, "space.py")
    assert "/json/observer" in stubs[0]["guessed"], stubs[0]["guessed"]


def test_links_followed_reach_the_linked_resources_shape(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "repos.py", REPOS)
    lines = printed.splitlines()
    assert lines[0].startswith("https://github.com/"), printed
    assert re.fullmatch(r"python project: [\w.-]+ https://github\.com/[\w.-]+/[\w.-]+", lines[1])


def test_values_take_the_shape_real_data_has(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "daily.py", MADE_UP)
    lines = printed.splitlines()
    assert re.fullmatch(r"points: \d+", lines[0]), printed
    assert re.fullmatch(r"by [A-Z][a-z]+ [A-Z][a-z]+ - \S+( \S+){3,}", lines[1]), printed
    assert re.fullmatch(r"[A-Z]{3} \d+(\.\d+)?", lines[2]), printed


def test_a_url_the_code_completes_is_the_item_and_a_sliced_text_stays_text(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "tail.py", UNKNOWN_TAIL)
    lines = printed.splitlines()
    assert re.fullmatch(r"[a-z]+ types: [a-z]+(, [a-z]+)*", lines[0]), printed
    assert re.fullmatch(r"\S+( \S+)+\.\.\.", lines[1]), printed


def test_the_endpoint_answers_about_the_params_sent(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "asked.py", ASKED)
    lines = printed.splitlines()
    assert re.fullmatch(r"ines is probably \d+", lines[0]), printed
    assert "'name': 'ines'" in lines[1] and "'gender': " in lines[1], printed


NAMED_IN_THE_URL = """\
import requests

who = requests.get("https://api.github.com/users/lena-k").json()
print(who["login"], who["html_url"])
for repo in requests.get("https://api.github.com/users/lena-k/repos").json():
    print(repo["full_name"])
print(requests.get("https://pokeapi.co/api/v2/pokemon/snorlax").json()["name"])
print(requests.get("https://pokeapi.co/api/v2/pokemon/143").json()["name"])
"""

RATE_NOT_LISTED = """\
import requests

rates = requests.get("https://v6.exchangerate-api.com/v6/k3y/latest/EUR").json()
print(rates["base_code"], rates["conversion_rates"]["UZS"])
"""


def test_the_endpoint_answers_about_what_its_url_names(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _run(here, capsys, "named.py", NAMED_IN_THE_URL).splitlines()
    assert lines[0] == "lena-k https://github.com/lena-k", lines
    assert lines[1].startswith("lena-k/") and lines[-3].startswith("lena-k/"), lines
    assert lines[-2] == "snorlax", lines
    assert re.fullmatch(r"[a-z]+", lines[-1]) and lines[-1] != "143", lines  # an id: a name


def test_a_key_a_map_of_numbers_lacks_is_a_number(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "rate.py", RATE_NOT_LISTED)
    assert re.fullmatch(r"EUR \d+(\.\d+)?\n", printed), printed


LISTED_IN_THE_QUERY = """\
import requests

url = (
    "https://api.open-meteo.com/v1/forecast?latitude=52.5&longitude=13.4"
    "&current=temperature_2m,wind_speed_10m,cloud_cover&hourly=temperature_2m"
)
print(requests.get(url).json()["current"])
"""


def test_an_object_named_by_a_query_parameter_holds_the_names_it_lists(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "meteo.py", LISTED_IN_THE_QUERY)
    current = ast.literal_eval(printed)  # the dict the program printed
    assert set(current) == {"time", "interval", "temperature_2m", "wind_speed_10m", "cloud_cover"}
    assert all(isinstance(current[k], float) for k in ("temperature_2m", "cloud_cover")), current


FORM_ECHO = """\
import requests

reply = requests.post("https://httpbin.org/post", data={"user": "ana", "tries": "3"})
print(reply.json()["form"])
"""


def test_an_echo_services_object_holds_what_was_sent_over_the_catalogs(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _run(here, capsys, "form.py", FORM_ECHO)
    assert ast.literal_eval(printed) == {"user": "ana", "tries": "3"}, printed
