"""Printing what a sandboxed program produced next to automock's own words.

Everything a program writes is untrusted: its output, and the details, exception
messages and task names it hands back. Printed as it came, an escape sequence could
hide automock's report on a terminal (SGR 8, "conceal", left on), move the cursor
over it, or clear the screen; a ``\\n`` or ``\\r`` in a one-line detail could add lines
that look like automock's. So every such text goes through this module first:

- :func:`visible`: one line; every character that is not printable (control
  characters, ``ESC``, ``\\r``, ``\\n``, bidirectional overrides, zero-width marks) is
  shown as its Python escape (``\\x1b``, ``\\r``, ``\\u202e``), never sent as is;
- :func:`visible_lines`: the same, keeping the program's ``\\n`` and ``\\t`` (its output
  keeps its lines);
- :func:`gutter`: :func:`visible_lines` with :data:`GUTTER` before each line, for a
  program's output printed on the stream automock's report is on (no program line can
  then start where a report line does);
- :func:`report_start` and :func:`emphasis`: on a terminal, automock's report begins
  with an attribute reset and its verdict line is bold, which no program text can be
  (its escape sequences never reach the terminal).

JSON output needs none of this: ``json.dumps`` escapes every control character.
"""

from __future__ import annotations

from typing import TextIO

__all__ = [
    "GUTTER",
    "RESET",
    "emphasis",
    "gutter",
    "report_start",
    "terminal",
    "visible",
    "visible_lines",
]

RESET = "\x1b[0m"  # SGR 0: every attribute (conceal, colours, reverse) off
_BOLD = "\x1b[1m"
GUTTER = "\u2502 "  # "│ " before each line of the program's stderr


def _escaped(char: str) -> str:
    return repr(char)[1:-1]


def visible(text: str) -> str:
    """``text`` on one line, every non-printable character shown escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def visible_lines(text: str) -> str:
    """``text`` with its ``\\n`` and ``\\t`` kept and every other non-printable character
    shown escaped (``\\r``, ``ESC``, ...)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.isprintable():
            lines[i] = "".join(c if c.isprintable() or c == "\t" else _escaped(c) for c in line)
    return "\n".join(lines)


def gutter(text: str, mark: str = GUTTER) -> str:
    """Each line of ``text`` (made :func:`visible_lines`) after ``mark``; a last line without
    its ``\\n`` gets one."""
    if not text:
        return ""
    body = visible_lines(text).removesuffix("\n")
    return "".join(f"{mark}{line}\n" for line in body.split("\n"))


def terminal(stream: TextIO) -> bool:
    """Is ``stream`` a terminal?"""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def report_start(on_terminal: bool) -> str:
    """What to write before automock's report: an attribute reset on a terminal."""
    return RESET if on_terminal else ""


def emphasis(line: str, on_terminal: bool) -> str:
    """``line`` in bold on a terminal (only automock's own lines are ever bold)."""
    return f"{_BOLD}{line}{RESET}" if on_terminal else line
