"""``/proc/<pid>/mountinfo`` read as rows, and which of them a path lookup can reach.

One home for the format: the cgroup finder, the read-only view and the parent's
observation of the filesystem layer all read it through here.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["mounts", "reachable", "unescape"]

_ESCAPED = re.compile(r"\\([0-7]{3})")  # an octal escape (space, tab, newline, backslash)


def unescape(text: str) -> str:
    """A mountinfo field with its octal escapes decoded."""
    return _ESCAPED.sub(lambda m: chr(int(m[1], 8)), text)


def mounts(pid: int | str) -> list[dict[str, Any]]:
    """``mountinfo`` rows of process ``pid`` ("self" for ours): id, parent, dev, root,
    point, options, fstype, super (the superblock options). Unreadable: no rows."""
    try:
        with open(f"/proc/{pid}/mountinfo", encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return []
    rows = []
    for line in text.splitlines():
        fields = line.split()
        try:
            dash = fields.index("-", 6)
            rows.append(
                {
                    "id": fields[0],
                    "parent": fields[1],
                    "dev": fields[2],
                    "root": unescape(fields[3]),
                    "point": unescape(fields[4]),
                    "options": set(fields[5].split(",")),
                    "fstype": fields[dash + 1],
                    "super": set(fields[dash + 3].split(",")) if len(fields) > dash + 3 else set(),
                }
            )
        except (ValueError, IndexError):
            continue
    return rows


def reachable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The mounts a path lookup can reach, found as the kernel walks a path: from the root
    mount, at each prefix of the point, into the topmost mount attached there to the mount
    the walk is in. A mount under a directory that a later mount covers (another run's
    workdir under the private ``/tmp``) is not reached."""
    children: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:  # mountinfo lists a stack bottom first: the last one attached wins
        children[(row["parent"], row["point"])] = row
    ids = {r["id"] for r in rows}
    roots = [r for r in rows if r["parent"] not in ids or r["parent"] == r["id"]]

    def top(mount: dict[str, Any], point: str) -> dict[str, Any]:
        for _ in range(64):  # a stack of mounts on one point
            above = children.get((mount["id"], point))
            if above is None or above is mount:
                break
            mount = above
        return mount

    def lands(point: str) -> dict[str, Any] | None:
        if not roots:
            return None
        mount = top(roots[-1], "/")
        prefix = ""
        for part in [p for p in point.split("/") if p]:
            prefix += "/" + part
            mount = top(mount, prefix)
        return mount

    return [r for r in rows if lands(r["point"]) is r]
