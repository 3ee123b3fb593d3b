"""vcrpy cassettes: replay recorded traffic, or record it when a person chose to.

``record_mode="none"`` replays only: a request missing from the cassette
fails closed (the HTTP patches turn vcrpy's error into
:class:`~automock.errors.UnmockedAccessError`). The other modes (``once``,
``new_episodes``, ``all``) reach the real network and write the cassette;
they are only used when chosen explicitly (``automock run --record``). A replay
whose cassette file is missing is refused when the block starts, naming the file.
"""

from __future__ import annotations

from pathlib import Path

from automock.errors import MissingExtraError, PlanError
from automock.plan.model import RECORD_MODES, CassetteSettings
from automock.runtime._base import Undo

__all__ = ["check_cassette", "enter_cassette"]


def check_cassette(path: str, *, shown: str | None = None) -> None:
    """vcrpy is installed, and a cassette file at ``path`` is one (named ``shown`` in errors).

    A corrupt cassette is named in one line (and left alone), not a YAML traceback; a
    missing file passes (vcrpy replays nothing, failing closed, or records it).
    """
    try:
        import vcr  # noqa: F401
    except ImportError as exc:  # vcrpy is the `cassettes` extra
        raise MissingExtraError("vcrpy", "cassettes", "replaying an HTTP cassette") from exc
    import yaml  # type: ignore[import-untyped]  # (PyYAML comes with vcrpy)

    name = shown or path
    file = Path(path)
    if not file.is_file():
        return
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PlanError(
            f"cassette {name}: not a readable cassette ({reason}); "
            "fix it or record it again with: automock run --record"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("interactions"), list):
        raise PlanError(
            f"cassette {name}: not a vcrpy cassette (expected a mapping with an 'interactions' "
            "list); fix it or record it again with: automock run --record"
        )


def enter_cassette(undo: Undo, settings: CassetteSettings) -> None:
    """Enter a vcrpy cassette for the block; ``undo`` leaves it (and saves recordings)."""
    if settings.record_mode not in RECORD_MODES:
        raise ValueError(
            f"cassette.record_mode: expected one of {', '.join(RECORD_MODES)}, "
            f"got {settings.record_mode!r}"
        )
    check_cassette(settings.path)
    if settings.record_mode == "none" and not Path(settings.path).is_file():
        raise PlanError(
            f"cassette {settings.path} not found (record it with: automock run FILE --record, "
            'or give the plan\'s cassette "record_mode": "once" for one run)'
        )
    import vcr

    if settings.record_mode != "none":
        Path(settings.path).parent.mkdir(parents=True, exist_ok=True)
    recorder = vcr.VCR(record_mode=settings.record_mode, decode_compressed_response=True)
    # a program may fetch the same URL several times; replay it each time
    context = recorder.use_cassette(settings.path, allow_playback_repeats=True)
    context.__enter__()
    undo.push(lambda: context.__exit__(None, None, None))
