"""Recorded model API answers, routed by respx under the real SDKs' HTTP layer.

The routes are respx routes on the providers' real URLs (``POST
https://api.anthropic.com/v1/messages``, ``POST https://api.openai.com/v1/chat/completions``
or the ``OPENAI_BASE_URL`` a test sets). The SDK builds, sends and parses every request
itself; only the transport's last step (the socket) is replaced. Recent SDK releases
speak ``httpx2`` (a fork respx does not patch), so the fork's transport is bridged to the
same respx router; with plain ``httpx`` respx patches it directly.

Answers live in ``tests/fixtures/<provider>/<name>.json`` as ``{status, headers, body}``.
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import respx

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
URLS = {
    "anthropic": "https://api.anthropic.com/v1/messages",
    "openai": "https://api.openai.com/v1/chat/completions",
}
Policy = Callable[[dict[str, Any], int], list[dict[str, Any]]]


def recorded(provider: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / provider / f"{name}.json").read_text())
    return data


def response(answer: dict[str, Any]) -> httpx.Response:
    return httpx.Response(answer["status"], headers=answer["headers"], json=answer["body"])


def with_entries(provider: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The recorded good answer of ``provider`` carrying ``entries`` as its plan."""
    plan = {"entries": entries, "properties": []}
    if provider == "anthropic":
        answer = copy.deepcopy(recorded("anthropic", "tool_use_good"))
        tool = next(b for b in answer["body"]["content"] if b["type"] == "tool_use")
        tool["input"] = plan
        return answer
    answer = copy.deepcopy(recorded("openai", "tool_call_good"))
    call = answer["body"]["choices"][0]["message"]["tool_calls"][0]
    call["function"]["arguments"] = json.dumps(plan)
    return answer


def tried(provider: str, request: dict[str, Any]) -> list[dict[str, Any]]:
    """The entries of the last plan the conversation says the model submitted."""
    for message in reversed(request["messages"]):
        if message["role"] != "assistant":
            continue
        if provider == "openai":
            for call in message.get("tool_calls") or []:
                return list(json.loads(call["function"]["arguments"])["entries"])
        else:
            for block in message["content"]:
                if block.get("type") == "tool_use":
                    return list(block["input"]["entries"])
    return []


def last_turn(request: dict[str, Any]) -> str:
    """The text of the request's last turn (a tool result or a user message), as JSON."""
    return json.dumps(request["messages"][-1]["content"])


class Api:
    """One provider's endpoint on a respx router: answers in order (the last repeats), or
    from ``policy`` (the entries of a good answer, given the request and its number)."""

    def __init__(self, router: respx.Router, provider: str, url: str | None = None) -> None:
        self.provider = provider
        self.route = router.post(url or URLS[provider])
        self.route.mock(side_effect=self._answer)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.names: list[str | dict[str, Any]] = []
        self.policy: Policy | None = None
        self.failure: Exception | None = None

    def answers(self, *names: str | dict[str, Any]) -> Api:
        """Recorded answers by name (or given as ``{status, headers, body}``)."""
        self.names = list(names)
        return self

    def plans(self, policy: Policy) -> Api:
        self.policy = policy
        return self

    def raises(self, failure: Exception) -> Api:
        self.failure = failure
        return self

    def _answer(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        if self.failure is not None:
            raise self.failure
        if self.policy is not None:
            return response(with_entries(self.provider, self.policy(body, len(self.requests))))
        name = self.names.pop(0) if len(self.names) > 1 else self.names[0]
        return response(name if isinstance(name, dict) else recorded(self.provider, name))

    @property
    def calls(self) -> int:
        return len(self.requests)


def _flavour(sdk: str) -> Any:
    base = importlib.import_module(f"{sdk}._base_client")
    return importlib.import_module("httpx2") if hasattr(base, "httpx2") else httpx


@contextmanager
def routed(router: respx.MockRouter) -> Iterator[respx.MockRouter]:
    """Route every SDK request to ``router`` (unrouted requests fail the test)."""
    forks = {id(f): f for f in (_flavour("anthropic"), _flavour("openai")) if f is not httpx}
    saved = {key: fork.HTTPTransport.handle_request for key, fork in forks.items()}
    for fork in forks.values():
        fork.HTTPTransport.handle_request = _bridge(router, fork)
    try:
        with router:
            yield router
    finally:
        for key, fork in forks.items():
            fork.HTTPTransport.handle_request = saved[key]


def _bridge(router: respx.Router, fork: Any) -> Callable[[Any, Any], Any]:
    def handle_request(transport: Any, request: Any) -> Any:
        plain = httpx.Request(
            request.method,
            str(request.url),
            headers=list(request.headers.multi_items()),
            content=request.read(),
        )
        try:
            answer = router.handler(plain)
        except httpx.TransportError as exc:  # the fork's own exception of the same name
            raise getattr(fork, type(exc).__name__)(str(exc), request=request) from None
        return fork.Response(
            answer.status_code, headers=list(answer.headers.multi_items()), content=answer.content
        )

    return handle_request
