"""Python source bytes to text, as the interpreter decodes them (PEP 263).

UTF-8 unless a coding cookie in the first two lines names another encoding;
a UTF-8 byte-order mark is dropped. The common case (no cookie) costs no
import of :mod:`tokenize`.
"""

from __future__ import annotations

import os

__all__ = ["decode_source", "not_python_reason", "read_source", "source_error"]

# the suffixes of Python source files; a file with another suffix runs only when its
# first line is a python #! line (a script named tool.cgi), as `python FILE` users mean it
PYTHON_SUFFIXES = (".py", ".pyw", "")


def decode_source(data: bytes) -> str:
    """The text of Python source ``data``.

    Raises ``UnicodeDecodeError`` (bytes not valid in the encoding),
    ``ValueError`` (NUL bytes: a binary file), ``SyntaxError`` (a cookie that
    conflicts with a BOM) or ``LookupError`` (a cookie naming no known
    encoding), as ``python FILE`` would refuse it.
    """
    if b"\0" in data:
        raise ValueError("binary file (NUL bytes), not Python source; pass a .py file")
    head = data.split(b"\n", 2)[:2]
    if not any(b"coding" in line for line in head):
        return data.decode("utf-8").removeprefix("\ufeff")
    import io
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding).removeprefix("\ufeff")


def source_error(exc: ValueError | SyntaxError | LookupError) -> str:
    """What :func:`decode_source` refused, and the fix, in one line (without the path)."""
    if isinstance(exc, UnicodeDecodeError):
        encoding = "UTF-8" if exc.encoding.replace("_", "-") in ("utf-8", "utf-8-sig") else None
        if encoding is not None:
            return (
                f"not valid UTF-8 text at byte {exc.start}; save the file as UTF-8 or name its "
                "encoding in a coding comment (PEP 263)"
            )
        return (
            f"not valid {exc.encoding} text at byte {exc.start} (its coding comment); "
            "fix the comment or save the file as UTF-8"
        )
    if isinstance(exc, ValueError):
        return str(exc)
    reason = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    return f"bad coding comment ({reason}); fix it or save the file as UTF-8 without one"


def read_source(path: str | os.PathLike[str], *, what: str = "it") -> str:
    """The text of the Python file ``path``; a one-line :class:`~automock.errors.InputError`
    naming the file and the fix when it cannot be read or decoded.

    A missing file raises :class:`FileNotFoundError` as it is: callers word that themselves.
    """
    from automock.errors import InputError

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise
    except OSError as exc:
        reason = exc.strerror or exc
        raise InputError(f"{path}: cannot read {what} ({reason}); check its permissions") from None
    try:
        return decode_source(data)
    except (ValueError, SyntaxError, LookupError) as exc:
        raise InputError(f"{path}: {source_error(exc)}") from None


def not_python_reason(path: str | os.PathLike[str]) -> str | None:
    """Why the regular file ``path`` is not a Python program, or None when it is one.

    A ``.json``, ``.txt``, ``.sh``... file is refused before anything runs (``{"a": 1}`` is a
    valid Python expression, so running it would "pass" and draft a plan for data). A file
    with such a suffix whose first line is a ``#!`` line naming python is a program."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix in PYTHON_SUFFIXES:
        return None
    try:
        with open(path, "rb") as handle:
            first = handle.readline(256)
    except OSError:
        return None  # unreadable: read_source says so in its own words
    if first.startswith(b"#!") and b"python" in first:
        return None
    return (
        f"not Python source (a {suffix} file); pass a .py file, or a script whose first "
        "line is a python #! line"
    )
