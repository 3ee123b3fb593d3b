"""One plan per entry point: drafted over the project, kept up to date module by module.

Through the CLI (`automock draft`) and the pipeline's public locator
(`automock.pipeline.load_or_draft`, what `automock run` uses).
"""

from __future__ import annotations

import hashlib
import json
import textwrap
from pathlib import Path

import pytest

from automock.cli import main
from automock.pipeline import load_or_draft
from automock.plan.io import fingerprint, load_plan

FILES = {
    "digest/__init__.py": "",
    "digest/http.py": """
        import requests

        def make_session():
            s = requests.Session()
            s.headers["User-Agent"] = "digest/1.0"
            return s
        """,
    "digest/feed.py": """
        import random
        import time
        from .http import make_session

        def latest(url):
            session = make_session()
            return session.get(url).json()["title"]

        def stamp():
            return time.time()

        def pick(names, rng=None):
            rng = rng or random
            return rng.choice(names)
        """,
    "run_digest.py": """
        from digest.feed import latest, pick, stamp

        print(latest("https://news.example.com/latest"), stamp(), pick(["a", "b"]))
        """,
}
PLAN = Path("fixtures/run_digest.automock.json")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in FILES.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def where(data: dict[str, object]) -> list[tuple[object, object, object]]:
    entries = data["entries"]
    assert isinstance(entries, list)
    return [(e.get("module"), e["line"], e["api"]) for e in entries]


def edit_plan(change: dict[str, object]) -> None:
    data = json.loads(PLAN.read_text())
    for entry in data["entries"]:
        if entry["api"] == "requests.Session.get":
            entry["data"] = {**entry["data"], **change}
    PLAN.write_text(json.dumps(data, indent=2))


def test_draft_covers_every_module_the_entry_imports(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    data = json.loads(PLAN.read_text())
    assert data["automock"] == 2
    assert list(data["modules"]) == [
        "run_digest.py",
        "digest/__init__.py",
        "digest/feed.py",
        "digest/http.py",
    ]
    for rel, digest in data["modules"].items():
        assert digest == hashlib.sha256((project / rel).read_bytes()).hexdigest()
    assert where(data) == [
        ("digest/feed.py", 8, "requests.Session.get"),
        ("digest/feed.py", 11, "time.time"),
        ("digest/feed.py", 15, "random.choice"),
        ("digest/http.py", 5, "requests.Session"),
    ]
    stub = data["entries"][0]["data"]
    assert stub["url"].startswith("https://news.example.com/latest") and "title" in stub["json"]


def test_a_changed_module_is_redrafted_and_hand_edits_elsewhere_are_kept(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    edit_plan({"json": {"title": "Hand-written headline"}})
    http = project / "digest/http.py"
    http.write_text("# retries live here\n" + http.read_text())
    capsys.readouterr()
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    out = capsys.readouterr().out
    assert "re-drafted the entries of digest/http.py" in out
    data = json.loads(PLAN.read_text())
    assert ("digest/http.py", 6, "requests.Session") in where(data)  # moved down one line
    assert data["entries"][0]["data"]["json"] == {"title": "Hand-written headline"}
    assert data["modules"]["digest/http.py"] == hashlib.sha256(http.read_bytes()).hexdigest()


def test_an_up_to_date_hand_edited_plan_is_kept_and_force_says_what_it_drops(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    edit_plan({"json": {"title": "Hand-written headline"}})
    edited = PLAN.read_text()
    capsys.readouterr()
    assert main(["draft", "run_digest.py", "--offline"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force re-drafts every entry and drops" in err
    assert PLAN.read_text() == edited
    assert main(["draft", "run_digest.py", "--offline", "--force"]) == 0
    assert "its hand edits are gone" in capsys.readouterr().err
    assert "Hand-written headline" not in PLAN.read_text()


def test_a_run_names_the_changed_module_and_never_advises_force_silently(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    feed = project / "digest/feed.py"
    feed.write_text(feed.read_text().replace("def stamp():", "\n\ndef stamp():"))
    loaded = load_or_draft("run_digest.py", save=False)
    notes = "\n".join(loaded.notes)
    assert "digest/feed.py changed since the plan was drafted" in notes
    assert "automock draft run_digest.py (keeps every other entry" in notes
    assert "--force re-drafts every entry and drops all hand edits" in notes
    assert "stale entry: digest/feed.py line 11: time.time moved to line 13" in notes
    assert "http.py" not in notes.split("changed since")[0]


def test_a_version_1_plan_loads_and_gains_the_imported_modules_when_redrafted(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry_text = (project / "run_digest.py").read_text()
    v1 = {
        "automock": 1,
        "source": {
            "path": "run_digest.py",
            "sha256": hashlib.sha256(entry_text.encode()).hexdigest(),
        },
        "seed": 7,
        "entries": [],
    }
    v1["generated"] = "sha256:" + "0" * 64  # not automock's own fingerprint: a person's plan
    PLAN.parent.mkdir()
    PLAN.write_text(json.dumps(v1))
    assert load_plan(PLAN).seed == 7
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    data = json.loads(PLAN.read_text())
    assert data["automock"] == 2 and data["seed"] == 7
    assert {m for m, _, _ in where(data)} == {"digest/feed.py", "digest/http.py"}
    assert data["generated"] == fingerprint(data)


def test_a_plan_cannot_make_the_parent_read_outside_the_project(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "secret.py"
    outside.write_text("token = 'x'\n")
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    data = json.loads(PLAN.read_text())
    rel = Path("..") / outside.parent.name / outside.name
    data["modules"][str(rel)] = hashlib.sha256(outside.read_bytes()).hexdigest()
    data["modules"]["link.py"] = data["modules"][str(rel)]
    (project / "link.py").symlink_to(outside)
    PLAN.write_text(json.dumps(data))
    notes = "\n".join(load_or_draft("run_digest.py", save=False).notes)
    # were either file read, its hash would match and it would not be named at all
    assert f"module {rel}: missing or not inside the project" in notes
    assert "module link.py: missing or not inside the project" in notes


def test_prepare_on_an_entry_script_drafts_the_same_project_plan(project: Path) -> None:
    import automock

    prepared = automock.prepare("run_digest.py")
    assert {t.path for t in prepared.touchpoints} == {"digest/feed.py", "digest/http.py"}
    assert next(iter(prepared.plan.modules)) == "run_digest.py"
    assert main(["draft", "run_digest.py", "--offline"]) == 0
    saved = load_plan(PLAN)
    assert prepared.plan.entries == saved.entries


@pytest.mark.parametrize("reexported", [False, True], ids=["from-module", "from-package"])
def test_keys_read_in_another_module_shape_the_drafted_response(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reexported: bool
) -> None:
    files = {
        "meals/__init__.py": "from .api import search\n" if reexported else "",
        "meals/api.py": """
            import requests

            BASE = "https://meals.example.com/api/v1"

            def search(session, term):
                response = session.get(f"{BASE}/search", params={"s": term}, timeout=10)
                response.raise_for_status()
                return response.json()
            """,
        "plan_week.py": """
            import requests

            from meals.api import search

            data = search(requests.Session(), "chicken")
            for meal in data["meals"][:3]:
                print(meal["name"], meal["area"], f"{meal['minutes'] / 60:.1f} h")
            print(data["count"] + 1)
            """,
    }
    if reexported:
        files["plan_week.py"] = files["plan_week.py"].replace("from meals.api", "from meals")
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["draft", "plan_week.py", "--offline"]) == 0
    data = json.loads(Path("fixtures/plan_week.automock.json").read_text())
    (stub,) = [e for e in data["entries"] if e["strategy"] == "stub_http"]
    assert stub["module"] == "meals/api.py"
    assert stub["data"]["url"] == "https://meals.example.com/api/v1/search"
    body = stub["data"]["json"]
    assert isinstance(body["count"], int | float)
    meal = body["meals"][0]
    assert set(meal) == {"name", "area", "minutes"}
    assert isinstance(meal["minutes"], int | float)
