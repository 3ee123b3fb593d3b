"""Find touchpoints in Python source: the public ``scan`` / ``scan_source`` API.

Pipeline per file, cheapest first (docs/scan.md, "How it is fast enough"):

1. :mod:`automock.analysis.prefilter`: ``ast.parse`` (the syntax check) and
   regexes select the statements that can hold or influence touchpoints;
   a file with none is done;
2. libcst (the analyzer of record) parses just those lines;
   :mod:`automock.analysis.collect` records scopes, bindings and references,
   :mod:`automock.analysis.resolve` resolves them to qualified names, and the
   catalog decides what is a touchpoint;
3. :mod:`automock.analysis.positions` computes libcst positions for the
   statements that hold touchpoints only.

Results are cached in memory by content hash (and optionally on disk).
``_analyze(..., reference=True)`` is the slow whole-file path the tests
compare this one against.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING

from automock._source import decode_source, source_error
from automock.analysis import catalog, prefilter
from automock.analysis.cache import DiskCache
from automock.analysis.model import KINDS, FileScan, Kind, ScanResult, Touchpoint
from automock.analysis.pool import scan_many
from automock.errors import InputError

if TYPE_CHECKING:
    import libcst as cst

    from automock.analysis.positions import Outline

__all__ = ["MAX_BYTES", "parse_kinds", "scan", "scan_file", "scan_paths", "scan_source"]

MAX_BYTES = 1 << 20
"""Files larger than this are skipped with one line saying so (``--max-file-size``):
the libcst analysis holds ~400 bytes of memory per byte of source."""

_CACHE: OrderedDict[tuple[str, str], tuple[Touchpoint, ...] | str] = OrderedDict()
_CACHE_SIZE = 4096
# libcst recurses once per nesting level (long ``a + b + ...`` chains); the
# analysis raises the limit for its own duration only.
_DEEP_RECURSION = 20_000
_TRACKED_TYPES = frozenset(catalog.RETURNS.values())
_NEWLINE = re.compile(r"[ \t]*(?:\\)?\r?\n[ \t]*")

PathLike = str | os.PathLike[str]


def parse_kinds(kinds: Iterable[str] | str | None) -> frozenset[Kind] | None:
    """Validate a kinds filter (``"time,random"`` or an iterable); ``None`` means all."""
    if kinds is None:
        return None
    names = kinds.split(",") if isinstance(kinds, str) else list(kinds)
    wanted = {n.strip() for n in names if n.strip()}
    unknown = sorted(wanted - set(KINDS))
    if unknown or not wanted:
        raise InputError(
            f"unknown kind {', '.join(unknown) or '(empty)'!s}; valid kinds are: {', '.join(KINDS)}"
        )
    return frozenset(k for k in KINDS if k in wanted)


def _filter(scan: FileScan, kinds: frozenset[Kind] | None) -> FileScan:
    if kinds is None or not scan.touchpoints:
        return scan
    kept = tuple(t for t in scan.touchpoints if t.kind in kinds)
    return FileScan(scan.path, kept, scan.error, scan.sha256)


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} KB"


def _over_limit(path: Path, shown: str, max_bytes: int | None) -> FileScan | None:
    """A skipped scan when ``path`` is larger than ``max_bytes`` (``None``: no limit)."""
    try:
        size = path.stat().st_size
    except OSError:
        return None  # reading it says what is wrong
    if max_bytes is None or size <= max_bytes or not path.is_file():
        return None
    larger = math.ceil(max(2 * max_bytes, size + 1) / (1 << 20))
    message = (
        f"{shown}: skipped, {_megabytes(size)} is over the scan limit of {_megabytes(max_bytes)} "
        f"(generated or vendored code?); exclude it, or raise the limit with "
        f"--max-file-size {larger}M"
    )
    return FileScan(shown, (), message, None, too_large=True)


def _text_digest_error(path: Path) -> tuple[str | None, str | None, str | None]:
    """``(text, sha256, error)`` for a file; ``error`` is a one-line message."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, None, f"{path}: no such file; check the path"
    except IsADirectoryError:
        return None, None, f"{path}: is a directory"
    except OSError as exc:
        return None, None, f"{path}: cannot read ({exc.strerror or exc}); check permissions"
    digest = hashlib.sha256(data).hexdigest()
    try:
        text = decode_source(data)
    except (ValueError, SyntaxError, LookupError) as exc:
        return None, digest, f"{path}: {source_error(exc)}"
    return text, digest, None


def _syntax_error(path: str, exc: SyntaxError) -> str:
    if not exc.lineno:  # NUL bytes, nesting too deep for the parser
        return f"{path}: cannot parse ({exc.msg}); fix the file or exclude it from the scan"
    where = f"{path}:{exc.lineno}"
    if exc.offset:
        where += f":{exc.offset}"
    return f"{where}: syntax error: {exc.msg}; fix the file or exclude it from the scan"


def _analyze(source: str, path: str, *, reference: bool = False) -> tuple[Touchpoint, ...] | str:
    """Touchpoints of one source text, or a one-line error message.

    By default libcst sees only the statements the pre-filter selected and
    generates code only for statements with touchpoints to get positions.
    ``reference=True`` parses the whole file and takes positions from libcst's
    own ``PositionProvider``: the slow, obviously-right path the tests compare
    the fast one against.
    """
    selection, tree = prefilter.select_parsed(source)
    if isinstance(selection, SyntaxError):
        return _syntax_error(path, selection)
    if selection is None:
        return ()
    text, line_map = source, None
    if not reference:
        text, line_map = _excerpt(source, selection)
    from automock.analysis.positions import outline

    outlined = outline(tree.body) if tree is not None and text is source else None
    del tree  # the libcst tree is large enough on its own (issue 28)
    import libcst as cst

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _DEEP_RECURSION))
    try:
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            if line_map is None:
                raise
            text, line_map = source, None  # excerpt quirk: fall back to the whole file
            module = cst.parse_module(text)
        if text is not source:  # the excerpt quirk's fallback: no outline of this text
            outlined = None
        return _touchpoints(module, text, path, line_map, reference=reference, outlined=outlined)
    except cst.ParserSyntaxError as exc:  # CPython accepted it, libcst did not
        message = exc.message.splitlines()[0] if exc.message else "unsupported syntax"
        return (
            f"{path}:{exc.raw_line}:{exc.raw_column + 1}: cannot analyze: libcst does not "
            f"support this syntax ({message}); exclude the file from the scan"
        )
    except RecursionError:
        return f"{path}: too deeply nested to analyze; simplify the expression or exclude the file"
    finally:
        sys.setrecursionlimit(limit)


def _excerpt(source: str, ranges: tuple[tuple[int, int], ...]) -> tuple[str, list[int] | None]:
    """The selected lines as one module, and the file line of each of its lines."""
    lines = StringIO(source, newline="").readlines()
    total = sum(end - start + 1 for start, end in ranges)
    if total >= 0.9 * len(lines):
        return source, None
    parts: list[str] = []
    line_map: list[int] = []
    for start, end in ranges:
        chunk = lines[start - 1 : end]
        if chunk and not chunk[-1].endswith(("\n", "\r")):
            chunk[-1] += "\n"
        parts.extend(chunk)
        line_map.extend(range(start, start + len(chunk)))
    return "".join(parts), line_map


def _touchpoints(
    module: cst.Module,
    source: str,
    path: str,
    line_map: list[int] | None,
    *,
    reference: bool = False,
    outlined: tuple[Outline, ...] | None = None,
) -> tuple[Touchpoint, ...]:
    from automock.analysis.collect import Collector
    from automock.analysis.resolve import is_pure_call, value_of

    collector = Collector()
    collector.collect(module)
    found = []
    for site in collector.sites:
        value = value_of(site.expr)
        if value is None or value.instance:
            continue
        match = catalog.lookup(value.name)
        if match is None:
            continue
        key, api = match
        if key != value.name and key in _TRACKED_TYPES and api.kind == "network":
            continue  # an uncatalogued member of a client (``s.headers[...] = ...``): no request
        if site.call is not None and is_pure_call(site.call, api):
            continue
        found.append((site, value.name, api))
    if not found:
        return ()
    if reference:
        from libcst.metadata import MetadataWrapper, PositionProvider

        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    else:
        from automock.analysis.positions import positions_for

        positions = positions_for(
            module,
            source,
            {site.path for site, _, _ in found},
            [site.span for site, _, _ in found],
            outlined,
        )

    def line(number: int) -> int:
        return number if line_map is None else line_map[number - 1]

    out = []
    for site, name, api in found:
        span = positions[site.span]
        symbol = _NEWLINE.sub("", module.code_for_node(site.ref)).strip()
        out.append(
            Touchpoint(
                path=path,
                line=line(span.start.line),
                col=span.start.column,
                end_line=line(span.end.line),
                end_col=span.end.column,
                kind=api.kind,
                api=name,
                symbol=symbol,
                reason=api.reason,
            )
        )
    out.sort(key=lambda t: (t.line, t.col, t.end_line, t.end_col, t.api))
    return tuple(out)


def _cached(
    source: str, path: str, digest: str, disk: DiskCache | None = None
) -> tuple[Touchpoint, ...] | str:
    key = (digest, path)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    result: tuple[Touchpoint, ...] | str | None = None
    if disk is not None:
        result = disk.get(digest, path)
    if result is None:
        result = _analyze(source, path)
        if disk is not None and not isinstance(result, str):
            disk.put(digest, result)
    _CACHE[key] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


def scan_source(
    source: str, path: str = "<string>", *, kinds: Iterable[str] | str | None = None
) -> FileScan:
    """Scan Python source text; errors (syntax) come back in ``FileScan.error``."""
    wanted = parse_kinds(kinds)
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    result = _cached(source, path, digest)
    if isinstance(result, str):
        return FileScan(path, (), result, digest)
    return _filter(FileScan(path, result, None, digest), wanted)


def scan_file(
    path: PathLike,
    *,
    kinds: Iterable[str] | str | None = None,
    cache_dir: PathLike | None = None,
    max_bytes: int | None = MAX_BYTES,
) -> FileScan:
    """Scan one file; unreadable, binary or invalid files come back with ``error`` set.

    A file over ``max_bytes`` (``None``: no limit) is not read: it comes back with
    ``too_large`` set and an ``error`` naming its size and the way to raise the limit.
    """
    wanted = parse_kinds(kinds)
    shown = os.fspath(path)
    skipped = _over_limit(Path(path), shown, max_bytes)
    if skipped is not None:
        return skipped
    text, digest, error = _text_digest_error(Path(path))
    if error is not None or text is None or digest is None:
        return FileScan(shown, (), error, digest)
    disk = DiskCache(cache_dir) if cache_dir is not None else None
    result = _cached(text, shown, digest, disk)
    if isinstance(result, str):
        return FileScan(shown, (), result, digest)
    return _filter(FileScan(shown, result, None, digest), wanted)


def _scan_one(path: str, cache_dir: str | None, max_bytes: int | None = MAX_BYTES) -> FileScan:
    """:func:`scan_file` in the pool's shape (:data:`~automock.analysis.pool.ScanOne`)."""
    return scan_file(path, cache_dir=cache_dir, max_bytes=max_bytes)


def scan_paths(
    paths: Sequence[PathLike],
    *,
    kinds: Iterable[str] | str | None = None,
    excludes: Sequence[str] = (),
    jobs: int | Callable[[int], int] = 1,
    cache_dir: PathLike | None = None,
    max_bytes: int | None = MAX_BYTES,
) -> ScanResult:
    """Scan files and directories (recursively); a missing path raises :class:`InputError`.

    ``jobs`` is a worker count, or a function of the number of files found; files over
    ``max_bytes`` are skipped (:func:`scan_file`).
    """
    from functools import partial

    from automock.analysis.walk import discover

    wanted = parse_kinds(kinds)
    files = discover(paths, excludes=excludes)
    workers = jobs(len(files)) if callable(jobs) else jobs
    if workers > 1 and len(files) > 1:
        one = partial(_scan_one, max_bytes=max_bytes)
        scans = scan_many(files, one, jobs=workers, cache_dir=cache_dir)
    else:
        scans = [scan_file(f, cache_dir=cache_dir, max_bytes=max_bytes) for f in files]
    return ScanResult(tuple(_filter(s, wanted) for s in scans))


def _looks_like_path(text: str) -> bool:
    return "\n" not in text and text.strip() == text and text.endswith((".py", ".pyw", "/"))


def scan(
    source_or_path: PathLike | Sequence[PathLike],
    *,
    kinds: Iterable[str] | str | None = None,
    jobs: int = 1,
    excludes: Sequence[str] = (),
) -> ScanResult:
    """Scan source text, a file, a directory (recursively), or a list of paths.

    A ``str`` is a path if it names an existing file or directory; otherwise,
    or if it contains a newline, it is source text (a bare ``*.py`` name that
    does not exist raises :class:`InputError` instead, being more likely a
    typo than a program). Missing paths in a list raise :class:`InputError`.
    """
    wanted = parse_kinds(kinds)
    if isinstance(source_or_path, str) and ("\n" in source_or_path or not _exists(source_or_path)):
        if _looks_like_path(source_or_path):
            raise InputError(f"{source_or_path}: no such file or directory; check the path")
        return ScanResult((scan_source(source_or_path, kinds=wanted),))
    if isinstance(source_or_path, str | os.PathLike):
        return scan_paths([source_or_path], kinds=wanted, jobs=jobs, excludes=excludes)
    return scan_paths(list(source_or_path), kinds=wanted, jobs=jobs, excludes=excludes)


def _exists(text: str) -> bool:
    try:
        return os.path.exists(text)
    except (ValueError, OSError):  # NUL bytes, over-long names
        return False
