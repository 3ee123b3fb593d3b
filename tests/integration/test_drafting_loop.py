"""The drafting loop through the CLI: programs whose first draft misses, repaired by trial runs.

Each program reads its response in a way the static drafter cannot see (a key built at
run time, a ``float()`` of a value handed through a function, a polling loop, a body read
with ``.get`` under a computed name). With ``--draft-rounds 0`` (the single-shot draft) each
fails or reads nothing; with the loop, ``automock run`` ends clean and the saved plan says
what was repaired and why.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from automock.cli import main
from tests.conftest import run_json

QUOTE = """\
import requests

def fetch(path):
    return requests.get("https://api.example.com/" + path).json()

data = fetch("quote")
field = "pr" + "ice"
print("price", float(data["quote"][field]) > -1)
"""

SENSOR = """\
import builtins

import requests


def reading(payload, name):
    return payload["sensor"][name]


data = requests.get("https://api.example.com/sensors/7").json()
raw = reading(data, "value_beta")
parse = getattr(builtins, "fl" + "oat")  # a parser the drafter cannot see
print("doubled", parse(raw.strip()) * 2 > -1)
"""

POLL = """\
import time
import requests

DONE = "fin" + "ished"  # a value the draft cannot read from the source
job = requests.post("https://api.example.com/jobs", json={"n": 1}).json()
while True:
    state = requests.get("https://api.example.com/jobs/" + str(job["id"])).json()
    if state["status"] == DONE:
        break
    time.sleep(1)
print("finished with", len(state), "fields")
"""

SEARCH = """\
import requests

KEY = "res" + "ults"
page = requests.get("https://api.example.com/search", params={"q": "owls"}).json()
names = [item["name"] for item in page.get(KEY, [])]
print("found", len(names))
"""

MISSING_PACKAGE = """\
import requests
import not_a_package_anyone_installed

print(requests.get("https://api.example.com/x").json())
"""


def _report(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, *flags: str
) -> tuple[int, dict[str, Any]]:
    (here / name).write_text(source)
    return run_json(capsys, name, "--timeout", "20", *flags)


def _saved(here: Path, name: str) -> dict[str, Any]:
    path = here / "fixtures" / f"{Path(name).stem}.automock.json"
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _stubs(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in plan["entries"] if e["strategy"] == "stub_http"]


def test_a_key_the_drafter_cannot_see_is_added_and_said_why(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(here, capsys, "quote.py", QUOTE, "--draft-rounds", "0")
    assert code == 1 and "KeyError: 'price'" in report["runs"][0]["exception"]  # single shot

    (here / "fixtures" / "quote.automock.json").unlink()
    code, report = _report(here, capsys, "quote.py", QUOTE)
    assert code == 0 and report["stdout"] == "price True\n"
    loop = report["drafting"]
    assert [r["ended"] for r in loop["rounds"]] == ["failed", "clean"]
    assert loop["kept"] == 1 and loop["stopped"] == "a clean run"
    (stub,) = _stubs(_saved(here, "quote.py"))
    assert "price" in stub["data"]["json"]["quote"]
    assert "/json/quote/price" in stub["guessed"]
    assert stub["provenance"]["drafter"] == "rules" and stub["provenance"]["round"] == 1
    (why,) = stub["provenance"]["repairs"]
    assert "['price']" in why and "quote.py:8" in why


def test_a_drafted_string_the_program_parses_becomes_number_shaped(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(here, capsys, "sensor.py", SENSOR)
    assert code == 0 and report["stdout"] == "doubled True\n"
    ended = [r["ended"] for r in report["drafting"]["rounds"]]
    assert ended[-1] == "clean" and "failed" in ended
    assert any("float() of" in m for r in report["drafting"]["rounds"] for m in r["missed"])
    (stub,) = _stubs(_saved(here, "sensor.py"))
    float(stub["data"]["json"]["sensor"]["value_beta"])  # a number-shaped string now


def test_a_polling_loop_gets_a_sequence_that_ends_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(here, capsys, "poll.py", POLL, "--draft-rounds", "0", "--timeout", "3")
    assert code == 124  # single shot: the loop never ends, the run times out

    (here / "fixtures" / "poll.automock.json").unlink()
    code, report = _report(here, capsys, "poll.py", POLL)
    assert code == 0 and report["stdout"].startswith("finished with")
    first = report["drafting"]["rounds"][0]
    assert first["ended"] == "failed" and "served" in first["missed"][0]
    stubs = _stubs(_saved(here, "poll.py"))
    sequence = next(s["data"]["sequence"] for s in stubs if "sequence" in s["data"])
    assert sequence[-1]["json"]["status"] == "finished"  # the value the loop compared with


def test_a_run_that_exits_0_having_read_nothing_is_not_clean(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(here, capsys, "search.py", SEARCH)
    assert code == 0 and report["stdout"] == "found 1\n"
    ended = [r["ended"] for r in report["drafting"]["rounds"]]
    assert "missed reads" in ended and ended[-1] == "clean"


def test_a_program_no_plan_can_serve_is_said_so_after_one_trial(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(here, capsys, "broken.py", MISSING_PACKAGE)
    assert code == 1
    (only,) = report["drafting"]["rounds"]
    assert only["ended"] == "unservable" and only["where"] == "broken.py:2 in <module>"
    assert report["drafting"]["stopped"].startswith("no plan can serve it: ModuleNotFoundError")
    assert any("no plan can serve it" in n for n in report["notes"])


def test_a_found_plan_is_never_looped_on(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = _report(here, capsys, "quote.py", QUOTE, "--draft-rounds", "0")
    assert code == 1
    code, report = _report(here, capsys, "quote.py", QUOTE)  # the saved (failing) plan
    assert code == 1 and "drafting" not in report


def test_draft_command_runs_the_loop_and_saves_the_repaired_plan(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "quote.py").write_text(QUOTE)
    assert main(["draft", "quote.py"]) == 0
    err = capsys.readouterr().err
    assert "drafting loop round 1: clean" in err
    (stub,) = _stubs(_saved(here, "quote.py"))
    assert stub["provenance"]["round"] == 1
    assert main(["run", "quote.py"]) == 0


@pytest.mark.parametrize("bad", ["-1", "11", "three"])
def test_draft_rounds_out_of_range_is_bad_input(
    here: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    (here / "quote.py").write_text(QUOTE)
    assert main(["run", "quote.py", "--draft-rounds", bad]) == 2
    err = capsys.readouterr().err
    assert "--draft-rounds" in err and "expected a" in err


CONVERT = """\
import requests

BASE = "https://api.example.com/convert"
first = requests.get(BASE, params={"amount": 1}).json()
print("from", first["query"]["from"] is not None)
second = requests.get(BASE, params={"amount": 2}).json()
print("rate", second["info"]["rate"] > 0)
"""


def test_two_calls_of_one_request_share_their_keys_in_the_draft(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the first stub of a request answers both calls: it must carry what both read (the
    # loop's "never served" repair did this after a failed round; the draft does it now)
    code, report = _report(here, capsys, "convert.py", CONVERT, "--draft-rounds", "0")
    assert code == 0 and report["stdout"] == "from True\nrate True\n"
    for stub in _stubs(_saved(here, "convert.py")):
        assert {"query", "info"} <= set(stub["data"]["json"])


SCRAPE = """\
import requests
from bs4 import BeautifulSoup

CLASS = "pro" + "duct"
page = requests.get("https://shop.example.com/list")
soup = BeautifulSoup(page.text, "html.parser")
names = [card.find("h2").get_text(strip=True) for card in soup.find_all("div", class_=CLASS)]
print("products:", len(names), all(names))
print("total", bool(soup.select_one("span." + "".join(["to", "tal"])).text))
"""


def test_selectors_that_found_nothing_get_elements_they_match(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bs4")
    code, report = _report(here, capsys, "scrape.py", SCRAPE, "--draft-rounds", "0")
    assert code == 1 and "NoneType" in report["runs"][0]["exception"]

    (here / "fixtures" / "scrape.automock.json").unlink()
    code, report = _report(here, capsys, "scrape.py", SCRAPE)
    assert code == 0 and report["stdout"] == "products: 2 True\ntotal True\n"
    missed = [m for r in report["drafting"]["rounds"] for m in r["missed"]]
    assert any("find('h2') found nothing" in m for m in missed)
    (stub,) = _stubs(_saved(here, "scrape.py"))
    assert stub["data"]["text"].count('class="product"') == 2
    assert "/text" in stub["guessed"]


WHEN = """\
from datetime import datetime
import requests

FIELD = "publ" + "ished"
item = requests.get("https://api.example.com/item/1").json()
stamp = datetime.strptime(item.get(FIELD, "unknown"), "%d/%m/%Y %H:%M")
print("year", stamp.year > 2000)
"""


def test_a_drafted_string_strptime_rejects_becomes_a_date_in_its_format(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _report(here, capsys, "when.py", WHEN)
    assert code == 0 and report["stdout"] == "year True\n"
    assert any("strptime() of" in m for r in report["drafting"]["rounds"] for m in r["missed"])
    (stub,) = _stubs(_saved(here, "when.py"))
    assert stub["data"]["json"]["published"] == "01/12/2023 12:00"


ARRIVALS = """\
from datetime import datetime
import requests

board = requests.get("https://api.example.com/stops/42/arrivals").json()
for arrival in board:
    when = datetime.fromisoformat(arrival["expectedArrival"])
    print(arrival["lineName"], when.hour >= 0)
"""


def test_a_drafted_string_fromisoformat_rejects_becomes_an_iso_time(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``datetime.fromisoformat`` on a drafted placeholder raised; the loop reads the value
    from its message and writes a time in ISO 8601 there (batch x's arrivals board)."""
    code, report = _report(here, capsys, "arrivals.py", ARRIVALS)
    assert code == 0, report["runs"][0].get("exception")
    missed = [m for r in report["drafting"]["rounds"] for m in r["missed"]]
    assert any("isoformat() of" in m for m in missed)
    (stub,) = _stubs(_saved(here, "arrivals.py"))
    stamps = [item["expectedArrival"] for item in stub["data"]["json"]]
    assert stamps and all(datetime.fromisoformat(s) for s in stamps)
