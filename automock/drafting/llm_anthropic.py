"""The Anthropic provider: the Messages API through the ``anthropic`` SDK (the default).

The plan comes back as a forced ``submit_plan`` tool call; the system prompt is sent with
``cache_control`` so repeated drafts reuse it. ``ANTHROPIC_API_KEY`` (and the SDK's own
``ANTHROPIC_BASE_URL``) configure it; the model is ``AUTOMOCK_MODEL``, else
:data:`DEFAULT_MODEL`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from automock.drafting.llm_provider import (
    CONNECT_TIMEOUT,
    MAX_RETRIES,
    REQUEST_TIMEOUT,
    Reply,
    Turn,
    api_message,
)
from automock.errors import MissingExtraError

__all__ = ["DEFAULT_MODEL", "AnthropicProvider", "messages"]

DEFAULT_MODEL = "claude-sonnet-4-6"
TOOL_NAME = "submit_plan"


def messages(turns: Sequence[Turn]) -> list[dict[str, Any]]:
    """The Messages API's ``messages`` for a neutral conversation."""
    out: list[dict[str, Any]] = []
    for turn in turns:
        if turn["role"] == "user":
            out.append({"role": "user", "content": turn["text"]})
        elif turn["role"] == "plan":
            blocks: list[dict[str, Any]] = []
            if turn.get("text"):
                blocks.append({"type": "text", "text": turn["text"]})
            if turn.get("id"):
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": turn["id"],
                        "name": TOOL_NAME,
                        "input": turn.get("input") or {},
                    }
                )
            out.append({"role": "assistant", "content": blocks or [{"type": "text", "text": "."}]})
        elif turn.get("id"):
            result: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": turn["id"],
                "content": turn["text"],
            }
            if turn.get("error"):
                result["is_error"] = True
            out.append({"role": "user", "content": [result]})
        else:
            out.append({"role": "user", "content": turn["text"]})
    return out


class AnthropicProvider:
    """Claude through the ``anthropic`` SDK (a client may be injected: the tests' replays)."""

    name = "anthropic"

    def __init__(self, client: Any = None, *, model: str | None = None) -> None:
        self._client = client
        self.model = model or DEFAULT_MODEL

    def missing(self) -> str | None:
        if self._client is None and not os.environ.get("ANTHROPIC_API_KEY"):
            return "ANTHROPIC_API_KEY is not set (AUTOMOCK_LLM=anthropic)"
        return None

    def client(self) -> Any:
        if self._client is None:
            try:
                import anthropic
            except ImportError:
                raise MissingExtraError("anthropic", "llm", "the LLM drafter") from None
            self._client = anthropic.Anthropic(
                timeout=anthropic.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT),
                max_retries=MAX_RETRIES,
            )
        return self._client

    def ask(
        self, system: str, turns: Sequence[Turn], schema: dict[str, Any], max_tokens: int
    ) -> Reply:
        response = self.client().messages.create(
            model=self.model,
            max_tokens=max_tokens,
            system=[{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
            tools=[
                {
                    "name": TOOL_NAME,
                    "description": "Submit the refined automock plan.",
                    "input_schema": schema,
                }
            ],
            tool_choice={"type": "tool", "name": TOOL_NAME},
            messages=messages(turns),
        )
        blocks = list(getattr(response, "content", None) or [])
        stop = str(getattr(response, "stop_reason", "") or "")
        text = " ".join(str(getattr(b, "text", "")) for b in blocks if b.type == "text").strip()
        tool = next((b for b in blocks if getattr(b, "type", "") == "tool_use"), None)
        if tool is None:
            return Reply(None, text=text, stop=stop, truncated=stop == "max_tokens")
        plan = tool.input if isinstance(tool.input, dict) else None
        return Reply(
            plan,
            call_id=str(tool.id),
            text=text,
            stop=stop,
            truncated=stop == "max_tokens",
            problem="" if plan is not None else "the tool call's input is not an object",
        )

    def describe(self, exc: Exception) -> str:
        import anthropic

        status = getattr(exc, "status_code", None)
        if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
            return f"the Anthropic API rejected the key ({status}); check ANTHROPIC_API_KEY"
        if isinstance(exc, anthropic.RateLimitError):
            return (
                "the Anthropic API is rate limiting this key (429, after retries); try again later"
            )
        if isinstance(exc, anthropic.APITimeoutError):
            return f"the Anthropic API did not answer in time ({REQUEST_TIMEOUT:.0f} s per request)"
        if isinstance(exc, anthropic.APIConnectionError):
            return "cannot reach the Anthropic API (connection failed)"
        if isinstance(exc, anthropic.NotFoundError):
            return f"the Anthropic API does not know model {self.model!r}; set AUTOMOCK_MODEL"
        if status == 529:
            return "the Anthropic API is overloaded (529, after retries); try again later"
        if isinstance(exc, anthropic.BadRequestError):
            return f"the Anthropic API refused the request (400: {api_message(exc)})"
        if isinstance(exc, anthropic.APIStatusError):
            return f"the Anthropic API answered {status} ({api_message(exc)})"
        return f"the LLM drafter failed ({type(exc).__name__}: {exc})"
