"""The LLM drafter against recorded Anthropic and OpenAI-compatible API answers.

The answers in ``tests/fixtures/anthropic/`` and ``tests/fixtures/openai/`` are replayed by
respx routes on the providers' URLs (tests/llm_replay.py); the drafter builds its SDK
client itself (its timeout, its one retry), so the SDK's own request building, retries,
error mapping and parsing all run. No key, no network.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from automock.cli import main
from automock.drafting import draft_with_warnings
from automock.drafting.llm import DEFAULT_MODEL, MAX_TOKENS, TOOL_NAME, LLMDrafter, tool_schema
from automock.plan.model import Plan
from tests.llm_replay import Api, recorded, routed

pytest.importorskip("anthropic")
pytest.importorskip("openai")

ROOT = Path(__file__).resolve().parents[2]
WEATHER = ROOT / "examples" / "weather_report.py"
GOOD = {"anthropic": "tool_use_good", "openai": "tool_call_good"}
CUT = {"anthropic": "max_tokens", "openai": "length"}
LOCAL = "http://127.0.0.1:8080/v1"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("AUTOMOCK_MODEL", "AUTOMOCK_LLM", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with routed(respx.mock(assert_all_called=False)) as mock:
        yield mock


def endpoint(router: respx.MockRouter, provider: str, mp: pytest.MonkeyPatch) -> Api:
    """The provider's endpoint with its key set (and chosen, for openai)."""
    if provider == "openai":
        mp.setenv("AUTOMOCK_LLM", "openai")
        mp.setenv("OPENAI_API_KEY", "test-key")
    else:
        mp.setenv("ANTHROPIC_API_KEY", "test-key")
    return Api(router, provider)


def weather(drafter: LLMDrafter | None = None, **kwargs: Any) -> tuple[Plan, list[str]]:
    return draft_with_warnings(WEATHER, drafter="llm", llm=drafter or LLMDrafter(), **kwargs)


def plan_sent(provider: str, request: dict[str, Any]) -> dict[str, Any]:
    """The tool definition a request carried."""
    tool = request["tools"][0]
    return dict(tool if provider == "anthropic" else tool["function"])


both = pytest.mark.parametrize("provider", ["anthropic", "openai"])


@both
def test_good_answer_becomes_the_plan(
    provider: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, provider, monkeypatch).answers(GOOD[provider])
    plan, notes = weather()
    assert notes == [] and plan.drafter == "llm"
    (stub,) = plan.http_stubs()
    assert stub.json["station"]["name"] == "Lisbon Portela"
    assert plan.source_path == "examples/weather_report.py"
    assert api.calls == 1
    sent = api.requests[0]
    tool = plan_sent(provider, sent)
    assert tool["name"] == TOOL_NAME and sent["max_tokens"] == MAX_TOKENS
    if provider == "anthropic":
        assert sent["model"] == DEFAULT_MODEL and tool["input_schema"] == tool_schema()
        assert sent["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
        assert sent["system"][0]["cache_control"] == {"type": "ephemeral"}
        prompt = sent["messages"][0]["content"]
        auth = api.headers[0].get("x-api-key") or api.headers[0].get("authorization", "")
        assert auth.endswith("test-key")
    else:
        assert sent["model"] == "gpt-4.1" and tool["parameters"] == tool_schema()
        assert "strict" not in tool  # free-form response bodies: the schema does not qualify
        assert sent["tool_choice"] == {"type": "function", "function": {"name": TOOL_NAME}}
        assert sent["messages"][0]["role"] == "system"
        prompt = sent["messages"][1]["content"]
        assert api.headers[0]["authorization"] == "Bearer test-key"
    assert "def fetch_current" in prompt and '"stub_http"' in prompt
    # what the analysis knows: how the code reads the response, the plan's env and clock
    assert "response.json()['current']['temp'] (needs float)" in prompt
    assert '"clock"' in prompt and "Parsers installed" in prompt


@both
def test_model_comes_from_automock_model(
    provider: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOMOCK_MODEL", "some-model-7b")
    api = endpoint(router, provider, monkeypatch).answers(GOOD[provider])
    weather()
    assert api.requests[0]["model"] == "some-model-7b"


def test_malformed_answer_is_repaired_in_one_round(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, "anthropic", monkeypatch)
    api.answers("tool_use_malformed", "tool_use_repaired")
    plan, notes = weather()
    assert notes == [] and plan.drafter == "llm"
    assert api.calls == 2
    messages = api.requests[1]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    echoed = [b for b in messages[1]["content"] if b["type"] == "tool_use"]
    assert echoed[0]["id"] == "toolu_01Q1w2E3r4T5y6U7i8O9p0aS"
    (result,) = messages[2]["content"]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["tool_use_id"] == "toolu_01Q1w2E3r4T5y6U7i8O9p0aS"
    assert "entries[0].strategy" in result["content"] and "stub_https" in result["content"]


def test_malformed_twice_falls_back_to_the_offline_draft(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, "anthropic", monkeypatch).answers("tool_use_malformed")
    plan, notes = weather()
    offline, _ = draft_with_warnings(WEATHER, drafter="rules")
    assert plan == offline
    assert len(notes) == 1 and "invalid twice" in notes[0] and "offline draft" in notes[0]
    assert api.calls == 2


@both
def test_text_without_a_tool_call_gets_a_repair_message(
    provider: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, provider, monkeypatch).answers("text_only", GOOD[provider])
    plan, notes = weather()
    assert notes == [] and plan.drafter == "llm"
    last = api.requests[1]["messages"][-1]
    assert last["role"] == "user" and f"no {TOOL_NAME} tool call" in last["content"]


@both
def test_an_answer_cut_off_at_the_budget_is_said_and_asked_again_with_more(
    provider: str,
    router: respx.MockRouter,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    api = endpoint(router, provider, monkeypatch).answers(CUT[provider], GOOD[provider])
    plan, notes = weather()
    assert notes == [] and plan.drafter == "llm"
    assert [r["max_tokens"] for r in api.requests] == [MAX_TOKENS, 2 * MAX_TOKENS]
    assert api.requests[1]["messages"] == api.requests[0]["messages"]  # the same question
    err = capsys.readouterr().err
    assert f"cut off at {MAX_TOKENS} tokens ({CUT[provider]})" in err


@both
def test_an_answer_cut_off_twice_falls_back(
    provider: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, provider, monkeypatch).answers(CUT[provider])
    plan, notes = weather()
    assert plan.drafter == "rules" and api.calls == 2
    assert notes == [
        f"the model's answer was cut off again at {2 * MAX_TOKENS} tokens ({CUT[provider]}); "
        "using the offline draft"
    ]


@pytest.mark.parametrize(
    ("provider", "said"),
    [
        ("anthropic", "the Anthropic API refused the request (400: prompt is too long: "),
        ("openai", "refused the request (400: This model's maximum context length is 128000"),
    ],
)
def test_a_refused_request_shows_the_apis_own_message(
    provider: str, said: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, provider, monkeypatch).answers("error_400")
    plan, notes = weather()
    assert plan.drafter == "rules" and api.calls == 1  # a 400 is not retried
    (note,) = notes
    assert said in note and "\n" not in note and note.endswith("; using the offline draft")


@pytest.mark.parametrize(
    ("provider", "name", "said"),
    [
        ("anthropic", "error_529", "the Anthropic API is overloaded (529, after retries)"),
        ("openai", "error_503", "api.openai.com/v1 is overloaded (503, after retries)"),
    ],
)
def test_an_overloaded_api_is_said_so_after_one_retry(
    provider: str, name: str, said: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, provider, monkeypatch).answers(name)
    plan, notes = weather()
    assert plan.drafter == "rules" and api.calls == 2  # the first try and the SDK's one retry
    assert said in notes[0]


@pytest.mark.parametrize(
    ("provider", "said"),
    [
        ("anthropic", "the Anthropic API rejected the key (401); check ANTHROPIC_API_KEY"),
        (
            "openai",
            "the OpenAI-compatible server at https://api.openai.com/v1 rejected the key (401); "
            "check OPENAI_API_KEY",
        ),
    ],
)
def test_auth_error_falls_back_at_once(
    provider: str, said: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, provider, monkeypatch).answers("error_401")
    plan, notes = weather()
    assert plan.drafter == "rules" and api.calls == 1
    assert notes == [f"{said}; using the offline draft"]


def test_rate_limit_is_retried_once_by_the_sdk_then_falls_back(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, "anthropic", monkeypatch).answers("error_429")
    plan, notes = weather()
    assert plan.drafter == "rules"
    assert "rate limiting" in notes[0] and "\n" not in notes[0]
    assert api.calls == 2


def test_timeout_falls_back(router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch) -> None:
    api = endpoint(router, "anthropic", monkeypatch)
    api.raises(httpx.ReadTimeout("timed out"))
    plan, notes = weather()
    assert plan.drafter == "rules" and api.calls == 2
    assert "did not answer in time (240 s per request)" in notes[0]


def test_a_local_server_needs_no_key_but_a_model_name(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOMOCK_LLM", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", LOCAL)
    api = Api(router, "openai", f"{LOCAL}/chat/completions").answers("tool_call_good")
    plan, notes = weather()
    assert plan.drafter == "rules" and api.calls == 0
    assert notes[0].startswith("AUTOMOCK_MODEL is not set: name the model the OpenAI-compatible")
    monkeypatch.setenv("AUTOMOCK_MODEL", "qwen2.5-coder:14b")
    plan, notes = weather()
    assert notes == [] and plan.drafter == "llm" and api.calls == 1
    assert api.requests[0]["model"] == "qwen2.5-coder:14b"


def test_openais_own_endpoint_needs_a_key(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUTOMOCK_LLM", "openai")
    api = Api(router, "openai").answers("tool_call_good")
    plan, notes = weather()
    assert plan.drafter == "rules" and api.calls == 0
    assert "OPENAI_API_KEY is not set" in notes[0] and "OPENAI_BASE_URL" in notes[0]


@both
def test_cached_answer_costs_no_http_call_from_any_directory(
    provider: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    api = endpoint(router, provider, monkeypatch).answers(GOOD[provider])
    plans = []
    for where in ("a", "b/c"):
        (tmp_path / where).mkdir(parents=True)
        shutil.copy(WEATHER, tmp_path / where / "weather_report.py")
        monkeypatch.chdir(tmp_path / where)
        plans.append(draft_with_warnings("weather_report.py", drafter="llm", llm=LLMDrafter()))
    assert api.calls == 1
    assert plans[0] == plans[1] and plans[1][1] == []
    assert len(list((tmp_path / "cache" / "automock" / "llm").glob("*.json"))) == 1


def test_a_different_model_or_provider_misses_the_cache(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = endpoint(router, "anthropic", monkeypatch).answers("tool_use_good")
    weather()
    weather(LLMDrafter(model="claude-haiku-4-5"))
    assert first.calls == 2
    other = endpoint(router, "openai", monkeypatch).answers("tool_call_good")
    weather()
    assert other.calls == 1


def test_auto_uploads_only_on_a_standing_choice_never_for_a_key_alone(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    api = Api(router, "anthropic").answers("tool_use_good")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AUTOMOCK_DRAFTER", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    plan, _ = draft_with_warnings(WEATHER, drafter="auto")
    assert plan.drafter == "rules" and api.calls == 0
    assert main(["draft", str(WEATHER), "--stdout"]) == 0  # the command's default is auto
    assert api.calls == 0
    monkeypatch.setenv("AUTOMOCK_DRAFTER", "llm")
    plan, _ = draft_with_warnings(WEATHER, drafter="auto", offline=True)
    assert plan.drafter == "rules" and api.calls == 0
    plan, _ = draft_with_warnings(WEATHER, drafter="auto")
    assert plan.drafter == "llm" and api.calls == 1
    monkeypatch.delenv("AUTOMOCK_DRAFTER")
    (tmp_path / "pyproject.toml").write_text('[tool.automock]\ndrafter = "llm"\n')
    plan, _ = draft_with_warnings(WEATHER, drafter="auto", llm=LLMDrafter(model="other"))
    assert plan.drafter == "llm" and api.calls == 2


def _good_with(change: Any) -> Any:
    """A policy answering the recorded good plan after ``change`` (entries -> entries)."""
    answer = recorded("anthropic", "tool_use_good")
    tool = next(b for b in answer["body"]["content"] if b["type"] == "tool_use")

    def policy(request: dict[str, Any], n: int) -> list[dict[str, Any]]:
        entries = json.loads(json.dumps(tool["input"]["entries"]))
        return list(change(entries) if n == 1 else entries)

    return policy


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda es: [{**es[0], "line": 13}, es[1]], "no touchpoint requests.get at line 13"),
        (lambda es: [{**es[0], "col": 3}, es[1]], "entries[0].col: 3, the call is at col 8"),
        (lambda es: [{**es[0], "kind": "time"}, es[1]], "entries[0].kind: 'time'"),
        (
            lambda es: [{**es[0], "strategy": "allow", "data": {}}, es[1]],
            "replaces the call's stub_http",
        ),
        (
            lambda es: [
                {**es[0], "data": {**es[0]["data"], "query": {"city": "Lisbon"}}},
                es[1],
            ],
            "no stub serves GET https://api.weather.example.com/v1/current?city=Oslo",
        ),
    ],
    ids=["invented line", "col", "kind", "stub dropped", "request left unserved"],
)
def test_an_answer_that_changes_the_meaning_is_sent_back(
    change: Any, said: str, router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, "anthropic", monkeypatch).plans(_good_with(change))
    plan, notes = weather()
    assert notes == [] and plan.drafter == "llm" and api.calls == 2
    (result,) = api.requests[1]["messages"][2]["content"]
    assert result["is_error"] is True and said in result["content"]


def test_env_edits_are_honoured_or_refused_and_dead_stubs_warned(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = recorded("anthropic", "tool_use_good")
    tool = next(b for b in answer["body"]["content"] if b["type"] == "tool_use")
    stub = tool["input"]["entries"][0]
    tool["input"]["entries"].insert(1, json.loads(json.dumps(stub)))  # the same stub twice
    tool["input"]["env"] = {"WEATHER_UNITS": "metric", "PYTHONPATH": "/tmp", "RETRIES": 3}

    endpoint(router, "anthropic", monkeypatch).answers(answer)
    plan, notes = weather()
    assert plan.drafter == "llm" and plan.env.get("WEATHER_UNITS") == "metric"
    assert "PYTHONPATH" not in plan.env and "RETRIES" not in plan.env
    assert any("env PYTHONPATH: refused" in n for n in notes)
    assert any("env RETRIES: refused, the value must be a string" in n for n in notes)
    assert any("entries[1], line 12: the stub for" in n and "is never served" in n for n in notes)


def test_a_pending_request_is_said_on_the_progress_line(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    heard = threading.Event()
    api = endpoint(router, "anthropic", monkeypatch)

    def slow(request: httpx.Request) -> httpx.Response:
        api.requests.append(json.loads(request.content))
        heard.wait(30)  # answers once the drafter has said it is still waiting
        return httpx.Response(200, json=recorded("anthropic", "tool_use_good")["body"])

    api.route.mock(side_effect=slow)

    def progress(line: str) -> None:
        said.append(line)
        heard.set()

    plan, notes = weather(LLMDrafter(progress=progress, progress_every=0.05))
    assert notes == [] and plan.drafter == "llm" and heard.is_set()
    assert said[0].startswith(f"still waiting for the anthropic model {DEFAULT_MODEL} (")


def test_the_prompt_says_how_stubs_are_ranked_and_what_a_sequence_does(
    router: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = endpoint(router, "anthropic", monkeypatch).answers("tool_use_good")
    weather()
    system = api.requests[0]["system"][0]["text"]
    assert "most specific serves" in system and "`sequence`" in system
    assert "names starting with AUTOMOCK_ or PYTHON are refused" in system
