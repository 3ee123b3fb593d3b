"""The offline drafter: one strategy per touchpoint, with data where the runtime needs it."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from textwrap import dedent

import pytest

from automock.cli import main
from automock.drafting import draft
from automock.errors import InputError
from automock.plan.model import Plan, PlanEntry


def by_api(plan: Plan) -> dict[str, PlanEntry]:
    return {e.api: e for e in plan.entries}


def test_clocks_freeze_wall_time_and_virtualise_monotonic_time() -> None:
    plan = draft(
        dedent(
            """
            import time
            from datetime import datetime
            print(datetime.now(), time.time(), time.monotonic(), time.perf_counter())
            time.sleep(1)
            """
        )
    )
    strategies = {api: e.strategy for api, e in by_api(plan).items()}
    assert strategies == {
        "datetime.datetime.now": "freeze",
        "time.time": "freeze",
        "time.monotonic": "virtual_clock",
        "time.perf_counter": "virtual_clock",
        "time.sleep": "virtual_clock",
    }


def test_randomness_is_seeded_with_the_requested_seed() -> None:
    plan = draft("import random, uuid\nprint(random.random(), uuid.uuid4())\n", seed=99)
    assert plan.seed == 99
    assert {e.strategy for e in plan.entries} == {"seed"}


def test_environment_reads_get_the_default_or_a_guess() -> None:
    plan = draft(
        dedent(
            """
            import os
            region = os.getenv("REGION", "eu-west-1")
            home = os.environ["HOME_URL"]
            """
        )
    )
    assert plan.env["REGION"] == "eu-west-1"
    assert plan.env["HOME_URL"].startswith("https://")
    assert plan.env["TZ"] == "UTC"
    entries = {e.data["name"]: e for e in plan.entries}
    assert entries["REGION"].guessed == ()
    assert entries["HOME_URL"].guessed == ("/value",)


def test_http_call_gets_a_stub_with_the_inferred_body() -> None:
    plan = draft(
        dedent(
            """
            import requests
            API = "https://api.example.com"
            r = requests.post(f"{API}/jobs", json={})
            print(r.json()["job_id"], r.status_code)
            """
        )
    )
    (entry,) = plan.entries
    stub = entry.http_stub()
    assert (stub.method, stub.url, stub.match) == ("POST", "https://api.example.com/jobs", "prefix")
    assert stub.json == {"job_id": 1}
    assert entry.guessed == ("/json/job_id",)
    assert plan.http_stubs() == (stub,)


def test_client_constructor_is_not_stubbed_but_its_requests_are() -> None:
    plan = draft(
        dedent(
            """
            import httpx
            with httpx.Client() as client:
                print(client.get("https://api.example.com/ping").json()["pong"])
            """
        )
    )
    strategies = sorted((e.api, e.strategy) for e in plan.entries)
    assert ("httpx.Client", "deny") in strategies
    stubs = plan.http_stubs()
    assert len(stubs) == 1 and stubs[0].url == "https://api.example.com/ping"


def test_sockets_are_denied() -> None:
    plan = draft("import socket\ns = socket.create_connection(('example.com', 80))\n")
    assert [e.strategy for e in plan.entries] == ["deny"]


def test_sqlite_target_is_the_path_literal_through_a_parameter() -> None:
    plan = draft(
        dedent(
            """
            import sqlite3
            DB = "shop.db"

            def open_db(path):
                return sqlite3.connect(path)

            conn = open_db(DB)
            conn.execute("SELECT sku, price FROM items WHERE sku = ?", ("a",))
            """
        )
    )
    (db,) = plan.databases()
    assert (db.engine, db.target) == ("sqlite", "shop.db")
    assert "items" in db.rows and len(db.rows["items"]) == 3


@pytest.mark.parametrize(
    ("source", "strategy", "engine"),
    [
        ("import redis\nr = redis.Redis(host='cache')\n", "fake_redis", "redis"),
        ("import pymongo\nc = pymongo.MongoClient('mongodb://db')\n", "fake_mongo", "mongo"),
        (
            "import sqlalchemy\ne = sqlalchemy.create_engine('postgresql://u@h/app')\n",
            "sqlalchemy_sqlite",
            "sqlite",
        ),
    ],
)
def test_database_servers_get_fakes(source: str, strategy: str, engine: str) -> None:
    (entry,) = draft(source).entries
    assert entry.strategy == strategy
    assert entry.database().engine == engine


def test_processes_and_filesystem() -> None:
    plan = draft(
        dedent(
            """
            import os, subprocess, tempfile, threading
            subprocess.run(["ls"])
            threading.Thread(target=print).start()
            print(os.listdir("."), tempfile.mkdtemp())
            """
        )
    )
    strategies = {api: e.strategy for api, e in by_api(plan).items()}
    assert strategies["subprocess.run"] == "deny"
    assert strategies["threading.Thread"] == "allow"
    assert strategies["os.listdir"] == "sorted_listing"
    assert strategies["tempfile.mkdtemp"] == "seed"


def test_the_plan_records_the_source_hash_and_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("job.py").write_text("import time\nprint(time.time())\n")
    plan = draft("job.py")
    assert plan.source_path == "job.py"
    import hashlib

    assert plan.source_sha256 == hashlib.sha256(Path("job.py").read_bytes()).hexdigest()


def test_syntax_error_is_an_input_error() -> None:
    with pytest.raises(InputError, match="syntax"):
        draft("def broken(:\n    pass\n")


def test_llm_drafter_without_a_key_falls_back_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plan = draft("import random\nprint(random.random())\n", drafter="llm")
    assert plan.drafter == "rules"
    assert any("ANTHROPIC_API_KEY" in str(w.message) for w in caught)


# -- the CLI -----------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    Path("prog.py").write_text("import random\nprint(random.random())\n")
    return tmp_path


def test_cli_writes_the_plan(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "prog.py"]) == 0
    data = json.loads(Path("fixtures/prog.automock.json").read_text())
    assert data["entries"][0]["strategy"] == "seed"
    assert "wrote fixtures/prog.automock.json" in capsys.readouterr().out


def test_cli_refuses_to_overwrite_a_hand_edited_plan(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "prog.py"]) == 0
    path = Path("fixtures/prog.automock.json")
    edited = path.read_text().replace('"seed": 0', '"seed": 5')
    path.write_text(edited)
    capsys.readouterr()
    assert main(["draft", "prog.py"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "edited by hand" in err and "--force" in err
    assert path.read_text() == edited
    assert main(["draft", "prog.py", "--force"]) == 0
    assert '"seed": 0' in path.read_text()


def test_cli_out_dir_and_stdout(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "prog.py", "--out", "plans", "--seed", "3"]) == 0
    assert json.loads(Path("plans/prog.automock.json").read_text())["seed"] == 3
    capsys.readouterr()
    assert main(["draft", "prog.py", "--stdout", "--offline"]) == 0
    assert json.loads(capsys.readouterr().out)["automock"] == 2


@pytest.mark.parametrize(
    ("content", "needle"),
    [(None, "no such file"), ("def f(:\n", "syntax error")],
)
def test_cli_bad_input_exits_2(
    project: Path, capsys: pytest.CaptureFixture[str], content: str | None, needle: str
) -> None:
    if content is not None:
        Path("broken.py").write_text(content)
    assert main(["draft", "broken.py"]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    assert not Path("fixtures").exists()


def test_cli_llm_without_a_key_warns_and_writes_the_offline_plan(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "prog.py", "--drafter", "llm"]) == 0
    err = capsys.readouterr().err
    assert (
        err.startswith("automock: warning: ANTHROPIC_API_KEY is not set") and err.count("\n") == 1
    )
    assert json.loads(Path("fixtures/prog.automock.json").read_text())["drafter"] == "rules"


def test_a_path_is_read_and_one_line_source_is_not_mistaken_for_one() -> None:
    with pytest.raises(InputError, match="no such file"):
        draft("missing_program.py")
    plan = draft("import time; t = time.time()  # see x.py")
    assert [e.api for e in plan.entries] == ["time.time"]


def test_amounts_keyed_by_currency_and_counts_by_name_are_drafted_as_numbers() -> None:
    plan = draft(
        dedent(
            """
            import requests
            price = requests.get("https://api.example.com/simple/price").json()
            print("BTC:", price["bitcoin"]["usd"])
            fx = requests.get("https://fx.example.com/latest").json()
            print("CHF:", fx["rates"]["CHF"])
            place = requests.get("https://geo.example.com/country").json()
            print(place["population"], place["current"]["windspeed"])
            """
        )
    )
    bodies = [entry.http_stub().json for entry in plan.entries if entry.kind == "network"]
    assert isinstance(bodies[0]["bitcoin"]["usd"], float)
    assert isinstance(bodies[1]["rates"]["CHF"], float)
    assert isinstance(bodies[2]["population"], int)
    assert isinstance(bodies[2]["current"]["windspeed"], float)


@pytest.mark.parametrize(
    "decode",
    ["json.load(f)", 'json.loads(f.read().decode("utf-8"))', "json.loads(f.read())"],
)
def test_a_body_decoded_with_the_json_module_is_drafted_as_json_even_unread(decode: str) -> None:
    plan = draft(
        dedent(
            f"""
            import json
            import urllib.request
            with urllib.request.urlopen("https://api.example.com/todos/1") as f:
                print({decode})
            """
        )
    )
    (entry,) = (e for e in plan.entries if e.kind == "network")
    stub = entry.http_stub()
    assert stub.text is None
    json.dumps(stub.json)  # a JSON document the program's decoder accepts
    assert stub.json is not None


def test_an_object_whose_entries_are_looped_over_gets_an_entry() -> None:
    plan = draft(
        dedent(
            """
            import requests
            data = requests.get("https://api.example.com/users/octocat").json()
            for key, value in data.items():
                print(f"{key}: {value}")
            """
        )
    )
    (entry,) = (e for e in plan.entries if e.kind == "network")
    body = entry.http_stub().json
    assert isinstance(body, dict) and body  # the loop runs at least once
