"""Bodies searched by literals, and XML children picked by tag, served by their draft.

Our own small programs: a status page cut by string positions around the labels it
looks for (``text.find("Load average:") + 13``, a number read just before ``" ms"``),
a text split on markers (``"NODE="``, ``"<Uptime>"``), a text checked for what a
failed reply says before its data is cut out (never drafted into it), and an ElementTree document
whose children are told apart by ``child.tag`` and read through ``child.attrib``, and
an XML reply saved to a file and parsed back by the file's name.
Each must run clean on its single-shot draft and print values from the drafted body.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run_json

POSITIONS = """\
import urllib.request
from bs4 import BeautifulSoup
with urllib.request.urlopen("https://status.example.net/") as page:
    raw = page.read()
text = BeautifulSoup(raw, "html.parser").get_text()
start = text.find("Load average:") + 13
host = text[start:start + 20].strip()
at = text.find(" ms")
latency = text[at - 7:at].strip().split(" ")
print("host", host)
print("latency", latency[0], "ms, worst", latency[1], "ms")
"""

MARKERS = """\
import requests
body = requests.get("https://nodes.example.net/list").text
nodes = {}
for chunk in body.split("NODE=")[1:]:
    name = chunk.split("<Name>")[1]
    uptime = chunk.split("<Uptime>")[1]
    nodes[name[: name.find("<")]] = uptime[: uptime.find("<")]
if "NODE=" in body:
    for name, uptime in nodes.items():
        print("node", name, "up", uptime)
"""

CHILDREN = """\
import urllib.request
import xml.etree.ElementTree as ET
root = ET.fromstring(urllib.request.urlopen("https://sensors.example.net/now.xml").read())
for child in root:
    if child.tag == "humidity":
        print("humidity", child.attrib["percent"])
    if child.tag in ("wind", "gust"):
        print(child.tag, child.get("speed"))
"""

SAVED = """\
import requests
import xml.etree.ElementTree as ET
CACHE = "stations.xml"
reply = requests.get("https://stations.example.net/all.xml")
with open(CACHE, "w") as out:
    out.write(reply.text)
root = ET.parse(CACHE).getroot()
print("second", root[1].attrib, root[1][0].text)
"""

GUARDED = """\
import sys
import requests
body = requests.get("https://quotes.example.net/today").text
if "Access denied" in body or body.find("ERROR:") >= 0:
    sys.exit("blocked")
if "Come back later" in body:
    raise SystemExit("closed")
start = body.find("Quote:") + 6
print("quote", body[start:start + 12].strip())
"""


@pytest.mark.parametrize(
    ("name", "source", "printed"),
    [
        ("positions.py", POSITIONS, r"^host \S+\nlatency \d+ ms, worst \d+ ms$"),
        ("markers.py", MARKERS, r"^node \S+ up \S+$"),
        ("children.py", CHILDREN, r"^humidity \S+\nwind \S+\ngust \S+$"),
        ("guarded.py", GUARDED, r"^quote \S+$"),
        ("saved.py", SAVED, r"^second \{'\w+': '[^']+'\} \S+$"),
    ],
)
def test_single_shot_draft_holds_what_the_code_looks_for(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, printed: str
) -> None:
    (here / name).write_text(source)
    code, report = run_json(capsys, name, "--repeat", "2", "--draft-rounds", "0", "--no-save")
    assert code == 0 and report["status"] == "passed" and report["deterministic"], report
    assert re.search(printed, report["stdout"], re.M), report["stdout"]
