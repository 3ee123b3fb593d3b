"""Every error automock raises on purpose derives from :class:`AutomockError`.

Each class carries the process exit code the CLI uses for it, so a caller
scripting ``automock`` can tell bad input from a sandbox violation without
parsing messages. Messages are one line, name the offending input and say
what to do about it.
"""

from __future__ import annotations

__all__ = [
    "DISTRIBUTION",
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_MEMORY",
    "EXIT_NONDETERMINISTIC",
    "EXIT_PLAN",
    "EXIT_TIMEOUT",
    "EXIT_TOO_LARGE",
    "EXIT_UNMOCKED",
    "EXIT_VIOLATION",
    "AutomockError",
    "CallTimeout",
    "DraftError",
    "FileTooLargeError",
    "InputError",
    "MissingExtraError",
    "PlanError",
    "SandboxError",
    "UnmockedAccessError",
    "describe_missing",
]

# Exit codes. 0 and 1 keep their usual meaning (success / "found something" in
# lint mode, or the program's own code for ``automock run``). The rest sit
# high so they rarely collide with a program's own exit status.
EXIT_INPUT = 2  # bad command-line input: missing file, syntax error, bad flag
EXIT_PLAN = 3  # malformed, stale or unwritable plan file
EXIT_NONDETERMINISTIC = 4  # --repeat found runs that differ
EXIT_UNMOCKED = 5  # the program reached something the plan does not mock
EXIT_TOO_LARGE = 6  # a file over the scan size limit was skipped (--max-file-size raises it)
EXIT_TIMEOUT = 124  # wall-clock timeout (same as coreutils `timeout`)
EXIT_MEMORY = 125  # address-space limit hit
EXIT_VIOLATION = 126  # sandbox violation (escape attempt blocked, process bomb, ...)
EXIT_INTERNAL = 70  # automock's own bug (EX_SOFTWARE)


class AutomockError(Exception):
    """Root of every error automock raises deliberately."""

    exit_code: int = EXIT_INTERNAL

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class CallTimeout(AutomockError):
    """A call of a function under check ran past its time bound (a hang is its own verdict)."""

    exit_code = EXIT_TIMEOUT


class CallTooCostly(CallTimeout):
    """A call of a function under check ran out of its memory bound: the input costs too much."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) ended a sandboxed run: what the program had written so far.

    A :class:`KeyboardInterrupt`, so every ``except KeyboardInterrupt`` still sees it; the
    command prints ``stdout`` and ``stderr`` (neutralised, as a finished run's) and then
    says it was interrupted."""

    def __init__(self, stdout: str, stderr: str) -> None:
        super().__init__()
        self.stdout, self.stderr = stdout, stderr


class InputError(AutomockError, ValueError):
    """A path, flag, argument or source file given by the user cannot be used.

    Also a :class:`ValueError`, so a library caller's ``except ValueError``
    catches a bad argument as it would from any Python function.
    """

    exit_code = EXIT_INPUT


class FileTooLargeError(InputError):
    """A source file is over the scan size limit (``automock scan --max-file-size``)."""

    exit_code = EXIT_TOO_LARGE


class PlanError(AutomockError):
    """A plan file is malformed, stale, or could not be written."""

    exit_code = EXIT_PLAN


class DraftError(AutomockError):
    """A drafter could not produce a plan (the caller usually falls back)."""

    exit_code = EXIT_PLAN


class UnmockedAccessError(AutomockError):
    """Code under the runtime reached a resource the plan does not mock.

    Raised inside the program (so its traceback points at the call) and
    recorded in the report with the plan entry to add.
    """

    exit_code = EXIT_UNMOCKED

    def __init__(self, message: str, *, kind: str, api: str, target: str, fix: str) -> None:
        super().__init__(f"{message}; {fix}" if fix else message)
        self.kind = kind
        self.api = api
        self.target = target
        self.fix = fix


class SandboxError(AutomockError):
    """The sandbox could not be set up or the program violated it."""

    exit_code = EXIT_VIOLATION


DISTRIBUTION = "automock-sandbox"  # the name on the package index (imported as `automock`)


class MissingExtraError(AutomockError, ImportError):
    """An optional backend is needed but its package is not installed."""

    exit_code = EXIT_INPUT

    def __init__(self, package: str, extra: str, purpose: str) -> None:
        super().__init__(
            f"{purpose} needs the '{package}' package; install it with: "
            f"pip install '{DISTRIBUTION}[{extra}]'"
        )
        self.package = package
        self.extra = extra


def describe_missing(path: object) -> str:
    """Why ``path`` is not a regular file, in a few words (for one-line errors)."""
    import os
    import stat

    try:
        mode = os.stat(str(path)).st_mode
    except FileNotFoundError:
        return "no such file" if not os.path.islink(str(path)) else "dangling symlink"
    except OSError as exc:
        return exc.strerror or "cannot be read"
    return "is a directory" if stat.S_ISDIR(mode) else "not a regular file"
