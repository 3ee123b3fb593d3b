"""``automock run FILE --cassette PATH``: the cassette of one run, checked before it starts.

``--cassette PATH`` (relative to the current directory) replaces the plan's cassette for
the run: replayed offline, or recorded with ``--record`` / ``--record-mode MODE``. Before a
replay the cassette is checked in the parent, so a missing, unreadable or corrupt file (or
a missing ``cassettes`` extra) is one line naming the person's path, not a request-by-request
"no recording" or a path inside the sandbox. Messages from inside the sandbox name the
staged copy (``<workdir>/cassettes/NAME``); :func:`user_paths` puts the person's path back.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from automock.commands._record import _base, _replaying, _shown
from automock.errors import InputError, MissingExtraError, PlanError
from automock.plan.model import CassetteSettings, Plan
from automock.sandbox.run.cassettes import STAGED_DIR

__all__ = ["check_replay", "user_paths", "with_cassette"]


def with_cassette(plan: Plan, plan_path: Path | None, value: str) -> Plan:
    """``plan`` using the cassette at ``value`` (given on the command line); its HTTP stubs
    give way to the cassette, as after a recording."""
    host = Path(value).expanduser().resolve()
    if host.is_dir():
        raise InputError(f"--cassette {value}: is a directory; give a cassette file (.yaml)")
    path = str(host)
    if plan_path is not None:  # as a plan writes it, so a recording's plan update is portable
        path = os.path.relpath(host, _base(plan_path)).replace(os.sep, "/")
    mode = plan.cassette.record_mode if plan.cassette is not None else "none"
    replaying = _replaying(plan, path)
    return replace(replaying, cassette=CassetteSettings(path=path, record_mode=mode))


def check_replay(run_plan: Plan, file: Path, flag: str | None) -> None:
    """Before a replay: the cassette exists and is one, and vcrpy is installed."""
    cassette = run_plan.cassette
    if cassette is None or cassette.record_mode != "none":
        return
    host = Path(cassette.path)
    shown = flag if flag is not None else _shown(host)
    error = InputError if flag is not None else PlanError
    if not host.is_file():
        again = f" --cassette {flag}" if flag is not None else ""
        raise error(
            f"cassette {shown} not found (record it with: automock run {file} --record{again})"
        )
    try:
        from automock.runtime.cassette import check_cassette
    except ImportError:  # pragma: no cover - the runtime ships with automock
        return
    try:
        check_cassette(str(host), shown=shown)
    except MissingExtraError:
        raise
    except PlanError as exc:
        raise error(str(exc)) from None


def user_paths(run_plan: Plan) -> Callable[[str], str]:
    """Replace the sandbox's path of the staged cassette with the person's path in a text."""
    if run_plan.cassette is None:
        return lambda text: text
    host = Path(run_plan.cassette.path)
    staged = re.compile(
        r"(?:/[^\s'\"]*)?/" + re.escape(f"{STAGED_DIR}/{host.name}") + r"(?![\w.-])"
    )
    shown = _shown(host)
    return lambda text: staged.sub(lambda _m: shown, text)
