"""The OpenAI-compatible provider (``AUTOMOCK_LLM=openai``): Chat Completions through the
``openai`` SDK, for OpenAI itself and for local or other servers that speak its API
(vLLM, llama.cpp's server, Ollama, ...).

The plan comes back as a forced call of the ``submit_plan`` function (``tool_choice``
names it); ``strict`` is asked for only when the schema qualifies (every object closed,
every property required), which the plan schema, with its free-form response bodies,
does not. Configuration is the SDK's own: ``OPENAI_BASE_URL`` (unset: OpenAI's endpoint)
and ``OPENAI_API_KEY`` (a server of your own may need none: a placeholder is sent); the
model is ``AUTOMOCK_MODEL``, which a server of your own must name.
"""

from __future__ import annotations

import json
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

__all__ = ["DEFAULT_MODEL", "OpenAIProvider", "chat_messages", "strict_ok"]

DEFAULT_MODEL = "gpt-4.1"  # on OpenAI's own endpoint only; any other server needs AUTOMOCK_MODEL
DEFAULT_BASE_URL = "https://api.openai.com/v1"
NO_KEY = "automock-no-key"  # sent to a server of the user's own that asks for no key
TOOL_NAME = "submit_plan"
_STRICT_KEYWORDS = {"oneOf", "allOf", "not", "if", "then", "else", "patternProperties"}


def strict_ok(schema: Any) -> bool:
    """Whether ``schema`` qualifies for strict function calling: every object lists all its
    properties as required and allows no others, and no unsupported keyword is used."""
    if isinstance(schema, list):
        return all(strict_ok(s) for s in schema)
    if not isinstance(schema, dict):
        return True
    if _STRICT_KEYWORDS & schema.keys():
        return False
    if schema.get("type") == "object" or "properties" in schema:
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is not False:
            return False
        if set(schema.get("required", [])) != set(props):
            return False
    return all(strict_ok(v) for k, v in schema.items() if k not in ("enum", "const"))


def chat_messages(system: str, turns: Sequence[Turn]) -> list[dict[str, Any]]:
    """Chat Completions ``messages`` for a neutral conversation, the system prompt first."""
    out: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for turn in turns:
        if turn["role"] == "user":
            out.append({"role": "user", "content": turn["text"]})
        elif turn["role"] == "plan":
            message: dict[str, Any] = {"role": "assistant", "content": turn.get("text") or None}
            if turn.get("id"):
                raw = turn.get("raw") or json.dumps(turn.get("input") or {})
                message["tool_calls"] = [
                    {
                        "id": turn["id"],
                        "type": "function",
                        "function": {"name": TOOL_NAME, "arguments": raw},
                    }
                ]
            out.append(message)
        elif turn.get("id"):
            out.append({"role": "tool", "tool_call_id": turn["id"], "content": turn["text"]})
        else:
            out.append({"role": "user", "content": turn["text"]})
    return out


class OpenAIProvider:
    """An OpenAI-compatible endpoint through the ``openai`` SDK (a client may be injected)."""

    name = "openai"

    def __init__(self, client: Any = None, *, model: str | None = None) -> None:
        self._client = client
        self.base_url = os.environ.get("OPENAI_BASE_URL") or ""
        self.model = model or ("" if self.base_url else DEFAULT_MODEL)

    def where(self) -> str:
        return f"the OpenAI-compatible server at {self.base_url or DEFAULT_BASE_URL}"

    def missing(self) -> str | None:
        if not self.model:
            return (
                f"AUTOMOCK_MODEL is not set: name the model {self.where()} serves "
                "(AUTOMOCK_LLM=openai with OPENAI_BASE_URL)"
            )
        if self._client is None and not self.base_url and not os.environ.get("OPENAI_API_KEY"):
            return (
                "OPENAI_API_KEY is not set (AUTOMOCK_LLM=openai, OpenAI's endpoint); set it, "
                "or OPENAI_BASE_URL for a server of your own"
            )
        return None

    def client(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError:
                raise MissingExtraError("openai", "llm", "the LLM drafter") from None
            self._client = openai.OpenAI(
                api_key=os.environ.get("OPENAI_API_KEY") or NO_KEY,
                base_url=self.base_url or None,
                timeout=openai.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT),
                max_retries=MAX_RETRIES,
            )
        return self._client

    def ask(
        self, system: str, turns: Sequence[Turn], schema: dict[str, Any], max_tokens: int
    ) -> Reply:
        function: dict[str, Any] = {
            "name": TOOL_NAME,
            "description": "Submit the refined automock plan.",
            "parameters": schema,
        }
        if strict_ok(schema):
            function["strict"] = True
        response = self.client().chat.completions.create(
            model=self.model,
            max_tokens=max_tokens,
            messages=chat_messages(system, turns),
            tools=[{"type": "function", "function": function}],
            tool_choice={"type": "function", "function": {"name": TOOL_NAME}},
        )
        choice = response.choices[0]
        stop = str(choice.finish_reason or "")
        message = choice.message
        text = str(message.content or "").strip()
        calls = [c for c in (message.tool_calls or []) if c.function.name == TOOL_NAME]
        if not calls:
            return Reply(None, text=text, stop=stop, truncated=stop == "length")
        call = calls[0]
        raw = call.function.arguments or ""
        try:
            plan = json.loads(raw)
        except ValueError as exc:
            plan, problem = None, f"the call's arguments are not JSON ({exc})"
        else:
            problem = "" if isinstance(plan, dict) else "the call's arguments are not an object"
            plan = plan if isinstance(plan, dict) else None
        return Reply(
            plan,
            call_id=str(call.id),
            raw=raw,
            text=text,
            stop=stop,
            truncated=stop == "length",
            problem=problem,
        )

    def describe(self, exc: Exception) -> str:
        import openai

        status = getattr(exc, "status_code", None)
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            key = (
                "check OPENAI_API_KEY"
                if os.environ.get("OPENAI_API_KEY")
                else ("OPENAI_API_KEY is not set and it asks for one")
            )
            return f"{self.where()} rejected the key ({status}); {key}"
        if isinstance(exc, openai.RateLimitError):
            return f"{self.where()} is rate limiting this key (429, after retries); try again later"
        if isinstance(exc, openai.APITimeoutError):
            return f"{self.where()} did not answer in time ({REQUEST_TIMEOUT:.0f} s per request)"
        if isinstance(exc, openai.APIConnectionError):
            return f"cannot reach {self.where()} (connection failed); check OPENAI_BASE_URL"
        if isinstance(exc, openai.NotFoundError):
            return f"{self.where()} does not know model {self.model!r}; set AUTOMOCK_MODEL"
        if status in (503, 529):
            return f"{self.where()} is overloaded ({status}, after retries); try again later"
        if isinstance(exc, openai.BadRequestError):
            return f"{self.where()} refused the request (400: {api_message(exc)})"
        if isinstance(exc, openai.APIStatusError):
            return f"{self.where()} answered {status} ({api_message(exc)})"
        return f"the LLM drafter failed ({type(exc).__name__}: {exc})"
