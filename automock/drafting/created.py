"""What a POST that creates answers: one record, with ``201 Created``.

A POST to a collection (``POST /posts``) creates one member of it: when its body is read
only whole and a well-known API's catalog gives the collection's list for that path, the
drafted body is the list's first record, not the list. The status is 201, as creating
APIs answer, unless the program compares a status with 200 (``if r.status_code == 200:``),
which would then skip its data.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from automock.drafting._source import Module

if TYPE_CHECKING:
    from automock.drafting.shapes import HttpShape

__all__ = ["created"]


def _collection(url: str) -> bool:
    last = [s for s in urlsplit(url).path.split("/") if s][-1:] or [""]
    return last[0].isalpha() and last[0].endswith("s") and len(last[0]) > 3


def _wants_200(module: Module) -> bool:
    """Whether the program compares a value with the literal 200."""
    return any(
        isinstance(node, ast.Compare)
        and any(
            isinstance(side, ast.Constant) and side.value == 200
            for side in (node.left, *node.comparators)
        )
        for node in ast.walk(module.tree)
    )


def created(shape: HttpShape, module: Module) -> HttpShape:
    """``shape`` answered as a creating POST: one record, 201 (else ``shape`` itself)."""
    body = shape.json
    whole = shape.known and "/json" in shape.guessed  # the catalog's body, read only whole
    if shape.method != "POST" or not whole or not _collection(shape.url):
        return shape
    if not isinstance(body, list) or not body or not isinstance(body[0], dict):
        return shape
    return replace(shape, json=body[0], status=200 if _wants_200(module) else 201)
