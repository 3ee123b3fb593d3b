"""The Anthropic drafter: asks Claude to refine the offline draft, never worse than it.

The answer comes back as a forced tool call whose ``input_schema`` is the
plan's entries schema (from ``automock/plan/schema.json``), is validated with
:meth:`Plan.from_dict`, gets one repair round (the validation error sent back
as an ``is_error`` tool result) and otherwise falls back to the offline draft
with a warning. Auth errors, rate limits (after the SDK's retries), timeouts
and connection failures fall back the same way. Valid answers are cached on
disk under ``.automock-cache/llm/<sha256(model, prompt)>.json`` so a rerun
costs nothing.

The client is injectable (``LLMDrafter(client=anthropic.Anthropic(...,
http_client=...))``), which is how the tests replay recorded responses.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from automock._atomic import atomic_write_text
from automock.analysis.model import Touchpoint
from automock.errors import MissingExtraError, PlanError
from automock.plan.model import Plan

__all__ = ["CACHE_DIR", "DEFAULT_MODEL", "TOOL_NAME", "LLMDrafter", "tool_schema"]

DEFAULT_MODEL = "claude-sonnet-4-6"
TOOL_NAME = "submit_plan"
CACHE_DIR = Path(".automock-cache") / "llm"
MAX_TOKENS = 8192


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.rsplit("/", 1)[-1]], defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def plan_schema() -> dict[str, Any]:
    """The JSON Schema of a plan file (shipped as ``automock/plan/schema.json``)."""
    text = resources.files("automock.plan").joinpath("schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def tool_schema() -> dict[str, Any]:
    """``input_schema`` of the ``submit_plan`` tool: the plan's entries and properties, refs inlined."""
    schema = plan_schema()
    defs = schema["$defs"]
    return {
        "type": "object",
        "properties": {
            "entries": {"type": "array", "items": _inline(copy.deepcopy(defs["entry"]), defs)},
            "properties": {
                "type": "array",
                "items": _inline(copy.deepcopy(defs["property"]), defs),
            },
        },
        "required": ["entries"],
    }


def _prompt(name: str) -> str:
    return (
        resources.files("automock.drafting").joinpath("prompts", name).read_text(encoding="utf-8")
    )


def _touchpoint_lines(touchpoints: Sequence[Touchpoint]) -> str:
    lines = [f"- {t.line}:{t.col} {t.kind} {t.api} - {t.reason}" for t in touchpoints]
    return "\n".join(lines) or "- (none)"


class LLMDrafter:
    """Refine an offline plan with Claude; see the module docstring for the contract."""

    def __init__(
        self,
        client: Any = None,
        *,
        model: str | None = None,
        cache_dir: str | os.PathLike[str] | None = CACHE_DIR,
        timeout: float = 30.0,
        max_retries: int = 2,
    ) -> None:
        self._client = client
        self.model = model or os.environ.get("AUTOMOCK_MODEL") or DEFAULT_MODEL
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.timeout = timeout
        self.max_retries = max_retries
        self.http_calls = 0

    # -- plumbing ---------------------------------------------------------------
    def client(self) -> Any:
        if self._client is None:
            try:
                import anthropic
            except ImportError:
                raise MissingExtraError("anthropic", "llm", "the LLM drafter") from None
            self._client = anthropic.Anthropic(timeout=self.timeout, max_retries=self.max_retries)
        return self._client

    def user_prompt(self, source: str, touchpoints: Sequence[Touchpoint], offline: Plan) -> str:
        draft = json.dumps({"entries": offline.to_dict()["entries"], "properties": []}, indent=1)
        return (
            _prompt("user.md")
            .replace("{path}", offline.source_path or "<string>")
            .replace("{touchpoints}", _touchpoint_lines(touchpoints))
            .replace("{draft}", draft)
            .replace("{source}", source)
        )

    def cache_key(self, system: str, prompt: str) -> str:
        blob = json.dumps([self.model, system, prompt, tool_schema()], sort_keys=True)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def _cached(self, key: str) -> dict[str, Any] | None:
        if self.cache_dir is None:
            return None
        path = self.cache_dir / f"{key}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        answer = data.get("input") if isinstance(data, dict) else None
        return answer if isinstance(answer, dict) else None

    def _store(self, key: str, answer: dict[str, Any]) -> None:
        if self.cache_dir is None:
            return
        # a read-only cache is not worth failing the draft for
        with contextlib.suppress(PlanError):
            atomic_write_text(
                self.cache_dir / f"{key}.json",
                json.dumps({"model": self.model, "input": answer}, indent=1),
            )

    @staticmethod
    def merge(offline: Plan, answer: dict[str, Any]) -> Plan:
        """The plan the answer describes; :class:`PlanError` names the bad field."""
        if not isinstance(answer, dict):
            raise PlanError("submit_plan input: expected an object with entries")
        data = offline.to_dict()
        entries = answer.get("entries")
        if isinstance(entries, list):  # the model's stubs are drafts too: never a catch-all
            entries = [
                {**e, "drafted": True}
                if isinstance(e, dict) and e.get("strategy") == "stub_http"
                else e
                for e in entries
            ]
        data["entries"] = entries
        data["properties"] = answer.get("properties", [])
        data["drafter"] = "llm"
        plan = Plan.from_dict(data)
        kept = {(e.line, e.api) for e in plan.entries}
        for entry in offline.entries:
            if (entry.line, entry.api) not in kept:
                raise PlanError(
                    f"plan.entries: no entry for line {entry.line} {entry.api}; "
                    "keep one entry per touchpoint with its line and api unchanged"
                )
        return plan

    def _ask(self, system: str, messages: list[dict[str, Any]]) -> Any:
        self.http_calls += 1
        return self.client().messages.create(
            model=self.model,
            max_tokens=MAX_TOKENS,
            system=[{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
            tools=[
                {
                    "name": TOOL_NAME,
                    "description": "Submit the refined automock plan.",
                    "input_schema": tool_schema(),
                }
            ],
            tool_choice={"type": "tool", "name": TOOL_NAME},
            messages=messages,
        )

    # -- the protocol -----------------------------------------------------------
    def refine(
        self, source: str, touchpoints: Sequence[Touchpoint], offline: Plan
    ) -> tuple[Plan, list[str]]:
        """``(plan, warnings)``: the model's plan when valid, else ``offline`` and why."""
        system = _prompt("system.md")
        prompt = self.user_prompt(source, touchpoints, offline)
        key = self.cache_key(system, prompt)
        cached = self._cached(key)
        if cached is not None:
            try:
                return self.merge(offline, cached), []
            except PlanError:
                pass
        if self._client is None and not os.environ.get("ANTHROPIC_API_KEY"):
            return offline, [
                "ANTHROPIC_API_KEY is not set; using the offline draft "
                '(drafter="rules" / --drafter rules)'
            ]
        try:
            return self._converse(system, prompt, key, offline)
        except MissingExtraError as exc:
            return offline, [f"{exc}; using the offline draft"]
        except Exception as exc:  # the SDK's errors, mapped to one line each
            return offline, [f"{_describe(exc, self.model)}; using the offline draft"]

    def repair(
        self, source: str, touchpoints: Sequence[Touchpoint], tried: Plan, failure: str
    ) -> tuple[Plan, list[str]]:
        """A corrected plan after a trial run of ``tried`` went wrong (the drafting loop):
        a follow-up turn, as if the model had submitted ``tried`` and the tool result were
        what the run showed. ``(tried, warnings)`` when there is no valid answer."""
        system = _prompt("system.md")
        prompt = self.user_prompt(source, touchpoints, tried)
        entries = {"entries": tried.to_dict()["entries"], "properties": []}
        follow_up = _prompt("repair.md").replace("{failure}", failure)
        messages: list[dict[str, Any]] = [
            {"role": "user", "content": prompt},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_tried", "name": TOOL_NAME, "input": entries}
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_tried", "content": follow_up}
                ],
            },
        ]
        key = self.cache_key(system, json.dumps(messages, sort_keys=True))
        cached = self._cached(key)
        if cached is not None:
            with contextlib.suppress(PlanError):
                return self.merge(tried, cached), []
        if self._client is None and not os.environ.get("ANTHROPIC_API_KEY"):
            return tried, ["ANTHROPIC_API_KEY is not set; the rules repair the plan"]
        try:
            return self._converse(system, prompt, key, tried, messages)
        except MissingExtraError as exc:
            return tried, [f"{exc}; the rules repair the plan"]
        except Exception as exc:  # the SDK's errors, mapped to one line each
            return tried, [f"{_describe(exc, self.model)}; the rules repair the plan"]

    def _converse(
        self,
        system: str,
        prompt: str,
        key: str,
        offline: Plan,
        messages: list[dict[str, Any]] | None = None,
    ) -> tuple[Plan, list[str]]:
        messages = messages or [{"role": "user", "content": prompt}]
        error = ""
        for attempt in range(2):
            response = self._ask(system, messages)
            blocks = list(getattr(response, "content", []) or [])
            tool = next((b for b in blocks if getattr(b, "type", "") == "tool_use"), None)
            if tool is None:
                error = f"no {TOOL_NAME} tool call in the answer (stop_reason {getattr(response, 'stop_reason', '?')})"
            else:
                try:
                    plan = self.merge(offline, tool.input)
                except PlanError as exc:
                    error = str(exc)
                else:
                    self._store(key, tool.input)
                    return plan, []
            if attempt == 0:
                messages.append({"role": "assistant", "content": [_block_dict(b) for b in blocks]})
                fix = (
                    f"The plan is invalid: {error}. Call {TOOL_NAME} again with the corrected plan."
                )
                if tool is not None:
                    messages.append(
                        {
                            "role": "user",
                            "content": [
                                {
                                    "type": "tool_result",
                                    "tool_use_id": tool.id,
                                    "is_error": True,
                                    "content": fix,
                                }
                            ],
                        }
                    )
                else:
                    messages.append({"role": "user", "content": fix})
        return offline, [f"the model's plan was invalid twice ({error}); using the offline draft"]


def _block_dict(block: Any) -> dict[str, Any]:
    if getattr(block, "type", "") == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    return {"type": "text", "text": str(getattr(block, "text", ""))}


def _describe(exc: Exception, model: str) -> str:
    import anthropic

    if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
        return f"the Anthropic API rejected the key ({exc.status_code}); check ANTHROPIC_API_KEY"
    if isinstance(exc, anthropic.RateLimitError):
        return "the Anthropic API is rate limiting this key (429, after retries); try again later"
    if isinstance(exc, anthropic.APITimeoutError):
        return "the Anthropic API did not answer in time"
    if isinstance(exc, anthropic.APIConnectionError):
        return "cannot reach the Anthropic API (connection failed)"
    if isinstance(exc, anthropic.NotFoundError):
        return f"the Anthropic API does not know model {model!r}; set AUTOMOCK_MODEL"
    if isinstance(exc, anthropic.APIStatusError):
        return f"the Anthropic API answered {exc.status_code}"
    return f"the LLM drafter failed ({type(exc).__name__}: {exc})"
