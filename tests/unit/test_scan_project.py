"""`automock scan ENTRY.py --follow` and `automock scan DIR`: a program is a project.

Each test writes a small project, runs the CLI, and reads the JSON it prints.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from automock.cli import main


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text), encoding="utf-8")


def scan(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, list[tuple[int, str]]]:
    code = main(["scan", *argv, "--json"])
    assert code == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    return {
        f["path"]: [(t["line"], t["api"]) for t in f["touchpoints"]]
        for f in data["files"]
        if f["touchpoints"]
    }


HELPER_APP = {
    "app/__init__.py": "",
    "app/http.py": """
        import requests
        from requests.adapters import HTTPAdapter

        def make_session():
            s = requests.Session()
            s.headers["User-Agent"] = "digest/1.0"
            s.headers.update({"Accept": "application/json"})
            s.mount("https://", HTTPAdapter(max_retries=3))
            return s

        def requests_retry_session():
            return make_session()
        """,
    "app/feed.py": """
        import random
        from .http import make_session, requests_retry_session

        class Feed:
            def __init__(self, base):
                self.session = make_session()
                self.base = base

            def items(self):
                return self.session.get(self.base + "/items").json()["items"]

        def pick(items, rng=None):
            rng = rng or random
            return rng.sample(items, 2)

        def total(session, url):
            return session.post(url, json={}).json()["total"]

        def ping():
            return requests_retry_session().get("https://api.example.com/ping").status_code
        """,
    "run_digest.py": """
        from app.feed import Feed, pick, ping, total
        from app.http import make_session

        feed = Feed("https://api.example.com")
        print(pick(feed.items()), ping())
        s = make_session()
        s.headers["X-Trace"] = "1"
        print(s.get("https://api.example.com/me").json()["name"])
        print(total(s, "https://api.example.com/total"))
        """,
}


def test_follow_finds_what_the_imported_modules_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, HELPER_APP)
    monkeypatch.chdir(tmp_path)
    found = scan(capsys, "run_digest.py", "--follow")
    assert found == {
        "run_digest.py": [(9, "requests.Session.get")],
        "app/http.py": [(6, "requests.Session")],
        "app/feed.py": [
            (11, "requests.Session.get"),  # self.session, set from a helper's return
            (15, "random.sample"),  # rng = rng or random
            (18, "requests.Session.post"),  # a parameter a caller passed a session to
            (21, "requests.Session.get"),  # requests_retry_session().get(...)
        ],
    }


def test_a_directory_is_scanned_as_one_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, HELPER_APP)
    monkeypatch.chdir(tmp_path)
    found = scan(capsys, ".")
    assert found["app/feed.py"] == [
        (11, "requests.Session.get"),
        (15, "random.sample"),
        (18, "requests.Session.post"),
        (21, "requests.Session.get"),
    ]
    code = main(["scan", "."])
    text = capsys.readouterr().out
    assert code == 0
    section = text.split("app/feed.py\n", 1)[1].split("\n\n", 1)[0]
    assert section.splitlines()[0].split()[:4] == [
        "11:16",
        "network",
        "requests.Session.get",
        "self.session.get",
    ]


def test_a_header_write_is_not_a_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, {"app/__init__.py": "", "app/http.py": HELPER_APP["app/http.py"]})
    monkeypatch.chdir(tmp_path)
    assert scan(capsys, "app/http.py") == {"app/http.py": [(6, "requests.Session")]}


def test_follow_takes_relative_imports_and_src_layouts_but_not_the_stdlib(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path,
        {
            "main.py": "import json\nfrom shop.cli import go\ngo()\n",
            "src/shop/__init__.py": "",
            "src/shop/cli.py": "from .store import open_db\n\ndef go():\n    open_db()\n",
            "src/shop/store.py": "import sqlite3\n\ndef open_db():\n"
            "    return sqlite3.connect('shop.db')\n",
            "json.py": "import time\nprint(time.time())\n",  # never imported by name
        },
    )
    monkeypatch.chdir(tmp_path)
    found = scan(capsys, "main.py", "--follow")
    # json.py beside the script shadows the stdlib's json, as it would for `python main.py`
    assert found == {"json.py": [(2, "time.time")], "src/shop/store.py": [(4, "sqlite3.connect")]}


def test_follow_never_leaves_the_project_through_a_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "outside"
    write(outside, {"secret_helpers.py": "import time\nprint(time.time())\n"})
    project = tmp_path / "project"
    write(project, {"main.py": "import secret_helpers\n"})
    (project / "secret_helpers.py").symlink_to(outside / "secret_helpers.py")
    (project / "main.py").write_text("import secret_helpers\nimport loop\nimport fifo\n")
    (project / "loop.py").symlink_to(project / "loop.py")  # goes nowhere
    os.mkfifo(project / "fifo.py")  # reading it would block
    monkeypatch.chdir(project)
    code = main(["scan", "main.py", "--follow", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [f["path"] for f in data["files"]] == ["main.py"]


def test_sarif_names_the_module_of_each_followed_touchpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, HELPER_APP)
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "run_digest.py", "--follow", "--sarif"]) == 0
    log = json.loads(capsys.readouterr().out)
    located = {
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in log["runs"][0]["results"]
    }
    assert ("app/feed.py", 15) in located and ("app/feed.py", 21) in located
    assert ("run_digest.py", 9) in located


def test_a_session_factory_a_package_re_exports_is_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path,
        {
            "shop/__init__.py": "from .net import open_client\n",
            "shop/net.py": "import httpx\n\ndef open_client():\n"
            "    return httpx.Client(base_url='https://shop.example.com')\n",
            "main.py": "import shop\nfrom shop import open_client\n\n"
            "print(open_client().get('/a').json())\n"
            "print(shop.open_client().post('/b').json())\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    found = scan(capsys, "main.py", "--follow")
    assert found["main.py"] == [(4, "httpx.Client.get"), (5, "httpx.Client.post")]
