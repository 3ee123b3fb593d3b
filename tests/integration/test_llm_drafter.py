"""The Anthropic drafter against recorded Messages API responses.

Responses in ``tests/fixtures/anthropic/`` are replayed by a mock transport
handed to the real ``anthropic.Anthropic`` client as ``http_client``, so the
SDK's own request building, retries, error mapping and parsing all run. No
key, no network.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import pytest

from automock.drafting import draft_with_warnings
from automock.drafting.llm import DEFAULT_MODEL, TOOL_NAME, LLMDrafter, tool_schema
from automock.plan.model import Plan

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "fixtures" / "anthropic"
WEATHER = ROOT / "examples" / "weather_report.py"


def _http_module() -> Any:
    """The httpx flavour this SDK version speaks (``httpx2`` in recent releases)."""
    base = importlib.import_module("anthropic._base_client")
    return (
        importlib.import_module("httpx2")
        if hasattr(base, "httpx2")
        else importlib.import_module("httpx")
    )


HTTP = _http_module()


def recorded(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDED / f"{name}.json").read_text())
    return data


class Replay:
    """A transport handler answering with recorded responses in order (the last repeats)."""

    def __init__(self, *names: str) -> None:
        self.names = list(names)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []

    def __call__(self, request: Any) -> Any:
        self.requests.append(json.loads(request.content))
        self.headers.append(dict(request.headers))
        name = self.names.pop(0) if len(self.names) > 1 else self.names[0]
        answer = recorded(name)
        return HTTP.Response(answer["status"], headers=answer["headers"], json=answer["body"])

    @property
    def calls(self) -> int:
        return len(self.requests)


def make_drafter(handler: Callable[[Any], Any], tmp_path: Path, **kwargs: Any) -> LLMDrafter:
    client = anthropic.Anthropic(
        api_key="test-key",
        http_client=HTTP.Client(transport=HTTP.MockTransport(handler)),
        max_retries=kwargs.pop("max_retries", 2),
        timeout=5.0,
    )
    return LLMDrafter(client=client, cache_dir=tmp_path / "llm-cache", **kwargs)


def weather(drafter: LLMDrafter, *, drafter_name: str = "llm") -> tuple[Plan, list[str]]:
    return draft_with_warnings(WEATHER, drafter=drafter_name, llm=drafter)


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AUTOMOCK_MODEL", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


def test_good_tool_use_becomes_the_plan(tmp_path: Path) -> None:
    replay = Replay("tool_use_good")
    plan, notes = weather(make_drafter(replay, tmp_path))
    assert notes == []
    assert plan.drafter == "llm"
    (stub,) = plan.http_stubs()
    assert stub.json["station"]["name"] == "Lisbon Portela"
    assert plan.source_path == "examples/weather_report.py"
    assert replay.calls == 1
    sent = replay.requests[0]
    assert sent["model"] == DEFAULT_MODEL
    assert sent["tools"][0]["name"] == TOOL_NAME
    assert sent["tools"][0]["input_schema"] == tool_schema()
    assert sent["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    assert sent["system"][0]["cache_control"] == {"type": "ephemeral"}
    prompt = sent["messages"][0]["content"]
    assert "def fetch_current" in prompt and "requests.get" in prompt and '"stub_http"' in prompt
    auth = replay.headers[0].get("x-api-key") or replay.headers[0].get("authorization", "")
    assert auth.endswith("test-key")


def test_model_comes_from_automock_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOMOCK_MODEL", "claude-opus-4-6")
    replay = Replay("tool_use_good")
    weather(make_drafter(replay, tmp_path))
    assert replay.requests[0]["model"] == "claude-opus-4-6"


def test_malformed_answer_is_repaired_in_one_round(tmp_path: Path) -> None:
    replay = Replay("tool_use_malformed", "tool_use_repaired")
    plan, notes = weather(make_drafter(replay, tmp_path))
    assert notes == [] and plan.drafter == "llm"
    assert replay.calls == 2
    messages = replay.requests[1]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    echoed = [b for b in messages[1]["content"] if b["type"] == "tool_use"]
    assert echoed[0]["id"] == "toolu_01Q1w2E3r4T5y6U7i8O9p0aS"
    (result,) = messages[2]["content"]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["tool_use_id"] == "toolu_01Q1w2E3r4T5y6U7i8O9p0aS"
    assert "entries[0].strategy" in result["content"] and "stub_https" in result["content"]


def test_malformed_twice_falls_back_to_the_offline_draft(tmp_path: Path) -> None:
    replay = Replay("tool_use_malformed")
    plan, notes = weather(make_drafter(replay, tmp_path))
    offline, _ = draft_with_warnings(WEATHER, drafter="rules")
    assert plan == offline
    assert len(notes) == 1 and "invalid twice" in notes[0] and "offline draft" in notes[0]
    assert replay.calls == 2


def test_text_without_a_tool_call_gets_a_repair_message(tmp_path: Path) -> None:
    replay = Replay("text_only", "tool_use_good")
    plan, notes = weather(make_drafter(replay, tmp_path))
    assert notes == [] and plan.drafter == "llm"
    assert f"no {TOOL_NAME} tool call" in replay.requests[1]["messages"][2]["content"]


def test_auth_error_falls_back_at_once(tmp_path: Path) -> None:
    replay = Replay("error_401")
    plan, notes = weather(make_drafter(replay, tmp_path))
    assert plan.drafter == "rules"
    assert notes == [
        "the Anthropic API rejected the key (401); check ANTHROPIC_API_KEY; using the offline draft"
    ]
    assert replay.calls == 1


def test_rate_limit_is_retried_by_the_sdk_then_falls_back(tmp_path: Path) -> None:
    replay = Replay("error_429")
    plan, notes = weather(make_drafter(replay, tmp_path, max_retries=2))
    assert plan.drafter == "rules"
    assert "rate limiting" in notes[0] and "\n" not in notes[0]
    assert replay.calls == 3  # first try + the SDK's two retries


def test_timeout_falls_back(tmp_path: Path) -> None:
    def slow(request: Any) -> Any:
        raise HTTP.ReadTimeout("timed out", request=request)

    plan, notes = weather(make_drafter(slow, tmp_path, max_retries=0))
    assert plan.drafter == "rules"
    assert "did not answer in time" in notes[0]


def test_cached_answer_costs_no_http_call(tmp_path: Path) -> None:
    first = Replay("tool_use_good")
    plan1, _ = weather(make_drafter(first, tmp_path))
    assert first.calls == 1
    assert len(list((tmp_path / "llm-cache").glob("*.json"))) == 1
    second = Replay("error_401")  # would fail if it were called
    plan2, notes = weather(make_drafter(second, tmp_path))
    assert second.calls == 0
    assert plan2 == plan1 and notes == []


def test_a_different_model_misses_the_cache(tmp_path: Path) -> None:
    weather(make_drafter(Replay("tool_use_good"), tmp_path))
    other = Replay("tool_use_good")
    weather(make_drafter(other, tmp_path, model="claude-haiku-4-5"))
    assert other.calls == 1


def test_auto_uses_the_llm_only_with_a_key_and_not_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replay = Replay("tool_use_good")
    drafter = make_drafter(replay, tmp_path)
    plan, _ = weather(drafter, drafter_name="auto")
    assert plan.drafter == "rules" and replay.calls == 0
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    plan, _ = draft_with_warnings(WEATHER, drafter="auto", offline=True, llm=drafter)
    assert plan.drafter == "rules" and replay.calls == 0
    plan, _ = weather(drafter, drafter_name="auto")
    assert plan.drafter == "llm" and replay.calls == 1


def test_an_answer_that_drops_a_touchpoint_is_sent_back(tmp_path: Path) -> None:
    replay = Replay("tool_use_missing_entry", "tool_use_repaired")
    plan, notes = weather(make_drafter(replay, tmp_path))
    assert notes == [] and len(plan.http_stubs()) == 1
    (result,) = replay.requests[1]["messages"][2]["content"]
    assert "no entry for line 12 requests.get" in result["content"]
