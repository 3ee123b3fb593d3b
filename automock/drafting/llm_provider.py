"""What the LLM drafter needs of a model provider, and which provider the environment names.

A provider turns one neutral conversation (:data:`Turn` dicts) into its API's request,
sends it with its SDK, and answers a :class:`Reply`; it says what is missing before a call
(a key) and what an SDK error means, in one line. The providers are
:mod:`automock.drafting.llm_anthropic` (the default) and :mod:`automock.drafting.llm_openai`
(``AUTOMOCK_LLM=openai``: OpenAI or any OpenAI-compatible server); the drafter
(:mod:`automock.drafting.llm`) picks one. Their SDKs are imported
only when a model is called.

A conversation turn is one of::

    {"role": "user", "text": "..."}
    {"role": "plan", "id": "call_1", "input": {...} | None, "raw": "...", "text": "..."}
    {"role": "result", "id": "call_1", "text": "...", "error": True | False}

``plan`` is the model's own turn (its ``submit_plan`` call, ``input`` None when it made
none), ``result`` what automock says back about that call.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "PROGRESS_EVERY",
    "PROVIDERS",
    "Provider",
    "Reply",
    "Turn",
    "api_message",
    "stderr_progress",
    "waiting",
]

PROVIDERS = ("anthropic", "openai")
PROGRESS_EVERY = 10.0  # seconds between two "still waiting" lines
# one request may take this long: a full answer (8-16k tokens) at a slow model's pace
REQUEST_TIMEOUT = 240.0
CONNECT_TIMEOUT = 10.0
# the SDKs retry 429, 5xx and overloaded answers themselves; once is enough to ride out a
# blip without minutes of silence
MAX_RETRIES = 1

Turn = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Reply:
    """One answer: the ``submit_plan`` call's arguments (``plan``, None when there was no
    call or its arguments were not JSON, ``problem`` then says which), the call's ``id``
    and raw arguments, any text, and whether the answer was cut off at the token budget
    (``truncated``, with the API's own ``stop`` reason)."""

    plan: dict[str, Any] | None
    call_id: str = ""
    raw: str = ""
    text: str = ""
    stop: str = ""
    truncated: bool = False
    problem: str = ""

    def turn(self) -> Turn:
        """This answer as the model's turn of the conversation."""
        return {
            "role": "plan",
            "id": self.call_id,
            "input": self.plan,
            "raw": self.raw,
            "text": self.text,
        }


class Provider(Protocol):
    """A model provider (see the module docstring)."""

    name: str
    model: str

    def missing(self) -> str | None:
        """What must be set before a call (a key), in one line; None when ready."""

    def ask(
        self, system: str, turns: Sequence[Turn], schema: dict[str, Any], max_tokens: int
    ) -> Reply:
        """Send the conversation and return the model's answer (SDK errors propagate)."""

    def describe(self, exc: Exception) -> str:
        """One line saying what an exception of :meth:`ask` means and what to do."""


def api_message(exc: Exception) -> str:
    """The API's own words in an error answer (``error.message`` of its body), one line."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
        if isinstance(message, str) and message.strip():
            return " ".join(message.split())[:300]
    text = str(getattr(exc, "message", "") or exc)
    return " ".join(text.split())[:300]


def stderr_progress(line: str) -> None:
    """The default progress sink: one ``automock:`` line on stderr."""
    print(f"automock: {line}", file=sys.stderr, flush=True)


@contextmanager
def waiting(
    say: Callable[[str], None] | None, what: str, every: float = PROGRESS_EVERY
) -> Iterator[None]:
    """While the body runs, ``say`` one line every ``every`` seconds that it still waits
    for ``what`` (nothing when it answers sooner; nothing when ``say`` is None)."""
    if say is None:
        yield
        return
    done = threading.Event()
    start = time.monotonic()

    def tick() -> None:
        while not done.wait(every):
            say(f"still waiting for {what} ({time.monotonic() - start:.0f} s)")

    ticker = threading.Thread(target=tick, name="automock-llm-progress", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join(1.0)
