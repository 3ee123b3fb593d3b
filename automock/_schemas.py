"""The version tag each JSON output of automock carries in its ``"schema"`` field.

A consumer checks the tag before reading the fields: the number after ``/`` changes
when a field is removed or changes meaning (adding a field keeps it). The JSON
Schemas of the run and check reports ship in ``automock/schemas/`` (docs/json.md).
"""

from __future__ import annotations

__all__ = ["BATCH", "BATCH_SUMMARY", "CHECK", "RUN", "SCAN", "schema_file"]

RUN = "automock.run/1"  # `automock run --json`
CHECK = "automock.check/1"  # `automock check --json`
SCAN = "automock.scan/1"  # `automock scan --json`
BATCH = "automock.batch/2"  # each line of `automock batch` results
BATCH_SUMMARY = "automock.batch-summary/1"  # `automock batch --summary OUT`


def schema_file(tag: str) -> str:
    """The file name of ``tag``'s JSON Schema in ``automock/schemas/`` (``run.schema.json``)."""
    return tag.removeprefix("automock.").split("/", 1)[0] + ".schema.json"
