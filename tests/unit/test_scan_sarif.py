"""SARIF 2.1.0 output validated against the key parts of the official schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from automock.analysis.model import KINDS
from automock.analysis.sarif import to_sarif
from automock.analysis.scanner import scan_paths, scan_source

_MESSAGE = {
    "type": "object",
    "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
    "properties": {"text": {"type": "string"}},
}
_REGION = {
    "type": "object",
    "properties": {
        k: {"type": "integer", "minimum": 1}
        for k in ("startLine", "startColumn", "endLine", "endColumn")
    },
}
_PHYSICAL = {
    "type": "object",
    "required": ["artifactLocation"],
    "properties": {
        "artifactLocation": {
            "type": "object",
            "required": ["uri"],
            "properties": {"uri": {"type": "string", "format": "uri-reference"}},
        },
        "region": _REGION,
    },
}
_LOCATION = {"type": "object", "properties": {"physicalLocation": _PHYSICAL}}
# A subset of https://json.schemastore.org/sarif-2.1.0.json: required fields,
# enums and types of everything automock emits.
SARIF_SUBSET: dict[str, Any] = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"enum": ["2.1.0"]},
        "runs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["tool"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id"],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "shortDescription": _MESSAGE,
                                                "fullDescription": _MESSAGE,
                                                "defaultConfiguration": {
                                                    "type": "object",
                                                    "properties": {
                                                        "level": {
                                                            "enum": [
                                                                "none",
                                                                "note",
                                                                "warning",
                                                                "error",
                                                            ]
                                                        }
                                                    },
                                                },
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                    "invocations": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["executionSuccessful"],
                            "properties": {
                                "executionSuccessful": {"type": "boolean"},
                                "toolExecutionNotifications": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": ["message"],
                                        "properties": {
                                            "message": _MESSAGE,
                                            "level": {"enum": ["none", "note", "warning", "error"]},
                                            "locations": {"type": "array", "items": _LOCATION},
                                        },
                                    },
                                },
                            },
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": -1},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": _MESSAGE,
                                "locations": {"type": "array", "items": _LOCATION},
                                "partialFingerprints": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string"},
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def _validate(log: dict[str, Any]) -> None:
    jsonschema.validate(log, SARIF_SUBSET, format_checker=jsonschema.FormatChecker())


def test_sarif_log_is_valid_and_maps_touchpoints(tmp_path: Path) -> None:
    path = tmp_path / "prog.py"
    path.write_text("import time, requests\n\nstamp = time.time()\nrequests.get(url)\n")
    (tmp_path / "bad.py").write_text("def (\n")
    result = scan_paths([tmp_path])
    log = to_sarif(result, version="1.2.3")
    _validate(log)
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [f"automock/{k}" for k in KINDS]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["automock/time", "automock/network"]
    for res in results:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 3, "startColumn": 9, "endLine": 3, "endColumn": 20}
    uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file://") and uri.endswith("/prog.py")
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert "bad.py" in note["message"]["text"]


def test_relative_paths_use_a_uri_base(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    log = to_sarif(scan_paths(["examples/raffle.py"]))  # repository-relative, as CI runs it
    _validate(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "examples/raffle.py", "uriBaseId": "%SRCROOT%"}


@pytest.mark.parametrize("source", ["", "x = 1\n", "import random\nrandom.random()\n"])
def test_sarif_for_source_text_is_valid(source: str) -> None:
    from automock.analysis.model import ScanResult

    _validate(to_sarif(ScanResult((scan_source(source),))))


def _fingerprints(capsys: pytest.CaptureFixture[str], *paths: Path) -> dict[str, list[str]]:
    import json

    from automock.cli import main

    assert main(["scan", "--sarif", *map(str, paths)]) == 0
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    by_file: dict[str, list[str]] = {}
    for res in run["results"]:
        uri = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        by_file.setdefault(uri, []).extend(res["partialFingerprints"].values())
    return by_file


def test_fingerprints_are_unique_within_a_file_and_survive_moved_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (
        "import random, time\n"
        "a = random.random()\n"
        "b = random.random()\n"  # the same call at the same column on another line
        "c = random.random() + random.random()\n"  # twice on one line
        "d = time.time()\n"
    )
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text(source)
    second.write_text(source)
    found = _fingerprints(capsys, first, second)
    assert len(found) == 2
    for prints in found.values():
        assert len(prints) == 5 and len(set(prints)) == 5
    before = found[first.as_uri()]
    first.write_text("# a new first line\n\n" + source)
    assert _fingerprints(capsys, first)[first.as_uri()] == before
