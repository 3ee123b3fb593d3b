"""Restart the CLI once with ``PYTHONHASHSEED`` fixed, before any heavy import.

String hashing, and so the iteration order of sets and of dicts built from
them, is fixed when an interpreter starts, and a forked child shares its
parent's. ``automock batch`` forks every candidate from a warm pool, and
``automock run`` forks its sandbox child from the CLI process (see
:mod:`automock.sandbox.run.forked`), so both need the CLI itself to run with the
hash seed derived from the run's seed: :func:`restart_with_hash_seed` execs
the same command again with it set. The exec replaces the process (same pid,
no second process to wait for) and costs one bare interpreter start, paid
once instead of by every child.

For ``automock run`` the restart happens first thing in
:func:`automock.cli.main` (:func:`automock.commands.client.run_early`, which
first offers the command to a warm server), from a quick reading
(:func:`quick_read`) of the arguments, before argparse or anything else is
imported. Whatever that reading gets wrong only costs speed: the sandbox forks
only when the hash seed matches the run's, and starts a fresh interpreter
otherwise (in the CLI and in a server's handler alike).

An explicit ``PYTHONHASHSEED`` in the environment is respected; in-process
calls (``automock.cli.main(argv)`` in tests, the Python API) are never
restarted.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

__all__ = [
    "RESTARTED",
    "invoked_as_cli",
    "quick_read",
    "restart_for_run",
    "restart_with_hash_seed",
    "restarted_environment",
    "run_seed",
    "scrubbed",
    "seed_of",
]

# options of ``automock run`` that take a value (see automock.commands.run)
_VALUED = (
    "--repeat",
    "--timeout",
    "--memory-mb",
    "--seed",
    "--seeds",
    "--record-mode",
    "--plan",
    "--read",
    "--cassette",
    "--draft-rounds",
    "--drafter",
)


def invoked_as_cli() -> bool:
    """Is this process the ``automock`` command (console script or ``python -m automock``)?"""
    argv0 = sys.argv[0] if sys.argv else ""
    return os.path.basename(argv0) == "automock" or argv0.endswith(
        os.path.join("automock", "__main__.py")
    )


# what the CLI process itself reads from its environment; nothing else survives the restart
_KEPT = ("PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TZ", "TERM", "COLUMNS", "LINES", "LANG")
_KEPT_PREFIXES = ("LC_", "PYTHON", "AUTOMOCK_", "XDG_", "NO_COLOR", "FORCE_COLOR", "VIRTUAL_ENV")
RESTARTED = "AUTOMOCK_RESTARTED"  # set in the restarted CLI: its sandbox children may be forked
# A forked child shows its environment in ``/proc/<pid>/environ`` by writing it over
# the block this process was exec'd with (see automock.sandbox.child.fresh), so the
# restart reserves room there: a fixed part for the child's own variables
# (paths, locale, seed) plus the size of the plan, which bounds the plan's.
ROOM = "AUTOMOCK_ENV_ROOM"
_BASE_ROOM = 4096


def scrubbed(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables the CLI needs (locale, paths, automock's own); no tokens or keys.

    Sandbox children get a fixed environment of their own, but a forked child
    holds a copy of its parent's memory: what the parent never had, no program
    can dig out of it.
    """
    return {k: v for k, v in environ.items() if k in _KEPT or k.startswith(_KEPT_PREFIXES)}


def restarted_environment(seed: int, *, scrub: bool = True, room: int = 0) -> dict[str, str]:
    """The environment of ``python -P -m automock ...`` restarted for ``seed`` (see below)."""
    from automock._seed import hash_seed_for

    env = scrubbed(os.environ) if scrub else dict(os.environ)
    env.update(PYTHONHASHSEED=hash_seed_for(seed), **{RESTARTED: "1"})
    if room > 0:
        env[ROOM] = "." * room
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if root not in sys.path[1:]:  # a checkout run as `python -m automock` from its directory:
        # -P drops the current directory, so name it (an installed automock needs nothing)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


def restart_with_hash_seed(seed: int, *, scrub: bool = True, room: int = 0) -> None:
    """Exec ``python -P -m automock <same arguments>`` with the hash seed of ``seed``.

    The new process gets only the variables the CLI reads (``scrub=False``
    keeps them all, e.g. for a Ray backend that reads its own). ``room`` bytes
    are reserved in the environment block for a forked child's. Returns (does
    nothing) when ``PYTHONHASHSEED`` is already set or when this is not the
    ``automock`` command itself.
    """
    if "PYTHONHASHSEED" in os.environ or not invoked_as_cli():
        return
    env = restarted_environment(seed, scrub=scrub, room=room)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    # -P: no current-directory entry on sys.path (the sandbox child inherits sys.path)
    os.execve(sys.executable, [sys.executable, "-P", "-m", "automock", *sys.argv[1:]], env)


def _seed_in(path: str) -> int:
    """The ``seed`` of the plan at ``path``, read as plain JSON (the real load validates it)."""
    import json

    try:
        with open(path, "rb") as handle:
            found = json.load(handle).get("seed", 0)
    except (OSError, ValueError, AttributeError):
        return 0
    return found if type(found) is int else 0


def quick_read(tokens: Sequence[str]) -> tuple[int | None, str | None, str] | None:
    """(--seed, --plan, FILE) from ``automock run`` arguments, or None if unsure."""
    seed: int | None = None
    plan: str | None = None
    file: str | None = None
    it = iter(tokens)
    for token in it:
        if token == "--":
            break
        if token.startswith("--"):
            name, eq, value = token.partition("=")
            if name in _VALUED:
                value = value if eq else next(it, "")
                if name == "--seed":
                    try:
                        seed = int(value, 0)
                    except ValueError:
                        return None
                elif name == "--plan":
                    plan = value
            continue
        if token.startswith("-"):
            return None  # -h and friends: nothing to run
        if file is None:
            file = token
    return (seed, plan, file) if file is not None else None


def _plan_and_size(plan: str | None, file: str) -> tuple[str | None, int]:
    from automock.plan.locate import existing_plan, found_from, leads_out  # os only

    path = plan if plan is not None else existing_plan(file)
    if plan is None and path is not None and leads_out(path, found_from(file, path)):
        path = None  # a link out of the project is never read (the run refuses it)
    try:
        return path, os.path.getsize(path) if path is not None else 0
    except OSError:
        return path, 0


def run_seed(argv: Sequence[str]) -> int | None:
    """The seed ``automock <argv>`` will run with (``--seed``, else its plan's), or None
    if ``argv`` is not a run this quick reading understands."""
    read = quick_read(argv[1:]) if argv[:1] == ["run"] else None
    return seed_of(*read) if read is not None else None


def seed_of(seed: int | None, plan: str | None, file: str) -> int:
    """The seed of a run as :func:`quick_read` read it: ``--seed``, else its plan's (0)."""
    if seed is None:
        path, size = _plan_and_size(plan, file)
        seed = _seed_in(path) if path is not None and size else 0
    return seed


def restart_for_run(seed: int | None, plan: str | None, file: str) -> None:
    """:func:`restart_with_hash_seed` for a run of ``file`` (the plan is read only if it will).

    Room is reserved for the child's environment: :data:`_BASE_ROOM` plus the
    plan file's size, which bounds the variables it sets (a JSON entry
    ``"k": "v",`` is never shorter than its ``k=v\\0``).
    """
    if "PYTHONHASHSEED" in os.environ or not invoked_as_cli():
        return
    path, size = _plan_and_size(plan, file)
    if seed is None:
        seed = _seed_in(path) if path is not None and size else 0
    restart_with_hash_seed(seed, room=_BASE_ROOM + size)
