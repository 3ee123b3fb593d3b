"""SARIF 2.1.0 output for code-scanning UIs (GitHub, VS Code SARIF viewer).

One rule per touchpoint kind (``automock/time``, ...), one result per
touchpoint with a ``physicalLocation`` region (1-based lines and columns,
columns counted in Unicode code points), and one tool execution notification
per file that could not be scanned. Each result's ``partialFingerprints`` entry
is unique within its file (:func:`_fingerprints`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from automock._positions import column
from automock.analysis.model import KINDS, ScanResult, Touchpoint

__all__ = ["FINGERPRINT", "RULES", "SARIF_SCHEMA", "SARIF_VERSION", "to_sarif"]

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/automock/automock"
FINGERPRINT = "automockLocation/v2"  # kind:api:symbol:column:n (v1, api:symbol, was not unique)

RULES: dict[str, tuple[str, str]] = {
    "time": (
        "ReadsClock",
        "Code reads the clock or sleeps; freeze the clock to make it repeatable.",
    ),
    "random": (
        "DrawsRandomness",
        "Code draws randomness or OS entropy (random, numpy, uuid, secrets); seed it.",
    ),
    "network": (
        "UsesNetwork",
        "Code talks to the network; stub the requests or replay a cassette.",
    ),
    "database": ("UsesDatabase", "Code connects to a database; use an in-memory or fake one."),
    "environment": (
        "ReadsEnvironment",
        "Code depends on the process environment (variables, pid, locale, hash seed).",
    ),
    "process": (
        "StartsProcesses",
        "Code starts processes or threads whose scheduling order varies.",
    ),
    "filesystem": (
        "DependsOnFilesystemOrder",
        "Code depends on directory order, file timestamps or random temp names.",
    ),
}


def _uri(path: str) -> dict[str, str]:
    if path.startswith("<"):
        return {"uri": path.strip("<>") or "string"}
    candidate = Path(path)
    if candidate.is_absolute():
        return {"uri": candidate.as_uri()}
    return {"uri": Path(os.path.normpath(path)).as_posix(), "uriBaseId": "%SRCROOT%"}


def _region(tp: Touchpoint) -> dict[str, int]:
    return {
        "startLine": tp.line,
        "startColumn": column(tp.col),
        "endLine": tp.end_line,
        "endColumn": column(tp.end_col),
    }


def _fingerprints(touchpoints: tuple[Touchpoint, ...]) -> list[str]:
    """One fingerprint per result, unique within its file and stable when lines move.

    ``kind:api:symbol:column:n``, where ``n`` counts the earlier results of the same
    file with the same kind, api, symbol and column (the same call twice on
    different lines).
    """
    seen: dict[tuple[str, str, str, str, int], int] = {}
    out = []
    for tp in touchpoints:
        key = (tp.path, tp.kind, tp.api, tp.symbol, tp.col)
        index = seen.get(key, 0)
        seen[key] = index + 1
        out.append(f"{tp.kind}:{tp.api}:{tp.symbol}:{column(tp.col)}:{index}")
    return out


def _result(tp: Touchpoint, fingerprint: str) -> dict[str, Any]:
    return {
        "ruleId": f"automock/{tp.kind}",
        "ruleIndex": KINDS.index(tp.kind),
        "level": "note",
        "message": {"text": f"`{tp.symbol}` ({tp.api}) {tp.reason}"},
        "locations": [
            {"physicalLocation": {"artifactLocation": _uri(tp.path), "region": _region(tp)}}
        ],
        "partialFingerprints": {FINGERPRINT: fingerprint},
        "properties": {"kind": tp.kind, "api": tp.api, "symbol": tp.symbol},
    }


def to_sarif(result: ScanResult, *, version: str = "0") -> dict[str, Any]:
    """The SARIF 2.1.0 log for ``result`` as a JSON-ready dict."""
    rules = [
        {
            "id": f"automock/{kind}",
            "name": RULES[kind][0],
            "shortDescription": {"text": f"{kind} touchpoint"},
            "fullDescription": {"text": RULES[kind][1]},
            "defaultConfiguration": {"level": "note"},
            "properties": {"tags": ["nondeterminism", kind]},
        }
        for kind in KINDS
    ]
    notifications = [
        {
            "level": "error",
            "message": {"text": scan.error},
            "locations": [{"physicalLocation": {"artifactLocation": _uri(scan.path)}}],
        }
        for scan in result.errors
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "automock",
                        "version": version,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {
                        "executionSuccessful": not notifications,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": [
                    _result(tp, fingerprint)
                    for tp, fingerprint in zip(
                        result.touchpoints, _fingerprints(result.touchpoints), strict=True
                    )
                ],
            }
        ],
    }
