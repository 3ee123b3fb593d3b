"""Which drafter the person chose: ``rules`` unless they opted in to the model.

A model sees the program's source, so it is used only on an explicit choice: ``--drafter
llm``, ``AUTOMOCK_DRAFTER=llm``, or ``drafter = "llm"`` under ``[tool.automock]`` in the
nearest ``pyproject.toml``. An API key in the environment alone never uploads source code.
"""

from __future__ import annotations

import os

__all__ = ["chosen_drafter", "configured_drafter"]

_CHOICES = ("rules", "llm")


def configured_drafter(start: str | os.PathLike[str] | None = None) -> str | None:
    """``drafter`` under ``[tool.automock]`` in the nearest pyproject.toml from ``start``
    (default: the working directory) upwards, or None."""
    import tomllib

    here = os.path.realpath(start if start is not None else os.getcwd())
    while True:
        path = os.path.join(here, "pyproject.toml")
        if os.path.isfile(path):
            break
        if os.path.dirname(here) == here:
            return None
        here = os.path.dirname(here)
    try:
        with open(path, encoding="utf-8") as handle:
            data = tomllib.loads(handle.read())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        from automock.errors import InputError

        raise InputError(f"{path}: not readable as TOML ({exc}); fix the file") from None
    value = data.get("tool", {}).get("automock", {}).get("drafter")
    if value is not None and value not in _CHOICES:
        from automock.errors import InputError

        raise InputError(f'{path}: [tool.automock] drafter = {value!r}: expected "rules" or "llm"')
    return str(value) if value is not None else None


def chosen_drafter(choice: str | None = None, start: str | os.PathLike[str] | None = None) -> str:
    """``rules`` or ``llm``: ``choice`` (a flag; None or ``auto``: not given), else
    ``AUTOMOCK_DRAFTER``, else the pyproject setting, else ``rules``."""
    if choice in _CHOICES:
        return str(choice)
    env = os.environ.get("AUTOMOCK_DRAFTER")
    if env is not None and env not in _CHOICES:
        from automock.errors import InputError

        raise InputError(f"AUTOMOCK_DRAFTER={env!r}: expected rules or llm; set it to one of them")
    return env or configured_drafter(start) or "rules"
