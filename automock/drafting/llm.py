"""The LLM drafter: asks a model to refine the offline draft, never worse than it.

The provider is Anthropic (default) or any OpenAI-compatible endpoint
(``AUTOMOCK_LLM=openai``), each in a module of its own behind the small protocol of
:mod:`automock.drafting.llm_provider`. The answer comes back as a forced ``submit_plan``
tool call whose schema is the plan's entries schema (from ``automock/plan/schema.json``);
it is validated like a plan file and for meaning (:mod:`automock.drafting.llm_checks`),
gets one repair round (the error sent back as the tool call's error result) and otherwise
falls back to the offline draft with a one-line warning, as do auth errors, rate limits
and overloads (after one SDK retry), timeouts, refusals (the API's own 400 message) and
connection failures. An answer cut off at its token budget is said so and asked once more
with twice the budget. While a request is pending, a line on stderr every 10 s says so.

Valid answers are cached under the user's cache directory
(``$XDG_CACHE_HOME/automock/llm/<sha256>.json``), keyed by content: the provider, the
model, the program's source, its touchpoints, the draft and the conversation, never the
path or the working directory, so a rerun anywhere costs nothing.

The client is injectable (``LLMDrafter(client=anthropic.Anthropic(...))`` or an
``openai.OpenAI``), and the tests replay recorded HTTP responses under the real SDKs.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from automock._atomic import atomic_write_text
from automock._cache import user_cache_dir
from automock.analysis.model import Touchpoint
from automock.drafting.llm_anthropic import DEFAULT_MODEL
from automock.drafting.llm_checks import merge
from automock.drafting.llm_provider import (
    PROGRESS_EVERY,
    PROVIDERS,
    Provider,
    Reply,
    Turn,
    stderr_progress,
    waiting,
)
from automock.errors import InputError, MissingExtraError, PlanError
from automock.plan.model import Plan

__all__ = [
    "DEFAULT_MODEL",
    "MAX_TOKENS",
    "TOOL_NAME",
    "LLMDrafter",
    "make_provider",
    "plan_schema",
    "provider_name",
    "tool_schema",
]

TOOL_NAME = "submit_plan"
MAX_TOKENS = 8192  # doubled once for an answer cut off at it
TRIED_ID = "toolu_tried"  # the id of the tried plan's call in a repair conversation


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
    """The ``submit_plan`` tool's parameters: the plan's entries and properties (refs
    inlined) and the edits to its ``env``."""
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
            "env": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "Environment variables to set or change (name -> value).",
            },
        },
        "required": ["entries"],
    }


def provider_name() -> str:
    """``AUTOMOCK_LLM`` (default ``anthropic``); anything else is bad input."""
    name = (os.environ.get("AUTOMOCK_LLM") or "anthropic").strip().lower()
    if name not in PROVIDERS:
        raise InputError(
            f"AUTOMOCK_LLM={name!r}: unknown model provider; expected one of {', '.join(PROVIDERS)}"
        )
    return name


def make_provider(
    client: Any = None, *, name: str | None = None, model: str | None = None
) -> Provider:
    """The provider ``name`` (else the client's SDK, else ``AUTOMOCK_LLM``) for ``model``
    (else ``AUTOMOCK_MODEL``, else the provider's default)."""
    if name is None and client is not None:
        name = "openai" if type(client).__module__.startswith("openai") else "anthropic"
    name = name or provider_name()
    model = model or os.environ.get("AUTOMOCK_MODEL") or None
    if name == "openai":
        from automock.drafting.llm_openai import OpenAIProvider

        return OpenAIProvider(client, model=model)
    from automock.drafting.llm_anthropic import AnthropicProvider

    return AnthropicProvider(client, model=model)


def _prompt(name: str) -> str:
    return (
        resources.files("automock.drafting").joinpath("prompts", name).read_text(encoding="utf-8")
    )


def _touchpoint_lines(touchpoints: Sequence[Touchpoint]) -> str:
    lines = [f"- {t.line}:{t.col} {t.kind} {t.api} - {t.reason}" for t in touchpoints]
    return "\n".join(lines) or "- (none)"


class LLMDrafter:
    """Refine an offline plan with a model; see the module docstring for the contract.

    ``notes`` holds what the last valid answer had refused or left dead (env edits,
    shadowed stubs): said to the person, not a reason to drop the answer."""

    def __init__(
        self,
        client: Any = None,
        *,
        provider: Provider | str | None = None,
        model: str | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        progress: Callable[[str], None] | None = stderr_progress,
        progress_every: float = PROGRESS_EVERY,
    ) -> None:
        if provider is None or isinstance(provider, str):
            provider = make_provider(client, name=provider, model=model)
        self.provider: Provider = provider
        self.model = provider.model
        self.cache_dir = Path(cache_dir if cache_dir is not None else user_cache_dir("llm"))
        self.progress = progress
        self.progress_every = progress_every
        self.http_calls = 0
        self.notes: list[str] = []

    # -- the prompt and the cache -------------------------------------------------
    def user_prompt(self, source: str, touchpoints: Sequence[Touchpoint], offline: Plan) -> str:
        """The first user turn, with ``{path}`` still in it (the cache key leaves it out)."""
        from automock.drafting.llm_context import installed_parsers, plan_settings, response_reads

        draft = json.dumps({"entries": offline.to_dict()["entries"], "properties": []}, indent=1)
        reads = response_reads(source, [t.line for t in touchpoints])
        return (
            _prompt("user.md")
            .replace("{touchpoints}", _touchpoint_lines(touchpoints))
            .replace("{reads}", reads or "- (the analysis found no reads of a response)")
            .replace("{settings}", plan_settings(offline))
            .replace("{parsers}", installed_parsers())
            .replace("{draft}", draft)
            .replace("{source}", source)
        )

    def cache_key(self, system: str, turns: Sequence[Turn]) -> str:
        blob = json.dumps(
            [self.provider.name, self.model, system, list(turns), tool_schema()], sort_keys=True
        )
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def _cached(self, key: str) -> dict[str, Any] | None:
        try:
            data = json.loads((self.cache_dir / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        answer = data.get("input") if isinstance(data, dict) else None
        return answer if isinstance(answer, dict) else None

    def _store(self, key: str, answer: dict[str, Any]) -> None:
        # a read-only cache is not worth failing the draft for
        with contextlib.suppress(PlanError):
            atomic_write_text(
                self.cache_dir / f"{key}.json",
                json.dumps(
                    {"provider": self.provider.name, "model": self.model, "input": answer},
                    indent=1,
                ),
            )

    @staticmethod
    def merge(offline: Plan, answer: dict[str, Any]) -> Plan:
        """The plan the answer describes; :class:`PlanError` names the bad field."""
        return merge(offline, answer)[0]

    # -- the protocol -----------------------------------------------------------
    def refine(
        self, source: str, touchpoints: Sequence[Touchpoint], offline: Plan
    ) -> tuple[Plan, list[str]]:
        """``(plan, warnings)``: the model's plan when valid, else ``offline`` and why."""
        prompt = self.user_prompt(source, touchpoints, offline)
        turns: list[Turn] = [{"role": "user", "text": prompt}]
        return self._answer(turns, offline, offline.source_path, "using the offline draft")

    def repair(
        self, source: str, touchpoints: Sequence[Touchpoint], tried: Plan, failure: str
    ) -> tuple[Plan, list[str]]:
        """A corrected plan after a trial run of ``tried`` went wrong (the drafting loop):
        a follow-up turn, as if the model had submitted ``tried`` and the tool result were
        what the run showed. ``(tried, warnings)`` when there is no valid answer."""
        prompt = self.user_prompt(source, touchpoints, tried)
        entries = {"entries": tried.to_dict()["entries"], "properties": []}
        turns: list[Turn] = [
            {"role": "user", "text": prompt},
            {"role": "plan", "id": TRIED_ID, "input": entries, "raw": "", "text": ""},
            {
                "role": "result",
                "id": TRIED_ID,
                "text": _prompt("repair.md").replace("{failure}", failure),
            },
        ]
        return self._answer(turns, tried, tried.source_path, "the rules repair the plan")

    def _answer(
        self, turns: list[Turn], base: Plan, path: str | None, fallback: str
    ) -> tuple[Plan, list[str]]:
        self.notes = []
        system = _prompt("system.md")
        key = self.cache_key(system, turns)
        shown = path or "<string>"
        turns = [
            {**t, "text": t["text"].replace("{path}", shown)} if t["role"] == "user" else t
            for t in turns
        ]
        cached = self._cached(key)
        if cached is not None:
            with contextlib.suppress(PlanError):
                plan, self.notes = merge(base, cached)
                return plan, []
        missing = self.provider.missing()
        if missing is not None:
            return base, [f"{missing}; {fallback}"]
        try:
            plan, warnings = self._converse(system, turns, key, base)
        except MissingExtraError as exc:
            return base, [f"{exc}; {fallback}"]
        except Exception as exc:  # the SDK's errors, mapped to one line each
            return base, [f"{self.provider.describe(exc)}; {fallback}"]
        return plan, [f"{w}; {fallback}" for w in warnings]

    def _ask(self, system: str, turns: Sequence[Turn], budget: int) -> Reply:
        self.http_calls += 1
        what = f"the {self.provider.name} model {self.model}"
        with waiting(self.progress, what, self.progress_every):
            return self.provider.ask(system, turns, tool_schema(), budget)

    def _converse(
        self, system: str, turns: list[Turn], key: str, base: Plan
    ) -> tuple[Plan, list[str]]:
        budget, cut, judged, error = MAX_TOKENS, False, 0, ""
        while judged < 2:
            reply = self._ask(system, turns, budget)
            if reply.truncated:
                if cut:
                    return base, [
                        f"the model's answer was cut off again at {budget} tokens ({reply.stop})"
                    ]
                cut = True
                self._say(
                    f"the model's answer was cut off at {budget} tokens ({reply.stop}); "
                    f"asking once more with {budget * 2}"
                )
                budget *= 2
                continue
            judged += 1
            error = reply.problem
            if reply.plan is None and not error:
                error = f"no {TOOL_NAME} tool call in the answer (stop_reason {reply.stop or '?'})"
            if reply.plan is not None:
                try:
                    plan, self.notes = merge(base, reply.plan)
                except PlanError as exc:
                    error = str(exc)
                else:
                    self._store(key, reply.plan)
                    return plan, []
            fix = f"The plan is invalid: {error}. Call {TOOL_NAME} again with the corrected plan."
            turns = [*turns, reply.turn()]
            if reply.call_id:
                turns.append({"role": "result", "id": reply.call_id, "text": fix, "error": True})
            else:
                turns.append({"role": "user", "text": fix})
        return base, [f"the model's plan was invalid twice ({error})"]

    def _say(self, line: str) -> None:
        if self.progress is not None:
            self.progress(line)
