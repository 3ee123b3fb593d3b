"""Reading the run child's result pipe: its ``started`` and ``done`` messages, validated.

The pipe carries JSON lines: ``{"phase": "started", ...}`` written by the sandbox
before any program code runs, then one ``{"phase": "done", ...}`` written after
the program ended. The program runs in the process that writes them and can find
the descriptor, so everything after the first line is the program's to forge:
its report is diagnostics, never evidence (the verdict comes from the exit status,
the layers from the parent's own observation, :mod:`automock.sandbox.run.observe`).

:func:`parse` never raises on what it is given. Any line that is not UTF-8, holds a
NUL, is not JSON (or is nested too deeply to parse), is not one of the two
messages with exactly the fields and types automock writes, a second ``done``
message, or a pipe that carried more than :data:`RESULT_CAP` bytes makes the
program's report *unusable*: :attr:`ChildReport.problem` says why, in one line,
and no part of it is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from automock.sandbox.judge import consistent, valid_layers, valid_report

__all__ = ["RESULT_CAP", "ChildReport", "parse"]

RESULT_CAP = 1 << 20  # bytes of the result pipe kept; the rest is counted and dropped


@dataclass(frozen=True, slots=True)
class ChildReport:
    """What the result pipe said: the sandbox's ``started`` line and the program's report.

    ``started`` is the validated first line (None if it was not one); ``done`` the one
    valid ``done`` message, or None when there was none or the report is unusable;
    ``problem`` why it is unusable ("" when it is usable or absent).
    """

    started: Mapping[str, Any] | None
    done: Mapping[str, Any] | None
    problem: str = ""

    def checked_against(self, returncode: int, ended_normally: bool) -> ChildReport:
        """This report, unusable if its ``done`` message contradicts the exit status."""
        if self.done is None or not ended_normally or consistent(self.done, returncode):
            return self
        claimed = f"exit code {self.done['exit_code']} ({self.done['status']})"
        problem = f"its done message claims {claimed}, the exit status is {returncode}"
        return ChildReport(self.started, None, problem)


def _load(line: bytes) -> tuple[object, str]:
    """(value, "") for a JSON line, else (None, why not)."""
    if b"\0" in line:
        return None, "a NUL byte"
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return None, "bytes that are not UTF-8"
    import json

    try:
        return json.loads(text), ""
    except RecursionError:
        return None, "JSON nested too deeply"
    except ValueError:
        return None, "a line that is not JSON"


def _started(line: bytes) -> Mapping[str, Any] | None:
    message, _ = _load(line)
    if type(message) is not dict or set(message) != {"phase", "layers"}:
        return None
    if message["phase"] != "started" or valid_layers(message["layers"]) is None:
        return None
    return message


def parse(raw: bytes, dropped: int = 0) -> ChildReport:
    """Split and validate what the result pipe carried (``dropped``: bytes beyond the cap)."""
    lines = raw.split(b"\n")
    started = _started(lines[0]) if len(lines) > 1 else None
    if dropped:
        cap = f"over the {RESULT_CAP // 1024} KiB cap, {dropped} bytes dropped"
        return ChildReport(started, None, cap)
    rest = [line for line in lines[1:] if line.strip()]
    if started is None and raw.strip():
        rest = [line for line in lines if line.strip()]
    done: Mapping[str, Any] | None = None
    for number, line in enumerate(rest, start=1):
        message, why = _load(line)
        if why:
            return ChildReport(started, None, f"message {number}: {why}")
        checked = valid_report(message)
        if checked is None:
            shape = "not a done message with the fields and types automock writes"
            return ChildReport(started, None, f"message {number}: {shape}")
        if done is not None:
            return ChildReport(started, None, f"{len(rest)} done messages where one was expected")
        done = checked
    return ChildReport(started, done)
