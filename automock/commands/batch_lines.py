"""The result lines of ``automock batch``: one final verdict per candidate, layers written once.

A candidate's top-level ``status`` is the verdict of everything that was asked of it: its
given tests and, with ``--amplify``, its agreement with the reference on generated inputs.
What each stage said on its own stays in that stage's field (``tests``, ``amplify``), so a
loop that reads ``status`` (as in every other mode) never accepts a candidate a later stage
rejected.

The isolation layers are the same for every candidate but for a few per-candidate details
(its own uid), so they are written once, in a first ``layers`` record; each candidate line
carries only the layers whose entry differs from it (``layers_differ``). docs/batch.md,
docs/json.md and ``automock/schemas/batch.schema.json`` describe the format.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from automock import _schemas as schemas

__all__ = ["candidate_line", "final_results", "layer_keys", "layers_line", "result_lines"]


def final_results(results: Sequence[Any], amplify: Sequence[Any] | None) -> list[Any]:
    """Each result with its ``status``/``detail`` replaced by the verdict over every stage.

    A candidate that failed its tests keeps that verdict; one that passed them but was
    refused on the generated inputs ends with the amplification's verdict (``failed``
    when it disagrees with the reference, or how its amplified run ended)."""
    if amplify is None:
        return list(results)
    final = []
    for result, amplified in zip(results, amplify, strict=True):
        if result.passed and not amplified.passed:
            detail = amplified.detail or amplified.status
            result = dataclasses.replace(
                result,
                status=amplified.status,
                detail=f"passed its given tests, refused on generated inputs: {detail}",
            )
        final.append(result)
    return final


def _layer_key(layer: dict[str, Any]) -> tuple[Any, ...]:
    return (layer.get("name"), layer.get("active"), layer.get("detail"))


def result_lines(
    results: Sequence[Any], finals: Sequence[Any], amplify: Sequence[Any] | None
) -> str:
    """The JSONL text: a ``layers`` record, then one ``candidate`` record per result."""
    rows = [r.to_dict() for r in results]
    common = rows[0]["layers"] if rows else []
    out = [layers_line(common)]
    known = layer_keys(common)
    for index, (row, final) in enumerate(zip(rows, finals, strict=True)):
        extra = amplify[index].to_dict() if amplify is not None else None
        out.append(candidate_line(row, final, known, extra))
    return "".join(out)


def layers_line(common: list[dict[str, Any]]) -> str:
    """The first record: the isolation layers every candidate had (``common``)."""
    return json.dumps({"schema": schemas.BATCH, "record": "layers", "layers": common}) + "\n"


def candidate_line(
    row: dict[str, Any],
    final: Any,
    known: set[tuple[Any, ...]],
    amplify: dict[str, Any] | None = None,
) -> str:
    """One candidate's record: its result ``row`` (``to_dict``), the final verdict ``final``,
    the layers not among ``known`` (the layers record's keys: :func:`layer_keys`)."""
    row = dict(row)
    layers = row.pop("layers")
    line: dict[str, Any] = {"schema": schemas.BATCH, "record": "candidate", **row}
    line["status"], line["detail"] = str(final.status), final.detail
    line["tests"] = {"status": row["status"], "detail": row["detail"]}
    line["layers_differ"] = [x for x in layers if _layer_key(x) not in known]
    if amplify is not None:
        line["amplify"] = amplify
    return json.dumps(line) + "\n"


def layer_keys(layers: Sequence[dict[str, Any]]) -> set[tuple[Any, ...]]:
    """What makes two layer entries the same (a candidate line lists only the others)."""
    return {_layer_key(layer) for layer in layers}
