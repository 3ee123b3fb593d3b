"""The drafting loop with the model, through ``automock run --drafter llm``, for both
providers: Anthropic (default) and an OpenAI-compatible endpoint (``AUTOMOCK_LLM=openai``).

Recorded answers are replayed by respx routes on the providers' real URLs under the real
SDKs (tests/llm_replay.py): the SDK builds, sends and parses every request. The drafter
runs in this process (the CLI's parent); the sandboxed program never sees these routes.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import respx

from automock.cli import main
from tests.llm_replay import Api, last_turn, routed, tried

pytest.importorskip("anthropic")
pytest.importorskip("openai")

# fails on every plan the rules can write: the code wants a status only a reader of it knows
STATUS = """\
import sys
import requests

data = requests.get("https://api.example.com/status").json()
if data["state"] != "ready":
    sys.exit(f"service not ready: {data['state']}")
print("ready")
"""

PROVIDERS = ("anthropic", "openai")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name in ("AUTOMOCK_DRAFTER", "AUTOMOCK_LLM", "AUTOMOCK_MODEL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    (work / "status.py").write_text(STATUS)
    return work


@pytest.fixture(params=PROVIDERS)
def api(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    """The chosen provider's endpoint, its key in the environment."""
    provider: str = request.param
    if provider == "openai":
        monkeypatch.setenv("AUTOMOCK_LLM", "openai")
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    else:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    with routed(respx.mock(assert_all_called=False)) as router:
        yield Api(router, provider)


def _run(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, dict[str, Any], str]:
    code = main(["run", "status.py", "--json", "--timeout", "20", *flags])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def _serve_ready(api: Api) -> Api:
    """A model that echoes the plan until it has seen the run fail, then serves the run."""

    def policy(request: dict[str, Any], n: int) -> list[dict[str, Any]]:
        entries = tried(api.provider, request)
        if n >= 2 and "service not ready" in last_turn(request):  # it read the failure
            for entry in entries:
                if entry["strategy"] == "stub_http":
                    entry["data"]["json"] = {"state": "ready"}
        return entries

    return api.plans(policy)


def test_a_model_that_never_improves_is_asked_a_bounded_number_of_times(
    here: Path, api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    api.plans(lambda request, n: tried(api.provider, request))  # the plan it saw, unchanged
    code, report, _ = _run(capsys, "--drafter", "llm")
    assert code == 1 and "service not ready" in report["stderr"]
    assert 2 <= api.calls <= 5
    for request in api.requests[1:]:
        said = last_turn(request)
        assert "exit code 1" in said and "service not ready" in said
    assert report["drafting"]["kept"] == 0


def test_a_model_that_answers_well_after_seeing_the_failure_serves_the_run(
    here: Path, api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    _serve_ready(api)
    code, report, _ = _run(capsys, "--drafter", "llm")
    assert code == 0 and report["stdout"] == "ready\n"
    assert api.calls == 2
    saved = json.loads((here / "fixtures" / "status.automock.json").read_text())
    (stub,) = [e for e in saved["entries"] if e["strategy"] == "stub_http"]
    assert stub["provenance"]["drafter"] == "llm" and "/json" in stub["guessed"]


def test_the_same_program_from_another_directory_is_answered_from_the_cache(
    here: Path, api: Api, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _serve_ready(api)
    first, _, _ = _run(capsys, "--drafter", "llm")
    asked = api.calls
    elsewhere = here.parent / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(here / "status.py", elsewhere / "status.py")
    monkeypatch.chdir(elsewhere)
    code, report, _ = _run(capsys, "--drafter", "llm")
    assert first == code == 0 and report["stdout"] == "ready\n"
    assert api.calls == asked  # no new request: the same content, answered from the cache


def test_a_key_in_the_environment_alone_never_calls_the_model(
    here: Path, api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    api.plans(lambda request, n: tried(api.provider, request))
    code, _, _ = _run(capsys)
    assert code == 1 and api.calls == 0


def test_an_unknown_provider_is_bad_input_in_one_line(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOMOCK_LLM", "gemini")
    code = main(["run", "status.py", "--drafter", "llm"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "AUTOMOCK_LLM='gemini'" in err and "openai" in err


def test_drafter_llm_in_pyproject_opts_in(
    here: Path, api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    _serve_ready(api)
    (here / "pyproject.toml").write_text('[tool.automock]\ndrafter = "llm"\n')
    code, report, _ = _run(capsys)
    assert code == 0 and report["stdout"] == "ready\n" and api.calls == 2
    shutil.rmtree(here / "fixtures")  # drafted again
    (here / "pyproject.toml").write_text('[tool.automock]\ndrafter = "claude"\n')
    code = main(["run", "status.py", "--no-save"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "drafter = 'claude'" in err
