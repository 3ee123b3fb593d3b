"""JSON serialisation shared by every result dataclass."""

from __future__ import annotations

import dataclasses
import enum
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["JsonMixin", "to_jsonable"]


def to_jsonable(value: Any) -> Any:
    """Convert dataclasses, enums, paths, tuples and datetimes to JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_dict = getattr(value, "to_dict", None)
        if callable(to_dict) and not _is_default_to_dict(value):
            return to_dict()
        return {
            f.name: to_jsonable(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not f.metadata.get("exclude_json", False)
        }
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    # a value can only be a path or a date if its module was imported: this module does not
    # import them (a batch zygote that never needs them stays smaller, and so do its forks)
    pathlib = sys.modules.get("pathlib")
    if pathlib is not None and isinstance(value, pathlib.PurePath):
        return str(value)
    datetime = sys.modules.get("datetime")
    if datetime is not None and isinstance(value, datetime.date):  # datetime is a date
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, set | frozenset) else items
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def _is_default_to_dict(value: Any) -> bool:
    return type(value).to_dict is JsonMixin.to_dict


class JsonMixin:
    """Adds ``to_dict`` and ``to_json`` to a (frozen) dataclass."""

    def to_dict(self) -> dict[str, Any]:
        result = to_jsonable(self)
        assert isinstance(result, dict)
        return result

    def to_json(self, *, indent: int | None = 2) -> str:
        import json

        # a value JSON has no form for (a user's object in a counterexample) is shown as its repr
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False, default=repr)
